// The Lua scripts behind the shared queues (store.ts). Each runs atomically in Redis, which is what
// keeps several processes consistent: an event's ID is allocated in the same step that appends it,
// so IDs and list order always agree, and acknowledging, touching and collecting never interleave
// with an append.
//
// Key layout, after the deployment's prefix P:
//   P q:<id>          hash: realm, user ('' for spectators), options (JSON), idle (ms), next (event ID)
//   P q:<id>:events   list: the unacknowledged events, JSON without their ID; they hold consecutive IDs
//                     ending at next-1, so an event's ID is (next - length + index)
//   P u:<userId>      set: the user's queue IDs (who gets a delivery addressed to the user)
//   P public:<realm>  set: queue IDs registered with all_public_streams
//   P expiry          sorted set: queue ID scored by the time (ms) it becomes idle
//   channel P wake    the IDs of queues that got events or were deleted (space-separated), once per
//                     append: each process wakes whatever it is waiting on among them
//
// Keys are derived inside the scripts (a delivery's queues are only known from the per-user index),
// so this needs standalone Redis or Sentinel, not Redis Cluster. Every call passes P as ARGV[1].
// Queue keys also carry a TTL of twice the idle timeout, refreshed on each poll, so queues are
// cleaned up even if no process is left to collect them.

/** Extends a queue's life from `now`; answers its idle timeout (ms), or nil if it does not exist. */
const TOUCH = `
local function touch(prefix, id, now)
  local meta = prefix .. 'q:' .. id
  local idle = redis.call('HGET', meta, 'idle')
  if not idle then return nil end
  idle = tonumber(idle)
  redis.call('ZADD', prefix .. 'expiry', now + idle, id)
  redis.call('PEXPIRE', meta, 2 * idle)
  redis.call('PEXPIRE', meta .. ':events', 2 * idle)
  return idle
end
`;

/** Removes a queue and its index entries, and wakes whoever waits on it; answers 1 if it existed. */
const DROP = `
local function drop(prefix, id)
  redis.call('ZREM', prefix .. 'expiry', id)
  local meta = prefix .. 'q:' .. id
  local fields = redis.call('HMGET', meta, 'realm', 'user')
  if not fields[1] then return 0 end
  redis.call('DEL', meta, meta .. ':events')
  if fields[2] ~= '' then redis.call('SREM', prefix .. 'u:' .. fields[2], id) end
  redis.call('SREM', prefix .. 'public:' .. fields[1], id)
  redis.call('PUBLISH', prefix .. 'wake', id)
  return 1
end
`;

/**
 * Touches a queue, drops events up to `ack` (nil for none), answers {ID of the first event
 * returned, events after `after`}, or false if the queue does not exist.
 */
const READ = TOUCH + `
local function read(prefix, id, now, ack, after)
  if not touch(prefix, id, now) then return false end
  local list = prefix .. 'q:' .. id .. ':events'
  local length = redis.call('LLEN', list)
  local first = tonumber(redis.call('HGET', prefix .. 'q:' .. id, 'next')) - length
  if ack then
    local drop = ack - first + 1
    if drop >= length then
      redis.call('DEL', list)
      first = first + length
    elseif drop > 0 then
      redis.call('LTRIM', list, drop, -1)
      first = first + drop
    end
  end
  local start = math.max(after + 1 - first, 0)
  return { first + start, redis.call('LRANGE', list, start, -1) }
end
`;

export const SCRIPTS = {
  /**
   * ARGV: P, queue ID, now, acknowledge-up-to ('' for none), after ID.
   * Touches the queue, drops acknowledged events, answers {ID of the first event returned, events
   * after `after ID`}, or nil if the queue does not exist.
   */
  parleyQueueRead: READ + `
local ack = nil
if ARGV[4] ~= '' then ack = tonumber(ARGV[4]) end
return read(ARGV[1], ARGV[2], tonumber(ARGV[3]), ack, tonumber(ARGV[5]))
`,

  /**
   * ARGV: P, now, then (queue ID, after ID) pairs: parleyQueueRead for each queue (acknowledging
   * nothing), answered as one list, nil where a queue does not exist. A fan-out's wake-up reads
   * every queue this process waits on in one call, and answers them all in one pass.
   */
  parleyQueueReadMany: READ + `
local out, now = {}, tonumber(ARGV[2])
for i = 3, #ARGV, 2 do out[#out + 1] = read(ARGV[1], ARGV[i], now, nil, tonumber(ARGV[i + 1])) end
return out
`,

  /**
   * ARGV: P, then (queue ID, event JSON) pairs in delivery order.
   * Appends each event to its queue with the queue's next ID, skipping queues deleted meanwhile;
   * answers the IDs (-1 where skipped) and wakes the queues' waiters with one message.
   */
  parleyQueueAppend: `
local prefix = ARGV[1]
local ids, newest, woken = {}, {}, {}
for i = 2, #ARGV, 2 do
  local id = ARGV[i]
  local meta = prefix .. 'q:' .. id
  if redis.call('EXISTS', meta) == 1 then
    local eventId = redis.call('HINCRBY', meta, 'next', 1) - 1
    local list = meta .. ':events'
    if redis.call('RPUSH', list, ARGV[i + 1]) == 1 then
      local ttl = redis.call('PTTL', meta)
      if ttl > 0 then redis.call('PEXPIRE', list, ttl) end
    end
    ids[#ids + 1] = eventId
    if not newest[id] then
      newest[id] = true
      woken[#woken + 1] = id
    end
  else
    ids[#ids + 1] = -1
  end
end
if #woken > 0 then redis.call('PUBLISH', prefix .. 'wake', table.concat(woken, ' ')) end
return ids
`,

  /**
   * ARGV: P, realm ID, '1' to include all_public_streams queues, then user IDs.
   * Answers (queue ID, user, options JSON) triples of the realm's queues a delivery reaches, each
   * once. Index entries of queues that expired by TTL are removed on the way.
   */
  parleyQueueTargets: `
local prefix, realm = ARGV[1], ARGV[2]
local out, seen = {}, {}
local function add(index, id)
  if seen[id] then return end
  seen[id] = true
  local fields = redis.call('HMGET', prefix .. 'q:' .. id, 'realm', 'user', 'options')
  if not fields[1] then
    redis.call('SREM', index, id)
  elseif fields[1] == realm then
    out[#out + 1] = id
    out[#out + 1] = fields[2]
    out[#out + 1] = fields[3]
  end
end
for i = 4, #ARGV do
  local index = prefix .. 'u:' .. ARGV[i]
  for _, id in ipairs(redis.call('SMEMBERS', index)) do add(index, id) end
end
if ARGV[3] == '1' then
  local index = prefix .. 'public:' .. realm
  for _, id in ipairs(redis.call('SMEMBERS', index)) do add(index, id) end
end
return out
`,

  /** ARGV: P, now, queue IDs. Keeps the queues alive (someone is waiting on them). */
  parleyQueueTouch: TOUCH + `
for i = 3, #ARGV do touch(ARGV[1], ARGV[i], tonumber(ARGV[2])) end
return 0
`,

  /** ARGV: P, queue ID. Answers 1 if the queue existed. */
  parleyQueueDelete: DROP + `
return drop(ARGV[1], ARGV[2])
`,

  /**
   * ARGV: P, now, then IDs of queues to keep (waited on in the calling process).
   * Removes up to 1000 queues idle at `now`; answers how many.
   */
  parleyQueueCollect: DROP + `
local keep = {}
for i = 3, #ARGV do keep[ARGV[i]] = true end
local count = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', ARGV[1] .. 'expiry', '-inf', ARGV[2], 'LIMIT', 0, 1000)) do
  if not keep[id] then count = count + drop(ARGV[1], id) end
end
return count
`,
} as const;

export type ScriptName = keyof typeof SCRIPTS;
