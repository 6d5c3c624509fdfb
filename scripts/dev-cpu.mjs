// CPU seconds for `npm run dev`'s report of each save (issue 16): on a machine shared with other work the
// wall time of a step says little, its CPU time what it would take alone. Linux /proc (utime + stime, in
// ticks of 10 ms); undefined elsewhere. Node 20 has no per-thread CPU of its own, and dev's check and types
// run in worker threads of one process, whose process.cpuUsage() counts every thread.
import { readFileSync } from 'node:fs';

function read(path) {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds the calling thread (main or worker) has used so far. */
export const threadCpu = () => read('/proc/thread-self/stat');

/** CPU seconds process `pid` (all its threads) has used so far. */
export const processCpu = (pid) => (pid === undefined ? undefined : read(`/proc/${pid}/stat`));

/** Seconds between two readings, or undefined when either is missing. */
export const cpuBetween = (from, to) => (from === undefined || to === undefined ? undefined : Number((to - from).toFixed(2)));
