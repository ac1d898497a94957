// A team's daily budget in real opencode (`opencode run`, against a loopback fake chat API): three machines, each its
// own HOME and XDG folders, with the plugin options `daily`, `dailyStore` and `team`, share `turns:2` through one real
// Redis and send three prompts at once: exactly two are answered. With the store down, a prompt ends in time and a
// Timebox line names the store.

import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeChat } from "../../../demo/fakes/chat.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "../opencode/support.ts";
import { RedisServer } from "../support/redis.ts";

const SPENT = "[timebox] error: Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.";
let api: FakeChat;
let redis: RedisServer;
let root: string;

beforeAll(async () => {
	await ensureOpencode();
	api = await FakeChat.start();
	redis = await RedisServer.start();
	root = await mkdtemp(join(tmpdir(), "timebox-team-opencode-"));
}, 600_000);

afterAll(async () => {
	await api?.close();
	await redis?.dispose();
	await rm(root, { recursive: true, force: true });
});

/** A machine of its own, with the team set in the plugin's options. */
function machine(name: string, store = redis.url()): string {
	mkdirSync(join(root, name, "work"), { recursive: true });
	writeOpencodeHome(join(root, name, "home"), api.url, { daily: "turns:2", dailyStore: store, team: "platform" });
	return name;
}

async function run(name: string, prompt: string | string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	const result = await runProcess(OPENCODE, ["run", ...(typeof prompt === "string" ? [prompt] : prompt)], {
		cwd: join(root, name, "work"),
		env: opencodeEnv(join(root, name, "home"), { TMPDIR: join(root, name, "home"), ...env }),
		timeoutMs: 180_000,
	});
	return {
		...result,
		stdout: stripVTControlCharacters(result.stdout),
		stderr: stripVTControlCharacters(result.stderr),
	};
}

describe("a team's daily budget in opencode", () => {
	it("answers exactly 2 of 3 prompts sent at once from three machines", async () => {
		const machines = ["p1", "p2", "p3"].map((name) => machine(name));
		api.reply({ text: "ANSWERED" }, { text: "ANSWERED" }, { text: "ANSWERED" });
		const runs = await Promise.all(machines.map((name, index) => run(name, `task ${index}`)));
		expect(runs.filter((done) => done.stderr.includes("cannot be reached"))).toEqual([]);
		expect(runs.filter((done) => done.stdout.includes("ANSWERED"))).toHaveLength(2);
		expect(runs.filter((done) => done.stderr.includes(SPENT))).toHaveLength(1);
		expect(redis.cli(["HGET", `timebox:{platform}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("2");
	});

	it("ends a prompt in time with the store down, and a Timebox line names the store", async () => {
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		const name = machine("p4", `redis://bot:hunter2@127.0.0.1:${port}`);
		// The first test left one reply unused.
		const done = await run(name, "are you there");
		expect(done.ms).toBeLessThan(20_000);
		expect(done.stdout).toContain("ANSWERED");
		expect(done.stderr).toContain(
			`[timebox] warning: Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached`,
		);
		expect(`${done.stdout}${done.stderr}`).not.toContain("hunter2");
	});

	it("refuses a prompt at once with the store down in the closed mode: opencode does not retry it for a minute", async () => {
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		const name = machine("p6", `redis://bot:hunter2@127.0.0.1:${port}`);
		const requests = api.requests.length;
		const done = await run(name, "are you there", { TIMEBOX_DAILY_STORE_FAILURE: "closed" });
		const refusal = `[timebox] error: Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached (connect ECONNREFUSED 127.0.0.1:${port}), so new turns are refused until it answers.`;
		expect(done.stderr).toContain(refusal);
		expect(api.requests.length).toBe(requests);
		// opencode retried this refusal for about 70 s, its words (ECONNREFUSED) taken for a provider's trouble.
		expect(done.ms).toBeLessThan(20_000);
	});

	it("names a team name with a space in one line, where /timebox team is what the user asked", async () => {
		mkdirSync(join(root, "p5", "work"), { recursive: true });
		writeOpencodeHome(join(root, "p5", "home"), api.url);
		const env = { TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: "my team" };
		const done = await run("p5", ["--command", "timebox", "team"], env);
		const line = `[timebox] warning: Timebox: TIMEBOX_TEAM "my team" is not a team name (letters, digits, ".", "_", "-"). The daily budget is this machine's alone.`;
		expect(done.stderr.split("\n").filter((said) => said.startsWith("[timebox]"))).toEqual([line]);
		expect(redis.cli(["KEYS", "timebox:{my team}*"])).toBe("");
	});
});
