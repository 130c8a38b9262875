--[[
  Takes slots of a counting semaphore with expiring holders (per-job maxConcurrency, docs/execution.md).
  A semaphore is only trusted while it carries its "known" mark (member "~known", score +inf), set by
  seedSlots from MySQL's dispatched and running instances. Without the mark (never seeded, expired, or
  lost with Redis: FLUSHALL, failover to an empty replica) the script admits nobody and answers nil, so
  the caller rebuilds the semaphore from MySQL before it admits anyone past the limit.
  With the mark: expired holders are dropped first; then each holder, in order, is admitted when it
  already holds a slot (its expiry is refreshed) or while fewer than `limit` slots are held.

  Input:
    KEYS[1] semaphore (sorted set, member = holder, score = expiry in epoch ms; plus the mark)

    ARGV[1] now (epoch ms); holders with score <= now have expired
    ARGV[2] new expiry of admitted holders (epoch ms)
    ARGV[3] limit (positive integer)
    ARGV[4..] holders

  Output:
    nil when the semaphore is not known; else the admitted holders, in input order
]]
local MARK = "~known"
local key = KEYS[1]
if not redis.call("ZSCORE", key, MARK) then
  return false
end
local expireAt = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call("ZREMRANGEBYSCORE", key, "-inf", ARGV[1])
local held = redis.call("ZCARD", key) - 1
local admitted = {}
for i = 4, #ARGV do
  local holder = ARGV[i]
  if redis.call("ZSCORE", key, holder) then
    redis.call("ZADD", key, expireAt, holder)
    admitted[#admitted + 1] = holder
  elseif held < limit then
    redis.call("ZADD", key, expireAt, holder)
    held = held + 1
    admitted[#admitted + 1] = holder
  end
end
-- the key (and so its mark) lives as long as its longest holder, and at least until expireAt
local last = redis.call("ZREVRANGEBYSCORE", key, "(+inf", "-inf", "WITHSCORES", "LIMIT", 0, 1)
if last[2] and tonumber(last[2]) > expireAt then expireAt = tonumber(last[2]) end
redis.call("PEXPIREAT", key, math.floor(expireAt))
return admitted
