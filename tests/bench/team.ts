// Benchmark 5b: what a team's daily budget costs a session on a Redis on localhost, per turn (read, count; the
// reservation is sent without waiting) and per model call (read), and what the daily ledger costs with no store set (no
// client loaded, no worker). The Redis keeps an append-only file flushed every second, Redis's own default; a second
// Redis flushes each write before it answers (`appendfsync always`, as the end-to-end tests run it), to show what the
// disk adds. And the hop of Claude Code's hooks module, which reaches the store through the plugin's batch script, a
// process per batch (`timebox-team.cjs <request>`): a turn's two batches, a model call's two.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TeamReply, TeamRequest } from "../../src/adapters/team/batch.ts";
import { type DailyBudget, type DailyLedger, NO_DAILY_SESSION } from "../../src/core/index.ts";
import { openDailyLedger } from "../../src/entries/daily-ledgers.ts";
import { PACKAGE_ENTRY, RedisServer } from "../e2e/support/redis.ts";
import { step } from "./daily.ts";
import { median, nowMs, REPO_ROOT } from "./stats.ts";

/** The batch script of Claude Code's hooks module, as the plugin ships it. */
const TEAM_BATCH_BIN = join(REPO_ROOT, "plugins/claude-code/bin/timebox-team.cjs");

export const TEAM_SAMPLES = 201;
/** Turns and model calls of the hooks module's hop: each a few processes. */
export const HOP_SAMPLES = 21;

export interface TeamResult {
	turnMs: number;
	callMs: number;
	localTurnMs: number;
	localCallMs: number;
	/** The same, on a Redis that flushes each write to disk before it answers. */
	flushedTurnMs: number;
	flushedCallMs: number;
	/** The hooks module's turn: a read, then the count with the reservation and a read (two processes, both waited for). */
	hopTurnMs: number;
	/** Its model call: the reservation with a read (during the request), the answer's use with a read. */
	hopCallMs: number;
	/** One of those processes, the median; and a bare `node -e 0` beside it. */
	hopProcessMs: number;
	nodeMs: number;
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

const OPTIONS = { sessionId: "bench", clock: { now: () => Date.now() }, host: "bench", entry: PACKAGE_ENTRY };

export async function measureTeam(): Promise<TeamResult> {
	const state = mkdtempSync(join(tmpdir(), "timebox-bench-team-"));
	try {
		const remote = await measureOn("everysec", state);
		const flushed = await measureOn("always", state);
		const alone = measure(openDailyLedger({ ...OPTIONS, env: { XDG_STATE_HOME: state } }));
		const redis = await RedisServer.start(["--appendfsync", "everysec"]);
		let hop: ReturnType<typeof measureHop>;
		try {
			hop = measureHop({
				...process.env,
				XDG_STATE_HOME: state,
				TIMEBOX_DAILY_STORE: redis.url(),
				TIMEBOX_TEAM: "bench",
			});
		} finally {
			await redis.dispose();
		}
		return {
			turnMs: remote.turnMs,
			callMs: remote.callMs,
			localTurnMs: alone.turnMs,
			localCallMs: alone.callMs,
			flushedTurnMs: flushed.turnMs,
			flushedCallMs: flushed.callMs,
			...hop,
		};
	} finally {
		rmSync(state, { recursive: true, force: true });
	}
}

/** One batch of the hooks module, as `$.process.run` starts it (without Claude Code's own spawn): its time and reply. */
function batch(env: NodeJS.ProcessEnv, request: TeamRequest): { ms: number; reply: TeamReply } {
	const started = nowMs();
	const done = spawnSync(process.execPath, [TEAM_BATCH_BIN, JSON.stringify(request)], { env, encoding: "utf8" });
	const ms = nowMs() - started;
	if (done.status !== 0) throw new Error(`the team batch failed: ${done.stderr}`);
	return { ms, reply: JSON.parse(done.stdout) as TeamReply };
}

/** The hooks module's turns and model calls through the plugin's bundled batch script, against the Redis in `env`. */
function measureHop(env: NodeJS.ProcessEnv): Pick<TeamResult, "hopTurnMs" | "hopCallMs" | "hopProcessMs" | "nodeMs"> {
	const base = { session: "bench-module", budgets: [BUDGET] };
	const turns: number[] = [];
	const calls: number[] = [];
	const processes: number[] = [];
	const nodes: number[] = [];
	let carry = batch(env, { ...base, ops: [] }).reply.carry ?? undefined;
	const run = (ops: TeamRequest["ops"]) => {
		const done = batch(env, { ...base, ops, ...(carry ? { carry } : {}) });
		if (done.reply.problems.length > 0) throw new Error(done.reply.problems.join("\n"));
		carry = done.reply.carry ?? undefined;
		processes.push(done.ms);
		return done.ms;
	};
	for (let sample = 0; sample < HOP_SAMPLES; sample++) {
		turns.push(run([]) + run([{ op: "count", limits: [1_000_000] }, { op: "reserve" }]));
		calls.push(run([{ op: "reserve" }]) + run([{ op: "use", use: { tokens: 1_000, agentMs: 5_000 } }]));
		const started = nowMs();
		spawnSync(process.execPath, ["-e", "0"]);
		nodes.push(nowMs() - started);
	}
	return { hopTurnMs: median(turns), hopCallMs: median(calls), hopProcessMs: median(processes), nodeMs: median(nodes) };
}
