// The pi package entry, in a folder of its own so that pi lists the extension as "timebox": Timebox with the real
// clock, Node timers, the detached shell runner, the ledger under pi's agent directory, and stderr as the fallback.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { getAgentDir } from "@mariozechner/pi-coding-agent";
import { LEDGER_FOLDER } from "../../../core/index.ts";
import { createDailyLedger, dailyStateDir } from "../../node/daily-ledger.ts";
import { createFileLedger } from "../../node/file-ledger.ts";
import { nodeScheduler, systemClock } from "../../node/node-time.ts";
import { createShellStarter } from "../../node/on-stop-runner.ts";
import { nodeReportPageWriter } from "../../report/writer.ts";
import { createTimeboxExtension } from "../extension.ts";

export default createTimeboxExtension({
	clock: systemClock,
	scheduler: nodeScheduler,
	onStop: createShellStarter(),
	writeFallback: (line) => process.stderr.write(`${line}\n`),
	ledger: () => createFileLedger(join(getAgentDir(), LEDGER_FOLDER)),
	newBudgetId: randomUUID,
	env: process.env,
	globalSettings: () => join(getAgentDir(), "settings.json"),
	dailyLedger: (sessionId) => createDailyLedger(dailyStateDir(process.env), sessionId, systemClock),
	reportPage: nodeReportPageWriter(process.env, systemClock),
});
