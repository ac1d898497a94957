// The budget decision: ok, nudge or stop, from a budget, the clock and the prompts used. No side effects.

import type { Decision, NudgeUrgency, TimeboxBudget } from "./budget.ts";
import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "./constants.ts";
import { formatLeftOf } from "./format.ts";
import { elapsedMs, safeTurns, worstRatio } from "./measure.ts";

/** The urgency of a nudge at this used share of the budget. */
export function urgencyFor(ratio: number): NudgeUrgency {
	return ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning";
}

/**
 * Decides what the budget calls for: `stop` once either limit is reached, a one-shot `nudge` once either dimension
 * passes 80% (critical from 95%) and no nudge was sent yet, else `ok`.
 * @example decide(fifteenMinutes, start + 12 * 60_000, 0, false) // { kind: "nudge", urgency: "warning", detail: "3m 0s left of 15m" }
 */
export function decide(budget: TimeboxBudget, now: number, usedTurns: number, nudged: boolean): Decision {
	const elapsed = elapsedMs(budget, now);
	const used = safeTurns(usedTurns);
	const timeRanOut = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
	const turnsSpent = budget.turnLimit !== null && used >= budget.turnLimit;
	if (timeRanOut || turnsSpent) return { kind: "stop", summary: { usedTurns: used, elapsedMs: elapsed, timeRanOut } };
	const ratio = worstRatio(budget, now, used);
	if (!nudged && ratio >= NUDGE_WARNING_RATIO) {
		return { kind: "nudge", urgency: urgencyFor(ratio), detail: formatLeftOf(budget, now, used) };
	}
	return { kind: "ok" };
}

/** The same decision on the time limit alone: prompts are spent by prompts, and checked when one starts. */
export function decideOnTime(budget: TimeboxBudget, now: number, usedTurns: number, nudged: boolean): Decision {
	return decide({ ...budget, turnLimit: null }, now, usedTurns, nudged);
}
