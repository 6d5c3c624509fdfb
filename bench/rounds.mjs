// Shared pieces of the benchmarks: a bounded request loop at fixed concurrency, alternating rounds of
// candidate and baseline in one process, and medians. Every loop is bounded in count, so a run ends.

/**
 * Runs `total` calls of `once` with `concurrency` in flight; returns requests per second, and the process's
 * CPU time per call in microseconds (server and client alike when both run in this process).
 */
export async function measure(once, { total, concurrency }) {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await once();
    }
  };
  const cpu = process.cpuUsage();
  const begin = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
  const used = process.cpuUsage(cpu);
  return { rps: total / seconds, cpuUs: (used.user + used.system) / total };
}

/** Runs `total` calls of `once` with `concurrency` in flight; returns requests per second. */
export async function throughput(once, options) {
  return (await measure(once, options)).rps;
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Alternates the candidates round by round (after one warm-up round each), so that drift of the machine
 * hits all of them alike. Returns each candidate's per-round requests per second, and in `cpuUs` its
 * per-round CPU microseconds per call.
 *
 * `last` names candidates run at the end of every round, outside the alternation: a comparison that
 * leaves more garbage behind (bare openapi-fetch) then precedes each alternating candidate equally often,
 * where alternating it too would put it right before one of them in every other round and never before
 * the other.
 */
export async function alternate(candidates, { rounds, total, concurrency, last = [] }) {
  const figures = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  const cpuUs = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (const once of Object.values(candidates)) await measure(once, { total: Math.ceil(total / 4), concurrency });
  const alternating = Object.entries(candidates).filter(([name]) => !last.includes(name));
  const closing = Object.entries(candidates).filter(([name]) => last.includes(name));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...alternating].reverse() : alternating;
    for (const [name, once] of [...order, ...closing]) {
      const figure = await measure(once, { total, concurrency });
      figures[name].push(figure.rps);
      cpuUs[name].push(figure.cpuUs);
    }
  }
  return Object.assign(figures, { cpuUs });
}
