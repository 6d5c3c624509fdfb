// An object type that refuses every key (`Record<string, never>`) is right only for the bodies the
// reference calls empty. Open objects (session flags, an activity's data) must take any key, so that
// `flags: { skipIntro: true }` compiles. Checked on a fresh generation and by compiling a use of them.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { generateAll } from './generate.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The reference's empty bodies: end-video-call, change-group, delete-user ("empty object") and delete-group (`{result: {}}`). */
const emptyByReference = ['current.ts ChangeGroupResponse', 'current.ts DeleteGroupResponse.result', 'current.ts DeleteUserResponse', 'current.ts EndVideoCallResponse'];

/** Each `Record<string, never>` member of a generated file, named by its schema (and property). */
function closedObjects(file: string, source: string): string[] {
  const found: string[] = [];
  let schema = '';
  for (const line of source.split('\n')) {
    const member = /^( +)("?[\w$-]+"?)\??: /.exec(line);
    if (member?.[1]!.length === 8) schema = member[2]!;
    if (!member || !line.includes(': Record<string, never>;')) continue;
    found.push(member[1]!.length === 8 ? `${file} ${member[2]}` : `${file} ${schema}.${member[2]}`);
  }
  return found;
}

describe('the generated object types', () => {
  it('refuse every key only where the reference says the body is empty', async () => {
    const files: Map<string, string> = await generateAll();
    const closed = [...files].filter(([name]) => !name.includes('-')).flatMap(([name, source]) => closedObjects(name, source));
    expect(closed.sort()).toEqual(emptyByReference);
  });

  it('are told apart: a closed member is named by its schema', () => {
    const source = ['export interface components {', '    schemas: {', '        Flags: Record<string, never>;', '        Activity: {', '            data?: Record<string, never>;', '        };'].join('\n');
    expect(closedObjects('x.ts', source)).toEqual(['x.ts Flags', 'x.ts Activity.data']);
  });

  it('take any key in session flags and in an activity data object', () => {
    const file = join(packageDir, 'scripts', '__open-objects-use.ts');
    const text = [
      "import type { SessionActivity, SessionFlags, KycSessionResult } from '../src/index.js';",
      'export const flags: SessionFlags = { skipIntro: true };',
      "export const data: NonNullable<SessionActivity['data']> = { status: 'done' };",
      "export const suggested: NonNullable<KycSessionResult['suggested']> = { name: 'x' };",
    ].join('\n');
    const options: ts.CompilerOptions = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (name) => name === file || fileExists.call(host, name);
    host.readFile = (name) => (name === file ? text : readFile.call(host, name));
    host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, text, language) : getSourceFile.call(host, name, language, ...rest));
    const program = ts.createProgram([file], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
