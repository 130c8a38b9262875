--[[
  Claims up to ARGV[3] ids of a node at once, fair across apps (docs/dispatch.md "Fair sharing between
  apps", "Priorities"): moves them to the tail of the node's processing list. Ids of the single ready list of
  versions before fair sharing come first (oldest work, app unknown); then the apps take turns: each turn
  moves the app from the head of the rotation to its tail and takes the lowest-ranked id of its set (then,
  once the set is empty, the oldest of its list from a version before priorities), unless the app holds ARGV[4]
  ids already (counting ARGV[5..] and this call's own), in which case the turn passes. An app with neither
  left leaves the rotation.
  Bell: when this call took its full count and work is left, the bell keeps a token (the next waiting
  claim is woken); otherwise it is emptied (this call has seen every push so far).
  App sets and lists are named from ARGV[1] and ARGV[2]: they carry the same hash tag as KEYS (same slot).

  Input:
    KEYS[1] rotation of the node (list of URI-encoded app ids, in turn order)
    KEYS[2] processing list of the node
    KEYS[3] ready list of a version before fair sharing (one list per node, no app)
    KEYS[4] bell of the node

    ARGV[1] prefix of the node's app sets (the sorted set of app X is ARGV[1] .. X)
    ARGV[2] prefix of the node's app lists of a version before priorities (the list of app X is ARGV[2] .. X)
    ARGV[3] how many ids at most (>= 1)
    ARGV[4] most ids one app may hold (0: no cap)
    ARGV[5..] pairs: URI-encoded app id, ids it holds now

  Output:
    array: 1 when an app with ids left was passed over for its cap (else 0), then pairs of
    id and URI-encoded app id ("" for an id of the list before fair sharing), in the order taken
]]
local max = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local held = {}
for i = 5, #ARGV, 2 do
  held[ARGV[i]] = tonumber(ARGV[i + 1])
end
local out = { 0 }
local taken = 0
while taken < max do
  local id = redis.call("LMOVE", KEYS[3], KEYS[2], "LEFT", "RIGHT")
  if not id then break end
  out[#out + 1] = id
  out[#out + 1] = ""
  taken = taken + 1
end
local apps = redis.call("LLEN", KEYS[1])
local passed = 0 -- turns in a row that took nothing: a whole round of them ends the claim
while taken < max and apps > 0 and passed < apps do
  local app = redis.call("LMOVE", KEYS[1], KEYS[1], "LEFT", "RIGHT")
  local n = held[app] or 0
  if cap > 0 and n >= cap then
    out[1] = 1
    passed = passed + 1
  else
    local set = ARGV[1] .. app
    local old = ARGV[2] .. app
    local id = redis.call("ZPOPMIN", set)[1]
    if id then
      redis.call("RPUSH", KEYS[2], id)
    else
      id = redis.call("LMOVE", old, KEYS[2], "LEFT", "RIGHT")
    end
    if id then
      out[#out + 1] = id
      out[#out + 1] = app
      held[app] = n + 1
      taken = taken + 1
      passed = 0
    end
    if redis.call("ZCARD", set) == 0 and redis.call("LLEN", old) == 0 then
      redis.call("RPOP", KEYS[1]) -- the app just moved to the tail; it has nothing left
      apps = apps - 1
    end
  end
end
if taken == max and (apps > 0 or redis.call("LLEN", KEYS[3]) > 0) then
  if redis.call("LLEN", KEYS[4]) == 0 then redis.call("RPUSH", KEYS[4], "1") end
else
  redis.call("DEL", KEYS[4])
end
return out
