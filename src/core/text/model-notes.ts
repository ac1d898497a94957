// What the model reads of its budget: the warning block near the limit, the line of an aware budget at every call, the
// system prompt's line while a budget is in force, and the blocks of a run wrapping up once its budget or steps are spent.

import {
	formatBudgetLabel,
	formatCost,
	formatTimeLeft,
	formatTokens,
	pluralPrompts,
	type StepCount,
} from "../format.ts";
import { NO_SPEND, type NudgeUrgency, type Spend, type TimeboxBudget } from "../model/budget.ts";
import { safeAmount, safeTurns } from "../model/measure.ts";

/** The block added to every model call once the budget is nearly spent; `graceMs` > 0 promises a wrap-up at the limit. */
export function formatNudgePrompt(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	urgency: NudgeUrgency,
	graceMs = 0,
	spend: Spend = NO_SPEND,
	steps: StepCount | null = null,
): string {
	const lines = [`${urgency === "critical" ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`];
	lines.push("The user gave this session a budget and it is nearly spent.");
	if (budget.timeLimitMs !== null) {
		lines.push(
			`Time left: ${formatTimeLeft(budget, budget.timeLimitMs, now)} of ${formatBudgetLabel(budget.timeLimitMs)}.`,
		);
	}
	if (budget.turnLimit !== null) {
		const used = safeTurns(usedTurns);
		const left = Math.max(0, budget.turnLimit - used);
		lines.push(
			left <= 1
				? `Turns: this is the last prompt the budget allows (${used} of ${budget.turnLimit} used).`
				: `Turns left: ${left} prompts, this one included (${used} of ${budget.turnLimit} used).`,
		);
	}
	if (budget.tokenLimit !== undefined) {
		const left = Math.max(0, budget.tokenLimit - safeAmount(spend.tokens));
		lines.push(`Tokens left: ${formatTokens(left)} of ${formatTokens(budget.tokenLimit)}.`);
	}
	if (budget.costLimit !== undefined) {
		const left = Math.max(0, budget.costLimit - safeAmount(spend.cost));
		lines.push(`Cost left: ${formatCost(left)} of ${formatCost(budget.costLimit)}.`);
	}
	if (steps) {
		lines.push(`Steps: this is model call ${steps.used} of the ${steps.allowed} this prompt may make.`);
	}
	lines.push(
		"Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.",
		graceMs > 0
			? `When the budget runs out, your tool calls are refused and you have ${formatBudgetLabel(graceMs)} to write the final answer.`
			: "When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished.",
	);
	return lines.join("\n");
}

/**
 * The line every model call carries when the user asked that the model always know its budget.
 * @example formatAwareLine(fifteenMinutesFivePrompts, now, 2) // "Timebox: 9m 12s and 3 prompts left of 15m / 5 prompts."
 */
export function formatAwareLine(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	spend: Spend = NO_SPEND,
): string {
	const left: string[] = [];
	const of: string[] = [];
	if (budget.timeLimitMs !== null) {
		left.push(formatTimeLeft(budget, budget.timeLimitMs, now));
		of.push(formatBudgetLabel(budget.timeLimitMs));
	}
	if (budget.turnLimit !== null) {
		left.push(pluralPrompts(Math.max(0, budget.turnLimit - safeTurns(usedTurns))));
		of.push(pluralPrompts(budget.turnLimit));
	}
	if (budget.tokenLimit !== undefined) {
		left.push(`${formatTokens(Math.max(0, budget.tokenLimit - safeAmount(spend.tokens)))} tokens`);
		of.push(`${formatTokens(budget.tokenLimit)} tokens`);
	}
	if (budget.costLimit !== undefined) {
		left.push(formatCost(Math.max(0, budget.costLimit - safeAmount(spend.cost))));
		of.push(formatCost(budget.costLimit));
	}
	return `Timebox: ${left.join(" and ")} left of ${of.join(" / ")}.`;
}

/** The block the model reads on the call a prompt gets to wrap up in, once its steps are used. */
export function formatStepsWrapUp(limit: number): string {
	return [
		"TIMEBOX: STEPS SPENT",
		`This prompt has made the ${limit} model calls the user allows per prompt. Write your final answer now: what was done, and what is left to do.`,
		"Call no tools: they are refused, and the run ends if you ask for one.",
	].join("\n");
}

/**
 * What the system prompt says while a budget is in force: the same text for as long as it is, so the prompt's cached
 * prefix changes only when a budget is set or ends. What is left comes at the end of each model call's messages.
 */
export const BUDGET_IN_FORCE_PROMPT = [
	"",
	"",
	"TIMEBOX",
	"The user gave this session a budget (time, turns, tokens or cost). When it runs low, or at every model call if the user asked for that, the end of the messages says what is left: follow it. When the budget runs out, the run is stopped.",
].join("\n");

/** The block the model reads on the calls it gets to wrap up in, once the budget is spent. */
export const WRAP_UP_PROMPT = [
	"TIMEBOX: BUDGET SPENT",
	"The budget the user gave this session is spent. Write your final answer now: what was done, and what is left to do.",
	"Call no more tools: they are refused, and the run is stopped if you ask for one again.",
].join("\n");
