// The applicant page's form token (form-token.ts): the finishing POST is taken only with the token the page
// gave out for that very session, by this sandbox; a token of another session, another sandbox, cut short,
// lengthened or not a string is refused (and never throws). A seeded sandbox gives the same tokens as
// another of its seed (tests reload pages across restarts), and other ones than another seed.
import { describe, expect, it } from 'vitest';
import { createFormTokens } from './form-token.js';

describe('form tokens', () => {
  const tokens = createFormTokens();
  const token = tokens.tokenFor('sess_a');

  it('are taken for the session they were given for', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.check('sess_a', token)).toBe(true);
    expect(tokens.tokenFor('sess_a')).toBe(token);
  });

  it('are refused for another session, cut short, lengthened, changed, or when not a string', () => {
    expect(tokens.tokenFor('sess_b')).not.toBe(token);
    expect(tokens.check('sess_b', token)).toBe(false);
    expect(tokens.check('sess_a', token.slice(1))).toBe(false);
    expect(tokens.check('sess_a', `${token}x`)).toBe(false);
    expect(tokens.check('sess_a', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(tokens.check('sess_a', '')).toBe(false);
    for (const notText of [undefined, null, 42, [token], { token }]) expect(tokens.check('sess_a', notText)).toBe(false);
  });

  it('of another sandbox are refused: each has a secret of its own', () => {
    expect(createFormTokens().check('sess_a', token)).toBe(false);
  });

  it('of a seeded sandbox are those of another sandbox of its seed, and not of another seed', () => {
    const seeded = createFormTokens(7).tokenFor('sess_a');
    expect(createFormTokens(7).check('sess_a', seeded)).toBe(true);
    expect(createFormTokens(8).check('sess_a', seeded)).toBe(false);
    expect(createFormTokens(0).tokenFor('sess_a')).not.toBe(createFormTokens(1).tokenFor('sess_a'));
  });
});
