// Structural rules of the reference that the descriptions must keep, each checked by validating bodies
// that break it (so a test fails when the rule is taken out of the schema), and the choices we made where
// the reference is silent, kept the same everywhere.
import { describe, expect, it } from 'vitest';
import { bundleAll, operationsOf, type Schema } from './bundles.js';
import { schemasOf } from './schema-walk.js';
import { createDocumentValidator, pointerTo, resolve } from './validator.js';

const documents = await bundleAll();
const { current } = documents;
const validate = createDocumentValidator(current);
const schema = (name: string) => pointerTo('components', 'schemas', name);
const componentSchema = (name: string) => current.components!.schemas![name]!;

describe('payment-needed (Part 5: "screening operations can give payment-needed")', () => {
  const screening = operationsOf('current', current).filter(({ operation }) => operation.tags?.includes('Screening'));

  it('is among the 400 codes of every screening operation, with its named example', () => {
    expect(screening.map((e) => e.key).sort()).toEqual([
      '/get-screening-delta-records', '/get-screening-person-details', '/list-screening-monitoring-records',
      '/monitor-screening-query', '/remove-screening-query-from-monitoring', '/search-screening-person',
    ]);
    for (const { key, operation } of screening) {
      const media = resolve(current, operation.responses['400'])?.content?.['application/json'];
      const body = resolve(current, media?.schema) as Schema;
      const code = resolve(current, (body.properties as Record<string, Schema>).argumentError) as Schema;
      expect(code.enum, key).toContain('payment-needed');
      expect(media?.examples?.['payment-needed']?.value, key).toEqual({ argumentError: 'payment-needed' });
    }
  });
});

describe('errorSourceGroup (Part 7: group operations add it to a wrong-parameters body)', () => {
  it.each(['MakeGroupError', 'ChangeGroupError', 'DeleteGroupError'])('%s requires it with wrong-parameters only', (name) => {
    expect(validate(schema(name), { argumentError: 'wrong-parameters' })).not.toEqual([]);
    expect(validate(schema(name), { argumentError: 'wrong-parameters', errorSourceGroup: 'name' })).toEqual([]);
    expect(validate(schema(name), { argumentError: 'invalid-access' })).toEqual([]);
  });
});

describe('KYB step results ("each entry has key, type, status, and result (except kyb-review)")', () => {
  const steps = {
    company: { key: 'company', type: 'company', status: 'approved', result: { companyName: 'Northwind Widgets Ltd' } },
    beneficiaries: { key: 'beneficiaries', type: 'beneficiaries', status: 'approved', result: [] },
    'user-questionnaire': { key: 'questionnaire', type: 'user-questionnaire', status: 'approved', result: {} },
  };

  it.each(Object.entries(steps))('a %s step needs its result', (_kind, step) => {
    expect(validate(schema('KybStepResult'), step)).toEqual([]);
    const { result: _result, ...withoutResult } = step;
    expect(validate(schema('KybStepResult'), withoutResult)).not.toEqual([]);
  });

  it('a kyb-review step has none', () => {
    expect(validate(schema('KybStepResult'), { key: 'kyb-review', type: 'kyb-review', status: 'approved' })).toEqual([]);
  });
});

describe('screening profile shapes (the reference says nothing of which fields are always present)', () => {
  const shapes = ['ScreeningHit', 'ScreeningPersonDetails', 'ScreeningExtraDetailGroup', 'ScreeningDetail', 'ScreeningDetailProperty'];

  it.each(shapes)('%s requires no field, and says that this is our choice', (name) => {
    expect(componentSchema(name).required ?? []).toEqual([]);
    expect(validate(schema(name), {})).toEqual([]);
    expect(componentSchema(name).description).toMatch(/none is marked required \(our choice/);
  });
});

describe('paging (the reference: page size and defaults "not shown")', () => {
  // Every paging field of every request body of the current interface, wherever it sits.
  const paging = schemasOf(current).filter(
    ({ pointer }) => /^#\/components\/schemas\/\w+Request\//.test(pointer) && /\/properties\/(limit|offset|start)$/.test(pointer),
  );

  it('finds the paging fields of the three list operations', () => {
    expect(paging.map((p) => p.pointer.split('/')[3]).filter((name, i, all) => all.indexOf(name) === i).sort()).toEqual([
      'ListBlacklistRecordsRequest', 'ListScreeningMonitoringRecordsRequest', 'SearchScreeningPersonRequest',
    ]);
  });

  it('takes whole numbers from 0 for limit, offset and start alike', () => {
    for (const { pointer, schema: field } of paging) {
      expect({ pointer, type: field.type, minimum: field.minimum }).toEqual({ pointer, type: 'integer', minimum: 0 });
    }
  });

  it('says on every limit that this is our choice', () => {
    for (const { pointer, schema: field } of paging.filter((p) => p.pointer.endsWith('/limit'))) {
      expect(field.description, pointer).toMatch(/\(our choice/);
    }
  });
});

describe('retry safety of paid lookups', () => {
  it('the trusted-database and registry checks are not retried: the reference does not say they are safe to repeat', () => {
    const registry = operationsOf('current', current).filter(({ operation }) => operation.tags?.includes('Registry'));
    expect(registry.map((e) => e.operation.operationId).sort()).toEqual(['checkInRegistry', 'getTrustedDatabaseRecord']);
    for (const { key, operation } of registry) {
      expect(operation['x-idempotent'], key).toBe(false);
      expect(operation.description, key).toMatch(/charged twice/);
    }
  });
});

describe('error codes (the root: each operation lists the reference\'s codes, and says so where it adds any)', () => {
  // The codes each endpoint table of the reference gives (Part 4; create-user's "see Part 7" resolved there).
  const media = ['session-not-found'];
  const referenceCodes: Record<string, string[]> = {
    '/begin': ['wrong-parameters', 'invalid-access'], '/result': ['session-not-found'], '/delete-session': ['wrong-parameters'],
    '/export-session-as-pdf': ['invalid-access', 'wrong-parameters', 'session-not-found'],
    '/get-session-main-document-face-photo': ['invalid-access', 'face-photo-not-found', 'session-not-found'],
    '/list-session-activities': ['invalid-access', 'session-not-found'], '/get-session-statistical-summary': ['invalid-access', 'session-not-found'],
    '/get-visual-markers': ['not-found', 'wrong-parameters', 'invalid-access', 'session-not-found'], '/get-session-config': ['wrong-parameters'],
    '/search-screening-person': ['company-missing', 'access-denied', 'payment-needed'],
    '/get-screening-person-details': ['payment-needed', 'company-missing', 'access-denied'], '/monitor-screening-query': ['already-exists'],
    '/remove-screening-query-from-monitoring': [], '/list-screening-monitoring-records': [], '/get-screening-delta-records': ['wrong-parameters', 'access-denied'],
    '/add-blacklist-record': ['wrong-parameters', 'invalid-company-key', 'already-exists'],
    '/remove-blacklist-record': ['wrong-parameters', 'invalid-company-key', 'not-found'], '/list-blacklist-records': ['wrong-parameters', 'invalid-company-key'],
    '/get-video-call-shots': ['not-found', 'invalid-access', 'session-not-found'], '/get-video-call-videos': ['not-found', 'invalid-access', 'session-not-found'],
    '/end-video-call': ['invalid-access'], '/get-question-file': ['wrong-parameters', 'invalid-access', 'session-not-found'],
    '/upload-file': ['session-not-found', 'invalid-access', 'wrong-parameters'], '/get-file': ['session-not-found', 'invalid-access', 'wrong-parameters'],
    '/delete-file': ['session-not-found', 'invalid-access', 'wrong-parameters'], '/list-groups': ['groups-not-found', 'not-found'],
    '/make-group': ['wrong-parameters', 'invalid-access'], '/change-group': ['wrong-parameters', 'invalid-access'], '/delete-group': ['wrong-parameters', 'invalid-access'],
    '/list-users': ['invalid-access', 'wrong-parameters'], '/create-user': ['invalid-email-format', 'password-too-short', 'invalid-rights', 'user-already-exists'],
    '/delete-user': ['wrong-parameters', 'invalid-company-key', 'user-not-found'], '/compare-faces': [], '/check-spoofing': [],
    '/get-trusted-database-record': ['wrong-parameters', 'no-trusted-database-sources'], '/check-in-{registry}': ['wrong-parameters'],
    '/external-api/begin/': [], '/external-api/result/': media, '/external-api/delete/': media,
    ...Object.fromEntries(['card-front', 'card-back', 'passport', 'face', 'face-video', 'face-document', 'general-document'].map((p) => [`/external-api/result/${p}/`, media])),
    ...Object.fromEntries(['card/front', 'card/back', 'license/front', 'license/back', 'residence/front', 'residence/back', 'passport'].map((p) => [`/external-api/${p}/`, []])),
  };
  const texts = (value: unknown): string[] =>
    !value || typeof value !== 'object' ? [] : Object.entries(value).flatMap(([key, v]) => (key === 'description' && typeof v === 'string' ? [v] : key === 'examples' ? [] : texts(v)));

  it.each(['current', 'legacy'] as const)('%s: every operation lists the reference\'s codes, and names as ours or Part 5\'s any it adds', (api) => {
    const document = documents[api];
    const entries = operationsOf(api, document).filter((e) => e.kind === 'path');
    expect(entries.map((e) => e.key).sort()).toEqual(Object.keys(referenceCodes).filter((k) => k.startsWith('/external-api/') === (api === 'legacy')).sort());
    for (const { key, operation } of entries) {
      const response = resolve(document, operation.responses['400']);
      const body = resolve(document, response?.content?.['application/json']?.schema) as Schema;
      const branches = [body, ...((body.oneOf as Schema[]) ?? []).map((b) => resolve(document, b))];
      const fixed = (p: Schema): string[] => [
        ...((p.enum as string[]) ?? []),
        ...(typeof p.const === 'string' ? [p.const] : []),
        ...[...((p.anyOf as Schema[]) ?? []), ...((p.oneOf as Schema[]) ?? [])].flatMap((b) => fixed(resolve(document, b))),
      ];
      const codes = branches.flatMap((b) => Object.values((b.properties as Record<string, Schema>) ?? {}).flatMap((p) => fixed(resolve(document, p))));
      const reference = referenceCodes[key]!;
      expect(codes, key).toEqual(expect.arrayContaining(reference));
      if (codes.some((code) => !reference.includes(code))) {
        const said = [operation.description ?? '', ...texts(response), ...texts(body)].join(' ');
        expect(said, `${key} says where its extra codes come from`).toMatch(/our choice|Part 5|authentication part/);
      }
    }
  });
});
