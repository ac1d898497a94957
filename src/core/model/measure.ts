// How much of a budget is used: elapsed time, turns, tokens, cost and the worst ratio, all clamped so they never go
// negative.

import { NO_SPEND, type Spend, type TimeboxBudget } from "./budget.ts";

/**
 * Milliseconds the budget has run: since it started, less the time it spent paused (the clock stands still while
 * paused). Never negative: a clock that went back counts as no time spent.
 */
export function elapsedMs(budget: TimeboxBudget, now: number): number {
	const until = budget.pausedAt ?? now;
	const elapsed = until - budget.startTime - (budget.pausedMs ?? 0);
	return Number.isFinite(elapsed) ? Math.max(0, elapsed) : 0;
}

/** A used-turn count made safe to show and compare: a whole number, never negative. */
export function safeTurns(usedTurns: number): number {
	return Number.isFinite(usedTurns) ? Math.max(0, Math.floor(usedTurns)) : 0;
}

/** A token count or a cost made safe to compare: finite, never negative. */
export function safeAmount(amount: number): number {
	return Number.isFinite(amount) ? Math.max(0, amount) : 0;
}

/**
 * The used share of the budget's worst dimension; a dimension without a limit is ignored, and so are the prompts when
 * `prompts` is false (inside a run, where prompts are not what is spent).
 */
export function worstRatio(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	spend: Spend = NO_SPEND,
	prompts = true,
): number {
	const timeRatio = budget.timeLimitMs === null ? 0 : elapsedMs(budget, now) / budget.timeLimitMs;
	const turnRatio = !prompts || budget.turnLimit === null ? 0 : safeTurns(usedTurns) / budget.turnLimit;
	const tokenRatio = budget.tokenLimit === undefined ? 0 : safeAmount(spend.tokens) / budget.tokenLimit;
	const costRatio = budget.costLimit === undefined ? 0 : safeAmount(spend.cost) / budget.costLimit;
	return Math.max(timeRatio, turnRatio, tokenRatio, costRatio);
}
