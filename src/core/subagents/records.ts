// The records of subagents read back: the budget set with the command, and how a subagent stands. A record that is
// damaged or from a newer version reads as null, and the session goes on without it.

import { parseTaskBudget } from "../grammar/command.ts";
import type { AgentEnding, SubagentRun, TaskBudget, TaskLimit, TimeboxRecord } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";

type Fields = Record<string, unknown>;

const LIMITS: readonly TaskLimit[] = ["time", "steps", "tokens", "cost", "loop", "session", "parent"];
const ENDINGS: readonly AgentEnding[] = ["answered", "concluded", "stopped"];

function isLimit(value: unknown): value is TaskLimit {
	return LIMITS.some((limit) => limit === value);
}

function isEnding(value: unknown): value is AgentEnding {
	return ENDINGS.some((ending) => ending === value);
}

function isFields(value: unknown): value is Fields {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** The words of a subagent budget by agent type, or null (turned off); undefined when the record is unusable. */
export function parseBudgetWords(value: unknown): Record<string, string> | null | undefined {
	if (value === null) return null;
	if (!isFields(value)) return undefined;
	const words: Record<string, string> = {};
	for (const [agentType, text] of Object.entries(value)) {
		if (typeof text !== "string") return undefined;
		words[agentType] = text;
	}
	return words;
}

/** A subagent as its record wrote it, or null when the record is unusable. */
export function parseSubagentRun(value: unknown): SubagentRun | null {
	if (!isFields(value)) return null;
	const { id, parent, agentType, task, startedAt, steps, spend, spent, wrapUp, ended, endedAt } = value;
	if (typeof id !== "string" || typeof agentType !== "string" || typeof task !== "string") return null;
	if (!(parent === null || typeof parent === "string") || !isCount(startedAt) || !isCount(steps)) return null;
	if (!isFields(spend) || !isCount(spend.tokens) || !isCount(spend.cost)) return null;
	const budget = taskBudget(value.budget);
	if (budget === undefined) return null;
	const spentAt =
		spent === null
			? null
			: isFields(spent) && isLimit(spent.limit) && isCount(spent.at)
				? { limit: spent.limit, at: spent.at }
				: undefined;
	if (spentAt === undefined) return null;
	return {
		id,
		parent,
		agentType,
		task,
		budget,
		startedAt,
		steps,
		spend: { tokens: spend.tokens, cost: spend.cost },
		warned: value.warned === true,
		told: value.told === true,
		spent: spentAt,
		wrapUp: wrapUpOf(wrapUp),
		ended: isEnding(ended) ? ended : null,
		closed: value.closed === true,
		endedAt: isCount(endedAt) ? endedAt : null,
	};
}

/** A subagent's budget as written: checked as the command checks one. */
function taskBudget(value: unknown): TaskBudget | null | undefined {
	if (value === null) return null;
	if (!isFields(value)) return undefined;
	const { timeLimitMs, stepLimit, tokenLimit, costLimit, loopLimit } = value;
	const words = [
		...(isCount(timeLimitMs) ? [`${Math.round(timeLimitMs / 1_000)}s`] : []),
		...(isCount(stepLimit) ? [`steps:${stepLimit}`] : []),
		...(isCount(tokenLimit) ? [`tokens:${tokenLimit}`] : []),
		...(isCount(costLimit) ? [`cost:${costLimit}`] : []),
		...(isCount(loopLimit) ? [`loop:${loopLimit}`] : []),
	];
	const budget = parseTaskBudget(words.join(" "));
	return "invalid" in budget ? undefined : budget;
}

function wrapUpOf(value: unknown): SubagentRun["wrapUp"] {
	if (!isFields(value) || !isCount(value.until) || !isCount(value.calls)) return null;
	const refusedAt = isCount(value.refusedAt) ? value.refusedAt : null;
	return { until: value.until, calls: value.calls, refusedAt };
}

/**
 * How a subagent that ran in a process of its own stood at its end, as that process wrote it (null: it wrote none):
 * kept in the parent's session, for its report.
 */
export function keepChildRecord(record: Extract<TimeboxRecord, { kind: "subagent" }> | null): Effect[] {
	return record === null ? [] : [{ kind: "append", record }];
}
