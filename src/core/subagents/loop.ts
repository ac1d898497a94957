// A subagent's loop guard (`/timebox subagents 5m loop:3`): its task's tool calls are counted by key, the Nth
// identical one is refused (it reads why, the person one line), and asking for it once more concludes the subagent as
// its step limit does: the call is refused, it writes its final answer, and it is stopped if it asks for a tool again.

import { callView } from "../loop/calls.ts";
import { checkCall } from "../loop/guard.ts";
import type { RunCalls } from "../loop/run-calls.ts";
import type { Effect, SessionEvent } from "../model/events.ts";
import {
	loopRefusal,
	SUBAGENT_LOOP_STOPPED_REFUSAL,
	subagentLoopRefusal,
	subagentLoopRefusedMessage,
} from "../text/loop.ts";
import { subagentName } from "./messages.ts";
import {
	type AgentsTransition,
	isRunning,
	runRecord,
	type SessionView,
	type SubagentsState,
	withRun,
} from "./state.ts";

/**
 * A subagent's tool call that its budget's other rules let through (`result`), checked against its loop guard. Nothing is counted for a subagent without one, or for a call whose tool and input the host does not show.
 */
export function guardAgentLoop(
	event: Extract<SessionEvent, { type: "toolCall" }>,
	agent: string,
	now: number,
	session: SessionView,
	result: AgentsTransition,
): AgentsTransition {
	const call = event.call;
	const run = result.agents.runs[agent];
	const limit = run?.budget?.loopLimit;
	if (call === undefined || run === undefined || limit === undefined) return result;
	// A subagent its other rules refuse is stopped or concluding: it has ended, or its budget is spent.
	if (!isRunning(run) || run.spent !== null) return result;
	const check = checkCall(result.agents.calls?.[agent] ?? null, agent, call, limit, event.earlier);
	const agents = withCalls(result.agents, agent, check.calls);
	if (check.verdict === "runs") return { agents, effects: result.effects };
	const view = callView(call);
	if (check.verdict === "refused") {
		const name = subagentName(run.task, run.agentType);
		const effects: Effect[] = [
			...result.effects,
			{ kind: "notify", message: subagentLoopRefusedMessage(name, call.tool, view, check.count), level: "warning" },
			{ kind: "refuse", reason: loopRefusal(call.tool, view, check.count, "task") },
		];
		return { agents, effects };
	}
	// Asked for once more (or its task stopped by a loop already): it concludes, and the next tool it asks for stops it.
	const concluding = {
		...run,
		spent: { limit: "loop" as const, at: now },
		wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: 0 },
	};
	return {
		agents: withRun(agents, concluding),
		effects: [
			...result.effects,
			runRecord(concluding),
			{
				kind: "refuse",
				reason:
					check.verdict === "stops" ? subagentLoopRefusal(call.tool, view, check.count) : SUBAGENT_LOOP_STOPPED_REFUSAL,
			},
		],
	};
}

/** The subagents with this one's calls as counted now. */
function withCalls(agents: SubagentsState, agent: string, calls: RunCalls): SubagentsState {
	return { ...agents, calls: { ...agents.calls, [agent]: calls } };
}
