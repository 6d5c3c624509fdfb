// The console's operator at its edges (console/app.ts): a sandbox started with an empty admin token
// (`--admin-token "$UNSET"`) has no operator, so an empty console cookie signs nobody in, as the API
// refuses an empty adminToken; and an operator's action that the API refuses is shown as an error, never
// as done.
import { afterEach, expect, it } from 'vitest';
import { adminToken, startTestSandbox } from '../sandbox.test-helper.js';
import { operatorRef } from './pages-limits.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

it('signs nobody in with an empty cookie when the admin token is empty', async () => {
  const t = await startTestSandbox({ adminToken: '' });
  close = t.close;
  for (const path of ['/console/requests', '/console/rate-limit']) {
    const res = await fetch(`${t.url}${path}`, { headers: { cookie: 'idv_console=' }, redirect: 'manual' });
    expect([res.status, res.headers.get('location')], path).toEqual([303, '/console/']);
  }
  const events = await fetch(`${t.url}/console/events`, { headers: { cookie: 'idv_console=' } });
  expect([events.status, await events.text()]).toEqual([401, 'Sign in first']);
});

it("shows the API's refusal of an operator's unblock as an error", async () => {
  const t = await startTestSandbox();
  close = t.close;
  // An address longer than unblockAddress takes (100 characters): the operation answers wrong-parameters.
  const ip = '1'.repeat(101);
  const res = await fetch(`${t.url}/console/act/unblock`, {
    method: 'POST',
    headers: { cookie: `idv_console=${encodeURIComponent(adminToken)}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ c: String(operatorRef), back: '/console/rate-limit', ip }).toString(),
    redirect: 'manual',
  });
  expect([res.status, res.headers.get('location')]).toEqual([303, `/console/rate-limit?error=${encodeURIComponent('sandboxUnblockAddress answered {"argumentError":"wrong-parameters"}')}`]);
});
