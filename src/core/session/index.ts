// The session rulebook: every rule about a session's budget, as one pure function. A host reports what happened
// (a command, a prompt, a model call, a tool call, the end of a run, a time check, a load); `transition` returns the
// new state and the effects the host carries out (notify, status, append a record, abort, refuse, add context, start
// the on-stop command, once anywhere). No host, clock or timer is touched here. This entry dispatches each event to
// the rules of its concern, in the files beside it.

import { LIMIT_MORE_TIME, LIMIT_MORE_TURNS, MIN_ANSWER_TOKENS } from "../constants.ts";
import type { ModelRequest, SessionEvent } from "../model/events.ts";
import { stepsRefusal, stepsStoppedMessage } from "../text/messages.ts";
import {
	callGoes,
	capEffect,
	MAIN_AGENT,
	mostUsed,
	roomLeft,
	spendBeside,
	tooLittleRoom,
	withInFlight,
} from "./caps.ts";
import { command } from "./commands.ts";
import { withCallContext } from "./context.ts";
import {
	askAtTheLimit,
	checkTime,
	modelCall,
	modelResponse,
	onStopReported,
	promptRefused,
	refuseStopped,
	toolCall,
} from "./limits.ts";
import { load } from "./load.ts";
import { guardLoop, loopStoppedCall } from "./loop.ts";
import { counting, isNewPrompt, type SessionState, status, type Transition, withStanding } from "./state.ts";
import { countStep } from "./steps.ts";
import { endWrapUp, wrapUpTimeCheck } from "./wrap-up.ts";

export type {
	Effect,
	LedgerClaim,
	LedgerView,
	LoadMode,
	LogLine,
	OnStopClaim,
	OnStopIntent,
	RecordedUsage,
	SessionEvent,
} from "../model/events.ts";
export { NOTHING_RECORDED } from "../model/events.ts";
export { recoveryLoad } from "./load.ts";
export { outcomeId, readLedger } from "./outcomes.ts";
export { type RecoveryLoad, recoverOnStop } from "./recovery.ts";
export {
	type BudgetStanding,
	budgetOf,
	EMPTY_SESSION,
	isActive,
	isNewPrompt,
	nextTimeCheckIn,
	type SessionSettings,
	type SessionState,
	shownTurns,
	statusText,
	type Transition,
	type WrapUp,
} from "./state.ts";

/** Applies one event to a session: the new state and the effects to carry out. */
export function transition(state: SessionState, event: SessionEvent, now: number): Transition {
	const held = event.type === "timeCheck" || event.type === "toolCall" || event.type === "modelCall";
	if (state.asking && (held || event.type === "modelRequest")) {
		// The limit question is open: nothing is checked or stopped until it is answered.
		return { state, effects: [status(state, now)] };
	}
	const result = applyEvent(state, event, now);
	const spent = result.state.standing?.spent ?? null;
	const reachesLimit =
		event.type === "modelCall" ||
		event.type === "modelRequest" ||
		event.type === "toolCall" ||
		event.type === "timeCheck" ||
		event.type === "modelResponse";
	// More time or a prompt can lift a time or prompt limit only: tokens and cost stop as usual.
	if (state.askAtLimit && !state.standing?.spent && spent !== null && spent.limit === undefined && reachesLimit) {
		return askAtTheLimit(state, event, spent);
	}
	return result;
}

function applyEvent(state: SessionState, event: SessionEvent, now: number): Transition {
	switch (event.type) {
		case "load":
			return load(event, now);
		case "command":
			return command(state, event, now);
		case "declined":
			return { state, effects: [{ kind: "notify", message: event.message, level: "info" }] };
		case "limitAnswer":
			return limitAnswer({ ...state, asking: false }, event, now);
		case "modelCall":
			return (
				loopStoppedCall(state, event.prompt) ??
				withOutputCap(
					recordPrompt(
						state,
						event,
						withCallContext(
							countStep(
								state,
								modelCall(state, event.prompt, now, event.startedBy !== "extension", event.request),
								event,
								now,
							),
							now,
						),
					),
					event,
				)
			);
		case "stepsAnswer":
			return stepsAnswer({ ...state, asking: false }, event, now);
		case "modelRequest":
			return loopStoppedCall(state, state.lastPrompt) ?? modelRequest(state, event.request, now);
		case "toolCall":
			return guardLoop(event, toolCall(state, event.prompt, now));
		case "modelResponse":
			// The call's answer came: what it used counts, and it holds nothing back any more.
			return modelResponse(answered(state, event.agent ?? MAIN_AGENT), event, now);
		case "promptRefused":
			return promptRefused(state, now);
		case "runEnd": {
			// No call of the run is in flight any more.
			const next = { ...settled(state), running: false };
			const standing = state.standing;
			if (standing?.wrapUp) return endWrapUp(next, standing, standing.wrapUp, now, null);
			return { state: next, effects: [status(next, now)] };
		}
		case "timeCheck": {
			const standing = state.standing;
			if (standing?.wrapUp) return wrapUpTimeCheck(state, standing, standing.wrapUp, now);
			return checkTime(state, now, "timer");
		}
		case "onStopReport":
			return onStopReported(state, event, now);
		case "agentStart":
		case "agentEnd":
		case "sessionStop":
			// The subagents' own rules hear these, composed with the session's in the runtime (subagents/compose.ts).
			return { state, effects: [] };
	}
}

/** The session with no call in flight: its run ended. */
function settled(state: SessionState): SessionState {
	const standing = state.standing;
	if (standing?.inFlight === undefined) return state;
	const { inFlight: _ended, ...rest } = standing;
	return { ...state, standing: rest };
}

/** The session with `agent`'s call answered: nothing of it is held back any more. */
function answered(state: SessionState, agent: string): SessionState {
	const standing = state.standing;
	return standing?.inFlight?.[agent] === undefined
		? state
		: { ...state, standing: withInFlight(standing, agent, null) };
}

/**
 * A new prompt that runs is kept in the session's history, where it counts from then on, on every host alike. A
 * refused one (the budget stopped at it) never reached the model and counts for nothing; a run an extension started,
 * or one the host named no prompt for, is no prompt of the user's.
 */
function recordPrompt(
	before: SessionState,
	event: Extract<SessionEvent, { type: "modelCall" }>,
	result: Transition,
): Transition {
	const prompt = event.prompt;
	if (prompt === null || event.startedBy === "extension" || !isNewPrompt(before, prompt)) return result;
	if (result.effects.some((effect) => effect.kind === "refuse")) return result;
	return { state: result.state, effects: [...result.effects, { kind: "recordPrompt", prompt }] };
}

/**
 * A subagent's model call as the session's budget sees it: the session's time checked, and, where the host told the
 * request, whether it fits in what is left of the session's tokens and cost (a call that does not is refused, and the
 * session's budget is spent there).
 */
export function subagentModelCall(
	state: SessionState,
	request: ModelRequest | undefined,
	now: number,
	agent: string,
): Transition {
	const timed = transition(state, { type: "timeCheck" }, now);
	const active = counting(timed.state);
	if (request === undefined || timed.state.asking || !active) return timed;
	if (!tooLittleRoom(roomLeft(active.budget, spendBeside(active, agent), request))) return timed;
	const stopped = checkTime(timed.state, now, "modelCall", timed.state.lastPrompt, request, agent);
	return { state: stopped.state, effects: [...timed.effects, ...stopped.effects] };
}

/**
 * A call that goes, whose request the host told, is capped at the room left in the budget beside what the other calls in
 * flight may use, and held in flight at its most until its answer comes.
 */
export function capInFlight(result: Transition, request: ModelRequest, agent: string): Transition {
	const active = counting(result.state);
	const room = active ? roomLeft(active.budget, spendBeside(active, agent), request) : null;
	if (!active || room === null) return result;
	const cap = capEffect(room.tokens);
	const answer = Math.min(Math.max(room.tokens, MIN_ANSWER_TOKENS), request.answerLimit ?? Number.POSITIVE_INFINITY);
	const held = withInFlight(active, agent, mostUsed(request, answer));
	return { state: { ...result.state, standing: held }, effects: [...result.effects, ...cap] };
}

/**
 * The latest call's request is about to be sent: it is checked for room (with the time), and capped, as a model call
 * whose request the host told when it announced it.
 */
function modelRequest(state: SessionState, request: ModelRequest, now: number): Transition {
	const standing = state.standing;
	if (standing?.wrapUp && standing.spent?.limit !== undefined) return { state, effects: capEffect(MIN_ANSWER_TOKENS) };
	// The prompt the budget stopped sends nothing more.
	if (standing?.spent && !standing.wrapUp && standing.stoppedPrompt === state.lastPrompt) {
		return { state, effects: refuseStopped(standing.spent) };
	}
	const checked = checkTime(state, now, "modelCall", state.lastPrompt, request);
	return callGoes(checked.effects) ? capInFlight(checked, request, MAIN_AGENT) : checked;
}

/**
 * A model call that goes, whose request the host told, is capped at what is left of the budget's tokens and cost (a call
 * whose budget's tokens or cost ran out and that wraps up, at a minimal answer).
 */
function withOutputCap(result: Transition, event: Extract<SessionEvent, { type: "modelCall" }>): Transition {
	const request = event.request;
	if (request === undefined || !callGoes(result.effects)) return result;
	const standing = result.state.standing;
	if (standing?.wrapUp && standing.spent?.limit !== undefined) {
		return { state: result.state, effects: [...result.effects, ...capEffect(MIN_ANSWER_TOKENS)] };
	}
	return capInFlight(result, request, MAIN_AGENT);
}

/** The user answered the question at a prompt's step cap: the run ends, or goes on with as many steps again. */
function stepsAnswer(
	state: SessionState,
	event: Extract<SessionEvent, { type: "stepsAnswer" }>,
	now: number,
): Transition {
	const { limit } = event;
	if (event.answer === "stop") {
		return {
			state,
			effects: [
				{ kind: "notify", message: stepsStoppedMessage(limit), level: "warning" },
				{ kind: "abort" },
				{ kind: "refuse", reason: stepsRefusal(limit) },
			],
		};
	}
	const standing = state.standing;
	const more = standing ? withStanding(state, standing, { stepAllowance: event.allowance + limit }) : state;
	return applyEvent(more, event.reached, now);
}

/** The user answered the limit question: stop as usual, or extend and go on with what reached the limit. */
function limitAnswer(
	state: SessionState,
	event: Extract<SessionEvent, { type: "limitAnswer" }>,
	now: number,
): Transition {
	if (event.answer === "stop") return applyEvent(state, event.reached, now);
	const args = event.answer === "time" ? `+${LIMIT_MORE_TIME}` : `+turns:${LIMIT_MORE_TURNS}`;
	// An extension keeps the budget and its id: no new id is needed.
	const extended = command(state, { type: "command", args, newBudgetId: "" }, now);
	// Room of the other kind does not lift the limit that was met: the question comes again, with the other choice.
	const goOn = transition(extended.state, event.reached, now);
	return { state: goOn.state, effects: [...extended.effects, ...goOn.effects] };
}
