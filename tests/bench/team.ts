// Benchmark 5b: what a team's daily budget costs a session on a Redis on localhost, per turn (read, count; the
// reservation is sent without waiting) and per model call (read), and what the daily ledger costs with no store set (no
// client loaded, no worker). The Redis keeps an append-only file flushed every second, Redis's own default; a second
// Redis flushes each write before it answers (`appendfsync always`, as the end-to-end tests run it), to show what the
// disk adds.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDailyLedger } from "../../src/adapters/team/open.ts";
import { type DailyBudget, type DailyLedger, NO_DAILY_SESSION } from "../../src/core/index.ts";
import { RedisServer } from "../e2e/support/redis.ts";
import { step } from "./daily.ts";
import { median, nowMs } from "./stats.ts";

export const TEAM_SAMPLES = 201;

export interface TeamResult {
	turnMs: number;
	callMs: number;
	localTurnMs: number;
	localCallMs: number;
	/** The same, on a Redis that flushes each write to disk before it answers. */
	flushedTurnMs: number;
	flushedCallMs: number;
}

const BUDGET: DailyBudget = {
	scope: "user",
	source: "bench",
	limits: { timeMs: 1_000 * 3_600_000, turns: 1_000_000, tokens: 1e12, cost: null },
};

/** Per turn and per model call, medians over the samples, through the same daily rules and executor as a session. */
function measure(ledger: DailyLedger): { turnMs: number; callMs: number } {
	const port = { ledger, budgets: [BUDGET] };
	// The first call starts the client: not what a turn costs.
	step(port, NO_DAILY_SESSION, { type: "newPrompt" });
	const turns: number[] = [];
	const calls: number[] = [];
	for (let sample = 0; sample < TEAM_SAMPLES; sample++) {
		let started = nowMs();
		const session = step(port, NO_DAILY_SESSION, { type: "newPrompt" });
		turns.push(nowMs() - started);
		started = nowMs();
		step(port, session, { type: "duringRun", modelCall: true });
		calls.push(nowMs() - started);
	}
	return { turnMs: median(turns), callMs: median(calls) };
}

/** A turn and a model call of a team's session on a Redis started with `fsync` as its append-only file's flushing. */
async function measureOn(fsync: "everysec" | "always", state: string): Promise<{ turnMs: number; callMs: number }> {
	const redis = await RedisServer.start(["--appendfsync", fsync]);
	try {
		return measure(
			openDailyLedger({
				...OPTIONS,
				env: { XDG_STATE_HOME: state, TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: `bench-${fsync}` },
			}),
		);
	} finally {
		await redis.dispose();
	}
}

const OPTIONS = { sessionId: "bench", clock: { now: () => Date.now() }, host: "bench", entry: import.meta.url };

export async function measureTeam(): Promise<TeamResult> {
	const state = mkdtempSync(join(tmpdir(), "timebox-bench-team-"));
	try {
		const remote = await measureOn("everysec", state);
		const flushed = await measureOn("always", state);
		const alone = measure(openDailyLedger({ ...OPTIONS, env: { XDG_STATE_HOME: state } }));
		return {
			turnMs: remote.turnMs,
			callMs: remote.callMs,
			localTurnMs: alone.turnMs,
			localCallMs: alone.callMs,
			flushedTurnMs: flushed.turnMs,
			flushedCallMs: flushed.callMs,
		};
	} finally {
		rmSync(state, { recursive: true, force: true });
	}
}
