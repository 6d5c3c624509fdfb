// keyedMutex (store.ts): the memory store's transactions, one at a time per company, in arrival order.
import { describe, expect, it } from 'vitest';
import { keyedMutex } from './store.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keyedMutex', () => {
  it('runs the work of one key one at a time, in arrival order, and gives back each result', async () => {
    const exclusive = keyedMutex();
    const log: string[] = [];
    const work = (name: string) => async () => {
      log.push(`${name} in`);
      await turn();
      log.push(`${name} out`);
      return name;
    };
    expect(await Promise.all([exclusive('a', work('1')), exclusive('a', work('2')), exclusive('a', work('3'))])).toEqual(['1', '2', '3']);
    expect(log).toEqual(['1 in', '1 out', '2 in', '2 out', '3 in', '3 out']);
  });

  it('never makes another key wait', async () => {
    const exclusive = keyedMutex();
    let release!: () => void;
    const held = exclusive('a', () => new Promise<void>((resolve) => (release = resolve)));
    expect(await exclusive('b', async () => 'b ran')).toBe('b ran');
    release();
    await held;
  });

  it('lets the next work run after a failure, thrown at once or later', async () => {
    const exclusive = keyedMutex();
    const failsAtOnce = exclusive('a', () => {
      throw new Error('at once');
    });
    const failsLater = exclusive('a', async () => {
      await turn();
      throw new Error('later');
    });
    const after = exclusive('a', async () => 'ran');
    await expect(failsAtOnce).rejects.toThrow('at once');
    await expect(failsLater).rejects.toThrow('later');
    expect(await after).toBe('ran');
    expect(await exclusive('a', async () => 'free again')).toBe('free again');
  });

  it('keeps a held key waiting in turn however many other keys came and went', async () => {
    const exclusive = keyedMutex();
    let release!: () => void;
    const log: string[] = [];
    const held = exclusive('a', () => new Promise<void>((resolve) => (release = resolve)).then(() => void log.push('held out')));
    for (let n = 0; n < 1500; n++) await exclusive(`key ${n}`, async () => n);
    const next = exclusive('a', async () => void log.push('next in'));
    await turn();
    expect(log).toEqual([]);
    release();
    await Promise.all([held, next]);
    expect(log).toEqual(['held out', 'next in']);
  });
});
