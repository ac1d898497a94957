// A team's daily budget in the real Claude Code on function hooks (the plugin's hooks module, which reaches the team's
// store through the plugin's batch script, against a loopback fake of the Messages API): three machines, each its own
// HOME, TMPDIR and XDG_STATE_HOME, share `turns:2` through one real Redis and send three prompts at once: exactly two
// are answered and the third is refused with the team's text; after a kill -9 of Redis and a restart on its data, a
// fourth machine's prompt is refused and its /timebox today shows 2 of 2. With the store down, a prompt ends in time, a Timebox
// line names the store without its password, and the prompt is counted on the machine's own daily ledger.

import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeSandbox } from "../../support/sandbox.ts";
import { ensureClaudeCode, FakeAnthropic, PLUGIN_DIR, type RunResult, runClaude } from "../claude/support/claude.ts";
import { RedisServer } from "../support/redis.ts";

const SPENT = "Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.";
let api: FakeAnthropic;
let redis: RedisServer;
let root: string;

beforeAll(async () => {
	await ensureClaudeCode();
	api = await FakeAnthropic.start();
	redis = await RedisServer.start();
	root = await mkdtemp(join(tmpdir(), "timebox-team-claude-"));
}, 600_000);

afterAll(async () => {
	await api?.close();
	await redis?.dispose();
	await removeSandbox(root);
});

/** A machine of its own: its HOME, working folder, TMPDIR and XDG_STATE_HOME. */
function machine(name: string): string {
	for (const folder of ["home", "work", "tmp", "state"]) mkdirSync(join(root, name, folder), { recursive: true });
	return name;
}

/** `claude -p` on a machine, with the plugin, the team's daily budget and `args` before the prompt. */
function claude(name: string, prompt: string, store = redis.url(), args: string[] = []): Promise<RunResult> {
	return runClaude(["-p", ...args, "--plugin-dir", PLUGIN_DIR, prompt], {
		home: join(root, name, "home"),
		cwd: join(root, name, "work"),
		apiUrl: api.url,
		timeoutMs: 180_000,
		env: {
			TMPDIR: join(root, name, "tmp"),
			XDG_STATE_HOME: join(root, name, "state"),
			TIMEBOX_DAILY: "turns:2",
			TIMEBOX_DAILY_STORE: store,
			TIMEBOX_TEAM: "platform",
		},
	});
}

/** The `$.ui.log` lines of a `--output-format stream-json` run. */
function loggedLines(run: RunResult): string[] {
	return run.stdout
		.split("\n")
		.filter((line) => line.startsWith("{"))
		.map((line) => JSON.parse(line) as Record<string, unknown>)
		.filter((line) => line.type === "system" && line.subtype === "ui_log")
		.map((line) => String(line.text ?? ""));
}

describe("a team's daily budget in Claude Code on function hooks", () => {
	it("answers exactly 2 of 3 prompts sent at once from three machines, the third refused with the team's text, and keeps the day across a kill -9 of Redis", async () => {
		const machines = ["c1", "c2", "c3"].map(machine);
		const status = await claude("c1", "/timebox status");
		expect(status.stdout.trim()).toMatch(/Timebox runs on Claude Code's function hooks\.$/);
		api.reply({ text: "ANSWERED" }, { text: "ANSWERED" }, { text: "ANSWERED" });
		const runs = await Promise.all(machines.map((name, index) => claude(name, `task ${index}`)));
		expect(runs.filter((run) => run.stdout.includes("ANSWERED"))).toHaveLength(2);
		const refused = runs.filter((run) => `${run.stdout}${run.stderr}`.includes(SPENT));
		expect(refused).toHaveLength(1);
		expect(api.requests).toHaveLength(2);
		const day = new Date().toISOString().slice(0, 10);
		expect(redis.cli(["HGET", `timebox:{platform}:${day}:use`, "prompts"])).toBe("2");
		const who = redis.cli(["HGETALL", `timebox:{platform}:${day}:who`]);
		expect(who).toContain("(claude)");
		// Nothing was counted on a machine's own daily ledger: the team's store counted every prompt.
		for (const name of machines) expect(existsSync(join(root, name, "state", "timebox", "daily"))).toBe(false);

		// A kill -9 of Redis and a restart on its data: a fourth machine's prompt is refused, its day shows 2 of 2.
		await redis.restart();
		const fourth = machine("c5");
		const late = await claude(fourth, "one more");
		expect(late.stdout).toContain(SPENT);
		expect(api.requests).toHaveLength(2);
		const today = await claude(fourth, "/timebox today");
		expect(today.stdout).toMatch(
			/The team platform \(TIMEBOX_DAILY\): 2 of 2 turns used, 0 left\. Used by 2 sessions\. By .+@.+ \(claude\) 2 sessions\. It resets at midnight UTC\./,
		);
	}, 600_000);

	it("ends a prompt in time with the store down, names the store without its password, and counts it on the machine", async () => {
		const name = machine("c4");
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		// The first test left one reply unused.
		const run = await claude(name, "are you there", `redis://bot:hunter2@127.0.0.1:${port}`, [
			"--output-format",
			"stream-json",
			"--verbose",
		]);
		expect(run.ms).toBeLessThan(20_000);
		expect(run.stdout).toContain("ANSWERED");
		expect(loggedLines(run).join("\n")).toContain(
			`Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached`,
		);
		expect(`${run.stdout}${run.stderr}`).not.toContain("hunter2");
		const days = join(root, name, "state", "timebox", "daily", "user");
		expect(readdirSync(days).flatMap((folder) => readdirSync(join(days, folder)))).toContain("prompt-1");
	});
});
