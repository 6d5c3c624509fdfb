export { createRedisStore, createRedisThrottle, type RedisScripting, type RedisStore, type RedisStoreOptions, type RedisThrottleOptions } from './redis-store.js';
export { takeScript } from './take-script.js';
