// What the model reads in the model call about to start: the wrap-up notice, the warning block from 80% of the
// budget, or the line with what is left when the model is always to know.

import { NUDGE_WARNING_RATIO } from "../constants.ts";
import { urgencyFor } from "../decide.ts";
import { worstRatio } from "../model/measure.ts";
import { formatAwareLine, formatNudgePrompt, formatStepsWrapUp, WRAP_UP_PROMPT } from "../text/model-notes.ts";
import { callGoes } from "./caps.ts";
import { awarenessOf, counting, graceOf, type SessionState, shownTurns, stepsOf, type Transition } from "./state.ts";

/**
 * What the model reads in the model call about to start: the wrap-up notice while a spent budget's run wraps up; the
 * warning block from 80% of the budget (critical from 95%), as it stands at this call; or, when the user asked that
 * the model always know, a line with what is left. Nothing for a call that is refused, or without an active budget.
 */
export function withCallContext(result: Transition, now: number): Transition {
	const { state, effects } = result;
	if (!callGoes(effects)) return result;
	const text = callContext(state, now);
	return text === null ? result : { state, effects: [...effects, { kind: "context", text }] };
}

function callContext(state: SessionState, now: number): string | null {
	if (state.standing?.wrapUp) return WRAP_UP_PROMPT;
	const standing = counting(state);
	if (!standing) return null;
	const budget = standing.budget;
	const steps = stepsOf(state);
	if (steps && budget.stepLimit !== undefined && steps.used > steps.allowed) return formatStepsWrapUp(budget.stepLimit);
	const used = shownTurns(state);
	const spend = standing.spend;
	const ratio = Math.max(worstRatio(budget, now, used, spend), steps ? steps.used / steps.allowed : 0);
	if (ratio >= NUDGE_WARNING_RATIO) {
		return formatNudgePrompt(budget, now, used, urgencyFor(ratio), graceOf(state, budget), spend, steps);
	}
	return awarenessOf(state, budget) === "always" ? formatAwareLine(budget, now, used, spend) : null;
}
