// The host adapter contract (spec §6): the ports every host implements so the same core drives it.

import type { TimeboxBudget } from "./budget.ts";

export type NotifyLevel = "info" | "warning" | "error";

/** Where budget records live. `loadRecords` returns them oldest first; `restore` validates each one. */
export interface BudgetStore {
	appendActive(budget: TimeboxBudget): Promise<void> | void;
	appendOff(disabledAt: number): Promise<void> | void;
	loadRecords(): Promise<readonly unknown[]> | readonly unknown[];
}

/** What the user sees. */
export interface UIBridge {
	notify(message: string, level: NotifyLevel): void;
	/** Shows the status text; undefined clears it. */
	setStatus(text: string | undefined): void;
}

/** What the session's transcript says. */
export interface TranscriptBridge {
	/** Total user messages (prompts) in the session. */
	countUserMessages(): number;
}

/** What Timebox can do to the agent. */
export interface AgentBridge {
	/** Best effort: cancels the in-flight agent run. */
	abortCurrentTurn(): void;
	/** Adds text to the system prompt of the next agent start only. */
	appendSystemPrompt(extra: string): void;
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

/** Starts the on-stop command. Reports a failure to start, or a failing exit, through `report`. */
export interface OnStopRunner {
	run(command: string, report: (problem: string) => void): void;
}
