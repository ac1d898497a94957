// The subagents of a session as the rules see them: the budget each new subagent gets, the subagents that run, and
// the selectors that read how far each is in its budget, what it has left, and when its time is next due.

import {
	ANY_AGENT_TYPE,
	MAX_TIMER_DELAY_MS,
	NUDGE_WARNING_RATIO,
	RECORD_VERSION,
	SUBAGENT_TASK_WORDS,
} from "../constants.ts";
import { formatCost, formatTokens } from "../format.ts";
import type { RunCalls } from "../loop/run-calls.ts";
import type { SubagentRun, TaskBudget, TaskLimit } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";
import { formatTime } from "../parse.ts";
import { pluralCalls } from "./messages.ts";

/** A subagent budget as set: its words, and the budget they give. */
export interface SetTaskBudget {
	readonly words: string;
	readonly budget: TaskBudget;
}

/** The budget each subagent gets, by agent type ("*" for every other type), and where it came from. */
export interface SubagentBudgets {
	readonly byType: Readonly<Record<string, SetTaskBudget>>;
	readonly source: string;
}

/** The subagents of a session: the budget a new one gets, and those that run or wait to be ended. */
export interface SubagentsState {
	/**
	 * The budget by agent type ("*" for every other type), and where it came from (the command, a setting, the
	 * environment); null where no subagent budget is set.
	 */
	readonly budgets: SubagentBudgets | null;
	/** The subagents that run, or were stopped and wait for the host to report their end, by id. */
	readonly runs: Readonly<Record<string, SubagentRun>>;
	/** Under a loop guard: the tool calls of each running subagent's task, by its id (absent: none counted). */
	readonly calls?: Readonly<Record<string, RunCalls>>;
	/** Where no budget is set because the `subagents` setting could not be read: its warning, said again when asked. */
	readonly badSetting?: string;
}

/** No subagent budget and no subagent. */
export const NO_SUBAGENTS: SubagentsState = { budgets: null, runs: {} };

/** What one event does to the subagents: their new state, and the effects to carry out. */
export interface AgentsTransition {
	agents: SubagentsState;
	effects: Effect[];
}

/** The session as the subagent rules see it: whether its budget is spent, and the time a subagent gets to conclude. */
export interface SessionView {
	readonly spent: boolean;
	readonly graceMs: number;
}

/** The budget a subagent of this type gets: its type's own, else the one for every type, else none. */
export function budgetFor(agents: SubagentsState, agentType: string): TaskBudget | null {
	return setBudgetFor(agents, agentType)?.budget ?? null;
}

/**
 * The budget a subagent of this type gets as it was set, with its words (for a host that hands them to a subagent's own
 * process): its type's own, else the one for every type; null where none is set.
 */
export function setBudgetFor(agents: SubagentsState, agentType: string): SetTaskBudget | null {
	const byType = agents.budgets?.byType;
	if (byType === undefined) return null;
	return (Object.hasOwn(byType, agentType) ? byType[agentType] : byType[ANY_AGENT_TYPE]) ?? null;
}

/** The first words of a task, as the notices and the report show it. */
export function firstWords(task: string): string {
	const words = task.trim().split(/\s+/);
	const shown = words.slice(0, SUBAGENT_TASK_WORDS).join(" ");
	return words.length > SUBAGENT_TASK_WORDS ? `${shown}…` : shown;
}

/** The subagents with this one as it stands now. */
export function withRun(agents: SubagentsState, run: SubagentRun): SubagentsState {
	return { ...agents, runs: { ...agents.runs, [run.id]: run } };
}

/** The record that keeps how a subagent stands. */
export function runRecord(run: SubagentRun): Effect {
	return { kind: "append", record: { kind: "subagent", version: RECORD_VERSION, agent: run } };
}

/** Whether a subagent runs: started, not stopped and not ended. */
export function isRunning(run: SubagentRun): boolean {
	return run.ended === null;
}

/** The limit a subagent's budget reached by now, or null. Steps count the calls made: the limit's calls are used. */
export function reachedLimit(run: SubagentRun, now: number, steps = true): TaskLimit | null {
	const budget = run.budget;
	if (budget === null) return null;
	if (budget.timeLimitMs !== null && now - run.startedAt >= budget.timeLimitMs) return "time";
	if (steps && budget.stepLimit !== undefined && run.steps >= budget.stepLimit) return "steps";
	if (budget.tokenLimit !== undefined && run.spend.tokens >= budget.tokenLimit) return "tokens";
	if (budget.costLimit !== undefined && run.spend.cost >= budget.costLimit) return "cost";
	return null;
}

/** How much of its budget a subagent used, by its most used limit (0 without a budget). */
export function usedRatio(run: SubagentRun, now: number): number {
	const budget = run.budget;
	if (budget === null) return 0;
	let ratio = 0;
	if (budget.timeLimitMs !== null) ratio = Math.max(ratio, (now - run.startedAt) / budget.timeLimitMs);
	if (budget.stepLimit !== undefined) ratio = Math.max(ratio, run.steps / budget.stepLimit);
	if (budget.tokenLimit !== undefined) ratio = Math.max(ratio, run.spend.tokens / budget.tokenLimit);
	if (budget.costLimit !== undefined) ratio = Math.max(ratio, run.spend.cost / budget.costLimit);
	return ratio;
}

/** What a subagent has left of its budget: `1m 0s and 6 model calls`. */
export function leftText(run: SubagentRun, now: number): string {
	const budget = run.budget;
	if (budget === null) return "no budget";
	const left: string[] = [];
	if (budget.timeLimitMs !== null) left.push(formatTime(budget.timeLimitMs - (now - run.startedAt)));
	if (budget.stepLimit !== undefined) left.push(pluralCalls(Math.max(0, budget.stepLimit - run.steps)));
	if (budget.tokenLimit !== undefined) left.push(`${formatTokens(budget.tokenLimit - run.spend.tokens)} tokens`);
	if (budget.costLimit !== undefined) left.push(formatCost(Math.max(0, budget.costLimit - run.spend.cost)));
	return left.join(" and ");
}

/** What a subagent used: `2m 10s, 31 model calls, 150k tokens, $0.12`. */
export function usedText(run: SubagentRun, now: number): string {
	const until = run.endedAt ?? now;
	const spend = run.spend;
	const used = [formatTime(until - run.startedAt), pluralCalls(run.steps)];
	if (spend.tokens > 0) used.push(`${formatTokens(spend.tokens)} tokens`);
	if (spend.cost > 0) used.push(formatCost(spend.cost));
	return used.join(", ");
}

/**
 * When the next time check is due for the running subagents: the earliest 80% point not yet warned of, time limit or
 * end of a conclusion, as a delay in ms (at least 1, at most what a timer holds), or null when none is due.
 */
export function nextSubagentCheckIn(agents: SubagentsState, now: number): number | null {
	let due = Number.POSITIVE_INFINITY;
	for (const run of Object.values(agents.runs)) {
		if (!isRunning(run)) continue;
		const limitMs = run.budget?.timeLimitMs ?? null;
		if (run.wrapUp !== null) due = Math.min(due, run.wrapUp.until);
		else if (limitMs !== null && run.spent === null) {
			due = Math.min(due, run.startedAt + (run.warned ? limitMs : NUDGE_WARNING_RATIO * limitMs));
		}
	}
	return due === Number.POSITIVE_INFINITY ? null : Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(due - now)));
}

/** Whether a subagent's time is to be checked: one runs with a time limit, or is concluding. */
export function hasSubagentTimers(agents: SubagentsState): boolean {
	for (const run of Object.values(agents.runs)) {
		if (isRunning(run) && (run.wrapUp !== null || (run.spent === null && run.budget?.timeLimitMs != null))) return true;
	}
	return false;
}
