// The budget decision (spec §4): ok, nudge or stop, from a budget, the clock and the turns used. No side effects.

import type { Decision, NudgeUrgency, TimeboxBudget } from "./budget.ts";
import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "./constants.ts";
import { formatRemaining } from "./format.ts";
import { elapsedMs, safeTurns, worstRatio } from "./measure.ts";

/** The urgency of a nudge at this used share of the budget. */
export function urgencyFor(ratio: number): NudgeUrgency {
	return ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning";
}

/**
 * Decides what the budget calls for: `stop` once either limit is reached, a one-shot `nudge` once either dimension
 * passes 80% (critical from 95%), else `ok`. Whether the budget is still active is the caller's concern.
 * @example decide(fifteenMinutes, start + 12 * 60_000, 0) // { kind: "nudge", urgency: "warning", detail: "3m 0s left (15m budget) | no turn limit" }
 */
export function decide(budget: TimeboxBudget, now: number, usedTurns: number): Decision {
	const elapsed = elapsedMs(budget, now);
	const used = safeTurns(usedTurns);
	const timeSpent = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
	const turnsSpent = budget.turnLimit !== null && used >= budget.turnLimit;
	if (timeSpent || turnsSpent) {
		return { kind: "stop", usedTurns: used, elapsedMs: elapsed, onStopCommand: budget.onStopCommand };
	}
	const ratio = worstRatio(budget, now, used);
	if (!budget.softNudgeSent && ratio >= NUDGE_WARNING_RATIO) {
		return { kind: "nudge", urgency: urgencyFor(ratio), detail: formatRemaining(budget, now, used) };
	}
	return { kind: "ok" };
}
