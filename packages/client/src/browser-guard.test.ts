import { describe, expect, it } from 'vitest';
import { assertServerSide } from './browser-guard.js';

const browser = { window: { document: {} } };

describe('the browser guard', () => {
  it('refuses to run in a browser and says why', () => {
    expect(() => assertServerSide(undefined, browser)).toThrow(/company key would be readable by anyone/);
  });

  it('lets a caller who opts in explicitly go on', () => {
    expect(() => assertServerSide(true, browser)).not.toThrow();
  });

  it('stays out of the way on a server', () => {
    expect(() => assertServerSide(undefined, {})).not.toThrow();
  });
});
