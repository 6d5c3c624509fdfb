// By hand: bytes the sandbox allocates per request (issue 14), a figure that the machine's load does not
// change, from V8's own account of each collection (`allocated=` since the one before). Runs
// bench/sandbox-inprocess.mjs with a full collection either side of each measured round.
//
//   SANDBOX_DISTS="before=/path/to/old/dist,after=packages/sandbox/dist" node bench/allocations.mjs [requests per round] [rounds]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './rounds.mjs';

const harness = fileURLToPath(new URL('./sandbox-inprocess.mjs', import.meta.url));
const child = spawn(process.execPath, ['--expose-gc', '--trace-gc-nvp', harness, process.argv[2] ?? '5000', process.argv[3] ?? '3'], { env: { ...process.env, ALLOCATIONS: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
let text = '';
child.stdout.on('data', (chunk) => (text += chunk));
await new Promise((resolve) => child.on('exit', resolve));
const perRequest = {};
let round;
// The line of the collection that ends a round counts what the round allocated since the collection before.
for (const line of text.split('\n')) {
  const start = /^round-start (\S+) (\S+) (\d+)/.exec(line);
  if (start) {
    round = { key: `${start[1]} ${start[2]}`, requests: Number(start[3]), bytes: 0, open: true };
    continue;
  }
  if (line.startsWith('round-end') && round) {
    round.open = false;
    continue;
  }
  const allocated = /allocated=(\d+)/.exec(line);
  if (!allocated || !round) continue;
  // The first collection after round-start is the forced one that began it: what came before it is not the round's.
  if (round.open && round.started) round.bytes += Number(allocated[1]);
  else if (round.open) round.started = true;
  else {
    round.bytes += Number(allocated[1]);
    (perRequest[round.key] ??= []).push(round.bytes / round.requests);
    round = undefined;
  }
  if (!/allocated=/.test(line)) continue;
}
for (const [key, values] of Object.entries(perRequest)) console.log(`${key}: ${Math.round(median(values))} bytes allocated per request (rounds ${values.map(Math.round).join(', ')})`);
console.log(text.split('\n').filter((line) => /µs/.test(line)).join('\n'));
