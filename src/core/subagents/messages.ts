// What the user, a subagent and its parent read of a subagent's budget: every text of subagent budgets, produced by
// pure functions.

import { formatBudgetLabel, formatCost, formatTokens } from "../format.ts";
import { quoteInput } from "../grammar/command.ts";
import type { TaskBudget, TaskLimit } from "../model/budget.ts";

/** The limit that spent a subagent's budget, as a phrase: `its 5m budget`, `its 30-step budget`, `its loop guard (loop:3)`. */
export function subagentLimitPhrase(
	limit: "time" | "steps" | "tokens" | "cost" | "loop",
	budget: TaskBudget | null,
): string {
	switch (limit) {
		case "time":
			return `its ${formatBudgetLabel(budget?.timeLimitMs ?? 0)} budget`;
		case "steps":
			return `its ${budget?.stepLimit ?? 0}-step budget`;
		case "tokens":
			return `its ${formatTokens(budget?.tokenLimit ?? 0)}-token budget`;
		case "cost":
			return `its ${formatCost(budget?.costLimit ?? 0)} budget`;
		case "loop":
			return `its loop guard (loop:${budget?.loopLimit ?? 0})`;
	}
}

/** Why a subagent stopped: `at its 5m budget`, `with the session's budget`, `with the agent that started it`. */
export function subagentStopCause(limit: TaskLimit, budget: TaskBudget | null): string {
	switch (limit) {
		case "session":
			return "with the session's budget";
		case "parent":
			return "with the agent that started it";
		default:
			return `at ${subagentLimitPhrase(limit, budget)}`;
	}
}

/** `1 model call` / `31 model calls`. */
export function pluralCalls(count: number): string {
	return `${count} model ${count === 1 ? "call" : "calls"}`;
}

/** A subagent as the user reads it: `subagent "find the flaky test" (Explore)`. */
export function subagentName(task: string, agentType: string): string {
	return `subagent ${quoteInput(task)} (${agentType})`;
}

/** The user's notice when a subagent stopped at its budget (or the session's), and its answer went to its parent. */
export function subagentStoppedMessage(
	name: string,
	limit: TaskLimit,
	budget: TaskBudget | null,
	steps: number,
	parent: string | null,
): string {
	const to = parent === null ? "the main agent" : "the agent that started it";
	return `Timebox: ${name} stopped ${subagentStopCause(limit, budget)} after ${pluralCalls(steps)}; its answer went back to ${to}.`;
}

/** The user's warning when a subagent used 80% of its budget. */
export function subagentWarningMessage(name: string, left: string): string {
	return `Timebox: ${name} used 80% of its budget (${left} left); it is asked to wrap up.`;
}

/** The line the parent reads with the result of a subagent that stopped at its budget (or the session's). */
export function subagentParentLine(limit: TaskLimit, budget: TaskBudget | null, used: string): string {
	const at =
		limit === "session"
			? "when the session's budget ran out"
			: limit === "parent"
				? "when the agent that started it was stopped"
				: `at ${subagentLimitPhrase(limit, budget)}`;
	return `Timebox: this subagent stopped ${at} (used ${used}); its answer may be partial.`;
}

/** The block a subagent reads on its first model call: its budget, and to wrap up when it runs low. */
export function subagentBudgetBlock(budget: string): string {
	return [
		"TIMEBOX: YOUR BUDGET FOR THIS TASK",
		`You are a subagent with ${budget} for this task.`,
		"When it runs low, wrap up: answer with your findings and what is left undone. At the limit your tools are refused.",
	].join("\n");
}

/** The warning a subagent reads on each model call from 80% of its budget (critical from 95%). */
export function subagentWarningBlock(critical: boolean, left: string): string {
	return [
		`${critical ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`,
		`Your budget for this task is nearly spent: ${left} left.`,
		"Wrap up now: answer with your findings and what is left undone. Do not start new work.",
	].join("\n");
}

/** The block a subagent reads on the model call it gets to conclude in, once its budget is spent. */
export const SUBAGENT_WRAP_UP_BLOCK = [
	"TIMEBOX: TASK BUDGET SPENT",
	"Your budget for this task is spent. Write your final answer now: what you found, and what is left undone.",
	"Call no more tools: they are refused, and you are stopped if you ask for one again.",
].join("\n");

/** Why a subagent's tool is refused once its budget is spent: the subagent reads it. */
export const SUBAGENT_WRAP_UP_REFUSAL =
	"Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.";

/** Why a stopped subagent's model call or tool is refused. */
export const SUBAGENT_STOPPED_REFUSAL =
	"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.";

/** Why a new subagent is refused once the session's budget is spent: the model reads it. */
export const SUBAGENT_REFUSED =
	"Timebox: the session's budget is spent, so no subagent can start. Write the final answer now, with what was done and what is left.";

/** `/timebox subagents` where no subagent budget is set. */
export const NO_SUBAGENT_BUDGET = "Timebox: no subagent budget. Set one with /timebox subagents 5m steps:30.";

/** The subagent budget as set, by agent type (`*` for every other type), and where it came from. */
export function subagentBudgetMessage(described: readonly string[], source: string): string {
	return `Timebox: subagent budget (${source}): ${described.join("; ")}.`;
}

/** `/timebox subagents <budget>` took effect. */
export function subagentBudgetSetMessage(described: string): string {
	return `Timebox: every subagent started from now on gets ${described}, as well as the session's budget.`;
}

export const SUBAGENT_BUDGET_OFF = "Timebox: subagent budget off. Subagents still count against the session's budget.";
