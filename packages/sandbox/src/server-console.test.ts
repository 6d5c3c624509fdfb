// Where the server sends the console's paths, and what the console sees of the other requests: /console and
// everything under /console/ is the console (a sign-in page, then its pages), /consolex is nobody's path,
// and an API request shows in the console's request list of its company.
import { describe, expect, it } from 'vitest';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

const asA = { cookie: `idv_console=${keyA}` };

describe('the console\'s paths', () => {
  it('are /console and what is under /console/; a path that only starts with /console is not found', async () => {
    const t = await startSandbox();
    for (const path of ['/console', '/console/']) {
      const page = await fetch(`${t.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    const inside = await fetch(`${t.url}/console/requests`, { redirect: 'manual' });
    expect([inside.status, inside.headers.get('location')]).toEqual([303, '/console/']);
    for (const path of ['/consolex', '/console-requests']) {
      const other = await fetch(`${t.url}${path}`);
      expect([other.status, await other.text()]).toEqual([404, 'Not found']);
    }
  });

  it('list the API requests of the signed-in company, and read the query of a console page', async () => {
    const t = await startSandbox();
    expect(await (await fetch(`${t.url}/console/requests`, { headers: asA })).text()).not.toContain('/begin');
    await t.a.begin({});
    const list = await (await fetch(`${t.url}/console/requests`, { headers: asA })).text();
    expect(list).toContain('/begin');
    const noticed = await (await fetch(`${t.url}/console/requests?notice=${encodeURIComponent('Shown from the query')}`, { headers: asA })).text();
    expect(noticed).toContain('Shown from the query');
  });
});
