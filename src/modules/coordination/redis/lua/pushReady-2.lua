--[[
  Queues ids on a node, fair across apps and by rank within an app (docs/dispatch.md "Fair sharing between
  apps", "Priorities"): each id joins its app's sorted set with its rank as score (lowest claimed first; equal
  ranks in id order); an app not in the node's rotation joins it at its tail (invariant: an app is in the
  rotation exactly when its set is non-empty); then the node's bell gets a token (at most one), which wakes a
  claim blocked on it. An id pushed again keeps one entry, with the new rank.
  The sets are named from ARGV[1]: they carry the same hash tag as KEYS, so they live in the same slot.

  Input:
    KEYS[1] rotation of the node (list of URI-encoded app ids, in turn order)
    KEYS[2] bell of the node (list holding at most one token)

    ARGV[1] prefix of the node's app sets (the set of app X is ARGV[1] .. X)
    ARGV[2..] groups, one per app: URI-encoded app id, count n, then n pairs of rank (a number) and id

  Output:
    nothing
]]
-- ZADD in chunks: unpack() of a very large table overflows the Lua C stack (an even size keeps pairs whole).
local chunk = 1000
local i = 2
while i <= #ARGV do
  local app = ARGV[i]
  local last = i + 1 + 2 * tonumber(ARGV[i + 1])
  local set = ARGV[1] .. app
  for j = i + 2, last, chunk do
    redis.call("ZADD", set, unpack(ARGV, j, math.min(j + chunk - 1, last)))
  end
  if not redis.call("LPOS", KEYS[1], app) then
    redis.call("RPUSH", KEYS[1], app)
  end
  i = last + 1
end
if redis.call("LLEN", KEYS[2]) == 0 then
  redis.call("RPUSH", KEYS[2], "1")
end
