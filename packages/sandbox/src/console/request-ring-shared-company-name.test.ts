// Two companies may share a name (the configuration only needs their keys to differ), and server.ts names
// the company of a request by its name: the console's request log then tells them apart by the key the
// request's body carries (the legacy API's `companyKey` or `company_key`), so each company is shown its
// own requests; a body that names neither key is shown to the first company of that name.
import { expect, it } from 'vitest';
import { exchange, ringOf } from './request-ring-in-process.test-helper.js';

const first = { name: 'Same Name Ltd', companyKey: 'ck_test_same_name_first' };
const second = { name: 'Same Name Ltd', companyKey: 'ck_test_same_name_second' };
const other = { name: 'Other Co', companyKey: 'ck_test_same_name_other' };

async function sent(bodies: unknown[]) {
  const ring = ringOf([first, second, other]);
  for (const [n, body] of bodies.entries()) {
    await exchange(ring, { path: `/external-api/n${n}`, trace: { company: 'Same Name Ltd' }, rawHeaders: ['Content-Type', 'application/json'], body: [Buffer.from(JSON.stringify(body))] });
  }
  const paths = (key: string | undefined) => ring.list(key).map((item) => item.entry.path).reverse();
  return { ring, paths };
}

it("lists each request for the company whose key its body carries, by either of the key's names", async () => {
  const { paths } = await sent([{ companyKey: second.companyKey }, { company_key: second.companyKey }, { companyKey: first.companyKey }, { company_key: first.companyKey }]);
  expect(paths(second.companyKey)).toEqual(['/external-api/n0', '/external-api/n1']);
  expect(paths(first.companyKey)).toEqual(['/external-api/n2', '/external-api/n3']);
  expect(paths(other.companyKey)).toEqual([]);
});

it('lists a request for the first company of the name when its body carries no key of theirs', async () => {
  const { paths } = await sent([{}, { companyKey: other.companyKey }, { companyKey: 'ck_test_same_name_unknown' }, { companyKey: 42 }, { company_key: [second.companyKey] }]);
  expect(paths(first.companyKey)).toEqual(['/external-api/n0', '/external-api/n1', '/external-api/n2', '/external-api/n3', '/external-api/n4']);
  expect(paths(second.companyKey)).toEqual([]);
  expect(paths(other.companyKey)).toEqual([]);
});

it('lists a request of a company with a name of its own for it, whatever key its body carries', async () => {
  const ring = ringOf([first, second, other]);
  await exchange(ring, { path: '/external-api/other', trace: { company: 'Other Co' }, rawHeaders: ['Content-Type', 'application/json'], body: [Buffer.from(JSON.stringify({ companyKey: second.companyKey }))] });
  await exchange(ring, { path: '/external-api/nobody', trace: {} });
  expect(ring.list(other.companyKey).map((item) => item.entry.path)).toEqual(['/external-api/other']);
  expect(ring.list(second.companyKey)).toEqual([]);
  expect(ring.list(undefined).map((item) => [item.entry.path, item.companyKey])).toEqual([
    ['/external-api/nobody', undefined],
    ['/external-api/other', other.companyKey],
  ]);
});
