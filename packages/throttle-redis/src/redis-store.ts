import { createHash, randomUUID } from 'node:crypto';
import { createThrottle, type Clock, type Throttle, type ThrottleStore } from '@idv-toolkit/client';
import { Redis } from 'ioredis';
import { takeScript } from './take-script.js';

/** What the store needs of a Redis client: ioredis's `evalsha` and `eval` (an ioredis `Redis` or `Cluster`). */
export type RedisScripting = Pick<Redis, 'evalsha' | 'eval'>;

export type RedisStoreOptions = {
  /**
   * An ioredis client you made (and close), or the URL of a Redis server (`redis://127.0.0.1:6379`); for a
   * URL the store makes its own connection, which `close()` ends.
   */
  redis: RedisScripting | string;
  /**
   * Name of the shared budget: every process that uses the same name on the same Redis shares one log
   * (default `'default'`). Give each egress IP its own name.
   */
  budget?: string;
  /** Prefix of the Redis key (default `'idv-toolkit:throttle:'`); the key is the prefix and the budget. */
  keyPrefix?: string;
};

export type RedisStore = ThrottleStore & {
  /** The Redis key of the budget's log. */
  readonly key: string;
  /** Ends the connection the store made from a URL; does nothing to a client you passed. */
  close(): Promise<void>;
};

const scriptSha = createHash('sha1').update(takeScript).digest('hex');

/**
 * A throttle store on Redis: the sliding log of sends of one budget, shared by every process that uses it.
 * Pass it to `createThrottle(perMinute, { store })`, or use `createRedisThrottle`.
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const own = typeof options.redis === 'string' ? new Redis(options.redis, { lazyConnect: false }) : undefined;
  const redis: RedisScripting = own ?? (options.redis as RedisScripting);
  const key = `${options.keyPrefix ?? 'idv-toolkit:throttle:'}${options.budget ?? 'default'}`;
  // Members only need to be unique among the sends of one window: this process's id and a counter.
  const sender = randomUUID();
  let sent = 0;

  return {
    key,
    async take(limit, windowMs) {
      const args = [1, key, limit, windowMs, `${sender}:${sent++}`] as const;
      let answer: unknown;
      try {
        answer = await redis.evalsha(scriptSha, ...args);
      } catch (error) {
        // A server that has not seen the script yet (or was restarted) is sent its text once.
        if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
        answer = await redis.eval(takeScript, ...args);
      }
      return Number(answer);
    },
    async close() {
      if (own) await own.quit();
    },
  };
}

export type RedisThrottleOptions = RedisStoreOptions & {
  /** The budget's requests per rolling minute, shared by every process (default 600, the service's limit per IP). */
  perMinute?: number;
  /** Time source of the waiting (tests pass a fake one); the log itself runs on Redis's clock. */
  clock?: Clock;
};

/**
 * The client's throttle with its log in Redis: give it to each client as `rateLimit: { throttle }`, in
 * every process behind the same egress IP, and together they stay within `perMinute`. Waiting requests of
 * one process are served in order and leave the queue when their signal aborts, as with the in-process throttle.
 */
export function createRedisThrottle(options: RedisThrottleOptions): Throttle & { store: RedisStore; close(): Promise<void> } {
  const store = createRedisStore(options);
  const throttle = createThrottle(options.perMinute ?? 600, { store, clock: options.clock });
  return { acquire: (signal) => throttle.acquire(signal), store, close: () => store.close() };
}
