// The request log's milliseconds: one decimal, exactly as toFixed(1) writes them (request-log.ts oneDecimal).
import { describe, expect, it } from 'vitest';
import { formatLine, oneDecimal } from './request-log.js';

describe('oneDecimal', () => {
  it('writes what toFixed(1) writes, halves and near-halves included', () => {
    const values = [0, 0.04, 0.05, 0.15, 0.25, 0.35, 0.45, 0.95, 1, 1.05, 1.25, 2.45, 9.95, 99.95, 0.04999999999999999, 1234.55, 999999999.95, 5e-324, 1e9, 1e21, 3.75];
    for (let i = 0; i < 20_000; i++) values.push(i / 20, i / 200 + 0.05, i / 1000, Math.random() * 100, Math.random() * 1e6);
    for (const ms of values) expect([ms, oneDecimal(ms)]).toEqual([ms, ms.toFixed(1)]);
  });

  it('is what the log line shows', () => {
    expect(formatLine({ method: 'POST', path: '/begin', operation: 'begin', status: 200, ms: 0.15, company: 'Demo' }, [])).toBe('POST /begin begin 200 0.1ms "Demo"');
    expect(formatLine({ method: 'POST', path: '/begin', operation: 'begin', status: 200, ms: 12.25, company: 'Demo' }, [])).toBe('POST /begin begin 200 12.3ms "Demo"');
  });
});
