// The requests page's filter form and its bounds, read as a tester uses them: a status filter is applied
// only for a whole number from 100 to 599 (anything else lists every request), the form whole with its
// labels, the operations to pick from (sorted, each once) and the "Clear" link, at most 200 rows, and the
// empty state. pages.test.ts checks the rows' cells and the other filters.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import { consolePage } from './pages.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

async function read(query: string, key = keyA, live = false) {
  const res = await consolePage(t.url, `/console/requests${query}`, key, live);
  expect(res.status).toBe(200);
  return res.text();
}
const count = (text: string) => text.split('<tr data-testid="request-row">').length - 1;

describe('the requests page', () => {
  it('filters by status only for a whole number from 100 to 599', async () => {
    await t.a.begin({});
    await t.a.begin({});
    expect(count(await read(''))).toBe(2);
    // With rows, no empty-state line after the table; the page is named in its title and heading.
    expect((await read('', keyA, true)).endsWith('</tbody></table>')).toBe(true);
    const page = await read('');
    expect(page).toContain('<title>Requests · Sandbox console</title>');
    expect(page).toContain('<h1>Requests</h1>');
    for (const status of ['100', '599', '201']) expect(count(await read(`?status=${status}`)), status).toBe(0);
    expect(count(await read('?status=200'))).toBe(2);
    for (const status of ['99', '600', '200.5', 'abc', '']) expect(count(await read(`?status=${status}`)), status).toBe(2);
  });

  it('shows the filter form whole, the operations once each in order, and the empty state', async () => {
    const text = await read('?operation=begin&session=s1&text=hello');
    const input = (name: string, label: string, type: string, value: string, list = '') =>
      `<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}"${list ? ` list="${list}"` : ''} value="${value}"></div>`;
    expect(text).toContain(`<form class="filters" method="get" action="/console/requests" role="search" aria-label="Filter requests">${input('operation', 'Operation', 'text', 'begin', 'operations')}<datalist id="operations">`);
    expect(text).toContain(`</datalist>${input('status', 'Status', 'number', '')}${input('session', 'Session', 'text', 's1')}${input('text', 'Text', 'text', 'hello')}<button type="submit">Filter</button> <a href="/console/requests">Clear</a></form>`);
    const options = [...text.matchAll(/<option value="([^"]*)"><\/option>/g)].map((m) => m[1]!);
    expect(options).toEqual([...new Set(options)].sort());
    expect(options).toContain('applicantPage');
    expect(options.length).toBeGreaterThan(50);
    expect(await read('', keyB, true)).toMatch(/<\/tbody><\/table><p>No requests yet: make one with the client or curl, and it shows up here\.<\/p>$/);
  });

  it('lists the newest 200 requests', async () => {
    for (let i = 0; i < 201; i++) await t.a.begin({});
    expect(count(await read(''))).toBe(200);
  });
});
