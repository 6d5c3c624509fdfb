// The request target as the server reads it (target.ts): only an origin-form target (`/path?query`) is a
// request to serve, read as a path on the sandbox itself whatever it holds; anything else (none, empty,
// absolute-form, `*`, a path without its slash) is refused (undefined: the server answers 400).
import { expect, it } from 'vitest';
import { parseTarget } from './target.js';

it('reads an origin-form target as a path and query of the sandbox', () => {
  const url = parseTarget('/widget/?session_token=sess_1&x=%20y')!;
  expect([url.pathname, url.searchParams.get('session_token'), url.searchParams.get('x')]).toEqual(['/widget/', 'sess_1', ' y']);
  expect(parseTarget('/')!.pathname).toBe('/');
});

it('reads a target that starts with two slashes as a path, not as another host', () => {
  const url = parseTarget('//evil.example/begin')!;
  expect([url.host, url.pathname]).toEqual(['sandbox.invalid', '//evil.example/begin']);
  // `new URL('//[', base)` would throw (an unclosed IPv6 host); here it is a path.
  expect(parseTarget('//[')!.pathname).toBe('//[');
});

it('refuses a target that is not origin-form', () => {
  for (const target of [undefined, '', '*', 'begin', 'http://evil.example/begin', ' /begin']) expect(parseTarget(target), String(target)).toBeUndefined();
});
