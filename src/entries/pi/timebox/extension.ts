// The pi extension's code, which the package's entry (index.ts) runs from V8's code cache: Timebox with the real clock,
// Node timers, the detached shell runner, the settings file (pi's settings.json, oh-my-pi's config.yml), the ledger
// under pi's agent directory, the daily ledger (a team's when a store is set), and stderr as the fallback. What comes
// from pi or needs the entry's own module (pi's agent directory, the entry's place, the report page's import) the entry
// hands in: this file is CommonJS run by the entry, and imports nothing but Node's modules.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { createFileLedger } from "../../../adapters/node/file-ledger.ts";
import { nodeScheduler, systemClock } from "../../../adapters/node/node-time.ts";
import { createShellStarter } from "../../../adapters/node/on-stop-runner.ts";
import { OMP_SETTINGS_FILE, PI_SETTINGS_FILE, readTeamSettings } from "../../../adapters/pi/defaults.ts";
import { createTimeboxExtension } from "../../../adapters/pi/extension.ts";
import { LEDGER_FOLDER } from "../../../core/index.ts";
import { openDailyLedger } from "../../daily-ledgers.ts";
import { nodeProjectHistory, nodeReportPageWriter, type ReportLoader } from "../../report/writer.ts";

/** What the entry hands in. */
export interface PiEntry {
	/** pi's agent directory (`~/.pi/agent`, or `PI_CODING_AGENT_DIR`). */
	agentDir: () => string;
	/** The entry's URL: the team store's worker is the file beside it. */
	url: string;
	/** Loads the report page's module, beside the entry. */
	importReport: ReportLoader;
	/** The host's name as a team's members see it: `pi`, or `oh-my-pi` (which loads this package unchanged). */
	host?: string;
}

/** Timebox's pi extension on the parts the entry hands in. */
export function timeboxExtension(entry: PiEntry): (pi: ExtensionAPI) => void {
	const file = entry.host === "oh-my-pi" ? OMP_SETTINGS_FILE : PI_SETTINGS_FILE;
	const settings = () => join(entry.agentDir(), file);
	return createTimeboxExtension({
		clock: systemClock,
		scheduler: nodeScheduler,
		onStop: createShellStarter(),
		writeFallback: (line) => process.stderr.write(`${line}\n`),
		ledger: () => createFileLedger(join(entry.agentDir(), LEDGER_FOLDER)),
		newBudgetId: randomUUID,
		env: process.env,
		globalSettings: settings,
		dailyLedger: (sessionId) =>
			openDailyLedger({
				env: process.env,
				sessionId,
				clock: systemClock,
				host: entry.host ?? "pi",
				settings: readTeamSettings(settings()),
				entry: entry.url,
			}),
		reportPage: nodeReportPageWriter(process.env, systemClock, entry.importReport),
		projectHistory: nodeProjectHistory(process.env, entry.importReport),
	});
}
