// The budget decision: ok, nudge or stop, from a budget, the clock, the turns and what the model used. No side effects.

import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "./constants.ts";
import { formatLeftOf } from "./format.ts";
import {
	type Decision,
	NO_SPEND,
	type NudgeUrgency,
	type Spend,
	type SpentSummary,
	type TimeboxBudget,
} from "./model/budget.ts";
import { elapsedMs, safeAmount, safeTurns, worstRatio } from "./model/measure.ts";

/** The urgency of a nudge at this used share of the budget. */
export function urgencyFor(ratio: number): NudgeUrgency {
	return ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning";
}

/**
 * Decides what the budget calls for, from the clock and the turns used under it (`turns`): `stop` once any limit is
 * reached (time, turns, tokens or cost), a one-shot `nudge` once any dimension passes 80% (critical from 95%) while the
 * budget's `softNudgeSent` is false, else `ok`. Whether the budget is still active is the caller's concern.
 * @example decide(fifteenMinutes, start + 12 * 60_000, 0) // { kind: "nudge", urgency: "warning", detail: "3m 0s left of 15m" }
 */
export function decide(budget: TimeboxBudget, now: number, turns: number, spend: Spend = NO_SPEND): Decision {
	return decideOn(budget, now, turns, spend, true);
}

/** The decision, on the turns too or not (`onTurns`); no copy of the budget on the way, as it runs at every event. */
function decideOn(budget: TimeboxBudget, now: number, turns: number, spend: Spend, onTurns: boolean): Decision {
	const elapsed = elapsedMs(budget, now);
	const used = safeTurns(turns);
	const tokens = safeAmount(spend.tokens);
	const cost = safeAmount(spend.cost);
	const timeRanOut = budget.timeLimitMs !== null && elapsed >= budget.timeLimitMs;
	const turnsSpent = onTurns && budget.turnLimit !== null && used >= budget.turnLimit;
	const tokensSpent = budget.tokenLimit !== undefined && tokens >= budget.tokenLimit;
	const costSpent = budget.costLimit !== undefined && cost >= budget.costLimit;
	if (timeRanOut || turnsSpent || tokensSpent || costSpent) {
		const limit = timeRanOut || turnsSpent ? undefined : tokensSpent ? "tokens" : "cost";
		const summary = summaryOf(budget, elapsed, used, tokens, cost, timeRanOut, limit);
		return { kind: "stop", usedTurns: used, elapsedMs: elapsed, onStopCommand: budget.onStopCommand, summary };
	}
	const ratio = worstRatio(budget, now, used, spend, onTurns);
	if (!budget.softNudgeSent && ratio >= NUDGE_WARNING_RATIO) {
		const shown = onTurns ? budget : { ...budget, turnLimit: null };
		return { kind: "nudge", urgency: urgencyFor(ratio), detail: formatLeftOf(shown, now, used, spend) };
	}
	return { kind: "ok" };
}

/** What the stop finds once the time ran out (a budget whose time ran out while the session was closed). */
export function spentSummary(budget: TimeboxBudget, now: number, turns: number, spend: Spend): SpentSummary {
	const tokens = safeAmount(spend.tokens);
	return summaryOf(budget, elapsedMs(budget, now), safeTurns(turns), tokens, safeAmount(spend.cost), true);
}

/**
 * The stop of a budget whose tokens or cost (`limit`) are not reached, but whose room left cannot hold the next model
 * call: the call is not sent, and the budget is spent there.
 */
export function stopWithoutRoom(
	budget: TimeboxBudget,
	now: number,
	turns: number,
	spend: Spend,
	limit: "tokens" | "cost",
): Decision {
	const used = safeTurns(turns);
	const elapsed = elapsedMs(budget, now);
	const summary = summaryOf(budget, elapsed, used, safeAmount(spend.tokens), safeAmount(spend.cost), false, limit);
	summary.noRoom = true;
	return { kind: "stop", usedTurns: used, elapsedMs: elapsed, onStopCommand: budget.onStopCommand, summary };
}

/** The stop's figures: what was used, whether the time ran out, and the limit that did when it is tokens or cost. */
function summaryOf(
	budget: TimeboxBudget,
	elapsed: number,
	used: number,
	tokens: number,
	cost: number,
	timeRanOut: boolean,
	limit?: "tokens" | "cost",
): SpentSummary {
	const summary: SpentSummary = { usedTurns: used, elapsedMs: elapsed, timeRanOut };
	if (limit) summary.limit = limit;
	if (budget.tokenLimit !== undefined) summary.tokens = tokens;
	if (budget.costLimit !== undefined) summary.cost = cost;
	return summary;
}

/**
 * The same decision inside a run, on everything but the turns: time, tokens and cost. Turns are spent by turns, and
 * checked when one starts.
 */
export function decideMidRun(budget: TimeboxBudget, now: number, turns: number, spend: Spend = NO_SPEND): Decision {
	return decideOn(budget, now, turns, spend, false);
}
