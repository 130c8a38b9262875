--[[
  Forgets a node: its heartbeat and its advertisement.

  Input:
    KEYS[1] node registry (sorted set, score = last beat in epoch ms)
    KEYS[2] node advertisements (hash nodeId -> JSON)

    ARGV[1] node id

  Output:
    1 when the node was registered, 0 otherwise
]]
local removed = redis.call("ZREM", KEYS[1], ARGV[1])
redis.call("HDEL", KEYS[2], ARGV[1])
return removed
