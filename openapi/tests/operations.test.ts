import { describe, expect, it } from 'vitest';
import { apiNames, bundleAll, operationsOf, type OpenApiDocument, type Schema } from './bundles.js';
import { createDocumentValidator, resolve } from './validator.js';

const documents = await bundleAll();

const currentPaths = [
  'begin', 'result', 'delete-session', 'export-session-as-pdf', 'get-session-main-document-face-photo',
  'list-session-activities', 'get-session-statistical-summary', 'get-visual-markers', 'get-session-config',
  'search-screening-person', 'get-screening-person-details', 'monitor-screening-query',
  'remove-screening-query-from-monitoring', 'list-screening-monitoring-records', 'get-screening-delta-records',
  'add-blacklist-record', 'remove-blacklist-record', 'list-blacklist-records', 'get-video-call-shots',
  'get-video-call-videos', 'end-video-call', 'get-question-file', 'upload-file', 'get-file', 'delete-file',
  'list-groups', 'make-group', 'change-group', 'delete-group', 'list-users', 'create-user', 'delete-user',
  'compare-faces', 'check-spoofing', 'get-trusted-database-record', 'check-in-{registry}',
].map((p) => `/${p}`);
const legacyPaths = [
  'begin', 'result', 'delete', 'result/card-front', 'result/card-back', 'result/passport', 'result/face',
  'result/face-video', 'result/face-document', 'result/general-document', 'card/front', 'card/back',
  'license/front', 'license/back', 'residence/front', 'residence/back', 'passport',
].map((p) => `/external-api/${p}/`);
const webhookNames = [
  'one-time-password-request', 'share-session-link-via-sms', 'share-session-link-via-email',
  'email-one-time-password-request', 'session-change', 'video-call-status-update',
];
const sandboxPaths = ['complete-session', 'request-additional-information', 'reset', 'callbacks', 'set-video-call-status', 'change-watchlist-entry', 'raise-event',
  // the console's operations: everything it shows or does goes through one of these
  'list-requests', 'get-request', 'list-sessions', 'get-session', 'expire-session', 'resend-callback', 'get-callback-delivery',
  'set-callback-delivery', 'list-rate-limit', 'unblock-address'].map((p) => `/sandbox/${p}`);
const companyKeyField = { current: 'companyKey', legacy: 'company_key', sandbox: 'companyKey' } as const;
const serverVariable = { current: 'base_url', legacy: 'legacy_base_url', sandbox: 'sandbox_url' } as const;
const errorKeys = ['argumentError', 'error', 'internalError'];

function camelCase(path: string): string {
  return path.replace(/^\//, '').replace(/[{}]/g, '').replace(/[-/](\w)/g, (_m, c: string) => c.toUpperCase());
}

// The fixed values a string schema allows: its enum or const, and those of its anyOf/oneOf branches
// (a templated code such as `no-<registry>-source` is a pattern and has none).
function constantsOf(document: OpenApiDocument, schema: Schema | undefined): string[] {
  const resolved = resolve(document, schema);
  if (!resolved) return [];
  const own = Array.isArray(resolved.enum) ? (resolved.enum as string[]) : typeof resolved.const === 'string' ? [resolved.const] : [];
  const branches = [...((resolved.anyOf as Schema[]) ?? []), ...((resolved.oneOf as Schema[]) ?? [])];
  return [...own, ...branches.flatMap((branch) => constantsOf(document, branch))];
}

function errorCodesOf(document: OpenApiDocument, schema: Schema | undefined): string[] {
  const resolved = resolve(document, schema);
  if (!resolved) return [];
  const codes: string[] = [];
  const properties = (resolved.properties ?? {}) as Record<string, Schema>;
  for (const key of errorKeys) {
    codes.push(...constantsOf(document, properties[key]));
  }
  for (const combinator of ['oneOf', 'anyOf', 'allOf']) {
    for (const branch of (resolved[combinator] as Schema[] | undefined) ?? []) codes.push(...errorCodesOf(document, branch));
  }
  return codes;
}

const all = apiNames.flatMap((name) => operationsOf(name, documents[name]));

describe('both descriptions', () => {
  it.each(apiNames)('%s is OpenAPI 3.1.0, version 1.0.0, with its base URL as a server variable', (name) => {
    const document = documents[name];
    const variable = serverVariable[name];
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers?.[0]?.url).toBe(`{${variable}}`);
    expect(document.servers?.[0]?.variables?.[variable]?.default).toMatch(/^https?:\/\//);
    expect(document.info.description).toMatch(/company key travels in the body/i);
  });

  it('have exactly the paths and callbacks of the reference', () => {
    expect(Object.keys(documents.current.paths).sort()).toEqual([...currentPaths].sort());
    expect(Object.keys(documents.legacy.paths).sort()).toEqual([...legacyPaths].sort());
    expect(Object.keys(documents.sandbox.paths).sort()).toEqual([...sandboxPaths].sort());
    expect(Object.keys(documents.current.webhooks ?? {}).sort()).toEqual([...webhookNames].sort());
    expect(documents.legacy.webhooks ?? {}).toEqual({});
  });

  it('give every operation a unique camelCase operationId that reads as its path', () => {
    const ids = all.map((e) => e.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { api, kind, key, operation } of all) {
      const id = operation.operationId ?? '';
      expect(id, key).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      if (api === 'legacy') expect(id, key).toMatch(/^legacy[A-Z]/);
      else if (api === 'sandbox') expect(id, key).toMatch(/^sandbox[A-Z]/);
      else if (kind === 'webhook') expect(id, key).toBe(camelCase(key));
      else if (key === '/result') expect(id).toBe('getResult');
      else expect(id, key).toBe(camelCase(key));
    }
  });

  it('use POST only, the sandbox control API included', () => {
    for (const { key, method } of all) expect(method, key).toBe('post');
  });

  it.each(apiNames)('%s: every operation has one declared tag, a summary and x-idempotent', (name) => {
    const declared = new Map((documents[name].tags ?? []).map((t) => [t.name, t.description]));
    const used = new Set<string>();
    for (const { key, operation } of operationsOf(name, documents[name])) {
      expect(operation.tags, key).toHaveLength(1);
      const tag = operation.tags![0]!;
      expect(declared.has(tag), `${key} tag ${tag}`).toBe(true);
      used.add(tag);
      expect(operation.summary, key).toMatch(/^[A-Z][^.]*[^.]$/);
      expect(typeof operation['x-idempotent'], key).toBe('boolean');
    }
    for (const [tag, description] of declared) {
      expect(description, tag).toBeTruthy();
      expect(used.has(tag), `tag ${tag} is used`).toBe(true);
    }
  });

  it('give every operation a 200 with at least one example', () => {
    for (const { key, operation } of all) {
      const ok = operation.responses['200'];
      expect(ok, key).toBeDefined();
      if (!ok?.content) continue; // a webhook receiver's answer has no documented body
      const counted = Object.values(ok.content).map((m) => Object.keys(m.examples ?? {}).length + ('example' in m ? 1 : 0));
      expect(counted.reduce((a, b) => a + b, 0), key).toBeGreaterThan(0);
    }
  });

  it('give every path operation a 400 whose codes each have a named example, and a 529', () => {
    for (const { api, kind, key, operation } of all) {
      if (kind === 'webhook') continue;
      const document = documents[api];
      expect(resolve(document, operation.responses['529']), key).toBeDefined();
      const badRequest = resolve(document, operation.responses['400']);
      const media = badRequest?.content?.['application/json'];
      expect(media, key).toBeDefined();
      const codes = errorCodesOf(document, media?.schema);
      expect(codes.length, `${key} lists its error codes`).toBeGreaterThan(0);
      const examples = media?.examples ?? {};
      for (const code of codes) expect(Object.keys(examples), `${key} example for ${code}`).toContain(code);
      for (const [exampleName, example] of Object.entries(examples)) {
        const value = example.value as Record<string, unknown>;
        const code = value.argumentError ?? value.error;
        if (code !== undefined) expect(exampleName, key).toBe(code);
      }
    }
  });

  it('require the company key in every request body', () => {
    // One validator per description, which compiles each schema once (one per operation compiled the
    // shared schemas again for every operation: most of this file's time).
    const validators = new Map<string, ReturnType<typeof createDocumentValidator>>();
    for (const { api, kind, key, method, operation } of all) {
      if (kind === 'webhook' || method === 'get' || key === '/sandbox/reset') continue;
      if (!validators.has(api)) validators.set(api, createDocumentValidator(documents[api]));
      const validate = validators.get(api)!;
      const content = operation.requestBody?.content ?? {};
      expect(Object.keys(content), key).not.toHaveLength(0);
      expect(operation.requestBody?.required, key).toBe(true);
      for (const [mediaType, media] of Object.entries(content)) {
        const pointer = `#/paths/${key.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/requestBody/content/${mediaType.replaceAll('/', '~1')}/schema`;
        const examples = Object.values(media.examples ?? {}).map((e) => e.value as Record<string, unknown>);
        expect(examples.length, `${key} has a request example`).toBeGreaterThan(0);
        for (const example of examples) {
          expect(validate(pointer, example), key).toEqual([]);
          const withoutKey = Object.fromEntries(
            Object.entries(example).filter(([field]) => field !== companyKeyField[api] && field !== 'companyKey'),
          );
          expect(validate(pointer, withoutKey).length, `${key} without the key is invalid`).toBeGreaterThan(0);
        }
      }
    }
  });

  it('send legacy requests as multipart form data and current ones as JSON', () => {
    for (const { api, kind, key, method, operation } of all) {
      if (kind === 'webhook' || method === 'get') continue;
      const mediaTypes = Object.keys(operation.requestBody?.content ?? {});
      if (api === 'legacy') expect(mediaTypes, key).toEqual(['multipart/form-data']);
      else if (key === '/compare-faces') expect(mediaTypes).toEqual(['multipart/form-data']);
      else expect(mediaTypes, key).toEqual(['application/json']);
    }
  });

  it('give every callback a payload with callbackApiKey and its type as a constant', () => {
    for (const { api, kind, key, operation } of all) {
      if (kind !== 'webhook') continue;
      const schema = resolve(documents[api], operation.requestBody?.content['application/json']?.schema);
      expect(schema?.required, key).toEqual(expect.arrayContaining(['callbackApiKey', 'type']));
      const properties = schema?.properties as Record<string, Schema>;
      expect(resolve(documents[api], properties.type)?.const, key).toBe(key);
    }
  });
});
