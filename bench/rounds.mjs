// Shared pieces of the benchmarks: a bounded request loop at fixed concurrency, alternating rounds of
// candidate and baseline in one process, and medians. Every loop is bounded in count, so a run ends.

/** Runs `total` calls of `once` with `concurrency` in flight; returns requests per second. */
export async function throughput(once, { total, concurrency }) {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await once();
    }
  };
  const begin = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
  return total / seconds;
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Alternates the candidates round by round (after one warm-up round each), so that drift of the machine
 * hits all of them alike. Returns each candidate's per-round figures.
 */
export async function alternate(candidates, { rounds, total, concurrency }) {
  const figures = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (const once of Object.values(candidates)) await throughput(once, { total: Math.ceil(total / 4), concurrency });
  for (let round = 0; round < rounds; round++) {
    const order = Object.entries(candidates);
    if (round % 2) order.reverse();
    for (const [name, once] of order) figures[name].push(await throughput(once, { total, concurrency }));
  }
  return figures;
}
