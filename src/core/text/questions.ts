// The questions Timebox asks the user (a new budget over an active one, more at the limit, more steps) and their
// choices, and what it says when a question closes unanswered.

import { pluralSteps, pluralTurns } from "../format.ts";
import { formatTime } from "../parse.ts";

/** Asked before a new budget replaces an active one. */
export function replaceQuestion(left: string): string {
	return `Replace the active budget (${left})?`;
}

export const REPLACE_CHOICE = "Replace it";
export const KEEP_CHOICE = "Keep it";
export const KEPT_MESSAGE = "Nothing changed: the active budget stays.";

/** Asked when the budget is spent and the user chose to be asked at the limit. */
export function limitQuestion(usedTurns: number, elapsedMs: number): string {
	return `Timebox budget spent (used ${pluralTurns(usedTurns)}, ${formatTime(elapsedMs)}). Stop now, or go on with more?`;
}

export const STOP_CHOICE = "Stop now";
export const MORE_TIME_CHOICE = "+5 minutes";
export const MORE_TURNS_CHOICE = "+1 prompt";

/** Asked when a prompt used its steps and the user chose to be asked at the limit. */
export function stepsQuestion(limit: number): string {
	return `This prompt used its ${pluralSteps(limit)}. Stop now, or continue with ${limit} more?`;
}

/** The choice that lets a run go on for another round of steps. */
export function moreStepsChoice(limit: number): string {
	return `Continue with ${limit} more steps`;
}

/** A question that a stop made moot (more steps, a new budget) was closed unanswered. */
export const QUESTION_CLOSED =
	"Timebox: the budget ran out while the question was open, so it was closed and nothing changed. Type the command again to set a new budget.";
