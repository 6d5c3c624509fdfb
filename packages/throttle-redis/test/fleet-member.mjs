// One backend of a fleet, run as its own process by fleet.test.ts: once told the sandbox's URL, makes
// `calls` calls at once through the Redis throttle, reports each outcome to the parent as it comes, and
// aborts whatever still waits when the parent says so.
import { createClient } from '@idv-toolkit/client';
import { createRedisThrottle } from '@idv-toolkit/throttle-redis';

const [redisUrl, budget, perMinute, calls, companyKey] = process.argv.slice(2);
const throttle = createRedisThrottle({ redis: redisUrl, budget, perMinute: Number(perMinute) });
const controller = new AbortController();
const baseUrl = await new Promise((resolve) => {
  process.on('message', (message) => {
    if (message === 'abort') controller.abort(new Error('the test is over'));
    else if (message?.baseUrl) resolve(message.baseUrl);
  });
  process.send({ ready: true });
});

const idv = createClient({ companyKey, baseUrl, throwOnError: false, retry: false, rateLimit: { throttle } });
const outcomes = await Promise.all(
  Array.from({ length: Number(calls) }, async () => {
    const { response } = await idv.listGroups(undefined, { signal: controller.signal });
    // No response: the call never left, it was still held by the throttle when aborted.
    const outcome = response ? String(response.status) : 'held';
    process.send({ outcome });
    return outcome;
  }),
);
await throttle.close();
process.send({ done: true, outcomes });
process.disconnect();
