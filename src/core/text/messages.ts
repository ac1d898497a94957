// The notification texts of commands, stops, settings and errors, produced by pure functions (the questions and their
// choices are in questions.ts, the report page's texts in report-page.ts).

import { describeBudget, formatCost, pluralSteps, pluralTurns } from "../format.ts";
import { quoteInput } from "../grammar/command.ts";
import type { BudgetLimits, NudgeUrgency, SpentSummary, TimeboxBudget } from "../model/budget.ts";
import { formatTime } from "../parse.ts";
import { DEFAULT_TERMS, noDailyBudgetMessage } from "./host-terms.ts";
import { FINISH_NOW } from "./loop.ts";

/** The usage hint shown with every invalid input. */
export const USAGE = [
	"Usage: /timebox <budget> [-- <command>] | status | off",
	"       /timebox +<budget> (extend) | pause | resume | report | suggest",
	"       /timebox subagents [<budget> | off] (a budget for each subagent: a time, steps:30, tokens:200k, cost:0.50, loop:3)",
	"  budget: 30s 15m 2h 1h30m (a bare number is minutes), turns:5 (prompts you send), steps:25 (model calls per prompt), tokens:200k, cost:2.50, loop:3 (identical tool calls per prompt)",
	"  options: aware (the model sees what is left at every call), grace:30s (time to wrap up at the limit)",
	'  e.g. /timebox 15m turns:3    /timebox turns:5 -- notify-send "Timebox done"    /timebox +10m +turns:2',
].join("\n");

export const NO_ACTIVE_TIMEBOX = "No active timebox.";
export const TIMEBOX_OFF = "Timebox off.";

/** What followed `off` or `status`, which it does not read: named, so nothing the user typed goes unsaid. */
export function ignoredWordsNote(command: "off" | "status", ignored: string): string {
	return `Ignored what followed ${command}: ${quoteInput(ignored)}.`;
}
export const UNUSABLE_RECORD =
	"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.";

function onStopNote(command: string | null): string {
	return command === null ? "" : ` On stop it runs: ${command}`;
}

/** Invalid `/timebox` input: what is wrong, that nothing changed, and the usage. */
export function invalidMessage(reason: string): string {
	return `Timebox: ${reason} Nothing changed.\n${USAGE}`;
}

/** `/timebox status` with no budget: a question, not a mistake, so no usage. */
export function noBudgetStatusMessage(): string {
	return `${NO_ACTIVE_TIMEBOX}\n${SET_ONE_HINT}`;
}

/** The one line of usage `/timebox status` gives without a budget. */
export const SET_ONE_HINT = "Set one with /timebox 15m turns:3.";

/** A new budget is in force; `notes` say which word replaced an earlier one. */
export function budgetSetMessage(limits: BudgetLimits, replacedActive: boolean, notes: readonly string[] = []): string {
	const replaced = replacedActive ? " It replaces the previous budget." : "";
	return `Timebox set: ${describeBudget(limits)}.${replaced}${onStopNote(limits.onStopCommand)}${noteLines(notes)}`;
}

function noteLines(notes: readonly string[]): string {
	return notes.map((note) => `\n${note}`).join("");
}

/** The budget was extended: what was added, and the status now. */
export function extendedMessage(added: string, statusText: string, notes: readonly string[] = []): string {
	return `Timebox extended by ${added}. ${statusText}${noteLines(notes)}`;
}

/** `/timebox +…` with no budget. */
export const NOTHING_TO_EXTEND = "No active timebox: nothing to extend. Set one with /timebox <budget>.";

/** An extension would pass the largest budget. */
export const EXTENSION_TOO_LARGE =
	"Timebox: that extension would pass the largest budget (30 days, 1,000,000 turns, 1,000,000,000 tokens, $10,000). Nothing changed.";

/** `/timebox pause` took effect. */
export function pausedMessage(statusText: string): string {
	return `Timebox paused: the clock stands still and prompts do not count until /timebox resume.\n${statusText}`;
}

/** `/timebox resume` took effect. */
export function resumedMessage(statusText: string): string {
	return `Timebox resumed. ${statusText}`;
}

export const ALREADY_PAUSED = "Timebox is already paused. /timebox resume goes on.";
export const NOT_PAUSED = "Timebox is not paused.";

/** A cost limit set where the model reports no cost. */
export const COST_NOT_REPORTED = "Timebox: this model reports no cost: the cost limit cannot be enforced.";

/** A cost limit set on a host whose hooks never see what the session costs. */
export const COST_NOT_SEEN =
	"Timebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.";

/** A token limit set on a host whose hooks never see what a model call used. */
export const TOKENS_NOT_SEEN =
	"Timebox: this host does not tell Timebox what a model call used: the token limit cannot be enforced here.";

/** `/timebox report` where the host could not work the report out. */
export const NO_REPORT = "No budget was set in this session.";

export const SPENT_CANNOT_PAUSE =
	"Timebox budget is spent: there is nothing to pause. Extend it with /timebox +<budget>.";

/** `/timebox status` while a budget is active: the status text and the on-stop command. */
export function activeStatusMessage(statusText: string, onStopCommand: string | null): string {
	return `${statusText}${onStopCommand === null ? "" : `\nOn stop it runs: ${onStopCommand}`}`;
}

/**
 * What a spent budget used of its token and cost limits, to follow the prompts and the time in a stop message:
 * `, 1,200 of 1,000 tokens, $2.07 of $2.00` (empty for a budget without such limits). A model call already sent when the
 * limit was reached can take the figure past it.
 */
export function spentUsage(summary: SpentSummary, budget: Pick<TimeboxBudget, "tokenLimit" | "costLimit">): string {
	const parts: string[] = [];
	if (budget.tokenLimit !== undefined) {
		parts.push(
			`${(summary.tokens ?? 0).toLocaleString("en-US")} of ${budget.tokenLimit.toLocaleString("en-US")} tokens`,
		);
	}
	if (budget.costLimit !== undefined) parts.push(`${formatCost(summary.cost ?? 0)} of ${formatCost(budget.costLimit)}`);
	const said = parts.map((part) => `, ${part}`).join("");
	return summary.noRoom && said !== "" ? `${said} (${NO_ROOM_REASON})` : said;
}

/** Why a budget whose tokens or cost were not reached is spent: its next model call was not sent. */
export const NO_ROOM_REASON = "too little left for the next model call";

/** The hard-stop notification; `usage` is what `spentUsage` says. */
export function spentMessage(usedTurns: number, elapsedMs: number, usage = ""): string {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}. The agent stops for this turn. The chat continues.`;
}

/** The hard-stop notification when the budget ran out while nothing was running. */
export function idleSpentMessage(usedTurns: number, elapsedMs: number, usage = ""): string {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}, while the agent was idle. The chat continues.`;
}

/** The budget ran out mid-run and the model may wrap up: nothing is cut yet. */
export function wrapUpMessage(usedTurns: number, elapsedMs: number, graceMs: number, usage = ""): string {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}. The agent is wrapping up: its tools are refused, and it has ${formatTime(graceMs)} to write its final answer. The chat continues.`;
}

/** Why a tool is refused while the model wraps up: the model reads it. */
export const WRAP_UP_REFUSAL = `Timebox: the budget is spent. ${FINISH_NOW}`;

/** The run that was wrapping up was stopped: its time ran out, or the model asked for tools again. */
export function wrapUpCutMessage(why: "time" | "tools"): string {
	const reason = why === "time" ? "the time to wrap up ran out" : "the model asked for tools again";
	return `Timebox stopped the agent: ${reason}.`;
}

/** A setting Timebox cannot use: where it came from, what is wrong, and that it is ignored. */
export function badSettingMessage(source: string, value: unknown, why: string): string {
	return `Timebox: ${source}: ${JSON.stringify(value)} ${why}, so it is ignored.`;
}

/** `/timebox status` after the hard stop. */
export function spentStatusMessage(usedTurns: number, elapsedMs: number, usage = ""): string {
	return `Timebox budget spent. Used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}${usage}. Set a new budget with /timebox <budget>, or clear this one with /timebox off.`;
}

/** The soft nudge the user sees at 80% (critical from 95%). */
export function nudgeMessage(urgency: NudgeUrgency, detail: string, running = true): string {
	const now = urgency === "critical" ? " now" : "";
	// Idle, no model runs to be asked: it is told at its next call.
	const asked = running ? "the model is asked" : "the model will be told at its next call";
	return `Timebox: ${detail} — ${asked} to wrap up${now}.`;
}

/** The on-stop command was started. */
export function onStopStartedMessage(command: string): string {
	return `Timebox ran the on-stop command: ${command}`;
}

/** Whether a notice is the one that says the on-stop command was started. */
export function saysOnStopStarted(message: string): boolean {
	return message.startsWith(onStopStartedMessage(""));
}

/** A later event started the on-stop command a stop claimed: the process that claimed it ended before it could. */
export const ON_STOP_RAN_LATE =
	"Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";

/** The on-stop command could not start or failed. */
export function onStopProblemMessage(problem: string): string {
	return `Timebox on-stop command failed: ${problem}`;
}

/** A budget came back after a reload or resume. */
export function restoredMessage(statusText: string, onStopCommand: string | null): string {
	return `${statusText.replace(/^Timebox:/, "Timebox restored:")}.${onStopNote(onStopCommand)}`;
}

/**
 * The session's budget was already spent when it was reopened: its time ran out while the session was closed, or a
 * process before this one stopped it with its on-stop command (`stoppedBefore`: the stop's claim recorded it).
 */
export function expiredMessage(
	budget: TimeboxBudget,
	summary: SpentSummary,
	startsLate = false,
	stoppedBefore = false,
): string {
	const why = summary.timeRanOut
		? "time ran out"
		: summary.limit === "tokens"
			? "the token limit was reached"
			: summary.limit === "cost"
				? "the cost limit was reached"
				: `all ${pluralTurns(Number(budget.turnLimit))} used`;
	// An on-stop command the stop never started is started now, and said so apart; one a stop started (a process before
	// this one stopped the budget) is not said as if it never ran.
	const command =
		budget.onStopCommand === null || startsLate
			? ""
			: stoppedBefore
				? ` Its on-stop command was started at its stop, and is not run again: ${budget.onStopCommand}`
				: ` Its on-stop command is not run on restore: ${budget.onStopCommand}`;
	return `Timebox budget of this session was already spent (${why}), so it was not restored.${command}`;
}

/** An unexpected error inside Timebox, reported once per place. */
export function internalErrorMessage(where: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return `Timebox hit an internal error (${where}): ${message}. Your session goes on; check the budget with /timebox status.`;
}

/** A /timebox command reached a session instance that a reload or a session switch had already replaced. */
export const COMMAND_AFTER_RELOAD =
	"Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.";

/** A default budget was set on a session new to Timebox. */
export function defaultSetMessage(source: string, limits: BudgetLimits): string {
	return `Timebox set from ${source}: ${describeBudget(limits)}.${onStopNote(limits.onStopCommand)}`;
}

/** A default budget that cannot be read: where it came from, what is wrong, and that the session has no budget. */
export function badDefaultMessage(source: string, reason: string): string {
	return `Timebox: ${source}: ${reason} The session starts without a budget.`;
}

/** The running prompt made its last allowed model call; the next one is its wrap-up. */
export function stepsUsedMessage(limit: number): string {
	return `Timebox: this prompt used its ${pluralSteps(limit)}; the model was asked to finish.`;
}

/** Why a tool is refused once the prompt's steps are used: the model reads it. */
export function stepsRefusal(limit: number): string {
	return `Timebox: this prompt used its ${pluralSteps(limit)}. Write the final answer now, with what was done and what is left, without tools.`;
}

/** The run was ended at its step cap, as the user chose. */
export function stepsStoppedMessage(limit: number): string {
	return `Timebox: this prompt used its ${pluralSteps(limit)} and was stopped.`;
}

/** An `onLimit` setting Timebox does not know. */
export function badOnLimitMessage(source: string, value: unknown): string {
	return `Timebox: ${source}: ${JSON.stringify(value)} is neither "stop" nor "ask", so Timebox stops at the limit.`;
}

/** `/timebox today` where no daily budget covers the session, in pi's terms. */
export const NO_DAILY_BUDGET = noDailyBudgetMessage(DEFAULT_TERMS);

/** `/timebox team` where no team's store is set. */
export const NO_TEAM =
	"Timebox: no team is set here. A team shares one daily budget through a store: set TIMEBOX_DAILY_STORE and TIMEBOX_TEAM.";
