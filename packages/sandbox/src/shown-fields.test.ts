// What the sandbox answers of a stored record: the properties its schema in the current description
// describes, no more (a user's e-mail address stays inside), read from the description itself.
import { describe, expect, it } from 'vitest';
import { pickSchema, schemaProperties, shown } from './shown.js';

describe('schemaProperties', () => {
  it("lists the current interface's schema properties", () => {
    expect([...schemaProperties('BlacklistRecord')].sort()).toEqual(['birthday', 'documentNumber', 'firstName', 'id', 'lastName', 'notes', 'personalNumber', 'reason']);
    expect([...schemaProperties('Group')].sort()).toEqual(['description', 'id', 'memberUserIds', 'name']);
    expect(schemaProperties('Group')).toBe(schemaProperties('Group')); // read once
  });

  it("reads a given document's schemas instead (a new property needs no code)", () => {
    const document = { components: { schemas: { Thing: { properties: { a: {}, b: {} } } } } };
    expect(schemaProperties('Thing', document)).toEqual(['a', 'b']);
    expect(schemaProperties('Missing', document)).toEqual([]);
    expect(schemaProperties('Thing', {})).toEqual([]);
    expect(schemaProperties('NoSuchSchema')).toEqual([]);
  });
});

describe('shown and pickSchema', () => {
  it('keep what the schema describes and drop the rest, such as a user\u2019s e-mail address', () => {
    const user = { id: 'usr_1', username: 'a@example.com', roles: ['operator'], email: 'a@example.com', emailVerified: false, firstName: 'Ada' };
    expect(shown('User', user as never)).toEqual({ id: 'usr_1', username: 'a@example.com', roles: ['operator'] });
  });

  it('leave out properties that are undefined, and keep falsy values that are set', () => {
    expect(pickSchema('BlacklistRecord', { id: 'blk_1', reason: '', notes: undefined, firstName: 'Jane' })).toEqual({ id: 'blk_1', reason: '', firstName: 'Jane' });
    expect(Object.keys(pickSchema('BlacklistRecord', { id: 'blk_1', notes: undefined }))).toEqual(['id']);
  });

  it('copy lists, so that changing an answer never changes the stored record', () => {
    const group = { id: 'grp_1', name: 'G', memberUserIds: ['usr_1'] };
    const answer = shown('Group', group);
    expect(answer.memberUserIds).toEqual(['usr_1']);
    answer.memberUserIds!.push('usr_2');
    expect(group.memberUserIds).toEqual(['usr_1']);
  });

  it('take the same properties from a request as a record shows', () => {
    expect(pickSchema('Group', { groupId: 'grp_1', name: 'N', description: 'D', memberIds: ['usr_1'], memberUserIds: ['usr_2'] })).toEqual({ name: 'N', description: 'D', memberUserIds: ['usr_2'] });
  });
});
