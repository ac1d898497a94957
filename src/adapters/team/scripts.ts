// The team's day in Redis: its keys, all under `timebox:{<team>}:<day>:` (one hash tag, so Redis Cluster keeps them on
// one node, and an ACL can be limited to `timebox:{<team>}:*`), and the Lua scripts that read and change them, each
// atomic and one round trip. Nothing is read by scanning; every key written gets a TTL past the end of its day.
//
// Keys: `use` (a hash: prompts, agentMs, tokens, cost, and today's additions addTimeMs, addPrompts, addTokens, addCost,
// off), `sessions` (a set of session ids), `who` (a hash: member -> sessions), `res` (a hash: session ->
// `tokens:cost:expiresAtMs`, each session's reservation for the model call it is making) and `sent` (a set: the ids of
// the use a machine kept while the store was down and sent later, so that what is sent twice counts once).

/** The keys of a team's day, in the order every script takes them. */
export function dayKeys(team: string, day: string): string[] {
	const prefix = `timebox:{${team}}:${day}:`;
	return [`${prefix}use`, `${prefix}sessions`, `${prefix}who`, `${prefix}res`, `${prefix}sent`];
}

/** How many keys every script takes. */
export const DAY_KEY_COUNT = 5;

/** Sets every key's expiry (ARGV[1], epoch seconds) and registers the session (ARGV[2]) as the member (ARGV[3]). */
const COMMON = `
local function keep()
  for _, key in ipairs(KEYS) do redis.call('EXPIREAT', key, ARGV[1]) end
end
local function join()
  if redis.call('SADD', KEYS[2], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[3], ARGV[3], 1) end
end
-- Adds use (ARGV[4] agentMs, [5] tokens, [6] cost, [7] prompts): whether there was any.
local function add()
  local used = false
  if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'agentMs', ARGV[4]); used = true end
  if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[5]); used = true end
  if tonumber(ARGV[6]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'cost', ARGV[6]); used = true end
  if tonumber(ARGV[7]) > 0 then redis.call('HINCRBY', KEYS[1], 'prompts', ARGV[7]); used = true end
  return used
end
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * The scripts, by name: each takes the day's keys and ARGV[1] expiry, ARGV[2] session, ARGV[3] member, then its own.
 * Numbers come back as text: Lua would cut a cost's cents.
 */
export const SCRIPTS = {
	/** Today's use, additions, who used it, the session count, and the live reservations of the other sessions. */
	read: `${COMMON}
local tokens, cost, now = 0, 0, nowMs()
local res = redis.call('HGETALL', KEYS[4])
for i = 1, #res, 2 do
  local t, c, e = string.match(res[i + 1], '^([^:]*):([^:]*):([^:]*)$')
  if tonumber(e) == nil or tonumber(e) < now then redis.call('HDEL', KEYS[4], res[i])
  elseif res[i] ~= ARGV[2] then tokens = tokens + tonumber(t); cost = cost + tonumber(c) end
end
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[3]), redis.call('SCARD', KEYS[2]), tostring(tokens), tostring(cost)}`,
	/** Counts a prompt unless ARGV[4] (the prompt limit with today's additions, -1 for none) is reached: 1, else 0. */
	count: `${COMMON}
local limit = tonumber(ARGV[4])
local prompts = tonumber(redis.call('HGET', KEYS[1], 'prompts') or '0')
if limit >= 0 and prompts >= limit then return 0 end
redis.call('HINCRBY', KEYS[1], 'prompts', 1)
join()
keep()
return 1`,
	/**
	 * Adds use (ARGV[4] agentMs, [5] tokens, [6] cost, [7] prompts counted elsewhere) and settles the reservation; a
	 * session that adds nothing (a refused turn's) does not count as one that used the day.
	 */
	use: `${COMMON}
local used = add()
redis.call('HDEL', KEYS[4], ARGV[2])
if used then join() end
keep()
return 1`,
	/**
	 * Adds use a machine kept while the store was down (ARGV[4] agentMs, [5] tokens, [6] cost, [7] prompts, of the
	 * session ARGV[2]) once, by its id (ARGV[8]): 1, else 0 when it was sent before.
	 */
	send: `${COMMON}
if redis.call('SADD', KEYS[5], ARGV[8]) == 0 then return 0 end
if add() then join() end
keep()
return 1`,
	/** Reserves ARGV[4] tokens and ARGV[5] cost for the session's model call, for ARGV[6] ms at most. */
	reserve: `${COMMON}
redis.call('HSET', KEYS[4], ARGV[2], ARGV[4] .. ':' .. ARGV[5] .. ':' .. (nowMs() + tonumber(ARGV[6])))
keep()
return 1`,
	/** Adds to today's limits (ARGV[4] addTimeMs, [5] addPrompts, [6] addTokens, [7] addCost) or, ARGV[8] = 1, ends them. */
	adjust: `${COMMON}
if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTimeMs', ARGV[4]) end
if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'addPrompts', ARGV[5]) end
if tonumber(ARGV[6]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTokens', ARGV[6]) end
if tonumber(ARGV[7]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'addCost', ARGV[7]) end
if ARGV[8] == '1' then redis.call('HSET', KEYS[1], 'off', '1') end
keep()
return 1`,
} as const;

export type ScriptName = keyof typeof SCRIPTS;
