// The on-stop command runner for every Node host: `/bin/sh -c -- <command>`, detached, stdio ignored, unref'd; behind
// its start mark, through the wrapper that takes the mark first.

import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { type OnStopOutcome, type OnStopStarter, quoteInput } from "../../core/index.ts";
import { wrapperArgs } from "../on-stop/wrapper.ts";

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

/**
 * Whether a child's descriptor is a pipe's socket, found without loading node:net or node:stream (a hook process that
 * loads the streams pays about 20 of Node's modules, 2 to 3% of its instructions, to start no process at all).
 */
function isSocket(stream: Readable | Writable | null | undefined): stream is Socket {
	return stream != null && "unref" in stream && typeof stream.unref === "function";
}

/** Why a start failed: Node's message (`spawn E2BIG`), or whatever was thrown. */
function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** How a runner reports a start behind a mark. */
export interface ShellStarterOptions {
	/**
	 * Say `started` only once the wrapper has taken the mark (or found it taken), rather than as soon as the process
	 * exists: for a process that ends right after (a hook), so that it ends only once the mark says the command is
	 * started, and a later process never takes a start that is under way for one that never came.
	 */
	untilMarked?: boolean;
	/** Takes a start mark for a start that failed (a file made only where none is): `writeFileSync` with `wx`. */
	markFailed?: (mark: string) => void;
}

/** A start mark made for a start that failed; one there already, or a folder that takes none, is left as it is. */
function markFailedStart(mark: string): void {
	try {
		writeFileSync(mark, "", { flag: "wx" });
	} catch {
		// Taken already (a wrapper got there), or not to be made: a later process may try the start again.
	}
}

/**
 * Runs the user's command as the single argument after `/bin/sh -c --`, so nothing Timebox builds is interpolated into
 * a shell line; with a mark, through the wrapper (on-stop/wrapper.ts), the mark and the command each one argument.
 * The process is detached and unref'd: pi never waits for it, and it survives pi's exit.
 *
 * Reports exactly one of `started` (at once when Node gave the child a pid, which it does only for a process it
 * created; else on the 'spawn' event; with `untilMarked`, when the wrapper closes its descriptor 3, at the mark, or
 * `alreadyStarted` there if the wrapper found the mark taken and ended) or
 * `failed` (spawn threw, as it does synchronously for E2BIG, or an 'error' event came before 'spawn', as for ENOENT or
 * EACCES); after `started`, at most one `exited` for a non-zero exit or a signal. An 'error' after 'spawn' (Node emits
 * one only for a failed kill, which Timebox never sends) is still listened for, so it cannot crash the host, and is not
 * reported.
 */
export function createShellStarter(
	spawnProcess: SpawnProcess = spawn,
	options: ShellStarterOptions = {},
): OnStopStarter {
	return {
		start(command, report, start) {
			const shown = quoteInput(command);
			const mark = start?.mark;
			// A start that failed is said, and its mark taken: a later process would only fail the same way (a command too
			// long to pass, no shell), and then tell the user that the command ran late, which it never did.
			const couldNotStart = (error: unknown): OnStopOutcome => {
				if (mark !== undefined) (options.markFailed ?? markFailedStart)(mark);
				return { kind: "failed", problem: `could not start ${shown}: ${describeError(error)}` };
			};
			// The wrapper closes descriptor 3 once the mark is settled: as it runs the command, or as it ends at a mark taken,
			// which it then says there first.
			const untilMarked = mark !== undefined && options.untilMarked === true;
			const args = mark === undefined ? [...SHELL_ARGS, command] : wrapperArgs(mark, command, untilMarked);
			let child: ChildProcess;
			try {
				child = spawnProcess(SHELL, args, {
					detached: true,
					stdio: untilMarked ? ["ignore", "ignore", "ignore", "pipe"] : "ignore",
				});
			} catch (error) {
				report(couldNotStart(error));
				return;
			}
			// "starting" until 'spawn' or 'error' ("marking" until the mark, with `untilMarked`); "started" until 'exit';
			// then "settled", and nothing more is reported.
			let state: "starting" | "marking" | "started" | "settled" = "starting";
			// The wrapper found the mark taken: another process started the command, and said so.
			let taken = false;
			const marked = () => {
				if (state !== "marking") return;
				state = "started";
				report({ kind: taken ? "alreadyStarted" : "started" });
			};
			const spawned = () => {
				if (state !== "starting") return;
				state = "marking";
				if (!untilMarked) marked();
			};
			child.once("spawn", spawned);
			child.on("error", (error) => {
				if (state !== "starting") return;
				state = "settled";
				report(couldNotStart(error));
			});
			// Waiting for the mark, the end is 'close', which comes only once descriptor 3 is read to its end, and with it
			// whether the mark was taken; 'exit' may come before that.
			child.once(untilMarked ? "close" : "exit", (code: number | null, signal: NodeJS.Signals | null) => {
				marked();
				if (state !== "started") return;
				state = "settled";
				if (code !== null && code !== 0) report({ kind: "exited", problem: `${shown} exited with code ${code}` });
				else if (signal !== null) report({ kind: "exited", problem: `${shown} was ended by ${signal}` });
			});
			// Descriptor 3 is a pipe (a net.Socket) when asked for; node:net itself is not loaded to check it, as the hook
			// bundles load it only for a team's store.
			const markPipe = untilMarked ? child.stdio[3] : null;
			if (isSocket(markPipe)) {
				// The wrapper writes there only to say that the mark was taken.
				markPipe.on("data", () => {
					taken = true;
				});
				markPipe.once("close", marked);
				markPipe.on("error", () => {});
				// The pipe never keeps the host running: a hook waits for the mark only as long as it waits for a start.
				markPipe.unref();
			}
			child.unref();
			// A pid means the process exists: say so now, so the user reads it with the stop, not a tick later.
			if (child.pid !== undefined) spawned();
		},
	};
}
