--[[
  Takes tokens from a token bucket (per-app request rate limits, README "Rate limits"). The bucket refills
  continuously at `rate` tokens per second up to `burst`; a bucket that does not exist (never used, or idle
  until full and expired) is full. The clock is this Redis server's TIME, not the caller's: every node of
  the cluster then measures the same time, whatever its own clock says.

  Input:
    KEYS[1] bucket (hash: tokens = tokens left, fractional; at = epoch ms when they were counted)

    ARGV[1] rate, tokens per second (> 0)
    ARGV[2] burst, the bucket's capacity (integer >= 1)
    ARGV[3] n, tokens to take (integer 1..burst)

  Output:
    { allowed (1 = taken, 0 = refused, nothing taken), whole tokens left, ms until n tokens are there
      (0 when allowed), ms until the bucket is full again }
]]
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call("HMGET", KEYS[1], "tokens", "at")
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
redis.call("HSET", KEYS[1], "tokens", string.format("%.17g", tokens), "at", now)
-- an idle bucket is full again after fullIn ms: then it may as well not exist
redis.call("PEXPIRE", KEYS[1], fullIn + 1000)
return { allowed, math.floor(tokens), retryAfter, fullIn }
