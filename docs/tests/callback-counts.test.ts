// The guides and the site never say how many callbacks there are ("the six events"): a count in prose goes
// stale the day a callback is added to the spec, and nothing else would notice. Say "every event", or
// derive the number from the spec where it matters.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = [
  'README.md',
  'openapi/README.md',
  'packages/types/README.md',
  ...readdirSync(`${root}/docs`).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ...readdirSync(`${root}/docs/site`).filter((name) => name.endsWith('.html')).map((name) => `docs/site/${name}`),
];

/** "six callbacks", "the 6 event types", "seven callback types": a number of callbacks written out. */
const callbackCount = /\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)( [a-z-]+)? (callbacks|events|event types|callback types)\b/i;

describe('the count of callbacks', () => {
  it('is caught when written out', () => {
    expect('receiving the six events, checking the key').toMatch(callbackCount);
    expect('send any of the 7 callback types').toMatch(callbackCount);
    expect('one callback with a valid payload').not.toMatch(callbackCount);
  });

  it.each(files)('is not written in %s', (file) => {
    const hits = readFileSync(`${root}/${file}`, 'utf8')
      .split('\n')
      .map((line, i) => ({ line: i + 1, text: line }))
      // "Two events of one session may arrive out of order" counts events of a session, not callbacks.
      .filter(({ text }) => callbackCount.test(text) && !/events of one session/i.test(text));
    expect(hits).toEqual([]);
  });
});
