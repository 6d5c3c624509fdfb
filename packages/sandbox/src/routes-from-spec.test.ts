// What the sandbox reads from the bundled descriptions for each operation (spec.ts), pinned on operations
// whose answers a caller sees: the path (with its parameters), the body's media type, the key and codes of
// its 400 answer, its documented 200 example (what an operation without a handler answers), which fields
// are files (the larger body limit, read without decoding) or JSON text (checked against their own schema);
// and the routes read again once a bundle is rewritten (npm run dev), kept while it is not.
import { statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildRoutes, loadDocument, readRoutes, type Route } from './spec.js';

// Read in each test (not once as the file loads): what a test checks is what it read itself.
const read = () => readRoutes();
const route = (operationId: string): Route => read().find((r) => r.operationId === operationId)!;

describe('a route of the descriptions', () => {
  it('is one per operation of the three descriptions, each with its API, method and path', () => {
    const routes = read();
    const byApi = (api: string) => routes.filter((r) => r.api === api).length;
    expect([byApi('current'), byApi('legacy'), byApi('sandbox')]).toEqual(
      (['current', 'legacy', 'sandbox'] as const).map((api) => Object.values(loadDocument(api).paths).filter((item) => item.post).length),
    );
    expect(route('addBlacklistRecord')).toMatchObject({ api: 'current', method: 'POST', path: '/add-blacklist-record', body: 'json' });
    expect(route('legacyBegin')).toMatchObject({ api: 'legacy', method: 'POST', path: '/external-api/begin/', body: 'multipart' });
    expect(route('sandboxReset')).toMatchObject({ api: 'sandbox', path: '/sandbox/reset', body: 'json' });
  });

  it('matches its path exactly, a path parameter as one segment', () => {
    const registry = route('checkInRegistry');
    expect(registry.path).toBe('/check-in-{registry}');
    expect(registry.match.exec('/check-in-police')?.groups).toEqual({ registry: 'police' });
    for (const other of ['/check-in-', '/check-in-a/b', '/x/check-in-a', '/check-in-a/']) expect(registry.match.test(other), other).toBe(false);
    const begin = route('legacyBegin').match;
    expect([begin.test('/external-api/begin/'), begin.test('/external-api/begin'), begin.test('/external-api/begin/x'), begin.test('x/external-api/begin/')]).toEqual([true, false, false, false]);
  });

  it('answers 400 with the key and the codes the operation documents', () => {
    expect(route('addBlacklistRecord')).toMatchObject({ errorKey: 'argumentError', codes: ['wrong-parameters', 'invalid-company-key', 'already-exists'] });
    expect(route('getTrustedDatabaseRecord')).toMatchObject({ errorKey: 'error', codes: ['wrong-parameters', 'no-trusted-database-sources'] });
    expect(route('checkInRegistry')).toMatchObject({ errorKey: 'error', codes: ['wrong-parameters'] });
    expect(route('getResult').codes).toEqual(['session-not-found']);
  });

  it('carries the documented example of its 200 answer', () => {
    expect(route('addBlacklistRecord').example).toEqual({ result: '64f0c1d2e3a4b5c6d7e8f901' });
    for (const r of read()) {
      const media = (loadDocument(r.api).paths[r.path]!.post.responses['200'] as any)?.content?.['application/json'];
      if (media?.example !== undefined) expect(r.example, r.operationId).toEqual(media.example);
      else if (media?.examples) expect(r.example, r.operationId).toEqual((Object.values(media.examples)[0] as any).value);
    }
  });

  it('knows which fields are files and which are JSON text, and takes uploads only where there are files', () => {
    const fields = (r: Route) => ({ uploads: r.uploads, fileFields: r.fileFields, bigFields: [...r.bigFields].sort(), jsonText: r.jsonTextFields.map((f) => f.name) });
    expect(fields(route('compareFaces'))).toEqual({ uploads: true, fileFields: ['face1', 'face2'], bigFields: ['face1', 'face2'], jsonText: [] });
    // A data URI (pattern ^data:) and base64 text (contentEncoding) are files too, though not binary parts.
    expect(fields(route('uploadFile'))).toEqual({ uploads: true, fileFields: [], bigFields: ['content'], jsonText: [] });
    expect(fields(route('checkSpoofing'))).toEqual({ uploads: true, fileFields: [], bigFields: ['file'], jsonText: [] });
    expect(fields(route('legacyExtractPassport'))).toEqual({ uploads: true, fileFields: ['image'], bigFields: ['image'], jsonText: [] });
    expect(fields(route('legacyBegin'))).toEqual({ uploads: false, fileFields: [], bigFields: ['flags', 'general', 'steps'], jsonText: ['flags', 'steps', 'general'] });
    expect(fields(route('addBlacklistRecord'))).toEqual({ uploads: false, fileFields: [], bigFields: [], jsonText: [] });
  });

  it('checks a JSON text field\'s content against its own schema', () => {
    const steps = route('legacyBegin').jsonTextFields.find((f) => f.name === 'steps')!;
    expect(steps.validate('not an array of steps')).toBe(false);
    expect(steps.validate.errors?.length).toBeGreaterThan(0);
    expect(steps.validate([])).toBe(true);
  });

  it('refuses a number given as text, and reports every problem of a body, not only the first', () => {
    const list = route('listBlacklistRecords');
    expect(list.validate({ companyKey: 'ck_test_x', query: { offset: 0, limit: 20 } })).toBe(true);
    const given = { companyKey: 'ck_test_x', query: { offset: '0', limit: '20' } };
    expect(list.validate(given)).toBe(false);
    // Not converted in place either: the body stays as the caller sent it.
    expect(given.query).toEqual({ offset: '0', limit: '20' });
    expect(list.validate.errors?.map((error) => error.instancePath).sort()).toEqual(['/query/limit', '/query/offset']);
  });

  it('checks a body that carries a file against its schema', () => {
    const spoofing = route('checkSpoofing');
    expect(spoofing.validate({ companyKey: 'ck_test_x', file: 'AAAA' })).toBe(true);
    expect(spoofing.validate({ companyKey: 'ck_test_x', file: '' })).toBe(false);
    expect(spoofing.validate.errors?.[0]?.instancePath).toBe('/file');
  });
});

describe('the routes of the running sandbox', () => {
  it('are read again once a bundle is rewritten, and kept while none is', () => {
    const first = buildRoutes();
    const again = buildRoutes();
    expect(again).not.toBe(first);
    expect(again[0]).toBe(first[0]);
    // The bundle's modification time moved, as a rewrite moves it: the routes are read afresh.
    const file = createRequire(import.meta.url).resolve('@idv-toolkit/openapi/sandbox.json');
    const { atime, mtime } = statSync(file);
    try {
      utimesSync(file, atime, new Date(mtime.getTime() + 1000));
      const rebuilt = buildRoutes();
      expect(rebuilt[0]).not.toBe(first[0]);
      expect(rebuilt.map((r) => r.operationId)).toEqual(first.map((r) => r.operationId));
      expect(buildRoutes()[0]).toBe(rebuilt[0]);
    } finally {
      utimesSync(file, atime, mtime);
    }
  });
});
