// The command line's request log with lines longer than its batch (request-log.ts batchedLines: 256 KiB
// of bytes wait for a write): a long line is written whole, after what was pending and in the order given,
// whether it comes as a string or as a request's parts (a company name of any length, as configured).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedLines, formatLine, oneDecimal, type RequestLine } from './request-log.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A writer whose writes are collected; its write at exit is not needed (the timer writes everything). */
function writer() {
  vi.useFakeTimers();
  const writes: string[] = [];
  const before = new Set(process.listeners('exit'));
  const log = batchedLines((text) => writes.push(text));
  for (const listener of process.listeners('exit')) if (!before.has(listener)) process.off('exit', listener);
  const settle = () => vi.advanceTimersByTime(50);
  return { log, writes, settle };
}

/** The batch's size in bytes (request-log.ts: 4 x 64 Ki). */
const batch = 4 * 64 * 1024;

describe('batchedLines, lines longer than a batch', () => {
  it('writes a first line of 300,000 bytes whole, and nothing before it', () => {
    const { log, writes, settle } = writer();
    const long = '\u4e00'.repeat(100_000); // three bytes each in UTF-8
    log(long);
    settle();
    expect(writes).toEqual([`${long}\n`]);
  });

  it('writes what was pending, then the long line whole, then what follows', () => {
    const { log, writes, settle } = writer();
    const long = `${'\u00e9'.repeat(50_000)}${'x'.repeat(50_000)}`;
    log('before');
    log(long);
    log('after');
    settle();
    expect(writes.join('')).toBe(`before\n${long}\nafter\n`);
    expect(writes[0]).toBe('before\n');
  });

  it('keeps a short line with the long one that still fits the batch after it', () => {
    // 3 bytes pending ("ab" and its newline), then a line whose worst case (3 bytes a character and a
    // newline) fills the batch exactly: both go in one write.
    const { log, writes, settle } = writer();
    const fits = 'y'.repeat((batch - 4) / 3);
    log('ab');
    log(fits);
    settle();
    expect(writes).toEqual([`ab\n${fits}\n`]);
  });

  it('writes a short line alone when the line after it may not fit the batch, and later batches as full as before', () => {
    const { log, writes, settle } = writer();
    // 1,001 bytes pending, then a line whose worst case is 87,300 x 3 + 1 bytes: together more than a batch.
    const near = 'z'.repeat(87_300);
    log('a'.repeat(1000));
    log(near);
    settle();
    // 11 bytes pending and the same line: together they fit the batch, so they are written together.
    log('0123456789');
    log(near);
    settle();
    expect(writes).toEqual([`${'a'.repeat(1000)}\n`, `${near}\n`, `0123456789\n${near}\n`]);
  });

  it('writes nothing, not even an empty write, for a long line that comes first', () => {
    const { log, writes } = writer();
    log('w'.repeat(100_000)); // 100,000 characters: written at once
    expect(writes).toHaveLength(1);
  });
});

describe('batchedLines, a request line from its parts longer than a batch', () => {
  /** A line of `bytes` bytes (its newline not counted) whose company name takes up the rest. */
  const lineOf = (bytes: number): RequestLine => {
    const parts: RequestLine = { method: 'POST', path: `/${'p'.repeat(60)}`, operation: 'o'.repeat(60), status: 200, ms: 1e12, company: '' };
    const without = formatLine(parts, []).length; // the company shown as ""
    return { ...parts, company: 'c'.repeat(bytes - without) };
  };

  for (const bytes of [batch - 20, batch - 1, batch, batch + 6, batch + 40, 300_000]) {
    it(`writes a line of ${bytes} bytes as formatLine writes it, alone and after another line`, () => {
      const line = lineOf(bytes);
      expect(formatLine(line, [])).toHaveLength(bytes);
      const alone = writer();
      alone.log.request(line, []);
      alone.settle();
      expect(alone.writes.join('')).toBe(`${formatLine(line, [])}\n`);
      const after = writer();
      after.log.request({ method: 'GET', path: '/a', status: 404, ms: 1 }, []);
      after.log.request(line, []);
      after.settle();
      expect(after.writes.join('')).toBe(`GET /a - 404 1.0ms -\n${formatLine(line, [])}\n`);
    });
  }
});

describe('oneDecimal, any number', () => {
  it('writes what toFixed(1) writes for negative numbers, infinities and NaN too', () => {
    for (const ms of [-0, -0.05, -0.15, -1, -1.25, -1.5, -12.34, -999.95, -1e12, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect([ms, oneDecimal(ms)]).toEqual([ms, ms.toFixed(1)]);
    }
  });
});
