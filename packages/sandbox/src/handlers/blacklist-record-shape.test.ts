// A stored blacklist record, for every set of fields a request may give: the ID first, then each non-blank
// field, trimmed, in the order of the listed record's schema. (Kept from a cut that made records as one
// object literal per set of fields, 64 sets at most, and was reverted: no CPU saved, docs/benchmarks.md.)
import { beforeEach, describe, expect, it } from 'vitest';
import { keyA, startTestSandbox, useTestSandbox } from '../sandbox.test-helper.js';
import { schemaProperties } from '../shown.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
const shared = useTestSandbox();
beforeEach(() => {
  t = shared.sandbox;
});

const fields = ['firstName', 'lastName', 'documentNumber', 'personalNumber', 'birthday', 'reason', 'notes'] as const;
const valueOf = (field: string, n: number) => (field === 'birthday' ? `19${String(10 + (n % 80))}-01-02T00:00:00Z` : ` ${field.toUpperCase()} ${n} `);

/** The query of set `mask` (a bit per field), its fields padded, and a blank one (the birthday's format takes none) where a field is left out every third time. */
function queryOf(mask: number, n: number): Record<string, string> {
  const query: Record<string, string> = {};
  fields.forEach((field, at) => {
    if (mask & (1 << at)) query[field] = valueOf(field, n);
    else if ((n + at) % 3 === 0 && field !== 'birthday') query[field] = '  ';
  });
  return query;
}

async function addAndCheck(mask: number, n: number) {
  const query = queryOf(mask, n);
  const answer = await t.sandbox.invoke('addBlacklistRecord', { companyKey: keyA, query });
  const valid = query.reason?.trim() && fields.slice(0, 5).some((field) => query[field]?.trim());
  if (!valid) return expect(answer.status).toBe(400);
  expect(answer.status).toBe(200);
  const id = (answer.json as { result: string }).result;
  const record = await t.sandbox.state.blacklist.get(keyA, id);
  const order = schemaProperties('BlacklistRecord').filter((field) => field !== 'id' && query[field]?.trim());
  expect(Object.keys(record!)).toEqual(['id', ...order]);
  expect(record).toEqual(Object.fromEntries([['id', id], ...order.map((field) => [field, query[field]!.trim()])]));
}

describe('addBlacklistRecord: the stored record', () => {
  it('has its ID first and the given fields trimmed in the schema order, for every set of fields given, valid or refused', async () => {
    // Every set twice over (128 sets), in an order that mixes valid and refused ones.
    for (let n = 0; n < 256; n++) await addAndCheck((n * 37) % 128, n);
  });
});
