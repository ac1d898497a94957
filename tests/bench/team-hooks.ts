// Benchmark 5d: what a team's daily budget costs a hook process, on the bundled hook script of each hook host (Codex
// CLI, Gemini CLI, Claude Code's classic hooks), a prompt's hook in fresh processes: with a team store (a Redis on
// 127.0.0.1 started here), with this machine's file ledger alone, and with no daily budget, alternating; and the
// batch script of Claude Code's hooks module (`timebox-team.cjs`) against a bare `node -e 0` started the same way.
// `TIMEBOX_BEFORE=<folder>` (another checkout, its bundles built) measures its bundles too, in the same alternation, so
// that a change is judged by figures taken under the same load.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TeamRequest } from "../../src/adapters/team/batch.ts";
import type { DailyBudget } from "../../src/core/index.ts";
import { RedisServer } from "../e2e/support/redis.ts";
import { median, nowMs, progress, REPO_ROOT } from "./stats.ts";

/**
 * Fresh processes of each kind, alternating. With 15, one run's medians on this 2-core machine put the team store from
 * -9 to +35 ms over the file ledger: more noise than the target of +10 ms.
 */
export const TEAM_HOOK_RUNS = 31;

const HOSTS = {
	codex: { bin: "plugins/codex-cli/bin/timebox.cjs", event: "UserPromptSubmit", args: ["hook", "--host", "codex"] },
	gemini: { bin: "plugins/gemini-cli/bin/timebox.cjs", event: "BeforeAgent", args: ["hook", "--host", "gemini"] },
	claude: { bin: "plugins/claude-code/bin/timebox.cjs", event: "UserPromptSubmit", args: ["hook", "--host", "claude"] },
} as const;

export type HookHostName = keyof typeof HOSTS;

/** Another checkout whose bundles are measured beside these (`TIMEBOX_BEFORE`), or null. */
const BEFORE = process.env.TIMEBOX_BEFORE?.trim() || null;

export interface TeamHookResult {
	host: HookHostName;
	/** A prompt's hook: no daily budget, this machine's file ledger, a team store. */
	noneMs: number;
	fileMs: number;
	teamMs: number;
	/** The same with `TIMEBOX_BEFORE`'s bundle: the file ledger, the team store. */
	before?: { fileMs: number; teamMs: number };
}

export interface TeamBatchResult {
	/** A batch of the hooks module (a prompt's count and reservation, then a read), and a bare `node -e 0`. */
	batchMs: number;
	nodeMs: number;
	/** The batch of `TIMEBOX_BEFORE`'s bundle. */
	beforeMs?: number;
}

const DAILY = "10h turns:100000";

/** One fresh process, its time in ms; fails unless it ended well and said nothing on stderr. */
function timed(args: readonly string[], env: NodeJS.ProcessEnv, input?: string): number {
	const started = nowMs();
	const done = spawnSync(process.execPath, args, { env, input, encoding: "utf8" });
	const ms = nowMs() - started;
	if (done.status !== 0 || done.stderr !== "") throw new Error(`${args.join(" ")} failed: ${done.stderr}`);
	return ms;
}

/** A prompt's hook on each host with no daily budget, the file ledger and the team store, alternating. */
function measureHost(host: HookHostName, root: string, store: string): TeamHookResult {
	const { bin, event, args } = HOSTS[host];
	const script = [join(REPO_ROOT, bin), ...args];
	const base = (kind: string) => ({
		PATH: process.env.PATH,
		HOME: join(root, host, kind, "home"),
		CODEX_HOME: join(root, host, kind, "codex"),
		CLAUDE_PLUGIN_DATA: join(root, host, kind, "claude"),
		XDG_STATE_HOME: join(root, host, kind, "state"),
	});
	const envs = {
		none: base("none"),
		file: { ...base("file"), TIMEBOX_DAILY: DAILY },
		team: { ...base("team"), TIMEBOX_DAILY: DAILY, TIMEBOX_DAILY_STORE: store, TIMEBOX_TEAM: `bench-${host}` },
	};
	let turn = 0;
	const prompt = () =>
		JSON.stringify({ session_id: "bench", hook_event_name: event, prompt: "go", turn_id: `t${++turn}`, cwd: root });
	const times = { none: [] as number[], file: [] as number[], team: [] as number[] };
	const before = { file: [] as number[], team: [] as number[] };
	const old = BEFORE === null ? null : [join(BEFORE, bin), ...args];
	const oldEnvs = { file: { ...envs.file, ...base("before-file") }, team: { ...envs.team, ...base("before-team") } };
	// A first prompt of each kind: the folders made, the store's scripts loaded.
	for (const kind of ["none", "file", "team"] as const) timed(script, envs[kind], prompt());
	for (const kind of ["file", "team"] as const) if (old) timed(old, oldEnvs[kind], prompt());
	for (let run = 0; run < TEAM_HOOK_RUNS; run++) {
		for (const kind of ["none", "file", "team"] as const) times[kind].push(timed(script, envs[kind], prompt()));
		for (const kind of ["file", "team"] as const) if (old) before[kind].push(timed(old, oldEnvs[kind], prompt()));
	}
	const result: TeamHookResult = {
		host,
		noneMs: median(times.none),
		fileMs: median(times.file),
		teamMs: median(times.team),
		...(old ? { before: { fileMs: median(before.file), teamMs: median(before.team) } } : {}),
	};
	progress(
		`${host} prompt hook: none ${result.noneMs.toFixed(1)}, file ledger ${result.fileMs.toFixed(1)}, team store ${result.teamMs.toFixed(1)} ms${result.before ? `; before: file ledger ${result.before.fileMs.toFixed(1)}, team store ${result.before.teamMs.toFixed(1)} ms` : ""}`,
	);
	return result;
}

const BUDGET: DailyBudget = {
	scope: "user",
	source: "bench",
	limits: { timeMs: null, turns: 1_000_000, tokens: null, cost: null },
};

/** The hooks module's batch of a prompt (count, reservation, read) against `node -e 0`, alternating. */
function measureBatch(root: string, store: string): TeamBatchResult {
	const env = { PATH: process.env.PATH, XDG_STATE_HOME: join(root, "batch"), TIMEBOX_DAILY_STORE: store };
	const teamEnv = { ...env, TIMEBOX_TEAM: "bench-batch" };
	const request: TeamRequest = {
		session: "bench",
		budgets: [BUDGET],
		ops: [{ op: "count", limits: [1_000_000] }, { op: "reserve" }],
	};
	const file = "plugins/claude-code/bin/timebox-team.cjs";
	const batch = [join(REPO_ROOT, file), JSON.stringify(request)];
	const old = BEFORE === null ? null : [join(BEFORE, file), JSON.stringify(request)];
	timed(batch, teamEnv);
	if (old) timed(old, teamEnv);
	const batches: number[] = [];
	const nodes: number[] = [];
	const olds: number[] = [];
	for (let run = 0; run < TEAM_HOOK_RUNS; run++) {
		nodes.push(timed(["-e", "0"], env));
		batches.push(timed(batch, teamEnv));
		if (old) olds.push(timed(old, teamEnv));
	}
	return { batchMs: median(batches), nodeMs: median(nodes), ...(old ? { beforeMs: median(olds) } : {}) };
}

/** Runs benchmark 5d in a throwaway folder, against a Redis started here. */
export async function measureTeamHooks(): Promise<{ hooks: TeamHookResult[]; batch: TeamBatchResult }> {
	const root = mkdtempSync(join(tmpdir(), "timebox-bench-team-hooks-"));
	const redis = await RedisServer.start(["--appendfsync", "everysec"]);
	try {
		const hooks = (Object.keys(HOSTS) as HookHostName[]).map((host) => measureHost(host, root, redis.url()));
		return { hooks, batch: measureBatch(root, redis.url()) };
	} finally {
		await redis.dispose();
		rmSync(root, { recursive: true, force: true });
	}
}

/** What a team store may add to a hook process over this machine's file ledger. */
const TEAM_HOOK_TARGET_MS = 10;
/** What the hooks module's batch may cost against a bare Node started the same way. */
const TEAM_BATCH_TARGET = 1.3;

/** A difference in ms with its sign. */
function signed(ms: number): string {
	return `${ms >= 0 ? "+" : ""}${ms.toFixed(1)}`;
}

/** The rows of the bench's table: measure, figures, runs, target, met. */
export function teamHookRows(result: {
	hooks: readonly TeamHookResult[];
	batch: TeamBatchResult;
}): [string, string, string, string, string][] {
	const runs = `${TEAM_HOOK_RUNS} + ${TEAM_HOOK_RUNS} + ${TEAM_HOOK_RUNS} fresh processes, alternating; Redis on 127.0.0.1`;
	const rows: [string, string, string, string, string][] = result.hooks.map((hook) => {
		const added = hook.teamMs - hook.fileMs;
		const before = hook.before
			? `; before (\`TIMEBOX_BEFORE\`): ${hook.before.teamMs.toFixed(1)} / ${hook.before.fileMs.toFixed(1)} ms (${signed(hook.before.teamMs - hook.before.fileMs)} ms)`
			: "";
		return [
			`${hook.host === "claude" ? "Claude Code (classic hooks)" : hook.host === "codex" ? "Codex CLI" : "Gemini CLI"} hook on a prompt, bundled hook script, \`TIMEBOX_DAILY\`: team store / this machine's file ledger / no daily budget`,
			`${hook.teamMs.toFixed(1)} / ${hook.fileMs.toFixed(1)} / ${hook.noneMs.toFixed(1)} ms (team store ${signed(added)} ms)${before}`,
			runs,
			`≤ +${TEAM_HOOK_TARGET_MS} ms over the file ledger`,
			added <= TEAM_HOOK_TARGET_MS ? "yes" : "**no**",
		];
	});
	const ratio = result.batch.batchMs / result.batch.nodeMs;
	rows.push([
		"Claude Code's hooks module, one batch (`timebox-team.cjs`: a prompt's count and reservation, then a read) / bare `node -e 0`",
		`${result.batch.batchMs.toFixed(1)} / ${result.batch.nodeMs.toFixed(1)} ms (${ratio.toFixed(2)}×)${
			result.batch.beforeMs === undefined
				? ""
				: `; before (\`TIMEBOX_BEFORE\`): ${result.batch.beforeMs.toFixed(1)} ms (${(result.batch.beforeMs / result.batch.nodeMs).toFixed(2)}×)`
		}`,
		`${TEAM_HOOK_RUNS} + ${TEAM_HOOK_RUNS}, alternating; Redis on 127.0.0.1`,
		`≤ ${TEAM_BATCH_TARGET}× Node start-up`,
		ratio <= TEAM_BATCH_TARGET ? "yes" : "**no**",
	]);
	return rows;
}
