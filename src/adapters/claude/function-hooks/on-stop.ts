// The on-stop command in Claude Code, through `$.process.run`: run by `sh` in the background with its output and input
// redirected, so the call returns at once (a command left holding the pipes would hold the call until it ends), and in
// a session of its own (`setsid`, where the system has it), as every other host starts it: a Ctrl+C, a closed terminal
// or a kill of Claude Code's process group never takes the command with it. Behind a start mark, it runs through the
// wrapper every host shares, and the marks are looked up through `$.fs` when a session opens.

import {
	isBudgetId,
	type LedgerClaim,
	type OnStopClaim,
	type OnStopOutcome,
	type OnStopStarter,
} from "../../../core/index.ts";
import { ON_STOP_WRAPPER } from "../../on-stop/wrapper.ts";
import type { Engine } from "./engine.ts";

/**
 * The shell words that start `argv` (shell words themselves) in the background, in a session and process group of its
 * own where the system has `setsid` (Linux; macOS has none, and there it stays in Claude Code's group), with its
 * output and input redirected. They return once it is in that session: it writes one byte to the pipe they read, from
 * the shell `setsid` became, then closes the pipe as it starts `argv`. Returning sooner would leave a moment in which a
 * kill of Claude Code's group (a Ctrl+C, a closed terminal) still took the command with it.
 */
function detached(argv: string): string {
	const inOwnSession = `/bin/sh -c 'printf x; exec "$@" >/dev/null 2>&1 </dev/null' sh ${argv}`;
	return `if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; started=$($S ${inOwnSession} 2>/dev/null </dev/null &)`;
}

/**
 * The shell line that starts `command` detached: its own lines inside a subshell, so a comment cannot eat the rest, as
 * one quoted argument of `sh -c`.
 */
export function detachedLine(command: string): string {
	const script = `(\n${command}\n)`;
	return detached(`/bin/sh -c '${script.replaceAll("'", "'\\''")}'`);
}

/**
 * The shell line that starts the wrapper detached, as `sh -c <line> sh <wrapper> <folder> <mark> <command>`: the
 * marks' folder made first where it is missing, then the wrapper with the mark and the command as its arguments.
 */
export const DETACHED_WRAPPER_LINE = `[ -d "$2" ] || mkdir -p -- "$2" 2>/dev/null; ${detached('/bin/sh -c "$1" sh "$3" "$4"')}`;

/** The argument vector that starts `command` behind `mark`. */
export function wrappedArgv(mark: string, command: string): string[] {
	const folder = mark.slice(0, mark.lastIndexOf("/"));
	return ["sh", "-c", DETACHED_WRAPPER_LINE, "sh", ON_STOP_WRAPPER, folder, mark, command];
}

/**
 * Starts the on-stop command through `$.process.run`; what became of it comes after the event that started it, so it
 * is reported through `reporting` (the UI's, for words that no reply carries).
 */
export function engineOnStop(engine: () => Engine, reporting: (say: () => void) => void): OnStopStarter {
	return {
		start(command, said, options) {
			const mark = options?.mark;
			const report = (outcome: OnStopOutcome) => reporting(() => said(outcome));
			engine()
				.process.run(mark === undefined ? ["sh", "-c", detachedLine(command)] : wrappedArgv(mark, command))
				.then(
					({ exitCode, stderr }) =>
						report(
							exitCode === 0
								? { kind: "started" }
								: { kind: "failed", problem: `sh exited with ${exitCode}${stderr.trim() ? `: ${stderr.trim()}` : ""}` },
						),
					(error: unknown) =>
						report({ kind: "failed", problem: error instanceof Error ? error.message : String(error) }),
				);
		},
	};
}

/** Where the module's start marks are: the folder, and this Claude Code process's own id. */
export interface OnStopMarks {
	/** The marks' folder: `on-stop` in Timebox's state folder, which every host of the user shares. */
	dir: string;
	/** This process's id: a claim made under another was made by a Claude Code process that is gone. */
	instance: string;
}

/** The start mark of the on-stop command of a claim, in the marks' folder. */
export function moduleStartMark(dir: string, claim: OnStopClaim): string {
	if (!isBudgetId(claim.budgetId)) throw new Error(`not a budget id: ${JSON.stringify(claim.budgetId)}`);
	return `${dir}/${claim.budgetId}.${claim.kind}.started`;
}

/** The name of a claim's start mark among those found, `<budget>.<kind>`. */
export function markKey(claim: OnStopClaim): string {
	return `${claim.budgetId}.${claim.kind}`;
}

/**
 * The start marks that exist of the on-stop commands the session's claims recorded, each looked up with a read of no
 * bytes, which fails when the mark is missing.
 */
export async function startedMarks(engine: Engine, dir: string, claims: readonly LedgerClaim[]): Promise<Set<string>> {
	const found = new Set<string>();
	for (const held of claims) {
		if (held.kind !== "spent" && held.kind !== "ended") continue;
		// A stop that let its run wrap up keeps the command of that run's end, started behind the end's mark.
		const atEnd = held.kind === "spent" && held.onStopAtEnd !== undefined;
		if ((held.onStopCommand === undefined && !atEnd) || !isBudgetId(held.budgetId)) continue;
		const claim: OnStopClaim = { budgetId: held.budgetId, kind: atEnd ? "ended" : held.kind };
		const exists = await engine.fs.read(moduleStartMark(dir, claim), { offset: 0, length: 0 }).then(
			() => true,
			() => false,
		);
		if (exists) found.add(markKey(claim));
	}
	return found;
}
