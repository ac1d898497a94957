// The plugin's batch script (`timebox-team.cjs <request>`), how Claude Code's hooks module, which cannot open a socket,
// reaches its team's store: the request is read, the session's daily ledger opened from the environment as on every
// Node host (the password stays in the environment, never on a command line), the batch run on it with each call
// bounded so that the process ends in time, and one JSON line answered.

import { parseTeamRequest, runTeamBatch } from "../adapters/team/batch.ts";
import { type Clock, TEAM_HOP_WAIT_MS } from "../core/index.ts";
import { openBatchLedger } from "./daily-ledgers.ts";

/** The reply line to the batch whose request is `arg`: the batch's reply, or `{ "error": … }`. */
export async function runBatchCli(arg: string | undefined, env: NodeJS.ProcessEnv, clock: Clock, entry: string) {
	const request = parseTeamRequest(arg);
	if ("error" in request) return `${JSON.stringify({ error: `timebox: ${request.error}` })}\n`;
	const ledger = openBatchLedger({
		env,
		sessionId: request.session,
		clock,
		host: "claude",
		entry,
		team: { carried: request.carry, waitMs: TEAM_HOP_WAIT_MS },
	});
	return `${JSON.stringify(await runTeamBatch(request, ledger))}\n`;
}
