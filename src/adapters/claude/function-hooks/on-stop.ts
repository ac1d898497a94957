// The on-stop command in Claude Code, through `$.process.run`: run by `sh` in the background with its output and input
// redirected, so the call returns at once (a command left holding the pipes would hold the call until it ends) and
// the command outlives neither more nor less than it would from a terminal. Behind a start mark, it runs through the
// wrapper every host shares, and the marks are looked up through `$.fs` when a session opens.

import { isBudgetId, type LedgerClaim, type OnStopClaim, type OnStopStarter } from "../../../core/index.ts";
import { ON_STOP_WRAPPER } from "../../on-stop/wrapper.ts";
import type { Engine } from "./engine.ts";

/** The shell line that starts `command` detached: its own lines inside a subshell, so a comment cannot eat the rest. */
export function detachedLine(command: string): string {
	return `(\n${command}\n) >/dev/null 2>&1 </dev/null &`;
}

/**
 * The shell line that starts the wrapper detached, as `sh -c <line> sh <wrapper> <folder> <mark> <command>`: the
 * marks' folder made first where it is missing, then the wrapper in the background with the mark and the command as
 * its arguments.
 */
export const DETACHED_WRAPPER_LINE =
	'[ -d "$2" ] || mkdir -p -- "$2" 2>/dev/null; /bin/sh -c "$1" sh "$3" "$4" >/dev/null 2>&1 </dev/null &';

/** The argument vector that starts `command` behind `mark`. */
export function wrappedArgv(mark: string, command: string): string[] {
	const folder = mark.slice(0, mark.lastIndexOf("/"));
	return ["sh", "-c", DETACHED_WRAPPER_LINE, "sh", ON_STOP_WRAPPER, folder, mark, command];
}

export function engineOnStop(engine: () => Engine): OnStopStarter {
	return {
		start(command, report, options) {
			const mark = options?.mark;
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
	for (const claim of claims) {
		if ((claim.kind !== "spent" && claim.kind !== "ended") || claim.onStopCommand === undefined) continue;
		if (!isBudgetId(claim.budgetId)) continue;
		const exists = await engine.fs.read(moduleStartMark(dir, claim), { offset: 0, length: 0 }).then(
			() => true,
			() => false,
		);
		if (exists) found.add(markKey(claim));
	}
	return found;
}
