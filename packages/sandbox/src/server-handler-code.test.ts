// The handler code swapped in by replaceHandlers (npm run dev) as a request meets it: which operations
// wait for a write of their company (the read-only list given, or the one kept), a fault of the new
// applicant-page finish answered as a fault (and the packaged finish kept when the code gives none), and a reply whose text the server writes still handing
// its value to an in-process caller.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Handlers } from './context.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

const formTokenOf = (page: string) => /name="form_token" value="([^"]+)"/.exec(page)![1]!;

/**
 * Handlers whose makeGroup holds its company's transaction until `release()` and whose listGroups notes
 * that it ran. In memory nothing between invoke() and a handler waits for I/O, so after one turn of the
 * event loop a handler that does not wait for the write has run.
 */
function heldWrite(handlers: Handlers) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const writing = new Promise<void>((resolve) => (entered = resolve));
  const ran: string[] = [];
  const replaced: Handlers = {
    ...handlers,
    makeGroup: async () => {
      entered();
      await held;
      ran.push('write');
      return { json: { result: 'grp-held' } };
    },
    listGroups: async () => {
      ran.push('list');
      return { json: { result: [] } };
    },
  };
  return { replaced, release, writing, ran };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('operations of the new handler code', () => {
  it('that the code keeps read-only run beside a held write of their company', async () => {
    const t = await startSandbox();
    const { replaced, release, writing, ran } = heldWrite(t.sandbox.handlers);
    t.sandbox.replaceHandlers(replaced);
    const write = t.sandbox.invoke('makeGroup', { companyKey: keyA, name: 'Held' });
    await writing;
    const list = t.sandbox.invoke('listGroups', { companyKey: keyA });
    await turn();
    expect(ran).toEqual(['list']);
    release();
    expect((await write).status).toBe(200);
    expect((await list).json).toEqual({ result: [] });
  });

  it('that the new read-only list leaves out wait for a held write of their company', async () => {
    const t = await startSandbox();
    const { replaced, release, writing, ran } = heldWrite(t.sandbox.handlers);
    t.sandbox.replaceHandlers(replaced, { readOnlyOperations: [] });
    const write = t.sandbox.invoke('makeGroup', { companyKey: keyA, name: 'Held' });
    await writing;
    const list = t.sandbox.invoke('listGroups', { companyKey: keyA });
    await turn();
    expect(ran).toEqual([]);
    release();
    await Promise.all([write, list]);
    expect(ran).toEqual(['write', 'list']);
  });
});

describe('the applicant page with a new completeSession', () => {
  it('answers a fault of the new code 500, not as a session that can no longer be finished', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = await startSandbox();
    const { url } = await t.a.begin({});
    t.sandbox.replaceHandlers(t.sandbox.handlers, {
      completeSession: async () => {
        throw new Error('a bug in the new code');
      },
    });
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'approved', form_token: formTokenOf(await (await fetch(url)).text()) }) });
    expect([done.status, await done.json()]).toEqual([500, { error: 'sandbox internal error' }]);
    expect(error).toHaveBeenCalledWith(new Error('a bug in the new code'));
  });
});

describe('the applicant page after new code without a completeSession', () => {
  it('finishes sessions as before', async () => {
    const t = await startSandbox();
    const { id, url } = await t.a.begin({});
    t.sandbox.replaceHandlers({ ...t.sandbox.handlers });
    const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'approved', form_token: formTokenOf(await (await fetch(url)).text()) }) });
    expect([done.status, (await done.text()).includes('Thank you: the session is finished.')]).toEqual([200, true]);
    expect((await t.legacyA.getResult({ session_token: id })).result).toBe('approved');
  });
});

describe('invoke', () => {
  it('gives the value of a reply that goes over HTTP as its text (list-blacklist-records)', async () => {
    const t = await startSandbox();
    await t.a.addBlacklistRecord({ query: { reason: 'Forged document', firstName: 'Jane', lastName: 'Roe' } });
    const over = await fetch(`${t.url}/list-blacklist-records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: keyA }) });
    const listed = await over.json();
    expect(listed.result.data).toHaveLength(1);
    expect(await t.sandbox.invoke('listBlacklistRecords', { companyKey: keyA })).toEqual({ status: 200, json: listed });
  });
});
