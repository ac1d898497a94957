// The on-stop command in Claude Code, through `$.process.run`: run by `sh` in the background with its output and input
// redirected, so the call returns at once (a command left holding the pipes would hold the call until it ends) and
// the command outlives neither more nor less than it would from a terminal.

import type { OnStopStarter } from "../../../core/index.ts";
import type { Engine } from "./engine.ts";

/** The shell line that starts `command` detached: its own lines inside a subshell, so a comment cannot eat the rest. */
export function detachedLine(command: string): string {
	return `(\n${command}\n) >/dev/null 2>&1 </dev/null &`;
}

export function engineOnStop(engine: () => Engine): OnStopStarter {
	return {
		start(command, report) {
			engine()
				.process.run(["sh", "-c", detachedLine(command)])
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
