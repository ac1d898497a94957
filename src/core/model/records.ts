// The records that persist a budget: the shape written, and the validation of records read back, which may be damaged,
// hand-edited or from the first version.

import {
	BUDGET_ID_PATTERN,
	LEGACY_ID_PREFIX,
	MAX_COST_LIMIT,
	MAX_GRACE_MS,
	MAX_LOOP_LIMIT,
	MAX_STEP_LIMIT,
	MAX_TIME_LIMIT_MS,
	MAX_TOKEN_LIMIT,
	MAX_TURN_LIMIT,
	MIN_COST_LIMIT,
	MIN_GRACE_MS,
	MIN_LOOP_LIMIT,
	MIN_TIME_LIMIT_MS,
	RECORD_VERSION,
} from "../constants.ts";
import { parseBudgetWords, parseSubagentRun } from "../subagents/records.ts";
import {
	type BudgetRecordData,
	type BudgetTerms,
	freshBudget,
	NO_SPEND,
	type Spend,
	type SubagentRun,
	type TimeboxBudget,
	type TimeboxRecord,
} from "./budget.ts";

export type { BudgetRecordData, TimeboxRecord } from "./budget.ts";

/** A record as read back: a usable budget, or an off (whose budget id may be lost to damage). */
export type ParsedRecord =
	| {
			kind: "active";
			budget: TimeboxBudget;
			/** A first-version record counted prompts from this transcript count; null for current records. */
			legacyStartTurn: number | null;
			/** Prompts used before this record (a budget written again); 0 for a new budget. */
			turnsBefore: number;
			/** Tokens and cost used before this record, likewise. */
			spendBefore: Spend;
	  }
	| { kind: "off"; budgetId: string | null; disabledAt: number }
	/** The subagent budget set with the command: its words by agent type, or null (turned off). */
	| { kind: "subagents"; budgets: Record<string, string> | null }
	/** How a subagent stands. */
	| { kind: "subagent"; agent: SubagentRun };

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value);
}

function isTimeLimit(value: unknown): value is number | null {
	return value === null || (isFiniteNumber(value) && value >= MIN_TIME_LIMIT_MS && value <= MAX_TIME_LIMIT_MS);
}

function isTurnLimit(value: unknown): value is number | null {
	return value === null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TURN_LIMIT);
}

function isWholeCount(value: unknown): value is number {
	return Number.isInteger(value) && (value as number) >= 0;
}

/** Whether `value` can name a budget (and so a ledger file). */
export function isBudgetId(value: unknown): value is string {
	return typeof value === "string" && BUDGET_ID_PATTERN.test(value);
}

/** The name of a budget in the ledger and in records: its id, or for a budget without one, its start time. */
export function budgetIdOf(budget: { id?: string; startTime: number }): string {
	return budget.id ?? `${LEGACY_ID_PREFIX}${budget.startTime}`;
}

/** The record to write when a budget is turned off. */
export function offRecord(budgetId: string, disabledAt: number): TimeboxRecord {
	return { kind: "off", version: RECORD_VERSION, budgetId, disabledAt };
}

/** The record to write for a budget; what was used before when it writes an existing budget again. */
export function budgetRecord(budget: BudgetTerms, turnsBefore = 0, spendBefore: Spend = NO_SPEND): BudgetRecordData {
	return {
		version: RECORD_VERSION,
		id: budgetIdOf(budget),
		timeLimitMs: budget.timeLimitMs,
		turnLimit: budget.turnLimit,
		startTime: budget.startTime,
		onStopCommand: budget.onStopCommand,
		...optionalFields(budget),
		...(turnsBefore > 0 ? { turnsBefore } : {}),
		...(spendBefore.tokens > 0 ? { tokensBefore: spendBefore.tokens } : {}),
		...(spendBefore.cost > 0 ? { costBefore: spendBefore.cost } : {}),
	};
}

/** Whether `value` is a whole number from `min` to `max`. */
function isWholeIn(value: unknown, min: number, max: number): value is number {
	return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
 * The optional fields of a budget that are set: token, cost and step limits, the loop guard, a pause, time paused before,
 * extensions, awareness, a grace period.
 */
function optionalFields(fields: {
	tokenLimit?: unknown;
	costLimit?: unknown;
	stepLimit?: unknown;
	loopLimit?: unknown;
	pausedMs?: unknown;
	pausedAt?: unknown;
	extensions?: unknown;
	awareness?: unknown;
	graceMs?: unknown;
}): Pick<
	TimeboxBudget,
	| "tokenLimit"
	| "costLimit"
	| "stepLimit"
	| "loopLimit"
	| "pausedMs"
	| "pausedAt"
	| "extensions"
	| "awareness"
	| "graceMs"
> {
	const { tokenLimit, costLimit, stepLimit, loopLimit, pausedMs, pausedAt, extensions, awareness, graceMs } = fields;
	return {
		...(isWholeIn(tokenLimit, 1, MAX_TOKEN_LIMIT) ? { tokenLimit } : {}),
		...(isWholeIn(stepLimit, 1, MAX_STEP_LIMIT) ? { stepLimit } : {}),
		...(isWholeIn(loopLimit, MIN_LOOP_LIMIT, MAX_LOOP_LIMIT) ? { loopLimit } : {}),
		...(isFiniteNumber(costLimit) && costLimit >= MIN_COST_LIMIT && costLimit <= MAX_COST_LIMIT ? { costLimit } : {}),
		...(isWholeCount(pausedMs) && pausedMs > 0 ? { pausedMs } : {}),
		...(isFiniteNumber(pausedAt) ? { pausedAt } : {}),
		...(isWholeCount(extensions) && extensions > 0 ? { extensions } : {}),
		...(awareness === "always" || awareness === "nudge" ? { awareness } : {}),
		...(isFiniteNumber(graceMs) && graceMs >= MIN_GRACE_MS && graceMs <= MAX_GRACE_MS ? { graceMs } : {}),
	};
}

/**
 * Reads a persisted budget, or null when it is unusable. Extra fields are ignored. A record without a version is from
 * the first version: it has no id, so its start time names it, its `startTurn` is kept, and a missing `onStopCommand`
 * reads as null. How the budget stands (`softNudgeSent`, `active`) is never read back: restoring re-derives it.
 */
export function parseBudget(value: unknown): TimeboxBudget | null {
	if (!isFields(value)) return null;
	const { timeLimitMs, turnLimit, startTime, onStopCommand } = value;
	if (!isTimeLimit(timeLimitMs) || !isTurnLimit(turnLimit)) return null;
	const limits = optionalFields(value);
	const noLimit =
		limits.tokenLimit === undefined &&
		limits.costLimit === undefined &&
		limits.stepLimit === undefined &&
		limits.loopLimit === undefined;
	if (timeLimitMs === null && turnLimit === null && noLimit) return null;
	if (!isFiniteNumber(startTime)) return null;
	if (onStopCommand !== undefined && onStopCommand !== null && typeof onStopCommand !== "string") return null;
	const id = value.version === undefined ? `${LEGACY_ID_PREFIX}${startTime}` : value.id;
	if (!isBudgetId(id)) return null;
	const { startTurn } = value;
	const terms = {
		id,
		timeLimitMs,
		turnLimit,
		startTime,
		onStopCommand: onStopCommand ? onStopCommand : null,
		...limits,
	};
	return freshBudget(terms, value.version === undefined && isWholeCount(startTurn) ? startTurn : 0);
}

/**
 * Reads one persisted record, or null when it is unusable. An `off` record counts whatever else it holds: a budget the
 * user turned off must never come back because its off record was damaged.
 */
export function parseRecord(value: unknown): ParsedRecord | null {
	if (!isFields(value)) return null;
	if (value.kind === "off") {
		return {
			kind: "off",
			budgetId: isBudgetId(value.budgetId) ? value.budgetId : null,
			disabledAt: isFiniteNumber(value.disabledAt) ? value.disabledAt : 0,
		};
	}
	if (value.kind === "subagents") {
		const budgets = parseBudgetWords(value.budgets);
		return budgets === undefined ? null : { kind: "subagents", budgets };
	}
	if (value.kind === "subagent") {
		const agent = parseSubagentRun(value.agent);
		return agent === null ? null : { kind: "subagent", agent };
	}
	const data = value.budget;
	if (value.kind !== "active" || !isFields(data)) return null;
	const budget = parseBudget(data);
	if (!budget) return null;
	const { startTurn, version, turnsBefore, tokensBefore, costBefore } = data;
	const legacyStartTurn = version === undefined && isWholeCount(startTurn) ? startTurn : null;
	return {
		kind: "active",
		budget,
		legacyStartTurn,
		turnsBefore: isWholeCount(turnsBefore) ? turnsBefore : 0,
		spendBefore: {
			tokens: isWholeCount(tokensBefore) ? tokensBefore : 0,
			cost: isFiniteNumber(costBefore) && costBefore > 0 ? costBefore : 0,
		},
	};
}
