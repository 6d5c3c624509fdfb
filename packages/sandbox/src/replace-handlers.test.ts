// replaceHandlers(): `npm run dev` swaps new handler code into a running sandbox (issue 16). The sandbox
// answers with the new handlers and the applicant page finishes sessions with the new completeSession,
// while what was stored before stays.
import { afterEach, describe, expect, it } from 'vitest';
import type { Handlers } from './context.js';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';
import type { CompleteSession } from './server.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const post = (path: string, body: unknown) => fetch(`${t!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const formTokenOf = (page: string) => /name="form_token" value="([^"]+)"/.exec(page)![1]!;

describe('replaceHandlers', () => {
  it('answers with the new handlers from the next request on, and keeps what was stored', async () => {
    t = await startTestSandbox();
    const { id } = await t.a.begin({});
    const replaced: Handlers = { ...t.sandbox.handlers, listGroups: async () => ({ json: { result: [{ id: 'grp-new-code', name: 'From the new code' }] } }) };
    t.sandbox.replaceHandlers(replaced);
    expect(t.sandbox.handlers).toBe(replaced);
    expect((await (await post('/list-groups', { companyKey: keyA })).json()).result).toEqual([{ id: 'grp-new-code', name: 'From the new code' }]);
    // The session made with the old code is still there for the new code.
    expect((await t.a.listSessionActivities({ sessionId: id })).result.length).toBeGreaterThan(0);
  });

  it("has the applicant page finish a session with the new completeSession (the server imported the old one itself)", async () => {
    t = await startTestSandbox();
    const { id, url } = await t.a.begin({});
    const finished: string[] = [];
    const completeSession: CompleteSession = async (_context, session, result) => {
      finished.push(`${session.id} ${result}`);
    };
    t.sandbox.replaceHandlers(t.sandbox.handlers, { completeSession });
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'approved', form_token: formTokenOf(await (await fetch(url)).text()) }) });
    expect(await done.text()).toContain('Thank you: the session is finished.');
    expect(finished).toEqual([`${id} approved`]);
  });
});
