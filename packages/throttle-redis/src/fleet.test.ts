// A fleet behind one IP sharing one budget: four processes, each calling as fast as it can through the
// Redis throttle, against the sandbox (its own process) started with --rate-limit equal to the budget.
// Exactly the budget goes out at once, the rest is held, and the sandbox never answers 529.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { demoCompanyKey } from '@idv-toolkit/sandbox';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';

const redisUrl = inject('redisUrl');
const sandboxCli = fileURLToPath(import.meta.resolve('@idv-toolkit/sandbox/package.json').replace('package.json', 'dist/cli.js'));
const member = fileURLToPath(new URL('../test/fleet-member.mjs', import.meta.url));
const skewClock = fileURLToPath(new URL('../test/skew-clock.mjs', import.meta.url));
// Hosts whose clocks disagree by minutes: a log stamped with each caller's own time would let them through.
const skews = [0, 70_000, -70_000, 180_000];

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill();
});

async function startSandbox(rateLimit: number): Promise<string> {
  const sandbox = spawn(process.execPath, [sandboxCli, '--memory', '--port', '0', '--rate-limit', String(rateLimit)], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(sandbox);
  for await (const line of createInterface({ input: sandbox.stdout! })) {
    const origin = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    if (origin) return origin;
  }
  throw new Error('the sandbox exited before listening');
}

type Member = { child: ChildProcess; outcomes: string[]; ready: Promise<void>; done: Promise<string[]> };

function startMember(budget: string, perMinute: number, calls: number, skewMs: number): Member {
  const child = fork(member, [redisUrl, budget, String(perMinute), String(calls), demoCompanyKey], {
    execArgv: ['--import', skewClock],
    env: { ...process.env, SKEW_MS: String(skewMs) },
  });
  started.push(child);
  const outcomes: string[] = [];
  let ready!: () => void;
  let done!: (outcomes: string[]) => void;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`a fleet member exited with ${code}`))));
  exited.catch(() => undefined);
  child.on('message', (message: { ready?: boolean; outcome?: string; done?: boolean; outcomes?: string[] }) => {
    if (message.ready) ready();
    if (message.outcome) outcomes.push(message.outcome);
    if (message.done) done(message.outcomes!);
  });
  return {
    child,
    outcomes,
    ready: Promise.race([new Promise<void>((resolve) => (ready = resolve)), exited]),
    done: Promise.race([new Promise<string[]>((resolve) => (done = resolve)), exited]),
  };
}

describe('four processes sharing one Redis budget against the sandbox', () => {
  it.each([
    { budget: 20, callsEach: 10 },
    // The acceptance line across processes: 12 calls against --rate-limit 10, 10 at once, the 11th held.
    { budget: 10, callsEach: 3 },
  ])('send exactly $budget of 4 × $callsEach calls at once, hold the rest, and get no 529', async ({ budget, callsEach }) => {
    // The members load and connect while the sandbox starts; then all of them go at once.
    const name = `fleet-${randomUUID()}`;
    const fleet = skews.map((skew) => startMember(name, budget, callsEach, skew));
    const [baseUrl] = await Promise.all([startSandbox(budget), ...fleet.map((m) => m.ready)]);
    for (const m of fleet) m.child.send({ baseUrl });
    const answered = () => fleet.flatMap((m) => m.outcomes).filter((outcome) => outcome !== 'held');

    await vi.waitFor(() => expect(answered()).toHaveLength(budget), { timeout: 10_000, interval: 50 });
    // The rest stay held: nothing more goes out in the next seconds (the budget frees only a minute on).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(answered()).toHaveLength(budget);

    for (const m of fleet) if (m.child.connected) m.child.send('abort');
    const outcomes = (await Promise.all(fleet.map((m) => m.done))).flat();
    expect(outcomes.filter((outcome) => outcome === '200')).toHaveLength(budget);
    expect(outcomes.filter((outcome) => outcome === '529')).toHaveLength(0);
    expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(4 * callsEach - budget);

    // The sandbox's minute is full, not over: one more request, past the throttle, is the first 529.
    const extra = await fetch(`${baseUrl}/list-groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: demoCompanyKey }) });
    expect(extra.status).toBe(529);
  });
});
