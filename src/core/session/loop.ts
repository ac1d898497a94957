// The session budget's loop guard (`loop:N`): each tool call of a prompt's run is counted by its key, the Nth identical
// one is refused (the model reads why, the person one line), asking for it once more stops the run as the step cap
// does (the budget stays in force, no on-stop command runs), and nothing more of that run runs. A new prompt starts
// from nothing; only the running prompt's calls are kept, as keys and counts.

import { callView } from "../loop/calls.ts";
import { checkCall } from "../loop/guard.ts";
import type { Effect, SessionEvent } from "../model/events.ts";
import {
	LOOP_STOPPED_REFUSAL,
	loopRefusal,
	loopRefusedMessage,
	loopStoppedMessage,
	loopStopRefusal,
} from "../text/loop.ts";
import { counting, promptKeyOf, type SessionState, type Transition, withStanding } from "./state.ts";

/**
 * A tool call the session's other rules let through (`result` refuses nothing), checked against the loop guard of the
 * budget in force. Nothing is counted without a guard, while the budget is paused or spent, or for a call whose tool
 * and input the host does not show.
 */
export function guardLoop(event: Extract<SessionEvent, { type: "toolCall" }>, result: Transition): Transition {
	const call = event.call;
	if (call === undefined || result.effects.some((effect) => effect.kind === "refuse")) return result;
	const state = result.state;
	const active = counting(state);
	const limit = active?.budget.loopLimit;
	if (!active || limit === undefined) return result;
	const check = checkCall(active.calls ?? null, promptKeyOf(state, event.prompt), call, limit, event.earlier);
	const next = withStanding(state, active, { calls: check.calls });
	const view = check.verdict === "runs" || check.verdict === "stopped" ? "" : callView(call);
	const effects: Effect[] = [...result.effects];
	switch (check.verdict) {
		case "runs":
			break;
		case "refused":
			effects.push(
				{ kind: "notify", message: loopRefusedMessage(call.tool, view, check.count), level: "warning" },
				{ kind: "refuse", reason: loopRefusal(call.tool, view, check.count) },
			);
			break;
		case "stops":
			effects.push(
				{ kind: "notify", message: loopStoppedMessage(call.tool, view, check.count), level: "warning" },
				{ kind: "abort" },
				{ kind: "refuse", reason: loopStopRefusal(call.tool, view, check.count) },
			);
			break;
		case "stopped":
			effects.push({ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL });
			break;
	}
	return { state: next, effects };
}

/** A model call of the running prompt's run after the loop guard stopped it: refused, and the run ends there. */
export function loopStoppedCall(state: SessionState, prompt: string | null): Transition | null {
	const active = counting(state);
	const calls = active?.calls;
	const limit = active?.budget.loopLimit;
	if (calls === undefined || limit === undefined || calls.peak <= limit) return null;
	const key = promptKeyOf(state, prompt);
	if (key !== calls.run || key !== state.lastPrompt) return null;
	return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }] };
}
