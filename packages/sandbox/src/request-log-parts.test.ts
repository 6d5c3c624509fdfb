// The command line's request log written from a line's parts (batchedLines' `request`, which server.ts
// uses): the same bytes as the line formatLine makes, for every kind of part, in the same batches.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedLines, formatLine, type RequestLine } from './request-log.js';

afterEach(() => {
  vi.useRealTimers();
});

/** What a writer hands on for `lines`, each given as parts or as formatLine's string. */
function written(lines: RequestLine[], secrets: readonly string[], asParts: boolean): string[] {
  vi.useFakeTimers();
  const writes: string[] = [];
  const before = new Set(process.listeners('exit'));
  const log = batchedLines((text) => writes.push(text));
  // Its write at exit is not needed here: everything is written by the timer below.
  for (const listener of process.listeners('exit')) if (!before.has(listener)) process.off('exit', listener);
  for (const line of lines) {
    if (asParts) log.request(line, secrets);
    else log(formatLine(line, secrets));
  }
  vi.advanceTimersByTime(50);
  vi.useRealTimers();
  return writes;
}

const secrets = ['', 'ck_test_parts_key', 'cb_test_parts_callback'];
const sample: RequestLine[] = [
  { method: 'POST', path: '/add-blacklist-record', operation: 'addBlacklistRecord', status: 200, ms: 0.26, company: 'Demo company' },
  { method: 'GET', path: '//', status: 404, ms: 0 },
  { method: 'POST', path: '/begin', operation: 'begin', status: 200, ms: 1.26, company: 'Demo "company"' },
  // A key in the path, cut at 200 characters, characters beyond ASCII in each part.
  { method: 'GET', path: '/x/ck_test_parts_key/y/cb_test_parts_callback', status: 400, ms: 12.05 },
  { method: 'GET', path: `/ck_test_parts_key${'b'.repeat(300)}`, status: 404, ms: 1 },
  { method: 'GET', path: '/caf\u00e9', status: 404, ms: 3.3 },
  { method: 'POST', path: '/begin', operation: 'begin', status: 200, ms: 2, company: 'Soci\u00e9t\u00e9 \u{1f600}' },
  { method: 'M\u00c9THOD', path: '/begin', operation: '\u00fcber', status: 200, ms: 2 },
  // Statuses of one, two and three digits and none of them; durations near a half, huge, odd.
  { method: 'GET', path: '/a', status: 0, ms: 0.05 },
  { method: 'GET', path: '/a', status: 7, ms: 0.15 },
  { method: 'GET', path: '/a', status: 42, ms: 1e12 },
  { method: 'GET', path: '/a', status: 10, ms: 9.95 },
  { method: 'GET', path: '/a', status: 100, ms: 99.95 },
  { method: 'GET', path: '/a', status: 999, ms: -1 },
  { method: 'GET', path: '/a', status: 1000, ms: Number.NaN },
  { method: 'GET', path: '/a', status: 2.5, ms: Number.POSITIVE_INFINITY },
  { method: 'GET', path: '/a', status: -1, ms: 0.25 },
];

describe('batchedLines, a request line from its parts', () => {
  it('writes the bytes of formatLine for every kind of part', () => {
    expect(written(sample, secrets, true)).toEqual(written(sample, secrets, false));
  });

  it('writes each line as formatLine writes it alone', () => {
    for (const line of sample) expect(written([line], secrets, true)).toEqual([`${formatLine(line, secrets)}\n`]);
  });

  it('writes at once when 64 KiB are pending, as lines given whole are', () => {
    const many = Array.from({ length: 2000 }, (_, at): RequestLine => ({ method: 'POST', path: `/add-blacklist-record/${at}`, operation: 'addBlacklistRecord', status: 200, ms: at / 7, company: at % 3 ? 'Demo company' : 'Soci\u00e9t\u00e9' }));
    const parts = written(many, secrets, true);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts).toEqual(written(many, secrets, false));
  });

  it('never writes a key', () => {
    const [text] = written([{ method: 'GET', path: '/check-in-ck_test_parts_key', operation: 'checkInRegistry', status: 400, ms: 1, company: 'Demo company' }], secrets, true);
    expect(text).toBe('GET /check-in-[redacted] checkInRegistry 400 1.0ms "Demo company"\n');
  });
});
