// The pure parsing helpers: the amounts a budget's words name, read and written: a time (`15m`, `1h30m`), a turn count
// (`turns:5`), tokens (`tokens:200k`) and cost (`$2.50`); and a duration formatted for people. The command's grammar
// that reads whole `/timebox` lines is grammar/command.ts.

const TIME_TOKEN = /^(\d+(?:\.\d+)?)\s*([smh])?$/i;
/** A duration written in parts, largest first: `1h30m`, `2h15m`, `1m30s`, `1h0m5s`. */
const COMPOUND_TIME_TOKEN = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/i;
const TURNS_TOKEN = /^turns:\s*(\d+)$/i;
const TOKENS_TOKEN = /^tokens:(\d+(?:\.\d+)?)([km])?$/i;
const COST_TOKEN = /^(?:cost:\$?|\$)(\d+(?:\.\d+)?)$/i;
const TOKEN_UNITS = { k: 1_000, m: 1_000_000 } as const;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;
export const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Parses a time token; a bare number means minutes, and parts add up (`1h30m`). Returns null when the token is not a
 * time.
 * @example parseTimeToMs("15m") // 900_000
 * @example parseTimeToMs("90") // 5_400_000
 * @example parseTimeToMs("1h30m") // 5_400_000
 */
export function parseTimeToMs(token: string): number | null {
	const trimmed = token.trim();
	const compound = COMPOUND_TIME_TOKEN.exec(trimmed);
	if (compound && compound.slice(1).filter((part) => part !== undefined).length > 1) {
		const [, hours = "0", minutes = "0", seconds = "0"] = compound;
		return Number(hours) * HOUR_MS + Number(minutes) * MINUTE_MS + Number(seconds) * SECOND_MS;
	}
	const match = TIME_TOKEN.exec(trimmed);
	if (!match) return null;
	const unit = (match[2] ?? "m").toLowerCase() as keyof typeof UNIT_MS;
	const ms = Number(match[1]) * UNIT_MS[unit];
	return Number.isFinite(ms) ? ms : null;
}

/**
 * Parses a turn token such as `turns:5`. Returns null when the token is not a turn count.
 * @example parseTurns("TURNS: 10") // 10
 */
export function parseTurns(token: string): number | null {
	const match = TURNS_TOKEN.exec(token.trim());
	if (!match) return null;
	const turns = Number(match[1]);
	return Number.isFinite(turns) ? turns : null;
}

/** A token count such as `tokens:200k` or `tokens:1.5m`, or null when the word is not one. */
export function parseTokens(token: string): number | null {
	const match = TOKENS_TOKEN.exec(token);
	if (!match) return null;
	const unit = (match[2] ?? "").toLowerCase();
	return Math.round(Number(match[1]) * (unit === "k" || unit === "m" ? TOKEN_UNITS[unit] : 1));
}

/** A cost in US dollars such as `cost:2.50` or `$2.50`, or null when the word is not one. */
export function parseCost(token: string): number | null {
	const match = COST_TOKEN.exec(token);
	return match ? Number(match[1]) : null;
}

/**
 * Formats a duration for people: seconds under a minute, minutes and seconds under an hour, else hours and minutes.
 * @example formatTime(60_000) // "1m 0s"
 * @example formatTime(3_661_000) // "1h 1m"
 */
export function formatTime(ms: number): string {
	const safeMs = Number.isFinite(ms) ? Math.max(0, ms) : 0;
	const totalSeconds = Math.floor(safeMs / SECOND_MS);
	if (safeMs < MINUTE_MS) return `${totalSeconds}s`;
	if (safeMs < HOUR_MS) return `${Math.floor(totalSeconds / 60)}m ${totalSeconds % 60}s`;
	const totalMinutes = Math.floor(totalSeconds / 60);
	return `${Math.floor(totalMinutes / 60)}h ${totalMinutes % 60}m`;
}
