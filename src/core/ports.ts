// The ports a host implements so the same rules drive it: the budget's records and the session's history, the
// transcript, the agent, the ledger, the screen, time and the on-stop runner.

import type {
	LedgerClaim,
	LedgerView,
	LogLine,
	NotifyLevel,
	OnStopClaim,
	OnStopOutcome,
	RecordedUsage,
} from "./model/events.ts";

export type { DailyLedger } from "./daily/daily-budget.ts";
export type { NotifyLevel, OnStopClaim, OnStopOutcome } from "./model/events.ts";

import type { BudgetRecordData, TimeboxBudget } from "./model/budget.ts";
import type { HistoryItem } from "./model/history.ts";
import type { LogFold } from "./model/log-line.ts";
import type { TimeboxRecord } from "./model/records.ts";

/**
 * Where a session's budget records live, as every host keeps them: a budget set (its record, or the budget itself), a
 * budget turned off, and the records back in the order written. What `restore` reads.
 */
export interface BudgetStore {
	appendActive(budget: TimeboxBudget | BudgetRecordData): Promise<void> | void;
	/** `budgetId` names the budget turned off, so that it stays off in every fork and process. */
	appendOff(disabledAt: number, budgetId?: string): Promise<void> | void;
	/** The records, oldest first; what a host read back may be damaged, and `restore` skips what it cannot use. */
	loadRecords(): Promise<TimeboxRecord[]> | TimeboxRecord[];
}

/**
 * The store the rules write to and fold: every record (the budget's and the subagents'), and the session's history,
 * its records beside its prompts and what its model calls used.
 */
export interface SessionStore {
	append(record: TimeboxRecord): void;
	/**
	 * Keeps a prompt that ran (the rules decide which: a refused prompt never reached the model, and a run the host
	 * started is no prompt). A host whose session keeps the user's messages itself (pi's branch) leaves it out.
	 */
	appendPrompt?(key: string): void;
	/**
	 * Forgets a prompt it kept that never ran after all (the rules say which: one the daily ledger refused after they
	 * counted it): from then on, and after any reload, it counts for nothing. Written where `appendPrompt` is.
	 */
	dropPrompt?(key: string): void;
	/**
	 * Keeps what a response used (the rules say which: a response the host named). A store whose host keeps usage
	 * itself (pi's branch) leaves it out.
	 */
	recordUsage?(usage: RecordedUsage): void;
	/**
	 * Writes one line of the session's log that is no record: what a host whose every event is a process of its own
	 * leaves the next (the rules say which, see run/session-log.ts). A store with no such log leaves it out.
	 */
	appendLine?(line: LogLine): void;
	/**
	 * Keeps a fold of the session's log that this store read (the rules say when): a summary the next readers read on
	 * from. Only a cache: a store keeps it as best it can, and one it cannot keep changes nothing.
	 */
	keepFold?(fold: LogFold): void;
	/** The session's history (budget records and prompts), oldest first. */
	history(): HistoryItem[];
}

/** The session's transcript, where the host can read it. */
export interface TranscriptBridge {
	/** The user messages (turns) of the session. */
	countUserMessages(): number;
}

/** The running agent. */
export interface AgentBridge {
	/** Ends the running run, and any re-run the host has pending; best effort, harmless while idle. */
	abortCurrentTurn(): void;
	/** Text for the system prompt of the next agent start only. */
	appendSystemPrompt(extra: string): void;
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
	/**
	 * Where the start mark of the on-stop command of `claim` goes: the wrapper that starts the command takes it
	 * exclusively first, and `read` says whether it exists. A ledger that keeps no marks leaves it out.
	 */
	startMark?(claim: OnStopClaim): string;
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
 * after `started` at most one `exited` (a failing exit or a signal, seen while the host still runs). With a `mark`
 * (the ledger's `startMark`), the command runs only if its wrapper takes that mark: whoever takes it runs the command,
 * and every other start of it ends there, which a starter that can tell reports as `alreadyStarted` instead.
 */
export interface OnStopStarter {
	start(command: string, report: (outcome: OnStopOutcome) => void, options?: OnStopStartOptions): void;
}

/** How an on-stop command is started: the start mark its wrapper takes first, where the ledger keeps marks. */
export interface OnStopStartOptions {
	mark?: string;
}
