// The ports a host implements so the same rules drive it: storage, the ledger, the screen, time and the on-stop runner.

import type { LedgerClaim, LedgerView, NotifyLevel, OnStopOutcome } from "./events.ts";

export type { DailyLedger } from "./daily-budget.ts";
export type { NotifyLevel, OnStopOutcome } from "./events.ts";

import type { HistoryItem } from "./history.ts";
import type { TimeboxRecord } from "./records.ts";

/** Where a session keeps its budget records, beside the prompts of its history. */
export interface BudgetStore {
	append(record: TimeboxRecord): void;
	/**
	 * Keeps a prompt that ran (the rules decide which: a refused prompt never reached the model, and a run the host
	 * started is no prompt). A host whose session keeps the user's messages itself (pi's branch) leaves it out.
	 */
	appendPrompt?(key: string): void;
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

/**
 * Starts the on-stop command exactly as typed. Reports exactly one of `started` or `failed` (could not start), and
 * after `started` at most one `exited` (a failing exit or a signal, seen while the host still runs).
 */
export interface OnStopStarter {
	start(command: string, report: (outcome: OnStopOutcome) => void): void;
}
