// Refusals that server-behaviour.test.ts does not reach: create-user without a password, a field of an
// item in a group's list, a group operation that documents no wrong-parameters, a field that only
// create-user reads, the code of an operation whose first documented code is not the one preferred, and
// a reset that names both a company and an admin token.
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './hostile.test-helper.js';
import { adminToken, codeOf, keyA, keyB, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async () => (t = await startTestSandbox());

describe('a refused field', () => {
  it('create-user without a password says password-too-short', async () => {
    await start();
    const answer = await post(t!.url, '/create-user', { companyKey: keyA, email: 'a@example.com' });
    expect([answer.status, answer.json]).toEqual([400, { argumentError: 'password-too-short' }]);
  });

  it('a password field sent to another operation is ignored like any unknown field', async () => {
    await start();
    const answer = await post(t!.url, '/begin', { companyKey: keyA, password: 42 });
    expect(answer.status).toBe(200);
  });

  it('an item of a group\'s member list names the list', async () => {
    await start();
    const answer = await post(t!.url, '/make-group', { companyKey: keyA, name: 'G', memberIds: ['usr_x', 7] });
    expect([answer.status, answer.json]).toEqual([400, { argumentError: 'wrong-parameters', errorSourceGroup: 'memberIds' }]);
  });

  it('to list-groups, which documents no wrong-parameters, says its own code and names no field', async () => {
    await start();
    const answer = await post(t!.url, '/list-groups', { companyKey: 42 });
    expect([answer.status, answer.json]).toEqual([400, { argumentError: 'not-found' }]);
  });
});

describe('the code chosen', () => {
  // Operations whose first documented code is another: the server's preference decides.
  it.each([
    ['an unknown key', '/get-screening-person-details', JSON.stringify({ companyKey: 'ck_test_nobody_0000', personId: 'x' }), 'company-missing'],
    ['malformed JSON', '/export-session-as-pdf', '{"companyKey":', 'wrong-parameters'],
    ['malformed JSON', '/list-session-activities', '{"companyKey":', 'session-not-found'],
  ])('for %s to %s is %s', async (_what, path, body, code) => {
    await start();
    const answer = await post(t!.url, path, body);
    expect([answer.status, answer.json]).toEqual([400, { argumentError: code }]);
  });
});

describe('a reset with an admin token and a company key', () => {
  it('is a reset of everything: refused with a wrong token, done for every company with the right one', async () => {
    await start();
    const { id: ofA } = await t!.a.begin({});
    const { id: ofB } = await t!.b.begin({});
    expect((await post(t!.url, '/sandbox/reset', { companyKey: keyA, adminToken: 'adm_test_wrong_0000' })).json).toEqual({ argumentError: 'invalid-admin-token' });
    expect(await codeOf(t!.a.listSessionActivities({ sessionId: ofA }))).toBe('resolved');
    expect((await post(t!.url, '/sandbox/reset', { companyKey: keyA, adminToken })).json).toEqual({ result: true });
    expect(await codeOf(t!.b.listSessionActivities({ sessionId: ofB }))).toBe('session-not-found');
  });

  it('sent to another operation is only an unknown field: nothing is forgotten', async () => {
    await start();
    const { id } = await t!.a.begin({});
    const answer = await post(t!.url, '/begin', { companyKey: keyA, adminToken });
    expect(answer.status).toBe(200);
    expect(answer.json.id).toMatch(/^sess_/);
    expect(await codeOf(t!.a.listSessionActivities({ sessionId: id }))).toBe('resolved');
  });

  it('on a sandbox without an admin token is refused, and forgets nothing', async () => {
    t = await startTestSandbox({ adminToken: undefined });
    const { id } = await t.a.begin({});
    expect((await post(t.url, '/sandbox/reset', { companyKey: keyB, adminToken })).json).toEqual({ argumentError: 'invalid-admin-token' });
    expect(await codeOf(t.a.listSessionActivities({ sessionId: id }))).toBe('resolved');
  });
});
