--[[
  Empties every queue of a node and returns what they held, so the leader can route the ids again.
  App sets and lists are named from ARGV[1] and ARGV[2]: they carry the same hash tag as KEYS (same slot).

  Input:
    KEYS[1] processing list of the node
    KEYS[2] ready list of a version before fair sharing (one list per node, no app)
    KEYS[3] rotation of the node (list of URI-encoded app ids; each has a non-empty set or list)
    KEYS[4] bell of the node

    ARGV[1] prefix of the node's app sets (the sorted set of app X is ARGV[1] .. X)
    ARGV[2] prefix of the node's app lists of a version before priorities (the list of app X is ARGV[2] .. X)

  Output:
    array of ids: the processing list (oldest claim first), then the list before fair sharing, then each app's
    set (lowest rank first) and list in rotation order (head first)
]]
local out = redis.call("LRANGE", KEYS[1], 0, -1)
for _, id in ipairs(redis.call("LRANGE", KEYS[2], 0, -1)) do
  out[#out + 1] = id
end
for _, app in ipairs(redis.call("LRANGE", KEYS[3], 0, -1)) do
  for _, id in ipairs(redis.call("ZRANGE", ARGV[1] .. app, 0, -1)) do
    out[#out + 1] = id
  end
  for _, id in ipairs(redis.call("LRANGE", ARGV[2] .. app, 0, -1)) do
    out[#out + 1] = id
  end
  redis.call("DEL", ARGV[1] .. app, ARGV[2] .. app)
end
redis.call("DEL", KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return out
