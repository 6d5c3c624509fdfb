// The requests page with a filter longer than sandboxListRequests takes (an operation of more than 100
// characters, a session or text of more than 200): the page answers with no rows, as for any filter that
// matches nothing, where it answered 500 for an operation of 101 to 200 characters (the page cut every
// filter at 200, and the operation refused the rest).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { adminToken, keyA, startTestSandbox } from '../sandbox.test-helper.js';
import { consolePage } from './pages.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

const rows = (text: string) => text.split('<tr data-testid="request-row">').length - 1;

it('lists no rows for an operation, session or text longer than the log can be asked for', async () => {
  await t.a.begin({});
  for (const key of [keyA, adminToken]) {
    for (const query of [`operation=${'b'.repeat(101)}`, `operation=begin${'x'.repeat(195)}`, `operation=${'o'.repeat(300)}`, `session=${'s'.repeat(201)}`, `text=${'t'.repeat(250)}`]) {
      const res = await consolePage(t.url, `/console/requests?${query}`, key);
      const text = await res.text();
      expect(res.status, `${query.slice(0, 20)}… as ${key === keyA ? 'Company A' : 'the operator'}`).toBe(200);
      expect(rows(text)).toBe(0);
      expect(text).toContain('No requests yet');
    }
  }
  // The same page still finds what a filter within the bounds names.
  expect(rows(await (await consolePage(t.url, `/console/requests?operation=begin`, keyA)).text())).toBe(1);
});
