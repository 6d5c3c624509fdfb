/** The legacy and sandbox clients' methods drop the prefix that keeps operationIds unique across documents. */
export type Unprefixed<Id, Prefix extends string> = Id extends `${Prefix}${infer Rest}` ? Uncapitalize<Rest> : Id;

/** `unprefixed('legacy')('legacyGetResult')` is `getResult`. */
export const unprefixed =
  (prefix: string): ((id: string) => string) =>
  (id: string): string =>
  id.startsWith(prefix) ? id.charAt(prefix.length).toLowerCase() + id.slice(prefix.length + 1) : id;
