// Benchmark 1c: what a fresh process pays, where no JIT has warmed up: pi opening a big session (Timebox's
// `session_start` on a 100,000-entry session, timed in a new Node process that opened the session file as pi does, and
// the handlers of that session's first prompt), and one hook of the hook hosts (`timebox.cjs hook` with a budget in
// force) against bare Node start-up.

import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CODE_CACHE_FOLDER } from "../../src/core/index.ts";
import { TIMEBOX_BIN } from "../e2e/claude/support/claude.ts";
import { filledSession } from "./handlers.ts";
import { cleanEnv, median, nowMs, progress, REPO_ROOT, runProcess } from "./stats.ts";

/** Entries of the session pi opens. */
export const COLD_SESSION_SIZE = 100_000;
/** Fresh processes timed, each opening the session anew. */
export const COLD_RUNS = 9;
/** Timed hook processes and bare Node starts, alternating. */
export const HOOK_RUNS = 15;

const PROBE = join(import.meta.dirname, "cold-start-probe.mjs");
/** Opening a 50 MB session file takes seconds on a busy machine. */
const PROBE_TIMEOUT_MS = 120_000;
const PI_BUNDLE = join(REPO_ROOT, "plugins/pi/timebox/index.js");

export interface ColdStartResult {
	/** ms of `session_start` in each fresh process. */
	sessionStartMs: number;
	/** ms of the first prompt's handlers, all five, in each fresh process after its `session_start`. */
	firstPromptMs: number;
	/** ms of the bundle's import in each fresh process. */
	loadMs: number;
	/** The same three in the process before them, which found no code cache and left one (a first start after an install). */
	uncached: { sessionStartMs: number; firstPromptMs: number; loadMs: number };
	/** Bare `node -e 0`, and `timebox.cjs hook` on a prompt with a budget in force. */
	nodeMs: number;
	hookMs: number;
}

/** The session pi opens: `COLD_SESSION_SIZE` entries, an active budget last, as a session file. */
function writeSession(folder: string): string {
	const session = filledSession(COLD_SESSION_SIZE);
	const file = join(folder, "session.jsonl");
	const lines = [session.getHeader(), ...session.getEntries()].map((entry) => JSON.stringify(entry));
	writeFileSync(file, `${lines.join("\n")}\n`);
	return file;
}

/** What one fresh process measured. */
interface ProbeResult {
	sessionStartMs: number;
	firstPromptMs: number;
	loadMs: number;
}

/**
 * `session_start` and then the first prompt's handlers in a fresh process with no code cache (which it leaves), then in
 * `COLD_RUNS` fresh processes that find it, each on its own copy of the session (the prompt's messages are kept in it);
 * fails unless each restored the budget, and unless the first left a cache.
 */
async function measureSessionStart(root: string): Promise<Omit<ColdStartResult, "nodeMs" | "hookMs">> {
	const file = writeSession(root);
	const copy = join(root, "copy.jsonl");
	const agentDir = join(root, "home/.pi/agent");
	const env = cleanEnv({ HOME: join(root, "home"), PI_CODING_AGENT_DIR: agentDir });
	const probe = async (): Promise<ProbeResult> => {
		copyFileSync(file, copy);
		const result = await runProcess(process.execPath, [PROBE, copy, PI_BUNDLE], {
			cwd: REPO_ROOT,
			env,
			timeoutMs: PROBE_TIMEOUT_MS,
		});
		const { ms, prompt, notes, loadMs } = JSON.parse(result.stdout || "{}") as {
			ms?: number;
			prompt?: Record<string, number>;
			notes?: string[];
			loadMs?: number;
		};
		if (result.code !== 0 || typeof ms !== "number" || !prompt || !notes?.[0]?.startsWith("Timebox restored:")) {
			throw new Error(`cold session_start went wrong: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
		}
		return {
			sessionStartMs: ms,
			firstPromptMs: Object.values(prompt).reduce((sum, handler) => sum + handler, 0),
			loadMs: loadMs ?? Number.NaN,
		};
	};
	const uncached = await probe();
	if (readdirSync(join(agentDir, CODE_CACHE_FOLDER)).length !== 1)
		throw new Error("the first process left no code cache");
	const runs: ProbeResult[] = [];
	for (let run = 0; run < COLD_RUNS; run++) runs.push(await probe());
	const figures = (pick: (result: ProbeResult) => number, digits: number) =>
		runs.map((result) => pick(result).toFixed(digits)).join(" ");
	progress(
		`with no code cache: load ${uncached.loadMs.toFixed(1)}, session_start ${uncached.sessionStartMs.toFixed(1)}, first prompt ${uncached.firstPromptMs.toFixed(2)} ms`,
	);
	progress(`cold session_start at ${COLD_SESSION_SIZE}: ${figures((result) => result.sessionStartMs, 0)} ms`);
	progress(`its first prompt's handlers: ${figures((result) => result.firstPromptMs, 2)} ms`);
	progress(`the bundle's load: ${figures((result) => result.loadMs, 1)} ms`);
	return {
		sessionStartMs: median(runs.map((result) => result.sessionStartMs)),
		firstPromptMs: median(runs.map((result) => result.firstPromptMs)),
		loadMs: median(runs.map((result) => result.loadMs)),
		uncached,
	};
}

async function timed(run: () => Promise<unknown>): Promise<number> {
	const started = nowMs();
	await run();
	return nowMs() - started;
}

/** A UserPromptSubmit hook with a budget in force, against bare `node -e 0`, alternating. */
async function measureHook(root: string): Promise<{ nodeMs: number; hookMs: number }> {
	const env = { PATH: process.env.PATH, HOME: join(root, "hook-home"), CLAUDE_PLUGIN_DATA: join(root, "data") };
	const payload = (prompt: string, id: string) =>
		JSON.stringify({ session_id: "bench", hook_event_name: "UserPromptSubmit", prompt, prompt_id: id });
	const set = await runProcess(process.execPath, [TIMEBOX_BIN, "hook"], {
		input: payload("/timebox 1h turns:1000", "p0"),
		env,
	});
	if (!set.stdout.includes("Timebox set")) throw new Error(`the hook set no budget: ${set.stdout}${set.stderr}`);
	const node: number[] = [];
	const hook: number[] = [];
	for (let run = 0; run < HOOK_RUNS; run++) {
		node.push(await timed(() => runProcess(process.execPath, ["-e", "0"], { env })));
		hook.push(
			await timed(() =>
				runProcess(process.execPath, [TIMEBOX_BIN, "hook"], { input: payload(`prompt ${run}`, `p${run + 1}`), env }),
			),
		);
	}
	return { nodeMs: median(node), hookMs: median(hook) };
}

/** Runs benchmark 1c in a throwaway folder. */
export async function measureColdStart(): Promise<ColdStartResult> {
	const root = mkdtempSync(join(tmpdir(), "timebox-bench-cold-"));
	try {
		const start = await measureSessionStart(root);
		return { ...start, ...(await measureHook(root)) };
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}
