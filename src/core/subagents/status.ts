// What `/timebox status` and `/timebox report` say of subagents: the running ones with what each has left, and every
// subagent of the session with its budget, what it used and how it ended.

import { quoteInput } from "../grammar/command.ts";
import type { SubagentRun } from "../model/budget.ts";
import { describeTaskBudget } from "./describe.ts";
import { subagentStopCause } from "./messages.ts";
import { isRunning, leftText, type SubagentsState, usedText } from "./state.ts";

/** The running subagents, one line each, under a heading; nothing when none runs. */
export function subagentStatusLines(agents: SubagentsState, now: number): string[] {
	const running = Object.values(agents.runs).filter(isRunning);
	if (running.length === 0) return [];
	return [`Subagents running: ${running.length}.`, ...running.map((run) => `- ${nameOf(run)}: ${standing(run, now)}`)];
}

/** Every subagent of the session, oldest first, one line each, under a heading; nothing when there was none. */
export function subagentReportLines(runs: readonly SubagentRun[], now: number): string[] {
	if (runs.length === 0) return [];
	const count = runs.length === 1 ? "1 subagent" : `${runs.length} subagents`;
	return [`${count} in this session:`, ...runs.map((run) => `- ${subagentReportLine(run, now)}`)];
}

/** What `/timebox report` says of one subagent: its budget, what it used and how it ended. */
export function subagentReportLine(run: SubagentRun, now: number): string {
	const budget = run.budget === null ? "no budget of its own" : `budget ${describeTaskBudget(run.budget)}`;
	return `${nameOf(run)}: ${budget}; used ${usedText(run, now)}. ${ending(run)}`;
}

function nameOf(run: SubagentRun): string {
	return `${quoteInput(run.task)} (${run.agentType})`;
}

/** What a running subagent has left, or that it concludes. */
function standing(run: SubagentRun, now: number): string {
	if (run.spent !== null) return `concluding ${subagentStopCause(run.spent.limit, run.budget)}`;
	if (run.budget === null) return `no budget of its own; used ${usedText(run, now)}`;
	return `${leftText(run, now)} left`;
}

/** How a subagent ended, or that it still runs. */
function ending(run: SubagentRun): string {
	if (run.ended === "answered") return "Answered.";
	// Concluded and stopped subagents met a limit: their own, the session's, or their parent's stop.
	if (run.spent === null) return "Still running.";
	const cause = subagentStopCause(run.spent.limit, run.budget);
	switch (run.ended) {
		case "concluded":
			return `Concluded ${cause}.`;
		case "stopped":
			return `Stopped ${cause}.`;
		case null:
			return `Concluding ${cause}.`;
	}
}
