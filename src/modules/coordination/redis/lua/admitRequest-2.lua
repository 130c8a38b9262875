--[[
  Admits one signed request in one round trip (docs/api.md, README "Rate limits"): spends its nonce (SET NX PX)
  and, only for a nonce not seen before and a limited app, takes n tokens from the app's bucket with the
  arithmetic of takeTokens-1.lua (refilled continuously at `rate` per second up to `burst`, timed by this
  server's TIME). A replay takes no token.

  Input:
    KEYS[1] nonce marker (string, PX-expiring)
    KEYS[2] bucket (hash: tokens = tokens left, fractional; at = epoch ms when they were counted)

    ARGV[1] nonce ttl, ms (integer > 0)
    ARGV[2] rate, tokens per second (> 0), or 0 for no bucket
    ARGV[3] burst, the bucket's capacity (integer >= 1)
    ARGV[4] n, tokens to take (integer 1..burst)

  Output:
    { 0 } for a replay; { 1 } for a new nonce and no bucket; else { 1, allowed (1 = taken, 0 = refused,
    nothing taken), whole tokens left, ms until n tokens are there (0 when allowed), ms until full again }
]]
if not redis.call("SET", KEYS[1], "1", "PX", ARGV[1], "NX") then
  return { 0 }
end
local rate = tonumber(ARGV[2])
if rate == 0 then
  return { 1 }
end
local burst = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call("HMGET", KEYS[2], "tokens", "at")
local tokens = burst
if state[1] and state[2] then
  local elapsed = math.max(0, now - tonumber(state[2]))
  tokens = math.min(burst, tonumber(state[1]) + elapsed * rate / 1000)
end
local allowed = 0
local retryAfter = 0
if tokens >= n then
  tokens = tokens - n
  allowed = 1
else
  retryAfter = math.ceil((n - tokens) * 1000 / rate)
end
local fullIn = math.ceil((burst - tokens) * 1000 / rate)
redis.call("HSET", KEYS[2], "tokens", string.format("%.17g", tokens), "at", now)
redis.call("PEXPIRE", KEYS[2], fullIn + 1000)
return { 1, allowed, math.floor(tokens), retryAfter, fullIn }
