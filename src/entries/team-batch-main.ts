// The code of the plugin's batch script for Claude Code's hooks module (bundled as CommonJS into
// bin/timebox-team-code.cjs, which its entry, team-batch.ts, runs from V8's code cache): one batch of a session's calls
// on its team's daily ledger, its request the first argument, its reply on stdout.

import { writeSync } from "node:fs";
import { systemClock } from "../adapters/node/node-time.ts";
import { runBatchCli } from "./batch-request.ts";

/**
 * Runs the batch of the process's first argument and writes its reply line whole to stdout. `entry` is the URL of the
 * script's entry: the team store's worker is beside it. Returns whether a batch ran: false for a request that could
 * not be read (the reply `{ "error": … }`, as the hooks module reads it), which compiled little of a batch's code.
 */
export async function runTeamBatchScript(entry: string): Promise<boolean> {
	const reply = await runBatchCli(process.argv[2], process.env, systemClock, entry);
	let rest = Buffer.from(reply);
	while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
	return !("error" in (JSON.parse(reply) as object));
}
