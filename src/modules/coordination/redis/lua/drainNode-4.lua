--[[
  Empties every queue of a node and returns what they held, so the leader can route the ids again.
  App lists are named from ARGV[1]: they carry the same hash tag as KEYS, so they live in the same slot.

  Input:
    KEYS[1] processing list of the node
    KEYS[2] ready list of a previous version (one list per node, no app)
    KEYS[3] rotation of the node (list of URI-encoded app ids; each has a non-empty list)
    KEYS[4] bell of the node

    ARGV[1] prefix of the node's app lists (the list of app X is ARGV[1] .. X)

  Output:
    array of ids: the processing list (oldest claim first), then the previous version's list, then each
    app's list in rotation order (head first)
]]
local out = redis.call("LRANGE", KEYS[1], 0, -1)
local lists = { KEYS[2] }
for _, app in ipairs(redis.call("LRANGE", KEYS[3], 0, -1)) do
  lists[#lists + 1] = ARGV[1] .. app
end
for _, list in ipairs(lists) do
  for _, id in ipairs(redis.call("LRANGE", list, 0, -1)) do
    out[#out + 1] = id
  end
  redis.call("DEL", list)
end
redis.call("DEL", KEYS[1], KEYS[3], KEYS[4])
return out
