--[[
  Claims up to ARGV[1] ids of a node at once: moves them from the head of its ready list to the tail of
  its processing list, oldest first (an LMOVE loop, atomic as one script).

  Input:
    KEYS[1] ready list of the node
    KEYS[2] processing list of the node
    ARGV[1] how many ids at most (>= 1)

  Output:
    array of the ids moved, oldest first (empty when the ready list was empty)
]]
local out = {}
local max = tonumber(ARGV[1])
for _ = 1, max do
  local id = redis.call("LMOVE", KEYS[1], KEYS[2], "LEFT", "RIGHT")
  if not id then break end
  out[#out + 1] = id
end
return out
