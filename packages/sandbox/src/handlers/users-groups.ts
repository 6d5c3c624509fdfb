// Console users and the groups they belong to. Every lookup stays within the caller's company; a check
// and the write that follows it run in the company's transaction (server.ts), and one e-mail address per
// company is also the store's unique `email` index.
import { ApiError } from '../errors.js';
import type { Context, TypedHandlers } from '../context.js';
import type { Group, User } from '../state.js';
import { pickSchema, shown } from '../shown.js';
import { Duplicate } from '../store.js';

const defaultRights: User['roles'] = ['call_center_operator'];

/** `wrong-parameters` naming the field at fault, as the group operations answer (Part 7). */
const wrongParameter = (field: string) => new ApiError('wrong-parameters', { errorSourceGroup: field });

/**
 * The company's group. Another company's group is `invalid-access` (the reference: group data not
 * accessible to the company); an ID that names no group at all is `wrong-parameters` on `groupId`.
 */
async function groupOf(context: Context, id: string): Promise<Group> {
  const group = await context.state.groups.get(context.company.companyKey, id);
  if (group) return group;
  if ((await context.state.groups.ownerOf(id)) !== undefined) throw new ApiError('invalid-access');
  throw wrongParameter('groupId');
}

/**
 * Member IDs, each a user of the caller's company, without repeats. An unknown user, or another
 * company's, is `wrong-parameters` on `memberIds` (our choice: another company's user is not revealed).
 */
async function membersFrom(context: Context, ids: string[]): Promise<string[]> {
  for (const id of ids) if (!(await context.state.users.get(context.company.companyKey, id))) throw wrongParameter('memberIds');
  return [...new Set(ids)];
}

/** A name must have a visible character (our choice: the schema lets a blank one through). */
function nameFrom(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw wrongParameter('name');
  return name;
}

/** description is not in the request schema's properties; when sent it must be a string (our choice). */
function descriptionFrom(description: unknown): string | undefined {
  if (description !== undefined && typeof description !== 'string') throw wrongParameter('description');
  return description;
}


export const usersGroupsHandlers: TypedHandlers = {
  /**
   * The schema already turned a malformed email, a short password and an unknown right into their codes
   * (server.ts). Users are unique by e-mail address, compared case-insensitively, within a company (our
   * choice: companies never see each other's users). The username is the e-mail address (our choice:
   * the reference shows no other). An empty `rights` array gives the default role (our choice).
   */
  async createUser(context) {
    const { body } = context;
    const company = context.company.companyKey;
    const email: string = body.email;
    if ((await context.state.users.find(company, 'email', email.toLowerCase())).length) throw new ApiError('user-already-exists');
    const rights: User['roles'] = body.rights?.length ? [...new Set(body.rights)] : defaultRights;
    const user: User = {
      // A property that both the request and the User schema gain is stored and listed with no code change.
      ...(pickSchema('User', body) as Partial<User>),
      id: context.ids.next('usr'),
      username: email,
      email,
      ...(typeof body.firstName === 'string' ? { firstName: body.firstName } : {}),
      ...(typeof body.lastName === 'string' ? { lastName: body.lastName } : {}),
      roles: rights,
      emailVerified: body.emailVerified ?? false,
    };
    // The password is checked (server.ts) and then forgotten: the sandbox has no console to log in to.
    try {
      await context.state.users.put(company, user.id, user);
    } catch (error) {
      if (error instanceof Duplicate) throw new ApiError('user-already-exists');
      throw error;
    }
    return { json: { result: user.id } };
  },

  listUsers: async (context) => ({ json: { result: (await context.state.users.list(context.company.companyKey)).map((user) => shown('User', user)) } }),

  /** Deletes the user and takes it out of every group of the company. */
  async deleteUser(context) {
    const company = context.company.companyKey;
    if (!(await context.state.users.delete(company, context.body.userId))) throw new ApiError('user-not-found');
    for (const group of await context.state.groups.find(company, 'member', context.body.userId)) {
      group.memberUserIds = group.memberUserIds.filter((id) => id !== context.body.userId);
      await context.state.groups.put(company, group.id, group); // the member index reads the new list
    }
    return { json: {} };
  },

  listGroups: async (context) => ({ json: { result: (await context.state.groups.list(context.company.companyKey)).map((group) => shown('Group', group)) } }),

  async makeGroup(context) {
    const { body } = context;
    // Checked before an ID is drawn, so a refused request leaves the ID sequence as it was.
    const name = nameFrom(body.name);
    const description = descriptionFrom(body.description);
    const memberUserIds = await membersFrom(context, body.memberIds ?? []);
    // A property that both the request and the Group schema gain is stored and listed with no code change.
    const group: Group = { ...(pickSchema('Group', body) as Partial<Group>), id: context.ids.next('grp'), name, ...(description !== undefined ? { description } : {}), memberUserIds };
    await context.state.groups.put(context.company.companyKey, group.id, group);
    return { json: { result: { id: group.id } } };
  },

  /** Every field is checked before any is changed: a refused request changes nothing. */
  async changeGroup(context) {
    const { body } = context;
    const group = await groupOf(context, body.groupId);
    const name = body.name !== undefined ? nameFrom(body.name) : group.name;
    const description = body.description !== undefined ? descriptionFrom(body.description) : group.description;
    const members = body.memberIds !== undefined ? await membersFrom(context, body.memberIds) : group.memberUserIds;
    Object.assign(group, pickSchema('Group', body), { id: group.id, name, description, memberUserIds: members });
    await context.state.groups.put(context.company.companyKey, group.id, group); // the member index reads the new list
    return { json: {} };
  },

  /** Sessions assigned to a deleted group keep its ID (our choice: the reference says nothing of them). */
  async deleteGroup(context) {
    const group = await groupOf(context, context.body.groupId);
    await context.state.groups.delete(context.company.companyKey, group.id);
    return { json: { result: {} } };
  },
};
