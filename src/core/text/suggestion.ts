// What `/timebox suggest` (and `npm run report -- --suggest`) says: each figure's median and 90th percentile over the
// project's past sessions, and the line to copy; or that the history is too short. And what a default budget of
// `TIMEBOX_DEFAULT=suggested` is said to come from.

import { SUGGEST_MIN_SESSIONS, SUGGEST_PERCENTILE, SUGGESTED_DEFAULT } from "../constants.ts";
import { formatCost, formatTokens } from "../format.ts";
import { formatTime } from "../parse.ts";
import { measuredEnough, type Percentiles, type Suggestion } from "../suggest/statistics.ts";

/** `your last 23 sessions here`. */
function lastSessions(count: number): string {
	return count === 1 ? "your last session here" : `your last ${count} sessions here`;
}

/** `3 sessions`, `1 session`, `no session`. */
function sessionsCount(count: number): string {
	if (count === 0) return "no session";
	return count === 1 ? "1 session" : `${count} sessions`;
}

/** Why nothing is suggested: too few sessions of the project (this one, or the folder `project`) so far. */
export function tooLittleHistory(sessions: number, project: string | null = null): string {
	const of = project === null ? "of this project" : `in ${project}`;
	return `too little history to suggest a budget: ${sessionsCount(sessions)} ${of} so far, and a suggestion needs ${SUGGEST_MIN_SESSIONS}.`;
}

/** The line to copy: `Try /timebox 45m turns:15 $2.50 (the 90th percentile of your last 23 sessions here).` */
export function suggestionLine(words: string, sessions: number): string {
	return `Try /timebox ${words} (the ${SUGGEST_PERCENTILE}th percentile of ${lastSessions(sessions)}).`;
}

/** One figure's line: its median and 90th percentile, and over how many sessions where not all measured it. */
function figureLine(name: string, figure: Percentiles, all: number, show: (value: number) => string): string {
	if (!measuredEnough(figure)) {
		const few = figure.sessions === 0 ? "none" : `only ${figure.sessions}`;
		return `- ${name}: not measured (${few} of these sessions' hosts measure it)`;
	}
	const over = figure.sessions < all ? ` (${figure.sessions} sessions; the other hosts do not measure it)` : "";
	return `- ${name}: ${show(figure.median)} / ${show(figure.p90)}${over}`;
}

/**
 * The reply of `/timebox suggest`: where the sessions ran, each figure's median and 90th percentile, and the line to
 * copy; or why nothing is suggested. `project` names the folder where it is not the one the user is in.
 */
export function suggestionText(suggestion: Suggestion, project: string | null = null): string {
	const { figures, words } = suggestion;
	if (figures === null || words === null) return `Timebox: ${tooLittleHistory(suggestion.sessions, project)}`;
	const hosts = suggestion.hosts.map((one) => `${one.sessions} ${one.host}`).join(", ");
	const all = suggestion.sessions;
	const sessions = project === null ? lastSessions(all) : `your last ${all} sessions in ${project}`;
	return [
		`Timebox: ${sessions} (${hosts}), median / ${SUGGEST_PERCENTILE}th percentile:`,
		figureLine("time", figures.timeMs, all, formatTime),
		figureLine("turns", figures.turns, all, (value) => `${value}`),
		figureLine("model calls", figures.steps, all, (value) => `${value}`),
		figureLine("tokens", figures.tokens, all, formatTokens),
		figureLine("cost", figures.cost, all, formatCost),
		suggestionLine(words, all),
	].join("\n");
}

/** Where `/timebox suggest` cannot read the past sessions. */
export const NO_SUGGESTION =
	"Timebox: past sessions cannot be read from here. From a checkout of Timebox: npm run report -- --suggest.";

/** `/timebox suggest` where the past sessions could not be read. */
export function suggestionUnreadable(problem: string): string {
	return `Timebox: your past sessions could not be read (${problem}).`;
}

/** The reply of `/timebox suggest`: the suggestion, why there is none, or that this host reads no history. */
export function suggestReply(outcome: { suggestion: Suggestion } | { problem: string } | undefined): {
	message: string;
	level: "info" | "warning";
} {
	if (outcome === undefined) return { message: NO_SUGGESTION, level: "info" };
	if ("problem" in outcome) return { message: suggestionUnreadable(outcome.problem), level: "warning" };
	return { message: suggestionText(outcome.suggestion), level: "info" };
}

/** Whether a default budget's text asks for the suggested budget: `TIMEBOX_DEFAULT=suggested`. */
export function isSuggestedDefault(text: string): boolean {
	return text.trim().toLowerCase() === SUGGESTED_DEFAULT;
}

/**
 * A default of `suggested` (from `source`, such as `TIMEBOX_DEFAULT`) made the suggested budget: its words and where
 * they came from, as the default's announcement names it (`Timebox set from TIMEBOX_DEFAULT (suggested: the 90th
 * percentile of your last 23 sessions here): …`); or, with too little history, why the session starts without one.
 */
export function suggestedDefault(
	source: string,
	suggestion: Suggestion,
): { text: string; source: string; unavailable?: string } {
	if (suggestion.words === null) {
		return {
			text: SUGGESTED_DEFAULT,
			source: `${source} (${SUGGESTED_DEFAULT})`,
			unavailable: tooLittleHistory(suggestion.sessions),
		};
	}
	return {
		text: suggestion.words,
		source: `${source} (${SUGGESTED_DEFAULT}: the ${SUGGEST_PERCENTILE}th percentile of ${lastSessions(suggestion.sessions)})`,
	};
}

/** A default of `suggested` whose history could not be read: the session starts without a budget, and says why. */
export function unreadableDefault(
	source: string,
	problem: string,
): { text: string; source: string; unavailable: string } {
	return {
		text: SUGGESTED_DEFAULT,
		source: `${source} (${SUGGESTED_DEFAULT})`,
		unavailable: `your past sessions could not be read (${problem}).`,
	};
}
