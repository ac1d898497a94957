// The on-stop command runner for every Node host: `/bin/sh -c <command>`, detached, stdio ignored, unref'd.

import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { quoteInput } from "../../core/parse.ts";
import type { OnStopRunner } from "../../core/ports.ts";

/** Starts a process; `node:child_process.spawn` in production, a fake in tests. */
export type SpawnProcess = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export const SHELL = "/bin/sh";

/**
 * Runs the user's command as the single argument of `/bin/sh -c`, so nothing Timebox builds is interpolated into a
 * shell line. The process is detached and unref'd: pi never waits for it, and it survives pi's exit. A failure to start
 * it, or a non-zero exit seen while pi still runs, is reported.
 */
export function createShellRunner(spawnProcess: SpawnProcess = spawn): OnStopRunner {
	return {
		run(command, report) {
			const shown = quoteInput(command);
			let child: ChildProcess;
			try {
				child = spawnProcess(SHELL, ["-c", command], { detached: true, stdio: "ignore" });
			} catch (error) {
				report(`could not start ${shown}: ${error instanceof Error ? error.message : String(error)}`);
				return;
			}
			child.once("error", (error) => report(`could not start ${shown}: ${error.message}`));
			child.once("exit", (code, signal) => {
				if (code !== null && code !== 0) report(`${shown} exited with code ${code}`);
				else if (signal !== null) report(`${shown} was ended by ${signal}`);
			});
			child.unref();
		},
	};
}
