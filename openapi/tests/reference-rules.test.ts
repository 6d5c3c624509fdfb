// Structural rules of the reference that the descriptions must keep, each checked by validating bodies
// that break it (so a test fails when the rule is taken out of the schema), and the choices we made where
// the reference is silent, kept the same everywhere.
import { describe, expect, it } from 'vitest';
import { bundleAll, operationsOf, type Schema } from './bundles.js';
import { schemasOf } from './schema-walk.js';
import { createDocumentValidator, pointerTo, resolve } from './validator.js';

const { current } = bundleAll();
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
