// A team's daily budget in the real Gemini CLI (the extension from this repository, against a loopback fake of the
// Gemini API): three machines, each its own HOME, share `turns:2` through one real Redis and send three prompts at once:
// exactly two are answered. With the store down, a prompt ends in time and a Timebox line names the store.

import { mkdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { removeSandbox } from "../../support/sandbox.ts";
import { EXTENSION, ensureGemini, FakeGemini, GEMINI, writeGeminiSettings } from "../gemini/support.ts";
import { RedisServer } from "../support/redis.ts";

let api: FakeGemini;
let redis: RedisServer;
let root: string;

beforeAll(async () => {
	await ensureGemini();
	api = await FakeGemini.start();
	redis = await RedisServer.start();
	root = await mkdtemp(join(tmpdir(), "timebox-team-gemini-"));
}, 600_000);

afterAll(async () => {
	await api?.close();
	await redis?.dispose();
	await removeSandbox(root);
});

function gemini(machine: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(GEMINI, args, {
		cwd: join(root, machine, "work"),
		env: {
			PATH: process.env.PATH,
			HOME: join(root, machine, "home"),
			TMPDIR: join(root, machine, "tmp"),
			XDG_STATE_HOME: join(root, machine, "state"),
			GEMINI_API_KEY: "fake-key",
			GOOGLE_GEMINI_BASE_URL: api.url,
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			GEMINI_CLI_NO_RELAUNCH: "true",
			...env,
		},
		timeoutMs: 180_000,
	});
}

/** A machine of its own with the extension installed. */
async function machine(name: string): Promise<string> {
	for (const folder of ["work", "tmp", "state"]) mkdirSync(join(root, name, folder), { recursive: true });
	writeGeminiSettings(join(root, name, "home"));
	const installed = await gemini(name, ["extensions", "install", EXTENSION, "--consent"]);
	if (installed.code !== 0) throw new Error(`gemini extensions install failed: ${installed.stderr}`);
	return name;
}

function prompt(name: string, text: string, store = redis.url()): Promise<RunResult> {
	return gemini(name, ["-p", text], { TIMEBOX_DAILY: "turns:2", TIMEBOX_DAILY_STORE: store, TIMEBOX_TEAM: "platform" });
}

describe("a team's daily budget in Gemini CLI", () => {
	it("answers exactly 2 of 3 prompts sent at once from three machines", async () => {
		const machines = await Promise.all(["g1", "g2", "g3"].map(machine));
		api.reply({ text: "ANSWERED" }, { text: "ANSWERED" }, { text: "ANSWERED" });
		const runs = await Promise.all(machines.map((name, index) => prompt(name, `task ${index}`)));
		expect(runs.filter((run) => run.stdout.includes("ANSWERED"))).toHaveLength(2);
		const refused = runs.filter((run) =>
			run.stderr.includes("Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC."),
		);
		expect(refused).toHaveLength(1);
		expect(api.requests).toHaveLength(2);
		expect(redis.cli(["HGET", `timebox:{platform}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("2");
	});

	it("lists the team's limits and a member's request on /timebox report page", async () => {
		const name = await machine("g6");
		const team = { TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: "paging" };
		await gemini(name, ["-p", "/timebox team set turns:12"], team);
		await gemini(name, ["-p", "/timebox team ask +turns:3 one more review"], team);
		const run = await gemini(name, ["-p", "/timebox report page"], team);
		const link = /Timebox report page: file:\/\/(\S+)/.exec(`${run.stdout}${run.stderr}`);
		expect(link, `${run.stdout}${run.stderr}`).not.toBeNull();
		const page = readFileSync(decodeURIComponent(link?.[1] ?? ""), "utf8");
		expect(page).toContain("The team paging");
		expect(page).toContain("one more review");
	});

	it("ends a prompt in time with the store down, and a Timebox line names the store", async () => {
		const name = await machine("g4");
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		// The first test left one reply unused.
		const run = await prompt(name, "are you there", `redis://bot:hunter2@127.0.0.1:${port}`);
		expect(run.ms).toBeLessThan(20_000);
		expect(run.stdout).toContain("ANSWERED");
		// Once in the session, though each of its hooks is a process of its own that finds the store down.
		const named = `${run.stdout}${run.stderr}`.split(
			`Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached`,
		);
		expect(named).toHaveLength(2);
		expect(`${run.stdout}${run.stderr}`).not.toContain("hunter2");
	});

	it("sends what a prompt used while the store was down once the store is back, though its hooks had ended", async () => {
		const name = await machine("g5");
		const store = await RedisServer.start();
		await store.kill9();
		api.reply({ text: "ANSWERED WHILE DOWN" }, { text: "ANSWERED ONCE BACK" });
		const down = await prompt(name, "while the store is down", store.url());
		expect(down.stdout).toContain("ANSWERED WHILE DOWN");
		await store.restart();
		try {
			const back = await prompt(name, "once it is back", store.url());
			expect(back.stdout).toContain("ANSWERED ONCE BACK");
			// Both prompts are the team's: the first sent from this machine's outbox by a later hook of the session.
			const day = `timebox:{platform}:${new Date().toISOString().slice(0, 10)}:use`;
			expect(store.cli(["HGET", day, "prompts"])).toBe("2");
			expect(Number(store.cli(["HGET", day, "agentMs"]))).toBeGreaterThan(0);
		} finally {
			await store.dispose();
		}
	});
});
