// The per-prompt cap (`steps:`): each model call of a prompt's run counts, the call past the cap is the run's
// wrap-up call, and the one after ends the run; or, at the user's word, a question at the cap.

import { LIMIT_QUESTION_TIMEOUT_MS } from "../constants.ts";
import type { Effect, SessionEvent } from "../model/events.ts";
import { stepsRefusal, stepsUsedMessage } from "../text/messages.ts";
import { moreStepsChoice, STOP_CHOICE, stepsQuestion } from "../text/questions.ts";
import { counting, type SessionState, status, type Transition, withStanding } from "./state.ts";

/**
 * Counts a model call against its prompt's step cap, once the call is let through. Calls up to the cap run as usual;
 * the next one is the prompt's wrap-up call (the model is told, the user too), or, when the user asked to be asked at
 * the limit, a question: stop the run, or continue with as many steps again. A call past the wrap-up ends the run.
 */
export function countStep(
	before: SessionState,
	result: Transition,
	event: Extract<SessionEvent, { type: "modelCall" }>,
	now: number,
): Transition {
	const { state, effects } = result;
	const active = counting(state);
	const limit = active?.budget.stepLimit;
	// A call the budget refused spent the budget first: from then on nothing is capped.
	if (!active || limit === undefined) return result;
	const newPrompt = state.lastPrompt !== before.lastPrompt;
	// The model call leaves the count as it was: what it holds is the count before this call.
	const previous = newPrompt ? 0 : (active.steps ?? 0);
	// A call numbered as the last one is that call sent again; a lower number (the run's answers compacted away) is
	// the next call all the same.
	const step = event.step ?? previous + 1;
	const used = step < previous ? previous + 1 : Math.max(previous, step);
	const allowance = newPrompt ? 0 : active.stepAllowance;
	const allowed = limit + allowance;
	const counted = withStanding(state, active, { steps: used, stepAllowance: allowance });
	const withStatus = [...effects.filter((effect) => effect.kind !== "status"), status(counted, now)];
	if (used <= allowed || used === previous) return { state: counted, effects: withStatus };
	if (used > allowed + 1) {
		return {
			state: counted,
			effects: [...withStatus, { kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit) }],
		};
	}
	if (state.askAtLimit) {
		return { state: { ...state, asking: true }, effects: [askAboutSteps(limit, allowance, event)] };
	}
	return {
		state: counted,
		effects: [...withStatus, { kind: "notify", message: stepsUsedMessage(limit), level: "warning" }],
	};
}

/** The question at a prompt's step cap: stop the run now, or continue with as many steps again. */
export function askAboutSteps(
	limit: number,
	allowance: number,
	reached: Extract<SessionEvent, { type: "modelCall" }>,
): Effect {
	const answer = (choice: "stop" | "more"): SessionEvent => ({
		type: "stepsAnswer",
		answer: choice,
		limit,
		allowance,
		reached,
	});
	return {
		kind: "ask",
		question: stepsQuestion(limit),
		choices: [
			{ label: STOP_CHOICE, answer: answer("stop") },
			{ label: moreStepsChoice(limit), answer: answer("more") },
		],
		timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
		onTimeout: answer("stop"),
	};
}
