// A team's daily budget as the user sets it: the store (`TIMEBOX_DAILY_STORE`, or the `dailyStore` setting), the team
// (`TIMEBOX_TEAM`, or `team`), its time zone (`TIMEBOX_TEAM_TZ`) and what to do while the store is down
// (`TIMEBOX_DAILY_STORE_FAILURE`). The environment wins over the settings. A store's password is kept for the client
// alone: everything the user reads names the store without it.

import {
	DAILY_STORE_ENV,
	DAILY_STORE_FAILURE_ENV,
	type DailyTeam,
	TEAM_ENV,
	TEAM_TZ_ENV,
	teamFailureModeUnread,
	teamSettingsRefusal,
	teamSettingsUnusable,
} from "../../core/index.ts";

/** What a team's daily budget needs to reach its store. */
export interface TeamConfig {
	/** The store's address as given, password included: for the client only. */
	url: string;
	/** The store's address without its password: what the user reads. */
	shown: string;
	team: string;
	/** The IANA zone whose midnight starts the team's day. */
	zone: string;
	/**
	 * `closed`: refuse new turns while the store cannot be reached; `open` (the default): count on this machine
	 * meanwhile. A mode that is neither is taken as `closed`, and `note` says so.
	 */
	failure: "open" | "closed";
	/** What the session is told once of how its team was read: a failure mode that is neither `open` nor `closed`. */
	note?: string;
	/** Who this session is, for `/timebox today`: `user@machine (host)`. */
	member: string;
}

/** Where the settings `dailyStore` and `team` come from, beside `daily`; absent on hosts without settings. */
export interface TeamSettings {
	dailyStore?: unknown;
	team?: unknown;
}

/** A team's name: letters, digits, `.`, `_` and `-`, as it goes into the store's keys. */
const TEAM_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** The store's address without its password: `redis://user@host:6379/0`. */
export function withoutPassword(url: URL): string {
	const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
	return `${url.protocol}//${user}${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}

/**
 * The default zone, whose day is found by arithmetic: a fresh process's first `Intl.DateTimeFormat` loads the time zone
 * data, which costs a hook process more than everything else its team's day does.
 */
const UTC = "UTC";

/** Whether Intl knows the zone. */
export function knownZone(zone: string): boolean {
	if (zone === UTC) return true;
	try {
		new Intl.DateTimeFormat("en-US", { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/** A setting or variable as text: the environment's when set, else the setting's when it is text. */
function pick(env: string | undefined, setting: unknown): string | undefined {
	if (env?.trim()) return env.trim();
	return typeof setting === "string" && setting.trim() ? setting.trim() : undefined;
}

/** What reading the team's settings found: the team, or why it cannot be used, and whether turns are then refused. */
export interface TeamReading {
	config: TeamConfig | null;
	/** Why the team set cannot be used, said once; null when it can, or none is set. */
	warning: string | null;
	/**
	 * Where the team set cannot be used and its failure mode is closed: the team as set, whose day refuses new turns
	 * (with `warning` as the refusal). Absent in the open mode, where this machine's own daily budget goes on alone.
	 */
	closed?: DailyTeam;
}

/**
 * The team's daily budget set for this session, or null when none is (no store and no team); a warning, and no team,
 * when what is set cannot be used: in the closed mode, with the team whose new turns are then refused. `member` says
 * who this session is, asked only of a team that can be used: a session with no team (most are) never pays for asking
 * the system who the user is.
 */
export function readTeam(env: NodeJS.ProcessEnv, settings: TeamSettings, member: () => string): TeamReading {
	const store = pick(env[DAILY_STORE_ENV], settings.dailyStore);
	const team = pick(env[TEAM_ENV], settings.team);
	if (store === undefined && team === undefined) return { config: null, warning: null };
	const mode = env[DAILY_STORE_FAILURE_ENV]?.trim() ?? "";
	const failure = mode === "" || mode.toLowerCase() === "open" ? "open" : "closed";
	// A team that lets no turn through uncounted while its store is down lets none through while it cannot be used.
	const fail = (why: string): TeamReading =>
		failure === "open"
			? { config: null, warning: teamSettingsUnusable(why) }
			: {
					config: null,
					warning: teamSettingsRefusal(why, DAILY_STORE_FAILURE_ENV, mode),
					closed: { name: team?.slice(0, 64) ?? "", zone: UTC },
				};
	if (store === undefined) return fail(`${TEAM_ENV} is set without ${DAILY_STORE_ENV} (redis://host:6379).`);
	let url: URL;
	try {
		url = new URL(store);
	} catch {
		return fail(`${DAILY_STORE_ENV} is not an address (redis://[user:password@]host:port[/db]).`);
	}
	const shown = withoutPassword(url);
	if (url.protocol !== "redis:" && url.protocol !== "rediss:")
		return fail(`${DAILY_STORE_ENV} ${shown} is not a redis:// or rediss:// address.`);
	if (url.port === "") return fail(`${DAILY_STORE_ENV} ${shown} names no port (redis://${url.hostname}:6379).`);
	// A database other than a number would be taken as 0, another team's day perhaps: it is named instead.
	if (!/^(\/\d{0,5})?$/.test(url.pathname))
		return fail(`${DAILY_STORE_ENV} ${shown} names no database by number (redis://${url.host}/0).`);
	if (team === undefined) return fail(`${DAILY_STORE_ENV} is set without ${TEAM_ENV} (the team's name).`);
	if (!TEAM_NAME.test(team))
		return fail(
			team.length > 64
				? `${TEAM_ENV} "${team.slice(0, 64)}…" is not a team name: a team name is at most 64 characters.`
				: `${TEAM_ENV} "${team}" is not a team name (letters, digits, ".", "_", "-").`,
		);
	const zone = env[TEAM_TZ_ENV]?.trim() || UTC;
	if (!knownZone(zone)) return fail(`${TEAM_TZ_ENV} "${zone.slice(0, 64)}" is not a time zone (Europe/Berlin, UTC).`);
	const note =
		failure === "closed" && mode.toLowerCase() !== "closed"
			? { note: teamFailureModeUnread(DAILY_STORE_FAILURE_ENV, mode) }
			: {};
	return { config: { url: store, shown, team, zone, failure, member: member(), ...note }, warning: null };
}

/** A team's day: its date, `YYYY-MM-DD`, and its midnights (epoch ms). */
export interface TeamDay {
	day: string;
	start: number;
	end: number;
}

/** The day last found in each zone: every check of a session falls in it until its midnight. */
const lastDays = new Map<string, TeamDay>();

/** The start and end of the day of an instant in a zone (its midnights, epoch ms), and its date, `YYYY-MM-DD`. */
export function teamDay(ms: number, zone: string): TeamDay {
	const last = lastDays.get(zone);
	if (last !== undefined && ms >= last.start && ms < last.end) return last;
	const date = zone === UTC ? utcDate(ms) : zoneDate(ms, zone);
	const found = {
		day: `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`,
		start:
			zone === UTC ? Date.UTC(date.year, date.month - 1, date.day) : midnight(date.year, date.month, date.day, zone),
		end:
			zone === UTC
				? Date.UTC(date.year, date.month - 1, date.day + 1)
				: midnight(date.year, date.month, date.day + 1, zone),
	};
	lastDays.set(zone, found);
	return found;
}

/** One formatter per zone: making one costs far more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
	let format = formats.get(zone);
	if (format === undefined) {
		format = new Intl.DateTimeFormat("en-US", {
			timeZone: zone,
			hourCycle: "h23",
			year: "numeric",
			month: "numeric",
			day: "numeric",
			hour: "numeric",
			minute: "numeric",
			second: "numeric",
		});
		formats.set(zone, format);
	}
	return format;
}

/** The UTC date of an instant. */
function utcDate(ms: number): { year: number; month: number; day: number } {
	const date = new Date(ms);
	return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The zone's wall-clock date and time of an instant. */
function zoneDate(ms: number, zone: string): { year: number; month: number; day: number; offset: number } {
	const parts = formatIn(zone).formatToParts(ms);
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
	const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
	return { year: part("year"), month: part("month"), day: part("day"), offset: wall - Math.floor(ms / 1000) * 1000 };
}

/** The instant of midnight starting a date in a zone (its offset taken at that midnight). */
function midnight(year: number, month: number, day: number, zone: string): number {
	const wall = Date.UTC(year, month - 1, day);
	const guess = wall - zoneDate(wall, zone).offset;
	return wall - zoneDate(guess, zone).offset;
}
