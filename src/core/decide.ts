// The budget decision: ok, nudge or stop, from a budget, the clock, the prompts and what the model used. No side effects.

import {
	type Decision,
	NO_SPEND,
	type NudgeUrgency,
	type Spend,
	type SpentSummary,
	type TimeboxBudget,
} from "./budget.ts";
import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "./constants.ts";
import { formatLeftOf } from "./format.ts";
import { elapsedMs, safeAmount, safeTurns, worstRatio } from "./measure.ts";

/** The urgency of a nudge at this used share of the budget. */
export function urgencyFor(ratio: number): NudgeUrgency {
	return ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning";
}

/**
 * Decides what the budget calls for: `stop` once any limit is reached (time, prompts, tokens or cost), a one-shot
 * `nudge` once any dimension passes 80% (critical from 95%) and no nudge was sent yet, else `ok`.
 * @example decide(fifteenMinutes, start + 12 * 60_000, 0, false) // { kind: "nudge", urgency: "warning", detail: "3m 0s left of 15m" }
 */
export function decide(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	nudged: boolean,
	spend: Spend = NO_SPEND,
): Decision {
	return decideOn(budget, now, usedTurns, nudged, spend, true);
}

/** The decision, on the prompts too or not (`prompts`); no copy of the budget on the way, as it runs at every event. */
function decideOn(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	nudged: boolean,
	spend: Spend,
	prompts: boolean,
): Decision {
	const elapsed = elapsedMs(budget, now);
	const used = safeTurns(usedTurns);
	const tokens = safeAmount(spend.tokens);
	const cost = safeAmount(spend.cost);
	const timeRanOut = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
	const turnsSpent = prompts && budget.turnLimit !== null && used >= budget.turnLimit;
	const tokensSpent = budget.tokenLimit !== undefined && tokens >= budget.tokenLimit;
	const costSpent = budget.costLimit !== undefined && cost >= budget.costLimit;
	if (timeRanOut || turnsSpent || tokensSpent || costSpent) {
		const summary: SpentSummary = { usedTurns: used, elapsedMs: elapsed, timeRanOut };
		if (!timeRanOut && !turnsSpent) summary.limit = tokensSpent ? "tokens" : "cost";
		if (budget.tokenLimit !== undefined) summary.tokens = tokens;
		if (budget.costLimit !== undefined) summary.cost = cost;
		return { kind: "stop", summary };
	}
	const ratio = worstRatio(budget, now, used, spend, prompts);
	if (!nudged && ratio >= NUDGE_WARNING_RATIO) {
		const shown = prompts ? budget : { ...budget, turnLimit: null };
		return { kind: "nudge", urgency: urgencyFor(ratio), detail: formatLeftOf(shown, now, used, spend) };
	}
	return { kind: "ok" };
}

/**
 * The same decision inside a run, on everything but the prompts: time, tokens and cost. Prompts are spent by prompts,
 * and checked when one starts.
 */
export function decideMidRun(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	nudged: boolean,
	spend: Spend = NO_SPEND,
): Decision {
	return decideOn(budget, now, usedTurns, nudged, spend, false);
}
