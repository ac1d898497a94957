// The opencode plugin entry (the package's `./server` export): Timebox with the real clock, Node timers, the detached
// shell runner, and its data under Timebox's state folder, shared with the daily ledger of pi and the hook hosts.

import { randomUUID } from "node:crypto";
import { createFileLedger } from "../adapters/node/file-ledger.ts";
import { nodeScheduler, systemClock } from "../adapters/node/node-time.ts";
import { createShellStarter } from "../adapters/node/on-stop-runner.ts";
import { opencodeDataDir } from "../adapters/opencode/data-dir.ts";
import { watchOpened } from "../adapters/opencode/opened.ts";
import { createTimeboxPlugin } from "../adapters/opencode/plugin.ts";
import { openDailyLedger } from "./daily-ledgers.ts";
import { nodeProjectHistory, nodeReportPageWriter, type ReportLoader } from "./report/writer.ts";

/** The report page's module, loaded only when a page or a suggestion is asked for. */
const importReport: ReportLoader = () => import("./report/entry.ts");

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
		dailyLedger: (sessionId, options) =>
			openDailyLedger({
				env: process.env,
				sessionId,
				clock: systemClock,
				host: "opencode",
				settings: { dailyStore: options.dailyStore, team: options.team },
				// The team's client is bundled with pi's extension, which the package ships: opencode loads it from there.
				entry: new URL("../../plugins/pi/timebox/index.js", import.meta.url).href,
			}),
		interactive: interactive(process.argv),
		// The TUI runs in this process (its server in a worker): the sessions it shows are marked with this process's id.
		sessionsShown: (shown) => watchOpened(opencodeDataDir(process.env), process.pid, shown),
		writeStderr: (line) => process.stderr.write(`${line}\n`),
		reportPage: nodeReportPageWriter(process.env, systemClock, importReport),
		projectHistory: nodeProjectHistory(process.env, importReport),
	}),
};
