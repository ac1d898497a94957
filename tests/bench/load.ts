// Benchmark 5c (`TIMEBOX_BENCH=load`): how many agents one Redis serves. K simulated sessions, each with its own
// connection (Timebox's own client, as a hook process or a worker opens it), make a model call's scripts at an agent's
// pace against one redis-server started here on a free port of 127.0.0.1 (append-only file flushed every second,
// Redis's default): every `CYCLE_MS`, a model call (the day read, the reservation sent without waiting), a tool call's
// check (a read) and the answer (its use, then a read); every tenth cycle a new turn's count. Each step of K runs for
// `STEP_MS`; the bench reports the scripts per second Redis ran, the p50 and p99 of a call as a session waits for it,
// and Redis's own CPU (`INFO cpu`), from which the docs extrapolate. Loopback only, bounded in time.

import { type AsyncStore, nodeConnector, openStore } from "../../src/adapters/team/client.ts";
import { dayKeys, SCRIPTS } from "../../src/adapters/team/scripts.ts";
import { TEAM_RESERVATION_MS } from "../../src/core/index.ts";
import { RedisServer } from "../e2e/support/redis.ts";
import { nowMs, progress } from "./stats.ts";

/** The sessions of each step; a step stops early once calls wait longer than `GIVE_UP_P99_MS` at the 99th percentile. */
export const LOAD_STEPS = [50, 200, 500, 1_000, 2_000];
/** How long each step runs, after a warm-up of one cycle. */
export const STEP_MS = 6_000;
/** An agent's pace: a model call with a tool call every 2 s is a fast agent (a model call takes seconds). */
export const CYCLE_MS = 2_000;
/** Sessions per member: a member runs a few agents; the day's read returns one entry per member. */
export const SESSIONS_PER_MEMBER = 4;
const GIVE_UP_P99_MS = 500;
const CALL_TIMEOUT_MS = 10_000;

export interface LoadStep {
	sessions: number;
	members: number;
	/** Scripts Redis ran per second during the step. */
	opsPerSecond: number;
	/** A call as a session waits for it (sent to answered), ms. */
	p50Ms: number;
	p99Ms: number;
	/** Redis's CPU during the step, in cores (1 = one core busy). */
	redisCores: number;
	/** Redis's CPU per script, µs. */
	cpuPerOpUs: number;
	/** Calls that failed (none expected). */
	failed: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** Redis's CPU so far (user and system), seconds. */
function redisCpu(redis: RedisServer): number {
	const info = redis.cli(["INFO", "cpu"]);
	const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(info)?.[1] ?? Number.NaN);
	return field("used_cpu_user") + field("used_cpu_sys");
}

/** Scripts Redis ran so far (`INFO commandstats`: EVALSHA and EVAL calls). */
function redisScripts(redis: RedisServer): number {
	const stats = redis.cli(["INFO", "commandstats"]);
	let calls = 0;
	for (const match of stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(match[1]);
	return calls;
}

/** One simulated session: its store, who it is, and its cycle. */
class Session {
	private cycle = 0;
	private timer: ReturnType<typeof setTimeout> | null = null;

	constructor(
		private readonly store: AsyncStore,
		private readonly keys: string[],
		private readonly common: (string | number)[],
		private readonly waits: number[],
		private readonly failures: { count: number },
	) {}

	start(offsetMs: number): void {
		this.timer = setTimeout(() => void this.run(), offsetMs);
	}

	stop(): void {
		if (this.timer !== null) clearTimeout(this.timer);
		this.timer = null;
		this.store.close();
	}

	private async call(script: keyof typeof SCRIPTS, args: (string | number)[]): Promise<void> {
		const started = nowMs();
		const reply = await this.store.call(script, this.keys, [...this.common, ...args], CALL_TIMEOUT_MS);
		this.waits.push(nowMs() - started);
		if (!reply.ok) this.failures.count += 1;
	}

	private async run(): Promise<void> {
		const started = nowMs();
		this.cycle += 1;
		if (this.cycle % 10 === 1) await this.call("count", [-1]);
		// The model call: the day read, the reservation sent without waiting.
		await this.call("read", []);
		this.store.post("reserve", this.keys, [...this.common, 1_200, 0.01, TEAM_RESERVATION_MS]);
		// A tool call's check, then the answer: its use, and the day read again.
		await this.call("read", []);
		await this.call("use", [1_500, 1_200, 0.01, 0]);
		await this.call("read", []);
		if (this.timer === null) return;
		this.timer = setTimeout(() => void this.run(), Math.max(0, CYCLE_MS - (nowMs() - started)));
	}
}

/** Runs one step of `count` sessions against `redis`. */
async function step(redis: RedisServer, count: number, run: number): Promise<LoadStep> {
	const team = `load-${run}`;
	const day = new Date().toISOString().slice(0, 10);
	const keys = dayKeys(team, day);
	const expiry = Math.ceil(Date.now() / 1000) + 2 * 86_400;
	const members = Math.ceil(count / SESSIONS_PER_MEMBER);
	const waits: number[] = [];
	const failures = { count: 0 };
	const sessions = Array.from({ length: count }, (_, index) => {
		const store = openStore(redis.url(), SCRIPTS, {
			connectMs: 5_000,
			callMs: CALL_TIMEOUT_MS,
			connector: nodeConnector,
		});
		const member = `member-${index % members}@machine-${index % members} (bench)`;
		return new Session(store, keys, [expiry, `session-${run}-${index}`, member], waits, failures);
	});
	for (const session of sessions) session.start(Math.random() * CYCLE_MS);
	// A cycle to connect and warm up, then the measured window.
	await new Promise((resolve) => setTimeout(resolve, CYCLE_MS));
	waits.length = 0;
	failures.count = 0;
	const cpuBefore = redisCpu(redis);
	const scriptsBefore = redisScripts(redis);
	const started = nowMs();
	await new Promise((resolve) => setTimeout(resolve, STEP_MS));
	const seconds = (nowMs() - started) / 1_000;
	const cpu = redisCpu(redis) - cpuBefore;
	const scripts = redisScripts(redis) - scriptsBefore;
	for (const session of sessions) session.stop();
	const sorted = [...waits].sort((a, b) => a - b);
	return {
		sessions: count,
		members,
		opsPerSecond: scripts / seconds,
		p50Ms: percentile(sorted, 0.5),
		p99Ms: percentile(sorted, 0.99),
		redisCores: cpu / seconds,
		cpuPerOpUs: scripts === 0 ? Number.NaN : (cpu / scripts) * 1e6,
		failed: failures.count,
	};
}

/** Runs the steps of K against one redis-server, stopping once calls wait too long. */
export async function measureLoad(): Promise<LoadStep[]> {
	const redis = await RedisServer.start(["--appendfsync", "everysec", "--maxclients", "10000"]);
	const steps: LoadStep[] = [];
	try {
		for (const [run, count] of LOAD_STEPS.entries()) {
			const result = await step(redis, count, run);
			progress(
				`load: ${count} sessions, ${result.opsPerSecond.toFixed(0)} scripts/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, Redis ${(result.redisCores * 100).toFixed(0)}% of a core`,
			);
			steps.push(result);
			if (result.p99Ms > GIVE_UP_P99_MS) break;
		}
	} finally {
		await redis.dispose();
	}
	return steps;
}

/** The steps as rows of the bench's table: measure, figures, runs, target, met. */
export function loadRows(steps: readonly LoadStep[]): [string, string, string, string, string][] {
	return steps.map((result) => [
		`One Redis, ${result.sessions} sessions (${result.members} members) at a model call with a tool call every ${CYCLE_MS / 1_000} s: scripts/s; a call's p50 / p99; Redis's CPU (per script)`,
		`${Math.round(result.opsPerSecond)}/s; ${result.p50Ms.toFixed(2)} / ${result.p99Ms.toFixed(2)} ms; ${(result.redisCores * 100).toFixed(0)}% of a core (${result.cpuPerOpUs.toFixed(0)} µs)${result.failed > 0 ? `; ${result.failed} failed` : ""}`,
		`${STEP_MS / 1_000} s, in-process clients on 127.0.0.1, append-only file flushed every second`,
		"— (information: the docs extrapolate)",
		"—",
	]);
}
