// The request target, read without trusting it: only an origin-form target (`/path?query`) is served.
// `new URL(target, base)` would read `//x` as a host and throw on `//[`; prefixing a fixed origin keeps
// every origin-form target a path, and anything else (absolute-form, `*`, garbage) is refused with 400.
const base = 'http://sandbox.invalid';

export function parseTarget(target: string | undefined): URL | undefined {
  if (!target || target[0] !== '/') return undefined;
  try {
    return new URL(base + target);
    // Stryker disable next-line BlockStatement: no target starting with '/' was found that makes this URL throw.
  } catch {
    return undefined;
  }
}
