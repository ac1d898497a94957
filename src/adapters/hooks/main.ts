// Process entry of the hook script (bundled into each host package's bin/timebox.mjs): the hosts it serves, and real
// stdin, clock, on-stop runner and watcher start.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { claudeCodeHost } from "../claude/hook-host.ts";
import { codexCliHost } from "../codex/hook-host.ts";
import { geminiCliHost } from "../gemini/hook-host.ts";
import { systemClock } from "../node/node-time.ts";
import { createShellStarter } from "../node/on-stop-runner.ts";
import { nodeReportPageWriter } from "../report/writer.ts";
import { runCli, runStatusLineCommand } from "./cli.ts";

let stdin = "";
try {
	// Hooks and the status line get JSON on stdin; setting up the status line, typed in a terminal, does not.
	if (process.argv[2] !== "setup-statusline" && process.argv[2] !== "report") stdin = readFileSync(0, "utf8");
} catch {
	// No stdin: runCli reports it.
}
const result = await runCli(process.argv.slice(2), stdin, process.env, {
	hosts: [claudeCodeHost, geminiCliHost, codexCliHost],
	clock: systemClock,
	onStop: createShellStarter(),
	runStatusLine: runStatusLineCommand,
	script: process.argv[1] ?? "timebox.mjs",
	startWatcher: (dataDir, sessionId, budget) => {
		const args = [
			process.argv[1] ?? "timebox.mjs",
			"watch",
			"--data",
			dataDir,
			"--session",
			sessionId,
			"--budget",
			budget,
		];
		// A watcher that cannot start leaves the stop to the next hook, as before there were watchers.
		spawn(process.execPath, args, { detached: true, stdio: "ignore" })
			.on("error", () => {})
			.unref();
	},
	sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
	reportPage: nodeReportPageWriter(process.env, systemClock),
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.exitCode ?? 0;
