import { createClient } from '@idv-toolkit/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminToken, codeOf, keyA, keyB, startTestSandbox, conforms, useTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
const shared = useTestSandbox();
beforeEach(() => {
  t = shared.sandbox;
});

const stored = (key = keyA) => t.sandbox.state.blacklist.list(key);
/** A raw POST, for bodies the typed client would not send. */
async function post(path: string, body: unknown) {
  const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('addBlacklistRecord', () => {
  it('stores a valid record and returns its ID; the list shows it with trimmed fields', async () => {
    const added = await t.a.addBlacklistRecord({ query: { reason: ' Forged document ', firstName: ' Jane ', lastName: 'Roe', birthday: '1990-04-01T02:00:00+02:00', notes: 'twice' } });
    conforms('AddBlacklistRecordResponse', added);
    expect(added.result).toMatch(/^blk_[0-9a-f]{32}$/);
    const list = await t.a.listBlacklistRecords();
    conforms('ListBlacklistRecordsResponse', list);
    expect(list.result).toEqual({
      offset: 0,
      limit: 100,
      total: 1,
      data: [{ id: added.result, reason: 'Forged document', firstName: 'Jane', lastName: 'Roe', birthday: '1990-04-01T02:00:00+02:00', notes: 'twice' }],
    });
  });

  it('accepts any one identifying field alone', async () => {
    for (const field of ['firstName', 'lastName', 'personalNumber', 'documentNumber'] as const) await t.a.addBlacklistRecord({ query: { reason: 'r', [field]: 'X1' } });
    await t.a.addBlacklistRecord({ query: { reason: 'r', birthday: '1970-01-01T00:00:00Z' } });
    expect(await stored()).toHaveLength(5);
  });

  it('gives already-exists for the same identifying fields, whatever the case, spaces, time of day, offset or reason', async () => {
    await t.a.addBlacklistRecord({ query: { reason: 'Fraud', firstName: 'Jane', lastName: 'Roe', documentNumber: '12AB34567', birthday: '1990-04-01T00:00:00Z' } });
    const again = t.a.addBlacklistRecord({ query: { reason: 'Another reason', notes: 'n', firstName: ' JANE', lastName: 'roe ', documentNumber: '12ab34567', birthday: '1990-04-01T23:30:00.000-05:00' } });
    expect(await codeOf(again)).toBe('already-exists');
    expect(await stored()).toHaveLength(1);
  });

  it('treats records that differ in any identifying field, or in which fields they have, as different', async () => {
    await t.a.addBlacklistRecord({ query: { reason: 'r', firstName: 'Jane', lastName: 'Roe' } });
    await t.a.addBlacklistRecord({ query: { reason: 'r', firstName: 'Jane', lastName: 'Roe', personalNumber: '01001012345' } });
    await t.a.addBlacklistRecord({ query: { reason: 'r', firstName: 'Jane', lastName: 'Roe', birthday: '1990-04-02T00:00:00Z' } });
    await t.a.addBlacklistRecord({ query: { reason: 'r', firstName: 'Jane' } });
    expect(await stored()).toHaveLength(4);
    expect(await codeOf(t.a.addBlacklistRecord({ query: { reason: 'r', firstName: 'jane', lastName: 'ROE' } }))).toBe('already-exists');
  });

  it.each([
    ['no reason', { firstName: 'Jane' }],
    ['a blank reason', { reason: '   ', firstName: 'Jane' }],
    ['no identifying field', { reason: 'r', notes: 'n' }],
    ['only blank identifying fields', { reason: 'r', firstName: ' ', lastName: '' }],
    ['a birthday that is not a date-time', { reason: 'r', birthday: '01/04/1990' }],
    ['a birthday on a day that does not exist', { reason: 'r', birthday: '1990-02-30T00:00:00Z' }],
    ['a number for a name', { reason: 'r', firstName: 42 }],
  ])('refuses %s with wrong-parameters and stores nothing', async (_, query) => {
    expect(await codeOf(t.a.addBlacklistRecord({ query: query as never }))).toBe('wrong-parameters');
    expect(await stored()).toEqual([]);
  });

  it('refuses a missing or malformed query, and a body that is not JSON, with wrong-parameters', async () => {
    expect(await post('/add-blacklist-record', { companyKey: keyA })).toEqual({ status: 400, body: { argumentError: 'wrong-parameters' } });
    expect(await post('/add-blacklist-record', { companyKey: keyA, query: '{"reason":"r","firstName":"J"}' })).toEqual({ status: 400, body: { argumentError: 'wrong-parameters' } });
    const response = await fetch(`${t.url}/add-blacklist-record`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"companyKey":' });
    expect([response.status, await response.json()]).toEqual([400, { argumentError: 'wrong-parameters' }]);
    expect(await stored()).toEqual([]);
  });

  it('gives invalid-company-key to a key that names no company, on every blacklist operation', async () => {
    const stranger = createClient({ baseUrl: t.url, companyKey: 'ck_test_unknown_0000', rateLimit: false, retry: false });
    expect(await codeOf(stranger.addBlacklistRecord({ query: { reason: 'r', firstName: 'J' } }))).toBe('invalid-company-key');
    expect(await codeOf(stranger.removeBlacklistRecord({ id: 'blk_0000000000000000' }))).toBe('invalid-company-key');
    expect(await codeOf(stranger.listBlacklistRecords())).toBe('invalid-company-key');
  });
});

describe('removeBlacklistRecord', () => {
  it('removes the record: it leaves the list, and removing it again gives not-found', async () => {
    const { result: id } = await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } });
    const { result: keep } = await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D2' } });
    const removed = await t.a.removeBlacklistRecord({ id });
    conforms('RemoveBlacklistRecordResponse', removed);
    expect(removed).toEqual({ result: true });
    expect((await t.a.listBlacklistRecords()).result.data.map((r) => r.id)).toEqual([keep]);
    expect(await codeOf(t.a.removeBlacklistRecord({ id }))).toBe('not-found');
    // A removed record is no longer a duplicate.
    await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } });
  });

  it('gives not-found for an unknown ID and wrong-parameters for a missing one', async () => {
    expect(await codeOf(t.a.removeBlacklistRecord({ id: 'blk_ffffffffffffffff' }))).toBe('not-found');
    expect(await codeOf(t.a.removeBlacklistRecord({} as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.removeBlacklistRecord({ id: 7 as never }))).toBe('wrong-parameters');
  });
});

describe('listBlacklistRecords', () => {
  it('with no records gives total 0 and an empty page', async () => {
    expect(await t.a.listBlacklistRecords({ query: {} })).toEqual({ result: { offset: 0, limit: 100, total: 0, data: [] } });
  });

  it('pages with offset and limit, oldest first, and counts every record in total', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: `D${i}` } })).result);
    const page = await t.a.listBlacklistRecords({ query: { offset: 1, limit: 2 } });
    expect(page.result).toMatchObject({ offset: 1, limit: 2, total: 5 });
    expect(page.result.data.map((r) => r.id)).toEqual(ids.slice(1, 3));
    expect((await t.a.listBlacklistRecords({ query: { offset: 4 } })).result.data.map((r) => r.id)).toEqual([ids[4]]);
    expect((await t.a.listBlacklistRecords({ query: { offset: 9, limit: 2 } })).result).toEqual({ offset: 9, limit: 2, total: 5, data: [] });
    expect((await t.a.listBlacklistRecords({ query: { limit: 0 } })).result).toEqual({ offset: 0, limit: 0, total: 5, data: [] });
  });

  it('holds 100 records a page unless told otherwise', async () => {
    await Promise.all(Array.from({ length: 101 }, (_, i) => t.a.addBlacklistRecord({ query: { reason: 'r', personalNumber: `P${i}` } })));
    const { result } = await t.a.listBlacklistRecords();
    expect([result.total, result.data.length, result.limit]).toEqual([101, 100, 100]);
  });

  // The page's text is written from each record's own JSON (blacklist.ts), not by serialising the page.
  it('answers a page whose text is exactly the JSON of the page, whatever the records hold', async () => {
    const awkward = ['quote " and backslash \\', 'tab\tand new line\n', 'Zoë 🙂 \u2028', '</script>'];
    for (const [i, text] of awkward.entries()) await t.a.addBlacklistRecord({ query: { reason: text, notes: `${text} ${i}`, firstName: text, documentNumber: `D${i}`, birthday: '1990-04-01T00:00:00Z' } });
    const removed = (await t.a.addBlacklistRecord({ query: { reason: 'gone', documentNumber: 'GONE' } })).result;
    await t.a.listBlacklistRecords();
    await t.a.removeBlacklistRecord({ id: removed });
    for (const query of [{}, { offset: 1, limit: 2 }, { offset: 7 }]) {
      const response = await fetch(`${t.url}/list-blacklist-records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA, query }) });
      const text = await response.text();
      const value = (await t.sandbox.invoke('listBlacklistRecords', { companyKey: keyA, query })).json;
      expect(text).toBe(JSON.stringify(value));
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    }
    const { result } = await t.a.listBlacklistRecords();
    expect(result.total).toBe(awkward.length);
    expect(result.data.map((record) => record.reason)).toEqual(awkward.map((text) => text.trim()));
  });

  // A company's last page is written again while its records are the same (blacklist.ts `pageBytes`).
  it('answers a page asked again as it is now: a record replaced by another at the same total, another company, another page', async () => {
    const first = (await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } })).result;
    await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D2' } });
    const before = await t.a.listBlacklistRecords({ query: { limit: 2 } });
    expect(await t.a.listBlacklistRecords({ query: { limit: 2 } })).toEqual(before);
    await t.a.removeBlacklistRecord({ id: first });
    const added = (await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D3' } })).result;
    const after = await t.a.listBlacklistRecords({ query: { limit: 2 } });
    expect(after.result.total).toBe(before.result.total);
    expect(after.result.data.map((r) => [r.id, r.documentNumber])).toEqual([
      [before.result.data[1]!.id, 'D2'],
      [added, 'D3'],
    ]);
    expect((await t.a.listBlacklistRecords({ query: { limit: 1 } })).result.data.map((r) => r.documentNumber)).toEqual(['D2']);
    expect((await t.b.listBlacklistRecords({ query: { limit: 2 } })).result).toEqual({ offset: 0, limit: 2, total: 0, data: [] });
  });

  it.each([
    ['a negative offset', { offset: -1 }],
    ['a fractional limit', { limit: 2.5 }],
    ['a string offset', { offset: '1' }],
  ])('refuses %s with wrong-parameters', async (_, query) => {
    expect(await codeOf(t.a.listBlacklistRecords({ query: query as never }))).toBe('wrong-parameters');
  });
});

describe('reset', () => {
  it('forgets every record: the same records can be added again, and IDs start again from the seed', async () => {
    const first = await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } });
    await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D2' } });
    await t.control.reset({ adminToken });
    expect((await t.a.listBlacklistRecords()).result.total).toBe(0);
    // The first new record gets the first ID again, for another identity: D2 is still no duplicate.
    expect(await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D2' } })).toEqual(first);
    await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } });
    expect(await codeOf(t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D2' } }))).toBe('already-exists');
    expect((await stored()).map((r) => r.documentNumber)).toEqual(['D2', 'D1']);
  });
});

describe('companies', () => {
  it('keep separate blacklists: neither lists, removes nor collides with the other\'s records', async () => {
    const { result: id } = await t.a.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } });
    expect((await t.b.listBlacklistRecords()).result).toEqual({ offset: 0, limit: 100, total: 0, data: [] });
    expect(await codeOf(t.b.removeBlacklistRecord({ id }))).toBe('not-found');
    await t.b.addBlacklistRecord({ query: { reason: 'r', documentNumber: 'D1' } });
    expect((await stored(keyA)).map((r) => r.id)).toEqual([id]);
    expect(await stored(keyB)).toHaveLength(1);
  });
});

describe('the automatic blacklist check', () => {
  it('rejects a finished session whose person is on the list, and no longer once the record is removed', async () => {
    const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    const person = (await t.legacyA.getResult({ session_token: id })).person!;
    const { result: record } = await t.a.addBlacklistRecord({ query: { reason: 'Known fraud', documentNumber: person.document_number! } });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    expect((await t.legacyA.getResult({ session_token: id })).result).toBe('rejected');
    await t.a.removeBlacklistRecord({ id: record });
    await t.control.completeSession({ sessionId: id, result: 'approved' });
    expect((await t.legacyA.getResult({ session_token: id })).result).toBe('approved');
  });
});

describe('concurrency', () => {
  it('stores each of 500 records once when 1,000 requests (each record twice) arrive at the same time', async () => {
    await t.close();
    t = await startTestSandbox({ rateLimit: 100_000 });
    const queries = Array.from({ length: 500 }, (_, i) => ({ reason: 'r', firstName: `Name${i}`, documentNumber: `D${i}` }));
    const outcomes = await Promise.all([...queries, ...queries.map((q) => ({ ...q, firstName: q.firstName.toUpperCase() }))].map((query) => codeOf(t.a.addBlacklistRecord({ query }))));
    expect(outcomes.filter((o) => o === 'resolved')).toHaveLength(500);
    expect(outcomes.filter((o) => o === 'already-exists')).toHaveLength(500);
    const { result } = await t.a.listBlacklistRecords({ query: { limit: 1000 } });
    expect(result.total).toBe(500);
    expect(new Set(result.data.map((r) => r.documentNumber)).size).toBe(500);
  });
});
