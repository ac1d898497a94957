// Process entry of the plugin's batch script for Claude Code's hooks module (bundled as bin/timebox-team.cjs): one
// batch of a session's calls on its team's daily ledger, its request the first argument, its reply on stdout. It loads
// only the team's ledger and its client, not the hook script, so that a batch costs little more than Node's start.
// Bundled as CommonJS: no top-level await, no import.meta.

import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { systemClock } from "../adapters/node/node-time.ts";
import { runBatchCli } from "../adapters/team/batch-cli.ts";

void runBatchCli(process.argv[2], process.env, systemClock, pathToFileURL(process.argv[1] ?? "").href).then((reply) => {
	let rest = Buffer.from(reply);
	while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
});
