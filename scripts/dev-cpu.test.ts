// The CPU seconds in dev's report of a save (dev-cpu.mjs): a thread's own, not its process's.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuBetween, processCpu, threadCpu } from './dev-cpu.mjs';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('threadCpu', () => {
  it("counts the calling thread's work, not a worker's beside it, which its process counts", async () => {
    // The worker works until it has used 0.2 s of CPU by its own count, however busy the machine.
    const worker = new Worker(
      `const { threadCpu } = await import(${JSON.stringify(new URL('./dev-cpu.mjs', import.meta.url).href)});
       const from = threadCpu();
       while (threadCpu() - from < 0.2);
       (await import('node:worker_threads')).parentPort.postMessage('done');`,
      { eval: true, type: 'module' } as never,
    );
    const thread = threadCpu();
    const process = processCpu(globalThis.process.pid);
    await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    busy(200);
    const own = cpuBetween(thread, threadCpu())!;
    const all = cpuBetween(process, processCpu(globalThis.process.pid))!;
    // The worker's 0.2 s are in the process's figure, never in the thread's.
    expect(all - own).toBeGreaterThanOrEqual(0.19);
    expect(own).toBeGreaterThan(0);
  });

  it('gives nothing for a missing reading', () => {
    expect(cpuBetween(undefined, 1)).toBeUndefined();
    expect(processCpu(undefined)).toBeUndefined();
  });
});
