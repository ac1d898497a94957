// The pi package entry, in a folder of its own so that pi lists the extension as "timebox": Timebox with the real
// clock, Node timers, the detached shell runner, the ledger under pi's agent directory, the daily ledger (a team's when
// a store is set), and stderr as the fallback.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { getAgentDir } from "@mariozechner/pi-coding-agent";
import { createFileLedger } from "../../../adapters/node/file-ledger.ts";
import { nodeScheduler, systemClock } from "../../../adapters/node/node-time.ts";
import { createShellStarter } from "../../../adapters/node/on-stop-runner.ts";
import { readTeamSettings } from "../../../adapters/pi/defaults.ts";
import { createTimeboxExtension } from "../../../adapters/pi/extension.ts";
import { openDailyLedger } from "../../../adapters/team/open.ts";
import { LEDGER_FOLDER } from "../../../core/index.ts";
import { nodeProjectHistory, nodeReportPageWriter } from "../../report/writer.ts";

export default createTimeboxExtension({
	clock: systemClock,
	scheduler: nodeScheduler,
	onStop: createShellStarter(),
	writeFallback: (line) => process.stderr.write(`${line}\n`),
	ledger: () => createFileLedger(join(getAgentDir(), LEDGER_FOLDER)),
	newBudgetId: randomUUID,
	env: process.env,
	globalSettings: () => join(getAgentDir(), "settings.json"),
	dailyLedger: (sessionId) =>
		openDailyLedger({
			env: process.env,
			sessionId,
			clock: systemClock,
			host: "pi",
			settings: readTeamSettings(join(getAgentDir(), "settings.json")),
			// Read only where a team's store is opened: a fresh process's first `import.meta` is no cost of a session
			// without a team.
			get entry() {
				return import.meta.url;
			},
		}),
	reportPage: nodeReportPageWriter(process.env, systemClock),
	projectHistory: nodeProjectHistory(process.env),
});
