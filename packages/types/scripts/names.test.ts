// The package's named exports come from the spec: a callback added to a scratch copy of the real
// descriptions is exported, with its event type in the `CallbackEvent` union, by src/index.ts as it is,
// checked by TypeScript; and which schemas get a name of their own.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { generateAll, generatedDir } from './generate.mjs';
// @ts-expect-error -- a plain ESM script without type declarations
import { callbackEvents, exportedSchemas } from './names.mjs';

const require = createRequire(import.meta.url);
const bundles = dirname(require.resolve('@idv-toolkit/openapi/current.json'));
const indexFile = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'idv-names-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The real bundles with two callbacks more: one whose body is a named schema, one written inline. */
function scratchBundles(): string {
  const dir = mkdtempSync(join(tmp, 'bundles-'));
  cpSync(bundles, dir, { recursive: true, filter: (source) => !source.endsWith('.yaml') });
  const current = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
  const body = (schema: object) => ({ post: { requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { '200': { description: 'Received' } } } });
  current.components.schemas.DocumentExpiredEvent = {
    type: 'object',
    required: ['type', 'sessionId'],
    properties: { type: { const: 'document-expired' }, sessionId: { type: 'string' } },
  };
  current.webhooks['document-expired'] = body({ $ref: '#/components/schemas/DocumentExpiredEvent' });
  current.webhooks['watchlist-hit'] = body({ type: 'object', required: ['type', 'name'], properties: { type: { const: 'watchlist-hit' }, name: { type: 'string' } } });
  writeFileSync(join(dir, 'current.json'), JSON.stringify(current));
  return dir;
}

/** TypeScript's errors for `consumer` importing a package made of src/index.ts and the generated `files`. */
function typeErrors(files: Map<string, string>, consumer: string): string[] {
  const dir = mkdtempSync(join(tmp, 'package-'));
  mkdirSync(join(dir, 'generated'));
  for (const [name, content] of files) writeFileSync(join(dir, 'generated', name), content);
  cpSync(indexFile, join(dir, 'index.ts'));
  writeFileSync(join(dir, 'consumer.ts'), consumer);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  const program = ts.createProgram([join(dir, 'consumer.ts')], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    verbatimModuleSyntax: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a callback added to the spec', () => {
  it('is exported by name, with its event type in CallbackEvent and its name in CallbackType, with no hand edit', async () => {
    const files: Map<string, string> = await generateAll({ bundleDir: scratchBundles() });
    const consumer = `
import type { CallbackEvent, CallbackType, DocumentExpiredEvent, WatchlistHitEvent, SessionChangeEvent } from './index.js';
const expired: DocumentExpiredEvent = { type: 'document-expired', sessionId: 's-1' };
const hit: WatchlistHitEvent = { type: 'watchlist-hit', name: 'A Name' };
const events: CallbackEvent[] = [expired, hit];
const types: CallbackType[] = ['document-expired', 'watchlist-hit', 'session-change'];
function narrow(event: CallbackEvent): string | undefined {
  if (event.type === 'document-expired') return event.sessionId;
  if (event.type === 'watchlist-hit') return event.name;
  return undefined;
}
const change: SessionChangeEvent | undefined = undefined;
export { events, types, narrow, change };
`;
    expect(typeErrors(files, consumer)).toEqual([]);
    // The same consumer against the generated files of the spec as it is: TypeScript sees the callbacks missing.
    const before = new Map(readdirSync(generatedDir).map((name) => [name, readFileSync(join(generatedDir, name), 'utf8')]));
    expect(typeErrors(before, consumer).join('\n')).toMatch(/has no exported member 'DocumentExpiredEvent'/);
  }, 60_000);
});

describe('the schemas exported by name', () => {
  const schemas = (names: string[]) => ({ components: { schemas: Object.fromEntries(names.map((name) => [name, { type: 'object' }])) } });

  it('are every schema but the request, response and error bodies of single operations; the current interface wins a shared name', () => {
    const exported = exportedSchemas({
      current: schemas(['Group', 'AddGroupRequest', 'AddGroupResponse', 'AddGroupError', 'SessionId']),
      legacy: schemas(['SessionId', 'KycSessionResult', 'LegacyBeginRequest']),
      sandbox: schemas(['SandboxThing']),
    });
    expect(Object.fromEntries(exported)).toEqual({ current: ['Group', 'SessionId'], legacy: ['KycSessionResult'] });
  });

  it('name a callback by the schema its body refers to, else after the callback', () => {
    const document = {
      webhooks: {
        'session-change': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/SessionChangeEvent' } } } } } },
        'video-call-status-update': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
    };
    expect(callbackEvents(document, ['SessionChangeEvent'])).toEqual([
      { callback: 'session-change', type: 'SessionChangeEvent', inline: false },
      { callback: 'video-call-status-update', type: 'VideoCallStatusUpdateEvent', inline: true },
    ]);
  });
});
