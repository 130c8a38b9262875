--[[
  Reads a node's queues in one atomic snapshot: the ids they hold (the reconciler's lost-push check) or
  only how many (queue depth).
  App lists are named from ARGV[1]: they carry the same hash tag as KEYS, so they live in the same slot.

  Input:
    KEYS[1] rotation of the node (list of URI-encoded app ids; each has a non-empty list)
    KEYS[2] ready list of a previous version (one list per node, no app)
    KEYS[3] processing list of the node

    ARGV[1] prefix of the node's app lists (the list of app X is ARGV[1] .. X)
    ARGV[2] "ids" or "lengths"

  Output:
    "ids": array of ids: each app's list (rotation order), the previous version's list, the processing list
    "lengths": array of two numbers: ids ready (every app's list and the previous version's), ids in processing
]]
local ready = { KEYS[2] }
for _, app in ipairs(redis.call("LRANGE", KEYS[1], 0, -1)) do
  ready[#ready + 1] = ARGV[1] .. app
end
if ARGV[2] == "lengths" then
  local n = 0
  for _, list in ipairs(ready) do
    n = n + redis.call("LLEN", list)
  end
  return { n, redis.call("LLEN", KEYS[3]) }
end
local out = {}
ready[#ready + 1] = KEYS[3]
for _, list in ipairs(ready) do
  for _, id in ipairs(redis.call("LRANGE", list, 0, -1)) do
    out[#out + 1] = id
  end
end
return out
