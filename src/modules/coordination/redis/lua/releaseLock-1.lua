--[[
  Releases a lock only if the caller holds it (compare-owner DEL).

  Input:
    KEYS[1] lock key

    ARGV[1] owner

  Output:
    1 released
    0 not held by the caller (absent, expired or someone else's)
]]
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("DEL", KEYS[1])
  return 1
end
return 0
