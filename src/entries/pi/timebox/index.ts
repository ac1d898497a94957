// The pi package entry, in a folder of its own so that pi lists the extension as "timebox": Timebox with the real
// clock, Node timers, the detached shell runner, the ledger under pi's agent directory, and stderr as the fallback.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { getAgentDir } from "@mariozechner/pi-coding-agent";
import { createDailyLedger, dailyStateDir } from "../../../adapters/node/daily-ledger.ts";
import { createFileLedger } from "../../../adapters/node/file-ledger.ts";
import { nodeScheduler, systemClock } from "../../../adapters/node/node-time.ts";
import { createShellStarter } from "../../../adapters/node/on-stop-runner.ts";
import { createTimeboxExtension } from "../../../adapters/pi/extension.ts";
import { LEDGER_FOLDER } from "../../../core/index.ts";

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
});
