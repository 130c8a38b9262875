--[[
  Reads the nodes whose last beat lies in a score range, with their advertisements, in one snapshot.

  Input:
    KEYS[1] node registry (sorted set, score = last beat in epoch ms)
    KEYS[2] node advertisements (hash nodeId -> JSON)

    ARGV[1] min score (ZRANGEBYSCORE syntax: "-inf", "123", "(123")
    ARGV[2] max score (same syntax)

  Output:
    flat array: nodeId, lastBeat, advertisement JSON (nil when missing), repeated
]]
local rows = redis.call("ZRANGEBYSCORE", KEYS[1], ARGV[1], ARGV[2], "WITHSCORES")
local out = {}
for i = 1, #rows, 2 do
  out[#out + 1] = rows[i]
  out[#out + 1] = rows[i + 1]
  out[#out + 1] = redis.call("HGET", KEYS[2], rows[i])
end
return out
