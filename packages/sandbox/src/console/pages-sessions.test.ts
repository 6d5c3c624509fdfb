// The sessions pages around their data, read whole: a session's action buttons (each form's operation,
// company, way back and fields, the confirmation before a delete), the list's empty state and the page of
// an unknown ID, for a company and (the action block) for the operator. pages.test.ts checks the rows,
// the result, activities, callbacks and media.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminToken, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';
import { consolePage } from './pages.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

async function read(path: string, key: string, live = false) {
  const res = await consolePage(t.url, path, key, live);
  return { status: res.status, text: await res.text() };
}

const form = (action: string, c: number, back: string, fields: Record<string, string>, label: string, style = '', confirm = '') =>
  `<form class="inline" method="post" action="/console/act/${action}"${confirm ? ` data-confirm="${confirm}"` : ''}><input type="hidden" name="c" value="${c}"><input type="hidden" name="back" value="${back}">` +
  `${Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`).join('')}<button type="submit"${style ? ` class="${style}"` : ''}>${label}</button></form>`;

describe('a session page', () => {
  it("offers every action on the session, for its company, coming back to the session", async () => {
    await t.a.begin({});
    const { id, url } = await t.b.begin({});
    const actions = (c: number) => {
      const back = `/console/sessions/${id}`;
      return (
        '<div class="actions" role="group" aria-label="Session actions">\n' +
        form('complete', c, back, { sessionId: id, result: 'approved' }, 'Approve') +
        form('complete', c, back, { sessionId: id, result: 'rejected' }, 'Reject') +
        form('complete', c, back, { sessionId: id, result: 'manual-check' }, 'Manual check') +
        '\n' +
        form('additional-information', c, back, { sessionId: id }, 'Request additional information', 'secondary') +
        form('expire', c, back, { sessionId: id }, 'Expire', 'secondary') +
        form('delete-session', c, '/console/sessions', { sessionId: id }, 'Delete', 'danger', 'Delete this session and its child sessions for good?')
      );
    };
    const b = await read(`/console/sessions/${id}`, keyB);
    expect(b.status).toBe(200);
    expect(b.text).toContain(actions(1));
    expect(b.text).toContain(`<a href="${url}" target="_blank" rel="noopener noreferrer">Open the applicant page</a></div>`);
    expect((await read(`/console/sessions/${id}`, adminToken)).text).toContain(actions(1));
  });

  it('says so for an ID of no session of the viewer, with a link back to the list', async () => {
    const { id } = await t.a.begin({});
    for (const path of [`/console/sessions/${id}`, '/console/sessions/sess_00000000000000000000000000000000']) {
      const { status, text } = await read(path, keyB);
      expect(status).toBe(404);
      expect(text).toContain('<title>No such session · Sandbox console</title>');
      expect(text).toContain('<h1>No such session</h1><p>No session of yours has this ID. <a href="/console/sessions">All sessions</a></p></main>');
    }
  });
});

describe('the sessions list', () => {
  it('says how to make a session when there is none, and nothing of the kind once there is one', async () => {
    const empty = '<p>No sessions yet: <code>begin</code> makes one.</p>';
    expect((await read('/console/sessions', keyA, true)).text).toMatch(new RegExp(`</tbody></table>${empty.replace(/[/]/g, '\\/')}$`));
    await t.a.begin({});
    const { text } = await read('/console/sessions', keyA, true);
    expect(text.endsWith('</tbody></table>')).toBe(true);
  });
});
