// Pure formatters of a budget as people read it: amounts, labels, the status text, and what is left of each limit.
// The blocks the model reads are in text/model-notes.ts.

import { type BudgetLimits, NO_SPEND, type Spend, type TimeboxBudget } from "./model/budget.ts";
import { elapsedMs, safeAmount, safeTurns } from "./model/measure.ts";
import { formatTime } from "./parse.ts";
import { loopGuardPhrase, loopGuardStatus } from "./text/loop.ts";

const SECOND_MS = 1_000;

/** Shown in the status bar once the budget is spent. */
export const SPENT_STATUS = "Timebox: budget spent";

/** Shown in the status bar while the run that met the limit writes its final answer. */
export const WRAPPING_UP_STATUS = `${SPENT_STATUS} | wrapping up`;

/**
 * A token count as people read it: `950`, `1.5k`, `150k`, `1.2m`.
 * @example formatTokens(150_000) // "150k"
 */
export function formatTokens(tokens: number): string {
	const count = safeAmount(tokens);
	if (count < 1_000) return `${Math.floor(count)}`;
	if (count < 1_000_000) return `${trimmed(count / 1_000)}k`;
	return `${trimmed(count / 1_000_000)}m`;
}

/** One decimal, none when it is zero: `1.5`, `150`. */
function trimmed(value: number): string {
	const rounded = Math.floor(value * 10) / 10;
	return Number.isInteger(rounded) ? `${rounded}` : rounded.toFixed(1);
}

/**
 * US dollars as people read them: cents from a dollar up (`$2.07`), and below a dollar up to four decimals, so that a
 * small budget's figures stay apart (`$0.012 of $0.01`, `$0.0042`).
 * @example formatCost(1.234) // "$1.23"
 */
export function formatCost(dollars: number): string {
	const amount = safeAmount(dollars);
	if (amount >= 1) return `$${amount.toFixed(2)}`;
	return `$${amount.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** `1 step` / `25 steps`. */
export function pluralSteps(count: number): string {
	return `${count} ${count === 1 ? "step" : "steps"}`;
}

/** `1 turn` / `3 turns`. */
export function pluralTurns(count: number): string {
	return `${count} ${count === 1 ? "turn" : "turns"}`;
}

/**
 * A compact label for a time limit: only the non-zero parts.
 * @example formatBudgetLabel(5_400_000) // "1h 30m"
 */
export function formatBudgetLabel(ms: number): string {
	if (ms === lastLabel.ms) return lastLabel.text;
	const text = budgetLabel(ms);
	lastLabel = { ms, text };
	return text;
}

/** The label last made: a session's status shows the same limit at every event. */
let lastLabel = { ms: Number.NaN, text: "" };

function budgetLabel(ms: number): string {
	const totalSeconds = Math.floor(Math.max(0, ms) / SECOND_MS);
	const hours = Math.floor(totalSeconds / 3600);
	const minutes = Math.floor((totalSeconds % 3600) / 60);
	const seconds = totalSeconds % 60;
	const parts = [hours > 0 ? `${hours}h` : "", minutes > 0 ? `${minutes}m` : "", seconds > 0 ? `${seconds}s` : ""];
	return parts.filter((part) => part.length > 0).join(" ") || "0s";
}

/**
 * `15m and 3 turns`, `15m`, `1 turn`: what a budget allows, for notifications, then how the model is treated under it
 * (`; the model is told what is left at every call; 30s to wrap up at the limit`).
 */
export function describeBudget(limits: BudgetLimits): string {
	const parts: string[] = [];
	if (limits.timeLimitMs !== null) parts.push(formatBudgetLabel(limits.timeLimitMs));
	if (limits.turnLimit !== null) parts.push(pluralTurns(limits.turnLimit));
	if (limits.tokenLimit !== undefined) parts.push(`${formatTokens(limits.tokenLimit)} tokens`);
	if (limits.costLimit !== undefined) parts.push(formatCost(limits.costLimit));
	if (limits.stepLimit !== undefined) parts.push(stepsPerPrompt(limits.stepLimit));
	if (limits.loopLimit !== undefined) parts.push(loopGuardPhrase(limits.loopLimit));
	const treatment: string[] = [];
	if (limits.awareness === "always") treatment.push("the model is told what is left at every call");
	if (limits.graceMs !== undefined) treatment.push(`${formatBudgetLabel(limits.graceMs)} to wrap up at the limit`);
	return [parts.join(" and "), ...treatment].join("; ");
}

/** Time left as people read it, rounded up to the second so the countdown reads 0s only when the time is up. */
export function formatTimeLeft(budget: TimeboxBudget, limitMs: number, now: number): string {
	return formatLeftMs(limitMs - elapsedMs(budget, now));
}

/**
 * A time left, counted up to the whole second (what is left of the last second is left): a moment used of 4h leaves
 * `4h 0m`, not `3h 59m` beside `0s` used. Every time left is shown so: a session's, a day's, the report page's.
 */
export function formatLeftMs(ms: number): string {
	return formatTime(Math.ceil(Math.max(0, ms) / SECOND_MS) * SECOND_MS);
}

/**
 * `12m 34s left (15m budget) | 3 turns left (2/5) | $1.23 of $2.00 | 150k of 200k tokens`: what remains of time and
 * prompts, and what was used of cost and tokens where the budget limits them.
 */
export function formatRemaining(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	spend: Spend = NO_SPEND,
	steps: StepCount | null = null,
): string {
	const timePart =
		budget.timeLimitMs === null
			? "no time limit"
			: `${formatTimeLeft(budget, budget.timeLimitMs, now)} left (${formatBudgetLabel(budget.timeLimitMs)} budget)`;
	const used = safeTurns(usedTurns);
	const turnPart =
		budget.turnLimit === null
			? "no turn limit"
			: `${pluralTurns(Math.max(0, budget.turnLimit - used))} left (${used}/${budget.turnLimit})`;
	const timeAndTurnsOnly =
		budget.costLimit === undefined &&
		budget.tokenLimit === undefined &&
		budget.stepLimit === undefined &&
		budget.loopLimit === undefined;
	const text = `${timePart} | ${turnPart}`;
	return timeAndTurnsOnly ? text : [text, ...spendParts(budget, spend, steps)].join(" | ");
}

/** `25 steps per prompt`. */
export function stepsPerPrompt(limit: number): string {
	return `${limit} ${limit === 1 ? "step" : "steps"} per prompt`;
}

/** Where a run stands under a step cap: the model calls it made, and how many it may make. */
export interface StepCount {
	used: number;
	allowed: number;
}

/**
 * `$1.23 of $2.00`, `150k of 200k tokens`: what was used of the cost and token limits the budget has; then the step cap,
 * as `step 12/25` while a run is going, else `25 steps per prompt`; then the loop guard, `loop guard at 3`.
 */
function spendParts(budget: TimeboxBudget, spend: Spend, steps: StepCount | null): string[] {
	const parts: string[] = [];
	if (budget.costLimit !== undefined) parts.push(`${formatCost(spend.cost)} of ${formatCost(budget.costLimit)}`);
	if (budget.tokenLimit !== undefined) {
		parts.push(`${formatTokens(spend.tokens)} of ${formatTokens(budget.tokenLimit)} tokens`);
	}
	if (budget.stepLimit !== undefined) {
		parts.push(steps ? `step ${steps.used}/${steps.allowed}` : stepsPerPrompt(budget.stepLimit));
	}
	if (budget.loopLimit !== undefined) parts.push(loopGuardStatus(budget.loopLimit));
	return parts;
}

/**
 * The status bar text of an active budget: `Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)`, with
 * `paused | ` after `Timebox:` while it is paused.
 */
export function formatStatus(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	spend: Spend = NO_SPEND,
	steps: StepCount | null = null,
): string {
	const secondsLeft =
		budget.timeLimitMs === null ? -1 : Math.ceil(Math.max(0, budget.timeLimitMs - elapsedMs(budget, now)) / SECOND_MS);
	const last = lastStatus;
	if (
		last !== null &&
		last.budget === budget &&
		last.secondsLeft === secondsLeft &&
		last.usedTurns === usedTurns &&
		Object.is(last.tokens, spend.tokens) &&
		Object.is(last.cost, spend.cost) &&
		last.stepsUsed === steps?.used &&
		last.stepsAllowed === steps?.allowed
	) {
		return last.text;
	}
	const paused = budget.pausedAt === undefined ? "" : "paused | ";
	const text = `Timebox: ${paused}${formatRemaining(budget, now, usedTurns, spend, steps)}`;
	lastStatus = {
		budget,
		secondsLeft,
		usedTurns,
		tokens: spend.tokens,
		cost: spend.cost,
		stepsUsed: steps?.used,
		stepsAllowed: steps?.allowed,
		text,
	};
	return text;
}

/**
 * The status text last made and what it was made of. Every event of a run shows the status, most of them within the
 * second of the one before, on the same budget (budgets are never changed in place): the text is the same, and made
 * once. The text is a function of these alone, so keeping it changes no answer.
 */
let lastStatus: {
	budget: TimeboxBudget;
	secondsLeft: number;
	usedTurns: number;
	tokens: number | undefined;
	cost: number | undefined;
	stepsUsed: number | undefined;
	stepsAllowed: number | undefined;
	text: string;
} | null = null;

/** `12m 34s left | 2 turns left`: only what is left of each limit, for a question. */
export function formatLeft(budget: TimeboxBudget, now: number, usedTurns: number, spend: Spend = NO_SPEND): string {
	const parts: string[] = [];
	if (budget.timeLimitMs !== null) parts.push(`${formatTimeLeft(budget, budget.timeLimitMs, now)} left`);
	if (budget.turnLimit !== null)
		parts.push(`${pluralTurns(Math.max(0, budget.turnLimit - safeTurns(usedTurns)))} left`);
	if (budget.tokenLimit !== undefined) {
		parts.push(`${formatTokens(Math.max(0, budget.tokenLimit - safeAmount(spend.tokens)))} tokens left`);
	}
	if (budget.costLimit !== undefined) {
		parts.push(`${formatCost(Math.max(0, budget.costLimit - safeAmount(spend.cost)))} left`);
	}
	return parts.join(" | ");
}

/** `1 prompt`, `3 prompts`: a count of prompts as people read it. */
export function pluralPrompts(count: number): string {
	return `${count} ${count === 1 ? "prompt" : "prompts"}`;
}

/** `3m 0s left of 15m and 1 prompt left of 5`: what is left of each limit, against the limit, for the warning. */
export function formatLeftOf(budget: TimeboxBudget, now: number, usedTurns: number, spend: Spend = NO_SPEND): string {
	const parts: string[] = [];
	if (budget.timeLimitMs !== null) {
		parts.push(`${formatTimeLeft(budget, budget.timeLimitMs, now)} left of ${formatBudgetLabel(budget.timeLimitMs)}`);
	}
	if (budget.turnLimit !== null) {
		const left = Math.max(0, budget.turnLimit - safeTurns(usedTurns));
		parts.push(`${pluralPrompts(left)} left of ${budget.turnLimit}`);
	}
	if (budget.tokenLimit !== undefined) {
		const left = Math.max(0, budget.tokenLimit - safeAmount(spend.tokens));
		parts.push(`${formatTokens(left)} tokens left of ${formatTokens(budget.tokenLimit)}`);
	}
	if (budget.costLimit !== undefined) {
		const left = Math.max(0, budget.costLimit - safeAmount(spend.cost));
		parts.push(`${formatCost(left)} left of ${formatCost(budget.costLimit)}`);
	}
	return parts.join(" and ");
}
