--[[
  Records a node's heartbeat and its advertisement together.

  Input:
    KEYS[1] node registry (sorted set, score = last beat in epoch ms)
    KEYS[2] node advertisements (hash nodeId -> JSON)

    ARGV[1] node id
    ARGV[2] now (epoch ms)
    ARGV[3] advertisement JSON

  Output:
    1
]]
redis.call("ZADD", KEYS[1], ARGV[2], ARGV[1])
redis.call("HSET", KEYS[2], ARGV[1], ARGV[3])
return 1
