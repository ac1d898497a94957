// The on-stop command runner for every Node host: `/bin/sh -c -- <command>`, detached, stdio ignored, unref'd.

import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { type OnStopOutcome, type OnStopStarter, quoteInput } from "../../core/index.ts";

/** Starts a process; `node:child_process.spawn` in production, a fake in tests. */
export type SpawnProcess = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export const SHELL = "/bin/sh";

/**
 * The arguments before the user's command. `--` ends the shell's options, so a command that begins with `-` or `+`
 * (`-x; echo hi`, `--version`) is the command string, run exactly as typed, instead of an option. Checked with dash
 * (/bin/sh on Debian) and bash: `sh -c -- '-foo'` runs `-foo` (not found, exit 127) and
 * `sh -c -- '-x 2>/dev/null; echo ran'` prints `ran`, while `sh -c '-foo'` reads `-foo` as options (exit 2) and
 * `sh -- -c '-foo'` tries to run a script file named `-c` (exit 2 in dash). POSIX sh ends its options at `--` too.
 */
export const SHELL_ARGS = ["-c", "--"] as const;

/** Why a start failed: Node's message (`spawn E2BIG`), or whatever was thrown. */
function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Runs the user's command as the single argument after `/bin/sh -c --`, so nothing Timebox builds is interpolated into
 * a shell line. The process is detached and unref'd: pi never waits for it, and it survives pi's exit.
 *
 * Reports exactly one of `started` (at once when Node gave the child a pid, which it does only for a process it
 * created; else on the 'spawn' event) or `failed` (spawn threw, as it does synchronously for E2BIG, or an 'error'
 * event came before 'spawn', as for ENOENT or EACCES); after `started`, at most one `exited` for a
 * non-zero exit or a signal. An 'error' after 'spawn' (Node emits one only for a failed kill, which Timebox never
 * sends) is still listened for, so it cannot crash the host, and is not reported.
 */
export function createShellStarter(spawnProcess: SpawnProcess = spawn): OnStopStarter {
	return {
		start(command, report) {
			const shown = quoteInput(command);
			const couldNotStart = (error: unknown): OnStopOutcome => ({
				kind: "failed",
				problem: `could not start ${shown}: ${describeError(error)}`,
			});
			let child: ChildProcess;
			try {
				child = spawnProcess(SHELL, [...SHELL_ARGS, command], { detached: true, stdio: "ignore" });
			} catch (error) {
				report(couldNotStart(error));
				return;
			}
			// "starting" until 'spawn' or 'error'; "started" until 'exit'; then "settled", and nothing more is reported.
			let state: "starting" | "started" | "settled" = "starting";
			const started = () => {
				if (state !== "starting") return;
				state = "started";
				report({ kind: "started" });
			};
			child.once("spawn", started);
			child.on("error", (error) => {
				if (state !== "starting") return;
				state = "settled";
				report(couldNotStart(error));
			});
			child.once("exit", (code, signal) => {
				if (state !== "started") return;
				state = "settled";
				if (code !== null && code !== 0) report({ kind: "exited", problem: `${shown} exited with code ${code}` });
				else if (signal !== null) report({ kind: "exited", problem: `${shown} was ended by ${signal}` });
			});
			child.unref();
			// A pid means the process exists: say so now, so the user reads it with the stop, not a tick later.
			if (child.pid !== undefined) started();
		},
	};
}
