// Benchmark 6 (its stop): how late the time limit stops the real Claude Code on function hooks, mid-`sleep 20` and
// while idle, in kept-open `claude -p` sessions against the fake Messages API, timed from the deadline the hooks module
// saved (its budget's start in the plugin's store, not when `/timebox` was sent).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
	ClaudeSession,
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	PLUGIN_DIR,
	processesOf,
	type Sandbox,
	type StreamLine,
	savedBudgetStart,
} from "../e2e/claude/support/claude.ts";
import { progress } from "./stats.ts";

/** Repetitions of each scenario, each in a fresh sandbox and `claude` process. */
export const CLAUDE_STOP_RUNS = 5;
/** The budget of every run, as `/timebox` reads it, and in ms. */
export const CLAUDE_STOP_BUDGET = "3s";
const BUDGET_MS = 3_000;
/** The tool that runs into the deadline; its own length, so that no other process on the machine is taken for it. */
const SLEEP = "sleep 20.0417";
const WAIT_LIMIT_MS = 10_000;
const POLL_MS = 20;

export interface ClaudeStopResult {
	/** Per run: ms from the deadline to the stopped tool's result in the stream-json output. */
	toolStoppedMs: number[];
	/** Per run: ms from the deadline to the run's `result` line: the turn ended. */
	turnEndedMs: number[];
	/** Per run of the mid-tool scenario: ms from the deadline to the on-stop command's run (its timestamp). */
	midToolCommandMs: number[];
	/** Per run: ms from the deadline to the on-stop command's run while idle (its timestamp). */
	idleCommandMs: number[];
}

function sleep(ms: number): Promise<void> {
	return new Promise((done) => setTimeout(done, ms));
}

/** Polls `read` until it gives a value, or throws `failure` after the wait limit. */
async function until<T>(read: () => T | undefined, failure: string): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = read();
		if (value !== undefined) return value;
		if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(failure);
		await sleep(POLL_MS);
	}
}

/** The epoch ms the on-stop command wrote (`date +%s%3N`), once it ran; it must have run once. */
function commandRanAt(file: string): number | undefined {
	const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
	if (lines.length > 1) throw new Error(`the on-stop command ran ${lines.length} times`);
	return lines.length === 1 ? Number(lines[0]) : undefined;
}

/** The content blocks of a stream-json `assistant` or `user` line. */
function blocks(entry: StreamLine): Record<string, unknown>[] {
	const message = entry.line.message as { content?: unknown } | undefined;
	return Array.isArray(message?.content) ? (message.content as Record<string, unknown>[]) : [];
}

/** One scenario's world: the fake API, a sandbox, a kept-open session in it, its budget's deadline and marker file. */
interface Scenario {
	api: FakeAnthropic;
	box: Sandbox;
	open: ClaudeSession;
	/** Epoch ms: the budget's start as the hooks module saved it, plus the budget. */
	deadline: number;
	/** Where the on-stop command notes when it ran. */
	ranAt: string;
}

/**
 * Runs `body` in a fresh sandbox with a kept-open session (Bash allowed) whose `/timebox` is set, with an on-stop
 * command that notes when it ran; then ends the session and removes everything.
 */
async function scenario<T>(body: (world: Scenario) => Promise<T>): Promise<T> {
	const api = await FakeAnthropic.start();
	const box = await createSandbox("function hooks");
	const ranAt = join(box.root, "ran-at.txt");
	const open = new ClaudeSession(["--plugin-dir", PLUGIN_DIR, "--allowedTools", "Bash"], {
		home: box.home,
		cwd: box.cwd,
		apiUrl: api.url,
	});
	try {
		const set = await open.send(`/timebox ${CLAUDE_STOP_BUDGET} -- date +%s%3N >> '${ranAt}'`);
		if (!String(set.line.result ?? "").includes(`Timebox set: ${CLAUDE_STOP_BUDGET}.`)) {
			throw new Error(`/timebox was not answered: ${JSON.stringify(set.line)}`);
		}
		const start = await until(() => {
			const at = savedBudgetStart(box.home);
			return Number.isNaN(at) ? undefined : at;
		}, "the hooks module saved no budget");
		return await body({ api, box, open, deadline: start + BUDGET_MS, ranAt });
	} finally {
		await open.close();
		await api.close();
		await box.cleanup();
	}
}

/** A Bash `sleep 20` asked for before the deadline: when its stopped result came, the turn ended and the command ran. */
function midTool(): Promise<{ toolStopped: number; turnEnded: number; command: number }> {
	return scenario(async ({ api, box, open, deadline, ranAt }) => {
		api.reply({ tools: [{ name: "Bash", input: { command: SLEEP } }] }, { text: "NEVER SENT" });
		const run = await open.send("do the work", 30_000);
		const call = open.lines.find((entry) => blocks(entry).some((block) => block.type === "tool_use"));
		if (call === undefined || call.at >= deadline)
			throw new Error("the Bash call was not asked for before the deadline");
		const stopped = open.lines.find((entry) =>
			blocks(entry).some((block) => block.type === "tool_result" && block.is_error === true),
		);
		if (stopped === undefined || !JSON.stringify(stopped.line).includes("Timebox stopped this tool")) {
			throw new Error(`the Bash call was not stopped by Timebox: ${JSON.stringify(stopped?.line)}`);
		}
		if (api.requests.length !== 1 || api.pending !== 1) throw new Error("a request was sent after the stop");
		const command = await until(() => commandRanAt(ranAt), "the on-stop command did not run");
		// The stop killed the tool: its process is gone (looked at after the timing, so that looking does not slow it).
		await until(
			() => (processesOf(box.home).some((line) => line.includes(SLEEP)) ? undefined : true),
			"the sleep still runs",
		);
		return { toolStopped: stopped.at - deadline, turnEnded: run.at - deadline, command: command - deadline };
	});
}

/** Nothing running when the deadline passes: when the on-stop command ran. */
function idle(): Promise<number> {
	return scenario(async ({ api, deadline, ranAt }) => {
		const ran = await until(() => commandRanAt(ranAt), "the on-stop command did not run while idle");
		if (api.requests.length !== 0) throw new Error("a request was sent while idle");
		return ran - deadline;
	});
}

/** Runs both scenarios in turn, `CLAUDE_STOP_RUNS` times, each in a fresh sandbox with Timebox's plugin loaded. */
export async function measureClaudeStop(): Promise<ClaudeStopResult> {
	await ensureClaudeCode();
	const result: ClaudeStopResult = { toolStoppedMs: [], turnEndedMs: [], midToolCommandMs: [], idleCommandMs: [] };
	for (let run = 0; run < CLAUDE_STOP_RUNS; run++) {
		const stop = await midTool();
		result.toolStoppedMs.push(stop.toolStopped);
		result.turnEndedMs.push(stop.turnEnded);
		result.midToolCommandMs.push(stop.command);
		result.idleCommandMs.push(await idle());
	}
	progress(
		`claude stop latency (function hooks): mid-tool, the tool stopped ${result.toolStoppedMs.join(" ")} ms, the turn ended ${result.turnEndedMs.join(" ")} ms, the command ran ${result.midToolCommandMs.join(" ")} ms; idle, the command ran ${result.idleCommandMs.join(" ")} ms`,
	);
	return result;
}
