// The opencode plugin entry (the package's `./server` export): Timebox with the real clock, Node timers, the detached
// shell runner, and its data under Timebox's state folder, shared with the daily ledger of pi and the hook hosts.

import { randomUUID } from "node:crypto";
import { createDailyLedger, dailyStateDir } from "../node/daily-ledger.ts";
import { createFileLedger } from "../node/file-ledger.ts";
import { nodeScheduler, systemClock } from "../node/node-time.ts";
import { createShellStarter } from "../node/on-stop-runner.ts";
import { nodeReportPageWriter } from "../report/writer.ts";
import { opencodeDataDir } from "./data-dir.ts";
import { createTimeboxPlugin } from "./plugin.ts";

/**
 * Whether a screen shows opencode's toasts: not in `opencode run` (found among the words, since options with a value,
 * such as `--log-level DEBUG`, may come before it). `opencode serve` passes toasts on to the TUIs attached to it.
 */
function interactive(argv: readonly string[]): boolean {
	return !argv.slice(2).includes("run");
}

export default {
	id: "timebox",
	server: createTimeboxPlugin({
		clock: systemClock,
		scheduler: nodeScheduler,
		onStop: createShellStarter(),
		newBudgetId: randomUUID,
		env: process.env,
		dataDir: opencodeDataDir(process.env),
		ledger: createFileLedger,
		dailyLedger: (sessionId) => createDailyLedger(dailyStateDir(process.env), sessionId, systemClock),
		interactive: interactive(process.argv),
		writeStderr: (line) => process.stderr.write(`${line}\n`),
		reportPage: nodeReportPageWriter(process.env, systemClock),
	}),
};
