// The core data model: a budget, the records that persist it, and the decision taken on it.

/** A session budget. Either limit may be null (no limit on that dimension), never both. */
export interface TimeboxBudget {
	/** Wall-clock limit in ms, or null for no time limit. */
	timeLimitMs: number | null;
	/** Number of prompts allowed, or null for no turn limit. */
	turnLimit: number | null;
	/** Epoch ms when the budget was set. */
	startTime: number;
	/** User-message count of the transcript when the budget was set. */
	startTurn: number;
	/** Whether the one-shot soft nudge has fired. */
	softNudgeSent: boolean;
	/** False once the budget is spent (hard stop fired). */
	active: boolean;
	/** Shell command to run on hard stop, or null. */
	onStopCommand: string | null;
}

/** What a store keeps: a budget that starts, or the budget turned off. */
export type TimeboxRecord = { kind: "active"; budget: TimeboxBudget } | { kind: "off"; disabledAt: number };

/** What to do about a budget right now. */
export type Decision =
	| { kind: "ok" }
	| { kind: "nudge"; urgency: NudgeUrgency; detail: string }
	| { kind: "stop"; usedTurns: number; elapsedMs: number; onStopCommand: string | null };

export type NudgeUrgency = "warning" | "critical";

/** The limits a user asks for with `/timebox`. */
export interface BudgetLimits {
	timeLimitMs: number | null;
	turnLimit: number | null;
	onStopCommand: string | null;
}
