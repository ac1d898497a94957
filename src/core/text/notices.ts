// What the user reads of a host's own machinery rather than of a budget: a status line set up or not, a transcript or
// a store that cannot be read, a daily ledger or team store that cannot be used, a store repaired. Every adapter says
// these through the functions here, so that each text is written once, in the core, beside the rules' own.

/** Said where a host has no status line to set up from a `/timebox statusline` line. */
export const STATUS_LINE_SETUP_HINT =
	"Timebox: run the plugin's script with setup-statusline to set up the status line.";

/** The settings file holds no JSON: the status line is not set up. */
export const SETTINGS_NOT_JSON = "Timebox: the settings file is not valid JSON, so nothing was changed.";

/** The settings file holds JSON that is not an object: the status line is not set up. */
export const SETTINGS_NOT_OBJECT = "Timebox: the settings file is not a JSON object, so nothing was changed.";

/** The status line was set up before. */
export const STATUS_LINE_ALREADY_SET = "Timebox's status line is already set up; nothing was changed.";

/** The status line is set up, as the only one, or after the user's own. */
export function statusLineSet(afterYours: boolean): string {
	return afterYours
		? "Timebox's status line is set up after yours: your status line comes first, then Timebox's."
		: "Timebox's status line is set up: it shows the budget of each session.";
}

/** Said once per session when the transcript shows usage Timebox cannot read: the token limit is not enforced then. */
export const TRANSCRIPT_UNREADABLE =
	"Timebox: Claude Code's transcript shows token usage in a form Timebox cannot read, so a token limit is not enforced until it can.";

/** The daily ledger's folder `dir` cannot be used (`reason`): today's budget is not enforced on this host. */
export function dailyLedgerUnusable(dir: string, reason: string): string {
	return `Timebox: the daily ledger in ${dir} cannot be used (${reason}), so today's budget is not enforced here.`;
}

/** The team's settings cannot be used (`why`, a sentence): the daily budget is counted on this machine alone. */
export function teamSettingsUnusable(why: string): string {
	return `Timebox: ${why} The daily budget is this machine's alone.`;
}

/**
 * The team's settings cannot be used (`why`, a sentence) and its failure mode (`variable`) is closed (`mode`, as set):
 * no turn may go through uncounted, so new turns are refused until the settings are right. What a refused turn says.
 */
export function teamSettingsRefusal(why: string, variable: string, mode: string): string {
	const taken = mode.toLowerCase() === "closed" ? `"${mode}"` : `"${mode.slice(0, 64)}", taken as closed`;
	return `Timebox: ${why} The team's budget cannot be counted, so new turns are refused until it is set right (${variable} is ${taken}).`;
}

/**
 * The team's failure mode (`TIMEBOX_DAILY_STORE_FAILURE`) is neither `open` nor `closed`: taken as `closed`, the mode in
 * which a store that cannot be reached lets no turn through uncounted.
 */
export function teamFailureModeUnread(variable: string, value: string): string {
	return `Timebox: ${variable} "${value.slice(0, 64)}" is neither "open" nor "closed", so new turns are refused while the team's store cannot be reached (closed).`;
}

/**
 * The team's store (`shown`, without its password) cannot be reached (`why`), and what happens meanwhile: new turns
 * refused (`closed`), or this machine counting on its own. `answered`: it answered the day's call with an error (a key
 * of the wrong type), said as such: it is reached, and cannot read the day.
 */
export function teamStoreUnreachable(shown: string, why: string, closed: boolean, answered = false): string {
	// Closed, it is what a refused turn says: an answer that refuses one says it once (runtime.ts).
	if (closed) return teamStoreRefusal(shown, why, answered);
	if (answered) {
		const goesOn = "this machine counts today's use on its own until the store reads it, then sends it there";
		return `Timebox: the team's daily store ${shown} cannot read the team's day (${why}): ${goesOn}.`;
	}
	const goesOn = "this machine counts today's use on its own until it answers, then sends it to the team";
	return `Timebox: the team's daily store ${shown} cannot be reached (${why}): ${goesOn}.`;
}

/** What a machine used while the team's store was down could not be kept on disk to send later. */
export function teamUnsentLostMessage(why: string): string {
	return `Timebox: what this machine used while the team's store was down could not be kept to send later (${why}): the team's day will not count it.`;
}

/**
 * The refusal of a new turn while the team's store cannot be reached, where new turns wait for it; `answered`, while
 * it answers the day's call with an error.
 */
export function teamStoreRefusal(shown: string, why: string, answered = false): string {
	if (answered)
		return `Timebox: the team's daily store ${shown} cannot read the team's day (${why}), so new turns are refused until it does.`;
	return `Timebox: the team's daily store ${shown} cannot be reached (${why}), so new turns are refused until it answers.`;
}

/**
 * The team's store (`shown`) refused this user a call of the team's day (`why`, its answer: a member's ACL that does not
 * let it write the day's keys): no outage, so nothing is counted on this machine instead, and new turns are refused.
 */
export function teamStoreDenied(shown: string, why: string): string {
	return `Timebox: the team's daily store ${shown} refused this user the team's day (${why}), so new turns are refused until its admin lets this user count there (docs/team.md gives a member's ACL).`;
}

/** A damaged store (`path`) repaired: what was kept, what was skipped, where the damaged file went. */
export function storeRepaired(path: string, entries: number, skipped: number, movedTo: string): string {
	const skippedText = skipped === 0 ? "" : `, skipped ${skipped} it could not read`;
	return (
		`Timebox found its store ${path} damaged: it kept the ${entries} session(s) it could read${skippedText}, ` +
		`moved the damaged file to ${movedTo}, and goes on.`
	);
}

/**
 * Claude Code's hooks module could not run the hook script that reaches the team's store (`why`), and what happens
 * meanwhile: new turns refused (`closed`), or this session's use kept from the team.
 */
export function teamHopFailed(why: string, closed: boolean): string {
	const goesOn = closed
		? "so new turns are refused until it answers"
		: "so this session's use is not counted for the team until it answers";
	return `Timebox: the team's daily store cannot be reached through the plugin's batch script (${why}), ${goesOn}.`;
}
