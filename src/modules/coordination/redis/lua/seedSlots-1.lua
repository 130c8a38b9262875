--[[
  Rebuilds a counting semaphore from the source of truth (per-job maxConcurrency, docs/execution.md): marks it
  known (member "~known", score +inf) and makes each given holder hold a slot, whatever the limit (they
  are the instances MySQL says are dispatched or running: they hold one whether or not it fits). A holder
  already there keeps the later of its expiry and the new one; other holders are kept; expired holders
  are dropped.

  Input:
    KEYS[1] semaphore (sorted set, member = holder, score = expiry in epoch ms; plus the mark)

    ARGV[1] now (epoch ms); holders with score <= now have expired
    ARGV[2] expiry of the given holders, and the least the semaphore lives (epoch ms)
    ARGV[3..] holders (may be none: the semaphore is then known and empty)

  Output:
    number of holders after the seed
]]
local MARK = "~known"
local key = KEYS[1]
local expireAt = tonumber(ARGV[2])
redis.call("ZREMRANGEBYSCORE", key, "-inf", ARGV[1])
redis.call("ZADD", key, "+inf", MARK)
for i = 3, #ARGV do
  local score = redis.call("ZSCORE", key, ARGV[i])
  if not score or tonumber(score) < expireAt then
    redis.call("ZADD", key, expireAt, ARGV[i])
  end
end
local last = redis.call("ZREVRANGEBYSCORE", key, "(+inf", "-inf", "WITHSCORES", "LIMIT", 0, 1)
if last[2] and tonumber(last[2]) > expireAt then expireAt = tonumber(last[2]) end
redis.call("PEXPIREAT", key, math.floor(expireAt))
return redis.call("ZCARD", key) - 1
