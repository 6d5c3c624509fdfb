import { createClient } from '@idv-toolkit/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { codeOf, keyA, keyB, startTestSandbox, conforms, useTestSandbox } from '../sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
const shared = useTestSandbox();
beforeEach(() => {
  t = shared.sandbox;
});

const password = 'not-a-real-password-0000';
/** The whole 400 body a call failed with. */
async function errorBody(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: { status?: number; body?: unknown }) => e,
  );
  expect(error?.status).toBe(400);
  return error!.body;
}
const users = (key = keyA) => t.sandbox.state.users.list(key);
const groups = (key = keyA) => t.sandbox.state.groups.list(key);

describe('createUser', () => {
  it('creates a call_center_operator by default, listed with the e-mail address as username', async () => {
    const created = await t.a.createUser({ email: 'jane.roe@example.com', password });
    conforms('CreateUserResponse', created);
    expect(created.result).toMatch(/^usr_[0-9a-f]{32}$/);
    const list = await t.a.listUsers();
    conforms('ListUsersResponse', list);
    expect(list).toEqual({ result: [{ id: created.result, username: 'jane.roe@example.com', roles: ['call_center_operator'] }] });
    expect((await users())[0]).toMatchObject({ emailVerified: false });
  });

  it('gives the rights asked for, each once; an empty list gives the default', async () => {
    const { result: admin } = await t.a.createUser({ email: 'a@example.com', password, rights: ['operator', 'administrator', 'operator'], emailVerified: true, firstName: 'Ada', lastName: 'Min' });
    const { result: plain } = await t.a.createUser({ email: 'b@example.com', password: '12345678', rights: [] });
    const { result } = await t.a.listUsers();
    expect(result.find((u) => u.id === admin)!.roles).toEqual(['operator', 'administrator']);
    expect(result.find((u) => u.id === plain)!.roles).toEqual(['call_center_operator']);
    expect((await users()).find((u) => u.id === admin)).toMatchObject({ emailVerified: true, firstName: 'Ada', lastName: 'Min' });
  });

  it('gives user-already-exists for an address already used, compared case-insensitively', async () => {
    await t.a.createUser({ email: 'jane.roe@example.com', password });
    expect(await codeOf(t.a.createUser({ email: 'Jane.Roe@EXAMPLE.com', password }))).toBe('user-already-exists');
    expect(await users()).toHaveLength(1);
  });

  it.each([
    ['invalid-email-format', { email: 'not-an-email', password }],
    ['invalid-email-format', { email: '', password }],
    ['invalid-email-format', { password }],
    ['invalid-email-format', { email: 17, password }],
    ['password-too-short', { email: 'a@example.com', password: 'seven77' }],
    ['password-too-short', { email: 'a@example.com' }],
    ['invalid-rights', { email: 'a@example.com', password, rights: ['superuser'] }],
    ['invalid-rights', { email: 'a@example.com', password, rights: ['operator', 'root'] }],
    ['invalid-rights', { email: 'a@example.com', password, rights: 'operator' }],
  ])('gives %s for %j and stores nothing', async (code, body) => {
    expect(await errorBody(t.a.createUser(body as never))).toEqual({ argumentError: code });
    expect(await users()).toEqual([]);
  });

  it.each([12345678, null, ['a-long-password']])('answers a password that is not a string (%j) with internalError', async (bad) => {
    const body = (await errorBody(t.a.createUser({ email: 'a@example.com', password: bad as never }))) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['internalError']);
    expect(body.internalError).toEqual(expect.any(String));
    conforms('CreateUserError', body);
    expect(await users()).toEqual([]);
  });

  it('gives invalid-company-key to a key that names no company, on every user operation', async () => {
    const stranger = createClient({ baseUrl: t.url, companyKey: 'ck_test_unknown_0000', rateLimit: false, retry: false });
    expect(await codeOf(stranger.createUser({ email: 'a@example.com', password }))).toBe('invalid-company-key');
    expect(await codeOf(stranger.listUsers())).toBe('invalid-company-key');
    expect(await codeOf(stranger.deleteUser({ userId: 'usr_0000000000000000' }))).toBe('invalid-company-key');
  });
});

describe('deleteUser', () => {
  it('deletes the user with an empty object; deleting again gives user-not-found; the address is free again', async () => {
    const { result: id } = await t.a.createUser({ email: 'jane.roe@example.com', password });
    const deleted = await t.a.deleteUser({ userId: id });
    conforms('DeleteUserResponse', deleted);
    expect(deleted).toEqual({});
    expect(await t.a.listUsers()).toEqual({ result: [] });
    expect(await codeOf(t.a.deleteUser({ userId: id }))).toBe('user-not-found');
    await t.a.createUser({ email: 'jane.roe@example.com', password });
  });

  it('gives user-not-found for an unknown ID and wrong-parameters for a missing one', async () => {
    expect(await codeOf(t.a.deleteUser({ userId: 'usr_ffffffffffffffff' }))).toBe('user-not-found');
    expect(await codeOf(t.a.deleteUser({} as never))).toBe('wrong-parameters');
    expect(await codeOf(t.a.deleteUser({ userId: 5 as never }))).toBe('wrong-parameters');
  });

  it('takes the user out of every group', async () => {
    const { result: jane } = await t.a.createUser({ email: 'jane@example.com', password });
    const { result: john } = await t.a.createUser({ email: 'john@example.com', password });
    await t.a.makeGroup({ name: 'One', memberIds: [jane, john] });
    await t.a.makeGroup({ name: 'Two', memberIds: [jane] });
    await t.a.deleteUser({ userId: jane });
    expect((await t.a.listGroups()).result.map((g) => g.memberUserIds)).toEqual([[john], []]);
  });
});

describe('groups', () => {
  it('lists none as an empty array', async () => {
    const list = await t.a.listGroups();
    conforms('ListGroupsResponse', list);
    expect(list).toEqual({ result: [] });
  });

  it('makes a group with a name, a description and members, and lists it', async () => {
    const { result: jane } = await t.a.createUser({ email: 'jane@example.com', password });
    const made = await t.a.makeGroup({ name: 'Compliance team', description: 'Reviews', memberIds: [jane, jane] } as never);
    conforms('MakeGroupResponse', made);
    expect(made.result.id).toMatch(/^grp_[0-9a-f]{32}$/);
    const list = await t.a.listGroups();
    conforms('ListGroupsResponse', list);
    expect(list.result).toEqual([{ id: made.result.id, name: 'Compliance team', description: 'Reviews', memberUserIds: [jane] }]);
    const { result: bare } = await t.a.makeGroup({ name: 'Bare' });
    expect((await t.a.listGroups()).result[1]).toEqual({ id: bare.id, name: 'Bare', memberUserIds: [] });
  });

  it('keeps the group\'s own fields whatever the request sends under their names', async () => {
    const made = await t.a.makeGroup({ name: 'Own', id: 'grp_mine', memberUserIds: ['usr_nobody'] } as never);
    expect(made.result.id).not.toBe('grp_mine');
    await t.a.changeGroup({ groupId: made.result.id, id: 'grp_mine', memberUserIds: ['usr_nobody'] } as never);
    expect((await t.a.listGroups()).result).toEqual([{ id: made.result.id, name: 'Own', memberUserIds: [] }]);
  });

  it('refuses members that are not users of the company with wrong-parameters on memberIds', async () => {
    const { result: theirs } = await t.b.createUser({ email: 'b@example.com', password });
    expect(await errorBody(t.a.makeGroup({ name: 'G', memberIds: ['usr_ffffffffffffffff'] }))).toEqual({ argumentError: 'wrong-parameters', errorSourceGroup: 'memberIds' });
    expect(await errorBody(t.a.makeGroup({ name: 'G', memberIds: [theirs] }))).toEqual({ argumentError: 'wrong-parameters', errorSourceGroup: 'memberIds' });
    expect(await groups()).toEqual([]);
  });

  it.each([
    ['no name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['members that are not an array', { name: 'G', memberIds: 'usr_1' }, 'memberIds'],
    ['a description that is not a string', { name: 'G', description: 5 }, 'description'],
  ])('refuses %s with wrong-parameters naming the field', async (_, body, field) => {
    expect(await errorBody(t.a.makeGroup(body as never))).toEqual({ argumentError: 'wrong-parameters', errorSourceGroup: field });
    expect(await groups()).toEqual([]);
  });

  it('changes name and description, replaces members with memberIds, and answers an empty object', async () => {
    const [jane, john, mary] = await Promise.all(['jane', 'john', 'mary'].map(async (n) => (await t.a.createUser({ email: `${n}@example.com`, password })).result));
    const { result: group } = await t.a.makeGroup({ name: 'Old', memberIds: [jane!, john!] });
    const changed = await t.a.changeGroup({ groupId: group.id, name: 'New', description: 'Changed', memberIds: [john!, mary!] } as never);
    conforms('ChangeGroupResponse', changed);
    expect(changed).toEqual({});
    expect((await t.a.listGroups()).result).toEqual([{ id: group.id, name: 'New', description: 'Changed', memberUserIds: [john, mary] }]);
    // Fields not sent stay as they are; an empty memberIds empties the group.
    await t.a.changeGroup({ groupId: group.id });
    expect((await t.a.listGroups()).result[0]).toMatchObject({ name: 'New', memberUserIds: [john, mary] });
    await t.a.changeGroup({ groupId: group.id, memberIds: [] });
    expect((await t.a.listGroups()).result[0]).toEqual({ id: group.id, name: 'New', description: 'Changed', memberUserIds: [] });
  });

  it('changes nothing when one field is refused', async () => {
    const { result: jane } = await t.a.createUser({ email: 'jane@example.com', password });
    const { result: group } = await t.a.makeGroup({ name: 'Old', memberIds: [jane] });
    expect(await errorBody(t.a.changeGroup({ groupId: group.id, name: 'New', memberIds: [jane, 'usr_ffffffffffffffff'] }))).toEqual({ argumentError: 'wrong-parameters', errorSourceGroup: 'memberIds' });
    expect(await errorBody(t.a.changeGroup({ groupId: group.id, name: ' ', memberIds: [] }))).toEqual({ argumentError: 'wrong-parameters', errorSourceGroup: 'name' });
    expect((await t.a.listGroups()).result).toEqual([{ id: group.id, name: 'Old', memberUserIds: [jane] }]);
  });

  it('gives wrong-parameters on groupId for an unknown group, to change and to delete', async () => {
    const wrong = { argumentError: 'wrong-parameters', errorSourceGroup: 'groupId' };
    expect(await errorBody(t.a.changeGroup({ groupId: 'grp_ffffffffffffffff', name: 'X' }))).toEqual(wrong);
    expect(await errorBody(t.a.deleteGroup({ groupId: 'grp_ffffffffffffffff' }))).toEqual(wrong);
    expect(await errorBody(t.a.changeGroup({} as never))).toEqual(wrong);
  });

  it('deletes a group for good with {result: {}}', async () => {
    const { result: group } = await t.a.makeGroup({ name: 'Gone' });
    const deleted = await t.a.deleteGroup({ groupId: group.id });
    conforms('DeleteGroupResponse', deleted);
    expect(deleted).toEqual({ result: {} });
    expect(await t.a.listGroups()).toEqual({ result: [] });
    expect(await codeOf(t.a.deleteGroup({ groupId: group.id }))).toBe('wrong-parameters');
    expect(await codeOf(t.a.changeGroup({ groupId: group.id, name: 'Back' }))).toBe('wrong-parameters');
  });
});

describe('companies', () => {
  it('never see, change or delete each other\'s users and groups', async () => {
    const { result: jane } = await t.a.createUser({ email: 'jane@example.com', password });
    const { result: group } = await t.a.makeGroup({ name: 'A team', memberIds: [jane] });
    expect(await t.b.listUsers()).toEqual({ result: [] });
    expect(await t.b.listGroups()).toEqual({ result: [] });
    expect(await codeOf(t.b.deleteUser({ userId: jane }))).toBe('user-not-found');
    expect(await codeOf(t.b.changeGroup({ groupId: group.id, name: 'Taken' }))).toBe('invalid-access');
    expect(await codeOf(t.b.deleteGroup({ groupId: group.id }))).toBe('invalid-access');
    // The same address is a different user in another company.
    await t.b.createUser({ email: 'jane@example.com', password });
    expect((await users(keyA)).map((u) => u.id)).toEqual([jane]);
    expect(await users(keyB)).toHaveLength(1);
    expect((await t.a.listGroups()).result).toEqual([{ id: group.id, name: 'A team', memberUserIds: [jane] }]);
  });
});

describe('concurrency', () => {
  it('creates one user when the same address is sent many times at once', async () => {
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => codeOf(t.a.createUser({ email: i % 2 ? 'SAME@example.com' : 'same@example.com', password }))));
    expect(outcomes.filter((o) => o === 'resolved')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'user-already-exists')).toHaveLength(49);
  });
});
