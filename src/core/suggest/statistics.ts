// The suggested budget, as data: which past sessions count (this project's latest, with a prompt, not the session
// asking), the median and the 90th percentile of each figure over them, and those percentiles rounded up to the words a
// person would type (`45m turns:15 $2.50`). Pure: the sessions come from the host, which reads them where the report does.

import {
	MAX_COST_LIMIT,
	MAX_TIME_LIMIT_MS,
	MAX_TOKEN_LIMIT,
	MAX_TURN_LIMIT,
	SUGGEST_MEDIAN,
	SUGGEST_MIN_SESSIONS,
	SUGGEST_PERCENTILE,
	SUGGEST_SESSIONS,
} from "../constants.ts";
import type { PastSession } from "./past-session.ts";

/** A figure's median and 90th percentile over the sessions that measured it. */
export interface Percentiles {
	median: number;
	p90: number;
	/** How many of the sessions counted measured it. */
	sessions: number;
}

/**
 * Each figure of a session. A figure that fewer than `SUGGEST_MIN_SESSIONS` of the sessions measured (their hosts do
 * not) tells nothing: `measuredEnough` says which do.
 */
export interface SuggestedFigures {
	timeMs: Percentiles;
	turns: Percentiles;
	steps: Percentiles;
	tokens: Percentiles;
	cost: Percentiles;
}

/** The suggestion: from how many sessions (and hosts), their figures, and the budget's words. */
export interface Suggestion {
	/** The sessions counted, at most `SUGGEST_SESSIONS`. */
	sessions: number;
	/** How many of them each host ran, most first. */
	hosts: { host: string; sessions: number }[];
	/** Null with fewer than `SUGGEST_MIN_SESSIONS` sessions: nothing is suggested. */
	figures: SuggestedFigures | null;
	/** The budget to copy, `45m turns:15 $2.50`; null when nothing is suggested. */
	words: string | null;
}

/**
 * The value at `percent` of `values` by nearest rank (the smallest value at least `percent`% of the values are at or
 * under): always a value that was seen; the 90th of 5 values is the largest. 0 for no values.
 * @example percentile([4, 1, 3, 2, 5], 50) // 3
 */
export function percentile(values: readonly number[], percent: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
	return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}

function percentiles(values: readonly (number | null)[]): Percentiles {
	const measured = values.filter((value): value is number => value !== null);
	return {
		median: percentile(measured, SUGGEST_MEDIAN),
		p90: percentile(measured, SUGGEST_PERCENTILE),
		sessions: measured.length,
	};
}

/**
 * The suggestion from a project's past sessions: the latest `SUGGEST_SESSIONS` of them (by the end of their last run),
 * leaving out the session `exclude` (the one asking, which has not ended). With fewer than `SUGGEST_MIN_SESSIONS`,
 * nothing is suggested.
 */
export function suggestionOf(sessions: readonly PastSession[], exclude: string | null = null): Suggestion {
	const counted = sessions
		.filter((session) => session.id !== exclude)
		.sort((a, b) => b.endedAt - a.endedAt)
		.slice(0, SUGGEST_SESSIONS);
	const byHost = new Map<string, number>();
	for (const session of counted) byHost.set(session.host, (byHost.get(session.host) ?? 0) + 1);
	const hosts = [...byHost].map(([host, count]) => ({ host, sessions: count })).sort((a, b) => b.sessions - a.sessions);
	if (counted.length < SUGGEST_MIN_SESSIONS) return { sessions: counted.length, hosts, figures: null, words: null };
	const figures: SuggestedFigures = {
		timeMs: percentiles(counted.map((session) => session.endedAt - session.startedAt)),
		turns: percentiles(counted.map((session) => session.turns)),
		steps: percentiles(counted.map((session) => session.steps)),
		tokens: percentiles(counted.map((session) => session.tokens)),
		cost: percentiles(counted.map((session) => session.cost)),
	};
	return { sessions: counted.length, hosts, figures, words: budgetWords(figures) };
}

/** Whether enough of the sessions measured a figure for it to tell anything. */
export function measuredEnough(figure: Percentiles): boolean {
	return figure.sessions >= SUGGEST_MIN_SESSIONS;
}

/**
 * The budget of the figures' 90th percentiles, each rounded up to a word a person would type: the time, the turns,
 * and the cost where the sessions measured one, else the tokens. Model calls are left out: `steps:` caps each prompt's
 * run, not a session.
 * @example budgetWords(figures) // "45m turns:15 $2.50"
 */
export function budgetWords(figures: SuggestedFigures): string {
	const words = [
		timeWord(figures.timeMs.p90),
		`turns:${Math.min(MAX_TURN_LIMIT, Math.max(1, Math.ceil(figures.turns.p90)))}`,
	];
	if (measuredEnough(figures.cost) && figures.cost.p90 > 0) words.push(costWord(figures.cost.p90));
	else if (measuredEnough(figures.tokens) && figures.tokens.p90 > 0) words.push(tokensWord(figures.tokens.p90));
	return words.join(" ");
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * A time rounded up to a budget people set: whole minutes under 10 minutes (at least 1m), 5 minutes under an hour,
 * 15 minutes under 4 hours, whole hours beyond; at most 30 days.
 * @example timeWord(41 * 60_000 + 10_000) // "45m"
 */
export function timeWord(ms: number): string {
	const step =
		ms < 10 * MINUTE_MS ? MINUTE_MS : ms < HOUR_MS ? 5 * MINUTE_MS : ms < 4 * HOUR_MS ? 15 * MINUTE_MS : HOUR_MS;
	const rounded = Math.min(MAX_TIME_LIMIT_MS, Math.max(MINUTE_MS, Math.ceil(ms / step) * step));
	const hours = Math.floor(rounded / HOUR_MS);
	const minutes = Math.round((rounded % HOUR_MS) / MINUTE_MS);
	if (hours === 0) return `${minutes}m`;
	return minutes === 0 ? `${hours}h` : `${hours}h${minutes}m`;
}

/**
 * Tokens rounded up to two significant figures: `tokens:190k`, `tokens:1.3m`, `tokens:950`.
 * @example tokensWord(183_400) // "tokens:190k"
 */
export function tokensWord(tokens: number): string {
	const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, tokens))) - 1);
	const rounded = Math.min(MAX_TOKEN_LIMIT, Math.ceil(tokens / magnitude) * magnitude);
	if (rounded >= 1_000_000) return `tokens:${trim(rounded / 1_000_000)}m`;
	if (rounded >= 1_000) return `tokens:${trim(rounded / 1_000)}k`;
	return `tokens:${rounded}`;
}

/**
 * Dollars rounded up to a budget people set: 5 cents under a dollar, 50 cents under $10, whole dollars beyond; at most
 * the largest cost budget.
 * @example costWord(2.31) // "$2.50"
 */
export function costWord(dollars: number): string {
	// Cents, up: a float's last digit never rounds a suggestion below the figure.
	const cents = Math.ceil(dollars * 100 - 1e-6);
	const step = cents < 100 ? 5 : cents < 1_000 ? 50 : 100;
	const rounded = Math.min(MAX_COST_LIMIT * 100, Math.max(step, Math.ceil(cents / step) * step));
	return rounded >= 1_000 ? `$${rounded / 100}` : `$${(rounded / 100).toFixed(2)}`;
}

/** A number with up to one decimal, none when it is whole: `1.3`, `190`. */
function trim(value: number): string {
	return Number.isInteger(value) ? `${value}` : `${Math.round(value * 10) / 10}`;
}
