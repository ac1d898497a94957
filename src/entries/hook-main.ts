// The hook script's code, for every hook host: the hosts it serves, and real stdin, clock, on-stop runner and watcher
// start. Bundled as CommonJS beside the hook script's entry (each host package's bin/timebox-hook.cjs), which runs it
// from V8's code cache: it holds no `import()` and no `import.meta`, which the entry hands in.

import { spawn } from "node:child_process";
import { readFileSync, writeSync } from "node:fs";
import { claudeCodeHost } from "../adapters/claude/hook-host.ts";
import { codexCliHost } from "../adapters/codex/hook-host.ts";
import { geminiCliHost } from "../adapters/gemini/hook-host.ts";
import { systemClock } from "../adapters/node/node-time.ts";
import { createShellStarter } from "../adapters/node/on-stop-runner.ts";
import { runStatusLineCommand } from "../adapters/node/status-line-runner.ts";
import { runCli } from "./hook-cli.ts";
import { nodeProjectHistory, nodeReportPageWriter, type ReportLoader } from "./report/writer.ts";

/** What the entry hands the code: what only an ES module knows. */
export interface HookScriptEntry {
	/** The entry's URL: the team store's worker is beside it. */
	url: string;
	/** Loads the report page's module, only when a page, a report or a suggestion is asked for. */
	importReport: ReportLoader;
}

/**
 * Runs the hook script once: its arguments, stdin and environment in, its reply on stdout and its exit code set.
 * Resolves with whether it answered a hook with nothing to say on stderr: what it compiled then is worth keeping.
 */
export async function runHookScript(entry: HookScriptEntry): Promise<boolean> {
	const { importReport } = entry;
	let stdin = "";
	try {
		// Hooks and the status line get JSON on stdin; setting up the status line, typed in a terminal, does not.
		if (!["setup-statusline", "report"].includes(process.argv[2] ?? "")) stdin = readFileSync(0, "utf8");
	} catch {
		// No stdin: runCli reports it.
	}
	const result = await runCli(process.argv.slice(2), stdin, process.env, {
		hosts: [claudeCodeHost, geminiCliHost, codexCliHost],
		clock: systemClock,
		// A hook ends right after its reply: it says the command started once the wrapper holds its mark.
		onStop: createShellStarter(spawn, { untilMarked: true }),
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
		entry: entry.url,
		importReport,
		reportPage: nodeReportPageWriter(process.env, systemClock, importReport),
		projectHistory: nodeProjectHistory(process.env, importReport),
	});
	write(1, result.stdout);
	write(2, result.stderr);
	process.exitCode = result.exitCode ?? 0;
	return process.argv[2] === "hook" && result.stderr === "";
}

/**
 * Writes `text` to the file descriptor itself: Node's `process.stdout` on a pipe is a socket, and setting it up loads
 * `net` and the streams, a few milliseconds of every hook. A pipe that is not ready (a host that reads it in
 * non-blocking mode) gets the rest through the stream.
 */
function write(fd: 1 | 2, text: string): void {
	let rest = Buffer.from(text);
	try {
		while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
	} catch {
		(fd === 1 ? process.stdout : process.stderr).write(rest);
	}
}
