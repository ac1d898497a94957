// The grace period: a budget that runs out mid-run lets the model write its final answer; tools are refused, and
// the run is stopped when the time is over or the model asks for tools again. The on-stop command starts at its end.

import type { SpentSummary } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";
import { spentUsage, WRAP_UP_REFUSAL, wrapUpCutMessage, wrapUpMessage } from "../text/messages.ts";
import { claimWithOnStop, once, outcomeId } from "./outcomes.ts";
import {
	type BudgetStanding,
	graceOf,
	type SessionState,
	spentStanding,
	status,
	type Transition,
	type WrapUp,
	withStanding,
} from "./state.ts";

/**
 * The budget ran out during a run that may wrap up: nothing is aborted yet. The user is told, the budget is spent
 * everywhere, and from now on tools are refused while the model writes its final answer; the on-stop command starts when
 * the run ends. A tool call that met the limit is the first one refused.
 */
export function startWrapUp(
	state: SessionState,
	standing: BudgetStanding,
	summary: SpentSummary,
	prompt: string | null,
	now: number,
	refuseTool: boolean,
): Transition {
	const budget = standing.budget;
	const graceMs = graceOf(state, budget);
	const until = now + graceMs;
	const wrapUp: WrapUp = {
		prompt,
		until,
		refused: refuseTool,
		callsSinceRefusal: 0,
		outcomeId: outcomeId(budget),
		onStopCommand: budget.onStopCommand,
	};
	const next: SessionState = { ...state, standing: { ...spentStanding(standing, summary, prompt), wrapUp } };
	const message = wrapUpMessage(summary.usedTurns, summary.elapsedMs, graceMs, spentUsage(summary, budget));
	const effects: Effect[] = [
		status(next, now),
		once(
			{
				kind: "spent",
				budgetId: outcomeId(budget),
				summary: { ...summary, wrapUpUntil: until },
				prompt,
				// What the run's end starts, kept with the stop: a process that finds the run over and its end unclaimed
				// (the one that ran it was killed) ends it (recovery.ts).
				...(budget.onStopCommand === null ? {} : { onStopAtEnd: budget.onStopCommand }),
			},
			[{ kind: "notify", message, level: "error" }],
		),
	];
	if (refuseTool) effects.push({ kind: "refuse", reason: WRAP_UP_REFUSAL });
	return { state: next, effects };
}

/** A model call of the run wrapping up: the one that writes the final answer, unless the wrap-up time is over. */
export function wrapUpModelCall(
	state: SessionState,
	standing: BudgetStanding,
	wrapUp: WrapUp,
	now: number,
): Transition {
	if (now >= wrapUp.until) return endWrapUp(state, standing, wrapUp, now, "time");
	const calls = wrapUp.refused ? wrapUp.callsSinceRefusal + 1 : 0;
	const next = withStanding(state, standing, { wrapUp: { ...wrapUp, callsSinceRefusal: calls } });
	return { state: next, effects: [status(next, now)] };
}

/**
 * A tool call of the run wrapping up is refused, with a reason the model reads. One that comes after the model was
 * refused and called again (it asks for tools again), or after the wrap-up time, ends the run.
 */
export function wrapUpToolCall(state: SessionState, standing: BudgetStanding, wrapUp: WrapUp, now: number): Transition {
	if (now >= wrapUp.until) return endWrapUp(state, standing, wrapUp, now, "time");
	if (wrapUp.refused && wrapUp.callsSinceRefusal > 0) return endWrapUp(state, standing, wrapUp, now, "tools");
	const next = withStanding(state, standing, { wrapUp: { ...wrapUp, refused: true } });
	return { state: next, effects: [status(next, now), { kind: "refuse", reason: WRAP_UP_REFUSAL }] };
}

/** The time check while a run wraps up: the run is stopped once the wrap-up time is over. */
export function wrapUpTimeCheck(
	state: SessionState,
	standing: BudgetStanding,
	wrapUp: WrapUp,
	now: number,
): Transition {
	if (now >= wrapUp.until) return endWrapUp(state, standing, wrapUp, now, "time");
	return { state, effects: [status(state, now)] };
}

/**
 * The run that wrapped up is over: it ended by itself (`cut` null), or it is stopped because the wrap-up time ran out
 * or the model asked for tools again. The on-stop command starts now, once anywhere.
 */
export function endWrapUp(
	state: SessionState,
	standing: BudgetStanding,
	wrapUp: WrapUp,
	now: number,
	cut: "time" | "tools" | null,
): Transition {
	const next = withStanding(state, standing, { wrapUp: null });
	const announce: Effect[] = [];
	if (cut !== null) announce.push({ kind: "notify", message: wrapUpCutMessage(cut), level: "warning" });
	const ended = claimWithOnStop({ kind: "ended", budgetId: wrapUp.outcomeId }, wrapUp.onStopCommand, announce);
	const effects: Effect[] = [status(next, now), ended];
	if (cut !== null) effects.push({ kind: "abort" }, { kind: "refuse", reason: WRAP_UP_REFUSAL });
	return { state: next, effects };
}
