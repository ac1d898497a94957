// Process entry of the plugin's batch script for Claude Code's hooks module (bundled as bin/timebox-team.cjs): one
// batch of a session's calls on its team's daily ledger, its request the first argument, its reply on stdout. It loads
// only the team's ledger and its client, not the hook script, so that a batch costs little more than Node's start,
// and runs that code (team-batch-main.ts, bundled beside it as bin/timebox-team-code.cjs) from V8's code cache in
// Timebox's state folder, as the hook script does. Bundled as CommonJS: no top-level await, no import.meta.

import { pathToFileURL } from "node:url";
import { requireCodeBeside } from "../adapters/node/code-cache.ts";
import { codeCacheFolder } from "./code-cache-folder.ts";
import * as source from "./team-batch-main.ts";

/** The batch's code, beside this entry in the plugin (the build writes it there). */
const CODE_FILE = "timebox-team-code.cjs";

/** The version of the code file (the first 16 hex digits of its SHA-256), which the build writes into this entry. */
declare const TIMEBOX_CODE_VERSION: string;

const entry = pathToFileURL(process.argv[1] ?? "").href;
const code = requireCodeBeside(entry, CODE_FILE, source, () => ({
	folder: codeCacheFolder(process.env),
	version: TIMEBOX_CODE_VERSION,
}));
if (typeof code.exports.runTeamBatchScript !== "function") {
	// A plugin copied in part: said in one line; the hooks module reads a batch that failed as the store's outage.
	process.stderr.write(`timebox: ${CODE_FILE} is missing beside ${process.argv[1]}: install the plugin again\n`);
	process.exitCode = 1;
} else {
	// Written once per version of the code, after the first batch that ran: the code a batch takes compiled.
	void code.exports.runTeamBatchScript(entry).then((ran) => {
		if (ran) code.keep();
	});
}
