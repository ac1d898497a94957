// The subagent rules composed with the session's, once, for the runtime: a subagent's events go to its rules (the
// session's time checked first, its usage counted once by the session too), the session's events to the session's
// rules, and when the session's budget becomes spent every running subagent is stopped with it.

import { SUBAGENT_GRACE_MS } from "../constants.ts";
import type { Effect, SessionEvent } from "../model/events.ts";
import { callGoes } from "../session/caps.ts";
import { capInFlight, type SessionState, subagentModelCall, type Transition, transition } from "../session/index.ts";
import { keptUsage } from "../session/limits.ts";
import { guardAgentLoop } from "./loop.ts";
import { SUBAGENT_REFUSED } from "./messages.ts";
import {
	agentEnd,
	agentModelCall,
	agentResponse,
	agentStart,
	agentsTimeCheck,
	agentToolCall,
	stopAll,
} from "./rules.ts";
import type { AgentsTransition, SessionView } from "./state.ts";

/**
 * Applies one event to a session and its subagents: the new state and the effects to carry out. A response the host
 * named is kept in the session's history before anything else is carried out.
 */
export function transitionWithSubagents(state: SessionState, event: SessionEvent, now: number): Transition {
	const result = composed(state, event, now);
	if (event.type !== "modelResponse" || event.responseId === undefined) return result;
	const responseId = event.responseId;
	return { state: result.state, effects: [keptUsage({ ...event, responseId }, now), ...result.effects] };
}

function composed(state: SessionState, event: SessionEvent, now: number): Transition {
	switch (event.type) {
		case "agentStart": {
			// The session's time is checked first: a subagent asked for just after it ran out is refused.
			const session = sessionStep(state, { type: "timeCheck" }, now);
			return joined(
				session.state,
				session.effects,
				agentStart(session.state.subagents, event, now, viewOf(session.state)),
			);
		}
		case "agentEnd": {
			const run = state.subagents.runs[event.agent];
			return run === undefined ? { state, effects: [] } : joined(state, [], agentEnd(state.subagents, run, now));
		}
		case "sessionStop":
			return joined(state, [], stopAll(state.subagents, now));
		case "modelCall":
		case "toolCall": {
			const agent = event.agent;
			if (agent === undefined) break;
			// The session's time runs while only a subagent works: it is checked first (with the call's room in the
			// session's tokens and cost), and its stop stops them all.
			const request = event.type === "modelCall" ? event.request : undefined;
			const session = withSessionStop(state, subagentModelCall(state, request, now, agent), now);
			const run = session.state.subagents.runs[agent];
			if (run === undefined) {
				// A subagent never seen started (its start was refused, or the host never said): nothing of it runs while
				// the session's stop holds; else it is let through, unbudgeted.
				if (!viewOf(session.state).spent) return session;
				const refuse: Effect[] = [
					{ kind: "stopAgent", agent },
					{ kind: "refuse", reason: SUBAGENT_REFUSED },
				];
				return { state: session.state, effects: [...session.effects, ...refuse] };
			}
			const view = viewOf(session.state);
			const agents = session.state.subagents;
			if (event.type === "toolCall") {
				const own = guardAgentLoop(event, agent, now, view, agentToolCall(agents, run, now, view));
				return joined(session.state, session.effects, own);
			}
			const result = joined(session.state, session.effects, agentModelCall(agents, run, now, view, request));
			return request === undefined || !callGoes(result.effects) ? result : capInFlight(result, request, agent);
		}
		case "modelResponse": {
			const agent = event.agent;
			if (agent === undefined) break;
			const run = state.subagents.runs[agent];
			const used = { tokens: event.tokens, cost: event.cost };
			const own = agentResponse(state.subagents, run, used, now, viewOf(state));
			const counted = { ...state, subagents: own.agents };
			// The session counts what the call used once, as it counts the main agent's.
			const session = sessionStep(counted, { type: "modelResponse", ...used, agent }, now);
			return { state: session.state, effects: [...own.effects, ...session.effects] };
		}
		case "timeCheck": {
			const session = sessionStep(state, event, now);
			return joined(
				session.state,
				session.effects,
				agentsTimeCheck(session.state.subagents, now, viewOf(session.state)),
			);
		}
	}
	return sessionStep(state, event, now);
}

/**
 * The session's rules, and every running subagent stopped when they spend the session's budget: those the rules run,
 * and those that run in processes of their own, which the host tells.
 */
function sessionStep(state: SessionState, event: SessionEvent, now: number): Transition {
	return withSessionStop(state, transition(state, event, now), now);
}

/** Every running subagent stopped when a step of the session's rules spent the session's budget. */
function withSessionStop(state: SessionState, result: Transition, now: number): Transition {
	if (isSpent(state) || !isSpent(result.state)) return result;
	const stopped = joined(result.state, result.effects, stopAll(result.state.subagents, now));
	return { state: stopped.state, effects: [...stopped.effects, STOP_SUBAGENTS] };
}

const STOP_SUBAGENTS: Effect = { kind: "stopSubagents" };

function joined(state: SessionState, before: Effect[], agents: AgentsTransition): Transition {
	// Most events change no subagent (a time check with none running): the session's state and effects stand as they are.
	if (agents.effects.length === 0 && agents.agents === state.subagents) return { state, effects: before };
	return { state: { ...state, subagents: agents.agents }, effects: [...before, ...agents.effects] };
}

function isSpent(state: SessionState): boolean {
	return state.standing?.spent != null;
}

/**
 * The session as the subagent rules see it: whether its stop holds (its budget is spent and the run it stopped is the
 * latest: a prompt after the stop runs on, as the chat does, and so may its subagents), and the time a subagent gets
 * to conclude.
 */
function viewOf(state: SessionState): SessionView {
	const standing = state.standing;
	return {
		spent: standing?.spent != null && standing.stoppedPrompt === state.lastPrompt,
		graceMs: standing?.budget.graceMs ?? state.settings.graceMs ?? SUBAGENT_GRACE_MS,
	};
}
