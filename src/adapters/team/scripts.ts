// The team's store in Redis: its keys, and the Lua scripts that read and change them, each atomic and one round trip.
// Every key starts `timebox:{<team>}:` (one hash tag, so Redis Cluster keeps a team's keys on one node). Nothing is
// read by scanning.
//
// The day's keys, `timebox:{<team>}:<YYYY-MM-DD>:<name>`, which every member's session writes, each expiring a day
// after its day ends: `use` (a hash: prompts, agentMs, tokens, cost), `sessions` (a set of session ids), `who` (a hash: member -> sessions), `res` (a hash: session -> `tokens:cost:expiresAtMs`, each session's
// reservation for the model call it is making), `sent` (a set: the ids of the use a machine kept while the store was
// down and sent later, so that what is sent twice counts once) and `asks` (a hash: request id -> its JSON, the members'
// open requests).
//
// The admin's keys, which a member's ACL makes read-only (`%R~`): `timebox:{<team>}:limits` (a hash: timeMs, turns,
// tokens, cost, by, at, zone, the time zone whose midnight starts the team's day on every machine; it never expires) and `timebox:{<team>}:raise:<YYYY-MM-DD>` (a hash: addTimeMs, addPrompts,
// addTokens, addCost, off; the day's raises of those limits, or, while the store keeps none, of each machine's own
// limits as the team's; expiring as the day's keys do). A day's key matches
// `timebox:{<team>}:????-??-??:*`; the admin's keys do not.
//
// Redis checks a script's declared keys as written to: a member's scripts declare the day's keys alone and read the
// admin's by name; the admin's scripts declare the admin's keys, so a member's user is refused before anything runs.

/** The day's keys, in the order every member's script takes them. */
export function dayKeys(team: string, day: string): string[] {
	const prefix = `timebox:{${team}}:${day}:`;
	return [`${prefix}use`, `${prefix}sessions`, `${prefix}who`, `${prefix}res`, `${prefix}sent`, `${prefix}asks`];
}

/** The admin's keys: the team's limits, and the raises of a day. */
export function adminKeys(team: string, day: string): { limits: string; raise: string } {
	return { limits: `timebox:{${team}}:limits`, raise: `timebox:{${team}}:raise:${day}` };
}

/**
 * What every member's script shares. Its ARGV starts with [1] the expiry of the day's keys (epoch seconds), [2] the
 * session, [3] the member.
 */
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
-- The admin's keys of the day, by name from the day's \`use\`: the team's limits, and the day's raises.
local function admin()
  local base, day = string.match(KEYS[1], '^(.*):([^:]*):use$')
  return base .. ':limits', base .. ':raise:' .. day
end
`;

/**
 * The scripts, by name. A member's take the day's keys and ARGV[1] expiry, ARGV[2] session, ARGV[3] member, then their
 * own; the admin's (`limits`, `raise`) take the admin's keys first. Numbers come back as text: Lua would cut a cost's
 * cents.
 */
export const SCRIPTS = {
	/**
	 * Today's use and additions, who used it, the session count, the live reservations of the other sessions, and the
	 * admin's limits and today's raises.
	 */
	read: `${COMMON}
local tokens, cost, now = 0, 0, nowMs()
local res = redis.call('HGETALL', KEYS[4])
for i = 1, #res, 2 do
  local t, c, e = string.match(res[i + 1], '^([^:]*):([^:]*):([^:]*)$')
  if tonumber(e) == nil or tonumber(e) < now then redis.call('HDEL', KEYS[4], res[i])
  elseif res[i] ~= ARGV[2] then tokens = tokens + tonumber(t); cost = cost + tonumber(c) end
end
local limits, raise = admin()
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[3]), redis.call('SCARD', KEYS[2]), tostring(tokens),
  tostring(cost), redis.call('HGETALL', limits), redis.call('HGETALL', raise)}`,
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
	 * session ARGV[2]) once, by its id (ARGV[8]): 1, else 0 when it was sent before. With ARGV[9] = 1 (use of a session
	 * that had no daily budget of its own) only where the team's limits are kept: else it is let go, and 0.
	 */
	send: `${COMMON}
if redis.call('SADD', KEYS[5], ARGV[8]) == 0 then return 0 end
if ARGV[9] == '1' and redis.call('EXISTS', (admin())) == 0 then keep(); return 0 end
if add() then join() end
keep()
return 1`,
	/** Reserves ARGV[4] tokens and ARGV[5] cost for the session's model call, for ARGV[6] ms at most. */
	reserve: `${COMMON}
redis.call('HSET', KEYS[4], ARGV[2], ARGV[4] .. ':' .. ARGV[5] .. ':' .. (nowMs() + tonumber(ARGV[6])))
keep()
return 1`,
	/** The admin's limits and the day's open requests. */
	view: `${COMMON}
local limits = admin()
return {redis.call('HGETALL', limits), redis.call('HGETALL', KEYS[6])}`,
	/**
	 * Records a member's request (ARGV[4] its id, [5] its JSON) unless the day holds ARGV[6] open requests already:
	 * 1, else 0.
	 */
	ask: `${COMMON}
if redis.call('HLEN', KEYS[6]) >= tonumber(ARGV[6]) then return 0 end
redis.call('HSET', KEYS[6], ARGV[4], ARGV[5])
keep()
return 1`,
	/**
	 * The admin's: sets the team's limits (KEYS[1]) to ARGV[4] timeMs, [5] turns, [6] tokens, [7] cost ('' for none),
	 * set by ARGV[3] at ARGV[8] (epoch ms), the team's day starting at midnight in ARGV[9] (its zone); ARGV[4] = off
	 * removes them. They never expire.
	 */
	limits: `
redis.call('DEL', KEYS[1])
if ARGV[4] == 'off' then return 1 end
local fields = {'by', ARGV[3], 'at', ARGV[8]}
if ARGV[9] and ARGV[9] ~= '' then table.insert(fields, 'zone'); table.insert(fields, ARGV[9]) end
for i, name in ipairs({'timeMs', 'turns', 'tokens', 'cost'}) do
  if ARGV[3 + i] ~= '' then table.insert(fields, name); table.insert(fields, ARGV[3 + i]) end
end
redis.call('HSET', KEYS[1], unpack(fields))
return 1`,
	/**
	 * The admin's: raises the day's limits (KEYS[1], the day's raises: ARGV[4] addTimeMs, [5] addPrompts, [6] addTokens,
	 * [7] addCost) or, ARGV[8] = 1, ends them for the day; the requests it answers (ARGV[9] on) leave the day's open
	 * requests (KEYS[2]). The raises expire with the day's keys (ARGV[1]).
	 */
	raise: `
if tonumber(ARGV[4]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTimeMs', ARGV[4]) end
if tonumber(ARGV[5]) > 0 then redis.call('HINCRBY', KEYS[1], 'addPrompts', ARGV[5]) end
if tonumber(ARGV[6]) > 0 then redis.call('HINCRBY', KEYS[1], 'addTokens', ARGV[6]) end
if tonumber(ARGV[7]) > 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'addCost', ARGV[7]) end
if ARGV[8] == '1' then redis.call('HSET', KEYS[1], 'off', '1') end
redis.call('EXPIREAT', KEYS[1], ARGV[1])
for i = 9, #ARGV do redis.call('HDEL', KEYS[2], ARGV[i]) end
return 1`,
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/**
 * Each script's SHA-1, the name Redis knows it by (`EVALSHA`), written here so that a hook process need not load
 * node:crypto to find it. A unit test (tests/adapters/team/scripts.test.ts) fails, naming the right one, when a script
 * changes and its SHA here does not: a stale SHA would run the script as it was in a store that still keeps it.
 */
export const SCRIPT_SHAS: Readonly<Record<ScriptName, string>> = {
	read: "d1ffb7fabdc496cc3620713082f63baac2e58276",
	count: "2e7ac0e9012a3d545a7e55f4199e2236dedfa5ab",
	use: "feaebd0e6405668e6023c06aaad0da20dea4ad6c",
	send: "f2a53e636bcb1d2e3e69983987f75ebe2a6e2cc6",
	reserve: "5f0bfa2038fd83a0b04ef9ebfa5432883aece79d",
	view: "7a7eabf59f01e19e2cde0f533912e4641050a5af",
	ask: "674483dee56bf1830f428634ac14facf0a5a1c2c",
	limits: "d3bf3e6bbefbd2e76c0cd74a6960d628bed59585",
	raise: "be4c61acf6f112e87b491d982651074e4b404d08",
};
