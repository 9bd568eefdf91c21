/**
 * The sliding-window log, as one Redis Lua script: every check and the hit itself happen
 * atomically on the Redis server, so any number of app instances share one budget exactly.
 *
 * One sorted set per bucket (a tenant's plan budget, an address's global budget, …) holds one
 * member per counted request, scored by its time in milliseconds. All windows of a bucket
 * (minute, hour, day) count the same requests, so one set serves them all: a request is counted
 * in a window while `now - window < score`. A hit is recorded only when every window has room,
 * so a refused request consumes nothing, and a set never holds more members than its largest
 * limit.
 *
 * One call may check several buckets of a request (the per-address limit, then the tenant's), in
 * order, as the guards would one after the other: each is counted when all its windows have room,
 * and the first that has none refuses the request; the buckets after it are not looked at. One
 * round trip instead of one per limit. (The keys of one call must share a Redis Cluster slot to
 * run on a cluster; Sesame talks to one primary.)
 *
 * KEYS     the sorted sets, k of them
 * ARGV[1]  now, in milliseconds (the app's Clock; instances are NTP-synced)
 * ARGV[2]  "1" to count the request when every window has room, "0" to only read
 * ARGV[3]  a member unique to this request
 * then, for each key in turn: n, the number of its windows, followed by n pairs: window length in
 * ms, limit
 *
 * Returns one entry per bucket looked at, in order: { allowed (0|1), used_1, reset_1, …, used_n,
 * reset_n }: requests counted in each window (including this one when allowed) and the
 * milliseconds until that window has room for one more request (0 for an empty window). Only the
 * last entry can have allowed 0.
 */
export const SLIDING_WINDOW_SCRIPT = `
local function int(x) return string.format('%.0f', x) end
local now = tonumber(ARGV[1])
local consume = ARGV[2] == '1'
local member = ARGV[3]

local function check(key, at)
  local n = tonumber(ARGV[at])
  local lengths = {}
  local limits = {}
  local longest = 0
  for i = 1, n do
    lengths[i] = tonumber(ARGV[at + 2 * i - 1])
    limits[i] = tonumber(ARGV[at + 2 * i])
    if lengths[i] > longest then longest = lengths[i] end
  end

  if consume then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', int(now - longest))
  end

  local used = {}
  local allowed = 1
  for i = 1, n do
    used[i] = redis.call('ZCOUNT', key, '(' .. int(now - lengths[i]), '+inf')
    if used[i] >= limits[i] then allowed = 0 end
  end

  if consume and allowed == 1 then
    redis.call('ZADD', key, int(now), member)
    redis.call('PEXPIRE', key, int(longest))
    for i = 1, n do used[i] = used[i] + 1 end
  end

  local result = { allowed }
  for i = 1, n do
    local reset = 0
    if used[i] > 0 then
      -- The window has room again once the oldest (used - limit + 1) of its requests have left it.
      local index = used[i] - limits[i]
      if index < 0 then index = 0 end
      local entry = redis.call('ZRANGEBYSCORE', key, '(' .. int(now - lengths[i]), '+inf', 'WITHSCORES', 'LIMIT', int(index), 1)
      if entry[2] then reset = tonumber(entry[2]) + lengths[i] - now end
    end
    result[2 * i] = used[i]
    result[2 * i + 1] = reset
  end
  return result, at + 2 * n + 1
end

local results = {}
local at = 4
for k = 1, #KEYS do
  local result
  result, at = check(KEYS[k], at)
  results[k] = result
  if result[1] == 0 then break end
end
return results
`;
