// The applicant page's form token: the finishing POST must carry the token the page gave out for that
// session, so a POST made without loading the page (a forged cross-site form, a script guessing) is
// refused. An HMAC of the session ID under a secret of the sandbox process: nothing to store.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type FormTokens = { tokenFor(sessionId: string): string; check(sessionId: string, token: unknown): boolean };

/** Tokens under a random secret, or one derived from the seed (a seeded sandbox is for tests). */
export function createFormTokens(seed?: number): FormTokens {
  const secret = seed === undefined ? randomBytes(32) : createHash('sha256').update(`idv-sandbox form ${seed}`).digest();
  const tokenFor = (sessionId: string) => createHmac('sha256', secret).update(sessionId).digest('base64url');
  return {
    tokenFor,
    check(sessionId, token) {
      if (typeof token !== 'string') return false;
      const expected = Buffer.from(tokenFor(sessionId));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
