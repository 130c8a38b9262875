--[[
  Removes and returns the delayed ids that are due, earliest first, so two callers never get the same id.

  Input:
    KEYS[1] delay queue (sorted set, score = due time in epoch ms)

    ARGV[1] now (epoch ms); ids with score <= now are due
    ARGV[2] limit (positive integer)

  Output:
    array of ids (possibly empty), ordered by due time then id
]]
local ids = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "LIMIT", 0, tonumber(ARGV[2]))
-- ZREM in chunks: unpack() of a very large table overflows the Lua C stack.
local chunk = 1000
for i = 1, #ids, chunk do
  redis.call("ZREM", KEYS[1], unpack(ids, i, math.min(i + chunk - 1, #ids)))
end
return ids
