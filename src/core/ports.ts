// The ports a host implements so the same rules drive it: storage, the ledger, the screen, time and the on-stop runner.

import type { DailyAdjustment, DailyBudget, DailyStanding } from "./daily-budget.ts";
import type { HistoryItem } from "./history.ts";
import type { TimeboxRecord } from "./records.ts";
import type { LedgerClaim, LedgerView } from "./session.ts";

export type NotifyLevel = "info" | "warning" | "error";

/** Where a session keeps its budget records, beside the prompts of its history. */
export interface BudgetStore {
	append(record: TimeboxRecord): void;
	/** The session's history (budget records and prompts), oldest first. */
	history(): HistoryItem[];
}

/**
 * The per-user ledger of budget outcomes, outside any one session file: a budget spent, turned off or warned about is
 * so in every reload, fork, clone and process.
 */
export interface BudgetLedger {
	/** Records a claim; true only for the first claim of its kind for that budget, whoever makes it. */
	claim(claim: LedgerClaim): boolean;
	/** What is recorded about a budget. */
	read(budgetId: string): LedgerView;
}

/** What the user sees. */
export interface UIBridge {
	notify(message: string, level: NotifyLevel): void;
	/** Shows the status text; undefined clears it. */
	setStatus(text: string | undefined): void;
}

/** Wall-clock time, injected so the core never reads the real clock. */
export interface Clock {
	now(): number;
}

/** Cancels a scheduled callback. Calling it twice is harmless. */
export type Cancel = () => void;

/** Timers, injected so the core never starts one itself and tests never sleep. */
export interface Scheduler {
	setTimeout(callback: () => void, delayMs: number): Cancel;
	setInterval(callback: () => void, intervalMs: number): Cancel;
}

/** What became of an on-stop command: it started, it could not start, or it started and then failed. */
export type OnStopOutcome =
	| { kind: "started" }
	| { kind: "failed"; problem: string }
	| { kind: "exited"; problem: string };

/**
 * Starts the on-stop command exactly as typed. Reports exactly one of `started` or `failed` (could not start), and
 * after `started` at most one `exited` (a failing exit or a signal, seen while the host still runs).
 */
export interface OnStopRunner {
	run(command: string, report: (outcome: OnStopOutcome) => void): void;
}

/**
 * Today's use of the daily budgets, shared by every session and process of the user on the machine. No method throws:
 * a ledger that cannot be used reports it through `problem` and counts nothing.
 */
export interface DailyLedger {
	/** Each budget's use and adjustments today. Reads only what was added since the last call. */
	standings(budgets: readonly DailyBudget[]): DailyStanding[];
	/**
	 * Counts a prompt in each budget, unless one of them has `limit` prompts today (its prompt limit with today's
	 * additions): then nothing is counted there and the answer is false. Two sessions never both take the last prompt.
	 */
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean;
	/** Adds what this session used: agent time, tokens, cost. */
	addUse(budgets: readonly DailyBudget[], use: { agentMs?: number; tokens?: number; cost?: number }): void;
	/** Adds to a budget's limits for the rest of the day, or turns it off until midnight, for every session. */
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): void;
	/** Why the ledger cannot be used, once, or null. */
	problem(): string | null;
}
