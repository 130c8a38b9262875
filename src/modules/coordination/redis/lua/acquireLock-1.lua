--[[
  Takes a lock when it is free, or re-takes it (resetting the TTL) when the caller already holds it; when someone
  else holds it, tells how long that holder's lock has left, so the caller can try again right as it expires.

  Input:
    KEYS[1] lock key

    ARGV[1] owner
    ARGV[2] ttl in ms (positive integer)

  Output:
    {1}        the caller holds the lock for ARGV[2] ms from now
    {0, pttl}  someone else holds it for pttl more ms (ARGV[2] for a key without a TTL)
]]
local key = KEYS[1]
if redis.call("SET", key, ARGV[1], "NX", "PX", ARGV[2]) then
  return {1}
end
if redis.call("GET", key) == ARGV[1] then
  redis.call("PEXPIRE", key, ARGV[2])
  return {1}
end
local pttl = redis.call("PTTL", key)
if pttl < 1 then
  pttl = tonumber(ARGV[2])
end
return {0, pttl}
