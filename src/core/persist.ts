// Reading persisted records back (spec §5): validation of untrusted records and the restore rule.

import type { TimeboxBudget, TimeboxRecord } from "./budget.ts";
import { MAX_TIME_LIMIT_MS, MAX_TURN_LIMIT, MIN_TIME_LIMIT_MS } from "./constants.ts";
import { decide } from "./decide.ts";
import { elapsedMs } from "./measure.ts";

export type RestoreResult = { status: "none" } | { status: "expired" } | { status: "restored"; budget: TimeboxBudget };

/** The restore result with what a host needs to tell the user about it. */
export type RestoreAssessment = { newestUnusable: boolean } & (
	| { status: "none" }
	| { status: "expired"; budget: TimeboxBudget; timeRanOut: boolean }
	| { status: "restored"; budget: TimeboxBudget }
);

/** The newest usable record, and whether the very newest record had to be skipped as unreadable. */
export interface LatestRecord {
	record: TimeboxRecord | null;
	newestUnusable: boolean;
}

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

/**
 * Reads a persisted budget, or null when it is unusable. Extra fields are ignored; a missing `onStopCommand` (a legacy
 * record) reads as null; `softNudgeSent` and `active` are not trusted but re-derived by `restore`.
 */
export function parseBudget(value: unknown): TimeboxBudget | null {
	if (!isFields(value)) return null;
	const { timeLimitMs, turnLimit, startTime, startTurn, onStopCommand } = value;
	if (!isTimeLimit(timeLimitMs) || !isTurnLimit(turnLimit)) return null;
	if (timeLimitMs === null && turnLimit === null) return null;
	if (!isFiniteNumber(startTime) || !Number.isInteger(startTurn) || (startTurn as number) < 0) return null;
	if (onStopCommand !== undefined && onStopCommand !== null && typeof onStopCommand !== "string") return null;
	return {
		timeLimitMs,
		turnLimit,
		startTime,
		startTurn: startTurn as number,
		softNudgeSent: false,
		active: true,
		onStopCommand: onStopCommand ? onStopCommand : null,
	};
}

/**
 * Reads one persisted record, or null when it is unusable. An `off` record counts whatever else it holds: a budget the
 * user turned off must never come back because its off record was damaged.
 */
export function parseRecord(value: unknown): TimeboxRecord | null {
	if (!isFields(value)) return null;
	if (value.kind === "off") return { kind: "off", disabledAt: isFiniteNumber(value.disabledAt) ? value.disabledAt : 0 };
	if (value.kind !== "active") return null;
	const budget = parseBudget(value.budget);
	return budget ? { kind: "active", budget } : null;
}

/** Scans records newest first for the first usable one. */
export function latestRecord(records: readonly unknown[]): LatestRecord {
	const list = Array.isArray(records) ? records : [];
	for (let index = list.length - 1; index >= 0; index--) {
		const record = parseRecord(list[index]);
		if (record) return { record, newestUnusable: index < list.length - 1 };
	}
	return { record: null, newestUnusable: list.length > 0 };
}

/** Turns used of a persisted budget, given the transcript's user-message count now. */
export function turnsUsedSince(budget: TimeboxBudget, userMessageCount: number): number {
	const used = userMessageCount - budget.startTurn;
	return Number.isFinite(used) ? Math.max(0, used) : 0;
}

/**
 * The restore rule, with the details a host reports: the newest `off` means nothing to restore; the newest `active`
 * budget is `expired` once its time has run out or its turns are used up, else `restored` with `softNudgeSent`
 * re-derived from how much is used. Never throws, whatever the records hold.
 */
export function assessRestore(records: readonly unknown[], now: number, userMessageCount: number): RestoreAssessment {
	const { record, newestUnusable } = latestRecord(records);
	if (!record || record.kind === "off") return { status: "none", newestUnusable };
	const budget = record.budget;
	const decision = decide(budget, now, turnsUsedSince(budget, userMessageCount));
	if (decision.kind === "stop") {
		const timeRanOut = budget.timeLimitMs !== null && elapsedMs(budget, now) >= budget.timeLimitMs;
		return { status: "expired", budget, timeRanOut, newestUnusable };
	}
	return { status: "restored", budget: { ...budget, softNudgeSent: decision.kind === "nudge" }, newestUnusable };
}

/** The restore rule of spec §5 (see `assessRestore`). */
export function restore(records: readonly unknown[], now: number, userMessageCount: number): RestoreResult {
	const assessment = assessRestore(records, now, userMessageCount);
	if (assessment.status === "restored") return { status: "restored", budget: assessment.budget };
	return { status: assessment.status };
}
