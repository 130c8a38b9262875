--[[
  Extends a lock only if the caller still holds it (compare-owner PEXPIRE).

  Input:
    KEYS[1] lock key

    ARGV[1] owner
    ARGV[2] ttl in ms (positive integer)

  Output:
    1 renewed
    0 lost: the lock expired or another owner holds it
]]
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  return 1
end
return 0
