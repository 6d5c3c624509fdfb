// The sliding log of one budget as a Redis sorted set (member: one send, score: its time in
// microseconds), read and written by one Lua script so that no two processes can both take the last slot.
// The time is Redis's own (TIME), never the caller's: processes whose clocks disagree still share one log
// on one clock. Keys: the budget's set. Arguments: limit, window in milliseconds, a member unique to
// this send. Answer: 0 when the send was recorded, else the milliseconds until a slot frees.
export const takeScript: string = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, math.ceil(window / 1000))
  return 0
end
local leaving = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
-- Never more than a window: a server clock set back must not hold the fleet for longer.
return math.min(window / 1000, math.max(1, math.ceil((tonumber(leaving[2]) + window - now) / 1000)))
`;
