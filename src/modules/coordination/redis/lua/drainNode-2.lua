--[[
  Empties both queues of a node and returns what they held, so the leader can route the ids again.

  Input:
    KEYS[1] processing list of the node
    KEYS[2] ready list of the node

  Output:
    array of ids: the processing list (oldest claim first), then the ready list (head first)
]]
local out = redis.call("LRANGE", KEYS[1], 0, -1)
local ready = redis.call("LRANGE", KEYS[2], 0, -1)
for i = 1, #ready do
  out[#out + 1] = ready[i]
end
redis.call("DEL", KEYS[1], KEYS[2])
return out
