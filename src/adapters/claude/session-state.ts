// The state of a Claude Code session's budget, derived from its log: the budget in force, the prompts counted, and
// whether its nudge and hard stop have happened. Pure: hooks read the log, derive this, and act.

import type { TimeboxBudget } from "../../core/budget.ts";
import { latestRecord } from "../../core/persist.ts";

/** The hard stop of a budget, as recorded by the hook that claimed it. */
export interface SpentRecord {
	promptId: string | null;
	usedTurns: number;
	elapsedMs: number;
}

export interface ClaudeSessionState {
	/** The budget in force (not turned off), or null. */
	budget: TimeboxBudget | null;
	/** Whether the newest budget record could not be read. */
	newestUnusable: boolean;
	/** Distinct prompt ids counted in this session, oldest first. */
	promptIds: string[];
	/** The hard stop of the budget in force, once it happened. */
	spent: SpentRecord | null;
	/** Whether the budget in force has had its nudge. */
	nudged: boolean;
}

type Line = Record<string, unknown>;

function isLine(value: unknown): value is Line {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberOr(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Derives the session's state from its log lines. Never throws, whatever the lines hold. */
export function readSessionState(lines: readonly unknown[]): ClaudeSessionState {
	const entries = lines.filter(isLine);
	const { record, newestUnusable } = latestRecord(
		entries.filter((line) => line.kind === "active" || line.kind === "off"),
	);
	const budget = record?.kind === "active" ? record.budget : null;
	const promptIds: string[] = [];
	const seen = new Set<string>();
	let spent: SpentRecord | null = null;
	let nudged = false;
	for (const line of entries) {
		if (line.kind === "prompt" && typeof line.promptId === "string" && !seen.has(line.promptId)) {
			seen.add(line.promptId);
			promptIds.push(line.promptId);
		}
		if (!budget || line.budgetStart !== budget.startTime) continue;
		if (line.kind === "nudged") nudged = true;
		if (line.kind === "spent" && !spent) {
			spent = {
				promptId: typeof line.promptId === "string" ? line.promptId : null,
				usedTurns: numberOr(line.usedTurns, 0),
				elapsedMs: numberOr(line.elapsedMs, 0),
			};
		}
	}
	return {
		budget: budget ? { ...budget, softNudgeSent: nudged, active: spent === null } : null,
		newestUnusable,
		promptIds,
		spent,
		nudged,
	};
}
