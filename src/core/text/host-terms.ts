// What a host's users type and see: how the command is typed there, what the host can measure, and where its daily
// budget is set. Every message is written once, with `/timebox`; a host whose command is typed otherwise reads it in
// its own form.

/** One host, in its users' words. */
export interface HostTerms {
	/** The host's name as its users know it (`Codex`). */
	name: string;
	/** How the command is typed there: `/timebox`, or `timebox` where the host takes no unknown slash command. */
	command: string;
	/** Whether the host says how many tokens a model call used, and what it cost. */
	tokens: boolean;
	cost: boolean;
	/** How a daily budget is set there, said by `/timebox today` when none is. */
	dailySetting: string;
	/**
	 * Which of the host's ways of running Timebox runs now (Claude Code's `function hooks` or `classic hooks`), said by
	 * `/timebox status`; absent where a host has one way only.
	 */
	mode?: string;
}

/** The command as every message writes it. */
const WRITTEN_COMMAND = "/timebox";
/** The command where a message names it: at the start, or after a space, a quote or a bracket; never inside a path. */
const NAMED_COMMAND = /(^|[\s"'`(])\/timebox\b/g;

/** pi's terms, and those of a host that says nothing else. */
export const DEFAULT_TERMS: HostTerms = {
	name: "pi",
	command: WRITTEN_COMMAND,
	tokens: true,
	cost: true,
	dailySetting:
		'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of pi\'s settings.json.',
};

/**
 * What a status shows of a cost limit, `$0.12 of $2.50`, and of a token limit, `150k of 200k tokens`; with what is
 * left after them where a daily budget's line says it (`… used, $2.38 left`).
 */
const COST_USED = /\$[\d.]+ of (\$[\d.]+)( used, \$[\d.]+ left)?/g;
const TOKENS_USED = /\b[\d.]+[km]? of ([\d.]+[km]?) tokens\b( used, [\d.]+[km]? left)?/g;

/**
 * A message as the host's users read it: the command in the form they type, and no figure the host cannot measure.
 * What a session's status says was used of a cost or token limit becomes the limit, with what is not tracked there.
 * A daily budget's use (`$1.50 of $50.00 used, $48.50 left`) is the other sessions' and hosts' that share it: it is
 * kept, and says that this host's own is not in it.
 */
export function inHostTerms(text: string, terms: HostTerms): string {
	let shown = terms.command === WRITTEN_COMMAND ? text : text.replace(NAMED_COMMAND, `$1${terms.command}`);
	const untracked = (what: string, limit: string) => (used: string, of: string, daily: string | undefined) =>
		daily === undefined
			? `${of} ${limit} (${what} not tracked in ${terms.name})`
			: `${used} (${what} not tracked in ${terms.name})`;
	if (!terms.cost) shown = shown.replace(COST_USED, untracked("cost", "limit"));
	if (!terms.tokens) shown = shown.replace(TOKENS_USED, untracked("tokens", "token limit"));
	return shown;
}

/** `/timebox today` where no daily budget covers the session. */
export function noDailyBudgetMessage(terms: HostTerms): string {
	return `No daily budget is set. ${terms.dailySetting}`;
}

/** The line `/timebox status` adds where the host runs Timebox in one of several ways, or null. */
export function modeLine(terms: HostTerms): string | null {
	return terms.mode === undefined ? null : `Timebox runs on ${terms.name}'s ${terms.mode}.`;
}

/** What a report leaves out because the host cannot measure it, said once, or null. */
export function unmeasuredNote(terms: HostTerms): string | null {
	const missing = [terms.tokens ? null : "tokens", terms.cost ? null : "cost"].filter((word) => word !== null);
	return missing.length === 0 ? null : `${capitalize(missing.join(" and "))} not tracked in ${terms.name}.`;
}

function capitalize(text: string): string {
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
