// The user's own status line command, run for a hook host's status line that wraps it: `<shell> -c <command>` with the
// status line's stdin, bounded in time, its first line kept.

import { spawnSync } from "node:child_process";

/** How long the user's own status line command may take. */
const WRAPPED_TIMEOUT_MS = 2_000;

/** The default status line runner: `<shell> -c <command>`, bounded in time; "" when it cannot run. */
export function runStatusLineCommand(command: string, stdin: string, shell = "/bin/sh"): string {
	const result = spawnSync(shell, ["-c", command], { input: stdin, encoding: "utf8", timeout: WRAPPED_TIMEOUT_MS });
	return typeof result.stdout === "string" ? result.stdout.replace(/\n[\s\S]*$/, "") : "";
}
