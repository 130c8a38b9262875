--[[
  Reads a node's queues in one atomic snapshot: the ids they hold (the reconciler's lost-push check) or
  only how many (queue depth).
  App sets and lists are named from ARGV[1] and ARGV[2]: they carry the same hash tag as KEYS (same slot).

  Input:
    KEYS[1] rotation of the node (list of URI-encoded app ids; each has a non-empty set or list)
    KEYS[2] ready list of a version before fair sharing (one list per node, no app)
    KEYS[3] processing list of the node

    ARGV[1] prefix of the node's app sets (the sorted set of app X is ARGV[1] .. X)
    ARGV[2] prefix of the node's app lists of a version before priorities (the list of app X is ARGV[2] .. X)
    ARGV[3] "ids" or "lengths"

  Output:
    "ids": array of ids: each app's set and list (rotation order), the list before fair sharing, the processing
    list
    "lengths": array of two numbers: ids ready (every app's set and list, the list before fair sharing), ids in
    processing
]]
local apps = redis.call("LRANGE", KEYS[1], 0, -1)
if ARGV[3] == "lengths" then
  local n = redis.call("LLEN", KEYS[2])
  for _, app in ipairs(apps) do
    n = n + redis.call("ZCARD", ARGV[1] .. app) + redis.call("LLEN", ARGV[2] .. app)
  end
  return { n, redis.call("LLEN", KEYS[3]) }
end
local out = {}
local function add(ids)
  for _, id in ipairs(ids) do
    out[#out + 1] = id
  end
end
for _, app in ipairs(apps) do
  add(redis.call("ZRANGE", ARGV[1] .. app, 0, -1))
  add(redis.call("LRANGE", ARGV[2] .. app, 0, -1))
end
add(redis.call("LRANGE", KEYS[2], 0, -1))
add(redis.call("LRANGE", KEYS[3], 0, -1))
return out
