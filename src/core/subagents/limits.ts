// What a subagent's budget does as it runs out: the warning once, the spent budget and the call that concludes, the
// refused tool, and the stop (with the subagents it started), each as the records, notices and effects it gives.

import { NUDGE_WARNING_RATIO } from "../constants.ts";
import type { SubagentRun, TaskLimit } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";
import {
	SUBAGENT_STOPPED_REFUSAL,
	SUBAGENT_WRAP_UP_BLOCK,
	SUBAGENT_WRAP_UP_REFUSAL,
	subagentName,
	subagentStoppedMessage,
	subagentWarningMessage,
} from "./messages.ts";
import {
	type AgentsTransition,
	isRunning,
	leftText,
	runRecord,
	type SessionView,
	type SubagentsState,
	usedRatio,
	withRun,
} from "./state.ts";

/** Keeps a subagent as it stands now, in the state and the records. */
export function kept(agents: SubagentsState, run: SubagentRun): AgentsTransition {
	return { agents: withRun(agents, run), effects: [runRecord(run)] };
}

export function parentOf(agents: SubagentsState, run: SubagentRun): SubagentRun | undefined {
	return run.parent === null ? undefined : agents.runs[run.parent];
}

/** The call a subagent concludes in: the wrap-up block, and the record of how it stands. */
export function concludingCall(agents: SubagentsState, run: SubagentRun, cap: Effect[] = []): AgentsTransition {
	return {
		agents: withRun(agents, run),
		effects: [runRecord(run), { kind: "context", text: SUBAGENT_WRAP_UP_BLOCK }, ...cap],
	};
}

/** Its budget ran out between model calls: its next call is the one it concludes in. */
export function spendBudget(
	agents: SubagentsState,
	run: SubagentRun,
	limit: TaskLimit,
	now: number,
	session: SessionView,
): AgentsTransition {
	const spent: SubagentRun = {
		...run,
		spent: { limit, at: now },
		wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: null },
	};
	return { agents: withRun(agents, spent), effects: [runRecord(spent)] };
}

/** Refuses a tool of a subagent that concludes, with the reason it reads. */
export function refuseTool(agents: SubagentsState, run: SubagentRun, changed: boolean): AgentsTransition {
	const refuse: Effect = { kind: "refuse", reason: SUBAGENT_WRAP_UP_REFUSAL };
	return { agents: withRun(agents, run), effects: changed ? [runRecord(run), refuse] : [refuse] };
}

/**
 * Keeps the run as counted, and warns the user once when it reaches 80% of its budget. Its record is written when it
 * `changed` (a call or usage counted) or is warned now: a time check that finds nothing new writes nothing.
 */
export function warnOnce(
	agents: SubagentsState,
	run: SubagentRun,
	now: number,
	effects: Effect[],
	changed: boolean,
): AgentsTransition {
	// Without a budget the ratio is 0: nothing to warn of.
	const warn = !run.warned && usedRatio(run, now) >= NUDGE_WARNING_RATIO;
	if (!warn && !changed) return { agents, effects };
	const next = warn ? { ...run, warned: true } : run;
	const said: Effect[] = warn
		? [
				{
					kind: "notify",
					message: subagentWarningMessage(subagentName(run.task, run.agentType), leftText(run, now)),
					level: "warning",
				},
			]
		: [];
	return { agents: withRun(agents, next), effects: [runRecord(next), ...said, ...effects] };
}

/**
 * Stops a subagent now, with no further model request: the user is told, its answer goes back to its parent, and the
 * subagents it started that still run are stopped with it (nobody is left to read their answers). `limit` names why
 * when its own budget was not spent yet (the session's stop, its parent's); `refuse` refuses the call that met the stop;
 * `cascade` false leaves the subagents it started to the caller (the session's stop stops them all itself).
 */
export function stop(
	agents: SubagentsState,
	run: SubagentRun,
	now: number,
	limit: TaskLimit,
	refuse: boolean,
	cascade: boolean,
): AgentsTransition {
	const spent = run.spent ?? { limit, at: now };
	const stopped: SubagentRun = { ...run, spent, ended: "stopped", wrapUp: null, endedAt: now };
	const effects: Effect[] = [
		runRecord(stopped),
		stoppedNotice(stopped, spent.limit),
		{ kind: "stopAgent", agent: run.id },
	];
	if (refuse) effects.push({ kind: "refuse", reason: SUBAGENT_STOPPED_REFUSAL });
	let next = withRun(agents, stopped);
	if (!cascade) return { agents: next, effects };
	for (const child of Object.values(next.runs)) {
		if (child.parent !== run.id || !isRunning(child)) continue;
		const step = stop(next, child, now, "parent", false, true);
		next = step.agents;
		effects.push(...step.effects);
	}
	return { agents: next, effects };
}

/** A stopped subagent asks for more: refused, and stopped again (the host may not have ended it yet). */
export function refuseStopped(agents: SubagentsState, run: SubagentRun): AgentsTransition {
	return {
		agents,
		effects: [
			{ kind: "stopAgent", agent: run.id },
			{ kind: "refuse", reason: SUBAGENT_STOPPED_REFUSAL },
		],
	};
}

export function stoppedNotice(run: SubagentRun, limit: TaskLimit): Effect {
	const name = subagentName(run.task, run.agentType);
	return {
		kind: "notify",
		message: subagentStoppedMessage(name, limit, run.budget, run.steps, run.parent),
		level: "info",
	};
}
