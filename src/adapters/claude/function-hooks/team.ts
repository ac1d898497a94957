// A team's daily ledger in Claude Code's hooks module, which runs in Claude Code's own process and cannot open a socket:
// the read-ahead team ledger (team/read-ahead.ts), its batches run by the plugin's small batch script
// (`timebox-team.cjs <request>`), one process per batch, where the team's ledger runs them (and, while the store cannot
// be reached, counts on this machine's daily ledger as every Node host does). A batch script that cannot run at all is
// the outage policy's, in its own words. A daily command's reads and writes on the team's store go in batches too
// (read-ahead.ts `prepare`), answered by the rules in the module as any other command.

import {
	type Clock,
	DAILY_TAKEN_REFUSAL,
	type DailyBudget,
	type DailyTeam,
	TEAM_HOP_MS,
	teamHopFailed,
} from "../../../core/index.ts";
import type { TeamReply, TeamRequest } from "../../team/batch.ts";
import { type BatchOutcome, ReadAheadLedger } from "../../team/read-ahead.ts";
import { type ClosedUnusableTeam, NO_DAILY_LEDGER, saying } from "../../team/unusable.ts";
import type { ModuleLedger } from "./daily.ts";
import type { Engine, EngineTimer } from "./engine.ts";
import { hookScriptLine } from "./report-page.ts";

/** The shell line that runs a team's batch (`$1`, its request) with the plugin's batch script. */
export const TEAM_LINE = hookScriptLine('"$1"', "timebox-team.cjs");

/** The batch script's reply, or why it cannot be read. */
export function readBatchReply(result: { exitCode: number; stdout: string; stderr: string }): BatchOutcome {
	if (result.exitCode !== 0) {
		return { error: result.stderr.trim().split("\n")[0] || `the batch script exited with ${result.exitCode}` };
	}
	let reply: unknown;
	try {
		reply = JSON.parse(result.stdout);
	} catch {
		return { error: "the batch script's reply is not JSON" };
	}
	if (typeof reply === "object" && reply !== null) {
		const fields = reply as Record<string, unknown>;
		if (typeof fields.error === "string") return { error: fields.error };
		// The plugin's own batch script wrote it: its shape is that of `runTeamBatch`'s reply.
		if (Array.isArray(fields.counted) && Array.isArray(fields.standings) && Array.isArray(fields.problems))
			return reply as TeamReply;
	}
	return { error: "the batch script's reply cannot be read" };
}

/** What the team's ledger in the hooks module is set up with. */
export interface ModuleTeamOptions {
	sessionId: string;
	clock: Clock;
	/** The session's daily budgets, as the rules read them. */
	budgets: readonly DailyBudget[];
	/** `TIMEBOX_DAILY_STORE_FAILURE=closed`: new turns are refused while the store cannot be reached. */
	closed: boolean;
	/** The plugin's folder, where `$CLAUDE_PLUGIN_ROOT` is not set. */
	root: string;
	/** The team, as set (the batch script checks it, and says what is wrong with it). */
	team: DailyTeam;
}

/** The team's daily ledger of one session of Claude Code's hooks module. */
export class ModuleTeamLedger extends ReadAheadLedger implements ModuleLedger {
	constructor(engine: () => Engine, options: ModuleTeamOptions) {
		super({
			...options,
			run: (request) => runBatch(engine(), request, options.root),
			texts: { unreachable: teamHopFailed, refusal: (why) => teamHopFailed(why, true) },
			// The next event of the session may come within TEAM_HOP_FRESH_MS: it reads the day this batch read.
			readAfter: true,
		});
	}
}

/**
 * A team set wrongly (`warning`, why): said once before anything of this machine's daily ledger (`machine`, absent
 * without a daily budget), which counts the session's own daily budget; `/timebox team` says it again. In the closed
 * failure mode (`closed`), new turns are refused with it.
 */
export function unusableTeam(
	warning: string,
	machine: ModuleLedger | undefined,
	closed?: ClosedUnusableTeam,
): ModuleLedger {
	const said = saying(warning, machine ?? NO_DAILY_LEDGER, undefined, closed);
	return {
		...said,
		refresh: async () => machine?.refresh(),
		settle: async () => (await machine?.settle()) ?? true,
		takenRefusal: () => machine?.takenRefusal() ?? DAILY_TAKEN_REFUSAL,
	};
}

/** The batch script's answer to a batch, bounded in time: a process that does not end in time is taken as failed. */
async function runBatch(engine: Engine, request: TeamRequest, root: string): Promise<BatchOutcome> {
	let timer: EngineTimer | undefined;
	const late = new Promise<BatchOutcome>((resolve) => {
		timer = engine.clock.after(TEAM_HOP_MS, () => resolve({ error: `no answer within ${TEAM_HOP_MS} ms` }));
	});
	const ran = engine.process
		.run(["sh", "-c", TEAM_LINE, "sh", JSON.stringify(request), root])
		.then(readBatchReply, (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
	try {
		return await Promise.race([ran, late]);
	} finally {
		timer?.cancel();
	}
}
