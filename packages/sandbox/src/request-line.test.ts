// The command line's request log in-process (README "Request log": one line per request, never a key,
// written in batches); request-log.test.ts runs the command line itself.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedLines, formatLine } from './request-log.js';

describe('formatLine', () => {
  it('is method, path, operation, status, milliseconds to one decimal and the quoted company name', () => {
    expect(formatLine({ method: 'POST', path: '/begin', operation: 'begin', status: 200, ms: 1.26, company: 'Demo "company"' }, [])).toBe('POST /begin begin 200 1.3ms "Demo \\"company\\""');
  });

  it('shows - for no operation and no company', () => {
    expect(formatLine({ method: 'GET', path: '//', status: 404, ms: 0 }, [])).toBe('GET // - 404 0.0ms -');
  });

  it('redacts every occurrence of every key or token in the path, and ignores an empty secret', () => {
    const line = formatLine({ method: 'GET', path: '/x/ck_test_a/y/ck_test_a/cb_test_b', status: 404, ms: 1 }, ['', 'ck_test_a', 'cb_test_b', 'absent']);
    expect(line).toBe('GET /x/[redacted]/y/[redacted]/[redacted] - 404 1.0ms -');
  });

  it('cuts a path over 200 characters, and a key in the part kept is still redacted', () => {
    const long = `/${'a'.repeat(199)}`;
    expect(formatLine({ method: 'GET', path: long, status: 404, ms: 1 }, [])).toBe(`GET ${long} - 404 1.0ms -`);
    const longer = `/ck_test_secret${'b'.repeat(300)}`;
    expect(formatLine({ method: 'GET', path: longer, status: 404, ms: 1 }, ['ck_test_secret'])).toBe(`GET /[redacted]${'b'.repeat(200 - 15)}... - 404 1.0ms -`);
  });
});

describe('batchedLines', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the lines of a burst together, 50 ms after the first', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    log('one');
    vi.advanceTimersByTime(30);
    log('two');
    vi.advanceTimersByTime(19);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['one\ntwo\n']);
    vi.advanceTimersByTime(1_000);
    expect(writes).toEqual(['one\ntwo\n']); // nothing pending, nothing written
    log('three');
    vi.advanceTimersByTime(50);
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
  });

  it('writes at once when 64 KiB are pending, and starts counting again', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    const chunk = 'x'.repeat(16 * 1024);
    log(chunk);
    log(chunk);
    log(chunk);
    expect(writes).toEqual([]);
    log(`${chunk.slice(1)}y`);
    expect(writes).toEqual([`${[chunk, chunk, chunk, `${chunk.slice(1)}y`].join('\n')}\n`]);
    log('small');
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(writes[1]).toBe('small\n');
  });

  it('writes what is pending when the process exits', () => {
    const before = new Set(process.listeners('exit'));
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    const onExit = process.listeners('exit').find((listener) => !before.has(listener));
    expect(onExit).toBeDefined();
    process.off('exit', onExit!);
    log('last');
    (onExit as () => void)();
    expect(writes).toEqual(['last\n']);
  });
});
