// What the opencode plugin takes from the outside world: the real clock, scheduler, ledgers and writers in
// production, fakes in tests.

import type { BudgetLedger, Clock, DailyLedger, OnStopStarter, Scheduler } from "../../core/index.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../report/writer.ts";

/** What the plugin takes from the outside world: the real ones in production, fakes in tests. */
export interface TimeboxPluginDeps {
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopStarter;
	newBudgetId: () => string;
	env: NodeJS.ProcessEnv;
	/** Timebox's data folder for opencode: session logs, the ledger of outcomes, the status files. */
	dataDir: string;
	ledger: (folder: string) => BudgetLedger;
	/**
	 * The daily ledger every session of the user shares (a team's with a store and a team set), for the session of this
	 * id; `options` are the plugin's (`dailyStore`, `team`).
	 */
	dailyLedger: (sessionId: string, options: Record<string, unknown>) => DailyLedger;
	/** Whether a user watches opencode's TUI (false in `opencode run`, where toasts print nothing). */
	interactive: boolean;
	/**
	 * Calls its argument with each session the TUI of this process shows from now on (opened.ts), until the function it
	 * returns is called; absent where no TUI marks them.
	 */
	sessionsShown?: (shown: (sessionId: string) => void) => () => void;
	writeStderr: (line: string) => void;
	/** Writes the report page (`/timebox report page`); absent where none is written. */
	reportPage?: ReportPageWriter;
	/** Reads the past sessions of a project (`/timebox suggest`, a default of `suggested`); absent where none are. */
	projectHistory?: ProjectHistoryReader;
}
