/**
 * The company key is a secret that unlocks every session of the company. In a browser anyone can read
 * it, so a client refuses to start there unless its caller says, in code, that it knows what it does
 * (for example in an internal tool behind a login, or against the local mock).
 */
export function assertServerSide(allowBrowser: boolean | undefined, scope: object = globalThis): void {
  const page = (scope as { window?: { document?: unknown } }).window;
  const inBrowser = page !== undefined && page.document !== undefined;
  if (inBrowser && allowBrowser !== true) {
    // Short: every byte of the client counts against its 5 kB budget; the README says the rest.
    throw new Error('In a browser the company key would be readable by anyone who opens the page: call the service from your server (or pass allowBrowser: true)');
  }
}
