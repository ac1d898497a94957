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

/**
 * What one model response used, as a host reports it, in the one shape every host maps its own fields to: each count
 * apart from the others (no count holds another), so that every token the model read or wrote counts once. `input`:
 * the prompt read afresh; `output`: what the model wrote (its reasoning with it, where the host counts it there);
 * `reasoning`: the reasoning, where the host reports it apart from the output; `cacheRead` and `cacheWrite`: the prompt
 * read from the provider's cache and written to it.
 */
export interface ResponseTokens {
	readonly input?: unknown;
	readonly output?: unknown;
	readonly reasoning?: unknown;
	readonly cacheRead?: unknown;
	readonly cacheWrite?: unknown;
}

/**
 * The tokens of one response: every count of it added, each only where it is a finite positive number (anything else
 * counts as none). Read field by field: pi's session start runs it once per answer of the session, before the JIT has
 * warmed up.
 * @example responseTokens({ input: 500, output: 100, reasoning: 40, cacheRead: 2_000, cacheWrite: 0 }) // 2640
 */
export function responseTokens(used: ResponseTokens): number {
	return (
		tokenCount(used.input) +
		tokenCount(used.output) +
		tokenCount(used.reasoning) +
		tokenCount(used.cacheRead) +
		tokenCount(used.cacheWrite)
	);
}

function tokenCount(value: unknown): number {
	return typeof value === "number" && value > 0 && value < Number.POSITIVE_INFINITY ? value : 0;
}
