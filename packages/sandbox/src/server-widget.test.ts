// The applicant page in the cases server-behaviour.test.ts does not reach: a link without a session token,
// an absurdly long token, a form posted to no session, another method's plain-text answer, a session of
// the second company, and an expired session's page.
import { describe, expect, it } from 'vitest';
import { sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

const noSession = 'No session has this link. It may have been deleted.';

describe('the applicant page', () => {
  it('is not found without a session token, with a token over 200 characters, or for a form posted to no session', async () => {
    const t = await startSandbox();
    for (const path of ['/widget/', '/widget', `/widget/?session_token=${'s'.repeat(201)}`]) {
      const page = await fetch(`${t.url}${path}`);
      expect(page.status).toBe(404);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(await page.text()).toContain(noSession);
    }
    const posted = await fetch(`${t.url}/widget/?session_token=sess_nobody`, { method: 'POST', body: new URLSearchParams({ result: 'approved', form_token: 'x' }) });
    expect(posted.status).toBe(404);
    expect(await posted.text()).toContain(noSession);
  });

  it('answers another method in plain text', async () => {
    const t = await startSandbox();
    const { id } = await t.a.begin({});
    const deleted = await fetch(`${t.url}/widget/?session_token=${id}`, { method: 'DELETE' });
    expect([deleted.status, deleted.headers.get('content-type'), await deleted.text()]).toEqual([405, 'text/plain', 'Method not allowed']);
  });

  it('shows a session of any company', async () => {
    const t = await startSandbox();
    const { id, url } = await t.b.begin({});
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(id);
    expect((await t.b.listSessionActivities({ sessionId: id })).result.map((a) => a.type)).toEqual(['SESSION_CREATED', 'PAGE_LOADED']);
  });

  it('of an expired session says so and offers no form', async () => {
    const t = await startSandbox();
    const { url } = await t.a.begin({ general: { sessionLifetime: 1 } } as never);
    expect(await (await fetch(url)).text()).toContain('name="form_token"');
    t.clock.advance(60_000);
    const page = await (await fetch(url)).text();
    expect(page).toContain('This session has expired.');
    expect(page).not.toContain('name="form_token"');
  });
});
