--[[
  Takes a lock when it is free, or re-takes it (resetting the TTL) when the caller already holds it.

  Input:
    KEYS[1] lock key

    ARGV[1] owner
    ARGV[2] ttl in ms (positive integer)

  Output:
    1 the caller holds the lock for ARGV[2] ms from now
    0 someone else holds it
]]
local key = KEYS[1]
if redis.call("SET", key, ARGV[1], "NX", "PX", ARGV[2]) then
  return 1
end
if redis.call("GET", key) == ARGV[1] then
  redis.call("PEXPIRE", key, ARGV[2])
  return 1
end
return 0
