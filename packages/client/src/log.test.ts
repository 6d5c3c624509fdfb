// The log a client is made with: `undefined` when nothing would be written, so that a call skips building
// its lines; where there is no `process` (a browser, with allowBrowser) the level comes from the option alone.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLog, type Logger } from './log.js';

function captureLogger() {
  const lines: string[] = [];
  const logger: Logger = { debug: (m) => lines.push(`debug ${m}`), info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
  return { lines, logger };
}

/** Runs `body` (synchronously) with `globalThis.process` replaced, as in a browser or under a bundler's stub. */
function withProcess<T>(value: unknown, body: () => T): T {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
  Object.defineProperty(globalThis, 'process', { value, configurable: true, writable: true });
  try {
    return body();
  } finally {
    Object.defineProperty(globalThis, 'process', original);
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the log', () => {
  it('is off, with nothing to call, for the level off, an empty or unknown IDV_LOG, or none', () => {
    const { logger } = captureLogger();
    expect(createLog(logger, 'off')).toBeUndefined();
    vi.stubEnv('IDV_LOG', 'debug');
    expect(createLog(logger, 'off')).toBeUndefined();
    for (const value of ['off', '', 'verbose', 'DEBUG']) {
      vi.stubEnv('IDV_LOG', value);
      expect(createLog(logger, undefined), `IDV_LOG=${JSON.stringify(value)}`).toBeUndefined();
    }
    vi.stubEnv('IDV_LOG', undefined);
    expect(createLog(logger, undefined)).toBeUndefined();
  });

  it('writes the lines at or above its level, each naming the request', () => {
    const { lines, logger } = captureLogger();
    vi.stubEnv('IDV_LOG', 'info');
    const log = createLog(logger, undefined)!;
    log('debug', 'req-1', 'hidden');
    log('info', 'req-1', 'shown');
    log('warn', 'req-2', 'shown too');
    expect(lines).toEqual(['info [idv] req-1 shown', 'warn [idv] req-2 shown too']);
  });

  it('is made where there is no process, or a process without env, from the option alone', () => {
    const { lines, logger } = captureLogger();
    for (const stand of [undefined, {}]) {
      expect(withProcess(stand, () => createLog(logger, undefined))).toBeUndefined();
      const log = withProcess(stand, () => createLog(logger, 'warn'))!;
      log('warn', 'req-1', 'shown');
    }
    expect(lines).toEqual(['warn [idv] req-1 shown', 'warn [idv] req-1 shown']);
  });
});
