// What the pi extension takes from the outside world: the real clock, scheduler, ledgers and writers in production,
// fakes in tests.

import type { BudgetLedger, Clock, DailyLedger, OnStopStarter, Scheduler } from "../../core/index.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../report/writer.ts";
import type { FallbackWriter } from "./ui-bridge.ts";

/** What the extension takes from the outside world: the real ones in production, fakes in tests. */
export interface TimeboxExtensionDeps {
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopStarter;
	writeFallback: FallbackWriter;
	/** The per-user ledger; asked for each time pi loads the extension, so it follows pi's agent directory. */
	ledger: () => BudgetLedger;
	newBudgetId: () => string;
	/** The environment (PI_TIMEBOX) and the user's settings file, where a default budget may come from. */
	env: NodeJS.ProcessEnv;
	globalSettings: () => string;
	/** The daily ledger every session of the user shares, for the session of this id. */
	dailyLedger?: (sessionId: string) => DailyLedger;
	/** Writes the report page (`/timebox report page`); absent where none is written. */
	reportPage?: ReportPageWriter;
	/** Reads the past sessions of a project (`/timebox suggest`, a default of `suggested`); absent where none are read. */
	projectHistory?: ProjectHistoryReader;
}
