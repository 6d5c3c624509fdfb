// The type check of every package. The build (scripts/compile.mjs) only strips types, so this is where
// type errors are caught: tsconfig.build.json checks the published sources as they ship (with only the
// type libraries each package may use, and isolatedDeclarations, which the build's declaration output
// relies on); tsconfig.json checks the sources with their tests and helpers.
//
// One TypeScript in this process checks every configuration as `tsc -p <config> --noEmit` would (the same
// diagnostics: syntax, options, semantics, and declarations where the config emits them), and the
// programs share the files they have in common (the DOM and ES libraries, @types/node, vitest's types,
// the packages' own sources), parsed and bound once: about 40 % less CPU than eight tsc processes. Sharing
// a file between programs is what TypeScript's language service does for the projects of an editor; the
// key below holds everything the parsed file depends on.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = readdirSync(`${root}packages`).filter((name) => existsSync(`${root}packages/${name}/tsconfig.json`));

const parsedFiles = new Map<string, ts.SourceFile>();
// The test process runs other files afterwards (isolate: false): give back the half gigabyte.
afterAll(() => parsedFiles.clear());

/** What `tsc -p <config> --noEmit` would print, formatted as tsc does; '' when the config has no type error. */
function typeErrors(config: string): string {
  const host = ts.createCompilerHost({});
  const configErrors: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(config, { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (!parsed) return ts.formatDiagnostics(configErrors, host);
  const programHost = ts.createCompilerHost(parsed.options);
  const parse = programHost.getSourceFile;
  programHost.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const { languageVersion, impliedNodeFormat, jsDocParsingMode } =
      typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions, impliedNodeFormat: undefined, jsDocParsingMode: undefined };
    const key = `${fileName}\0${languageVersion}\0${impliedNodeFormat}\0${jsDocParsingMode}`;
    let file = parsedFiles.get(key);
    if (!file) {
      file = parse(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (file) parsedFiles.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: programHost,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  return ts.formatDiagnostics([...configErrors, ...ts.getPreEmitDiagnostics(program)], programHost);
}

describe('type-checking', () => {
  it('covers the TypeScript packages', () => {
    expect(packages).toEqual(expect.arrayContaining(['types', 'client', 'sandbox']));
  });

  const configs = packages.flatMap((name) => ['tsconfig.build.json', 'tsconfig.json'].map((config) => `packages/${name}/${config}`));
  it.each(configs.filter((config) => existsSync(`${root}${config}`)))('%s has no type error', (config) => {
    expect(typeErrors(`${root}${config}`)).toBe('');
  }, 180_000);
});
