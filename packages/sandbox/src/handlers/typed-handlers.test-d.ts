// Type tests, checked by `npm run typecheck` (tsconfig.json) and never run: a handler is typed by its
// operation's generated request and 200 bodies. Each `@ts-expect-error` must meet the error it names; were
// the handlers untyped, tsc would report the directive as unused. (spec-follows.test.ts shows the same for
// a rename made in the spec.)
import type { Handler, TypedHandlers } from '../context.js';

export const readsAFieldTheRequestLacks: TypedHandlers = {
  makeGroup(context) {
    // @ts-expect-error: MakeGroupRequest has memberIds, not members
    const members: string[] = context.body.members;
    return { json: { result: { id: members.join() } } };
  },
};

export const answersAnotherShape: Handler<'listGroups'> = () => ({
  // @ts-expect-error: ListGroupsResponse is { result: Group[] }
  json: { groups: [] },
});

export const answersAGroupWithoutItsName: Handler<'listGroups'> = () => ({
  // @ts-expect-error: a Group has a name
  json: { result: [{ id: 'grp_1' }] },
});

export const answersForAnotherOperation: TypedHandlers = {
  // @ts-expect-error: addBlacklistRecord answers { result: string }, not listGroups' body
  addBlacklistRecord: (() => ({ json: { result: [] } })) as Handler<'listGroups'>,
};

export const namesNoOperation: TypedHandlers = {
  // @ts-expect-error: no operation is called makeGroups
  makeGroups: () => ({ json: {} }),
};

/** A legacy operation's body is the legacy description's: session_token, not sessionId. */
export const legacyBody: Handler<'legacyGetResult'> = (context) => {
  // @ts-expect-error: the legacy request names the session session_token
  void context.body.sessionId;
  return { bytes: new Uint8Array(), contentType: 'application/json' };
};
