// A team's daily budget in real oh-my-pi (omp -p, against a loopback fake provider): three machines, each its own HOME,
// TMPDIR and XDG_STATE_HOME, with `daily: "turns:2"` in the project's settings, share the day through one real Redis and send
// three prompts at once: exactly two are answered. With the store down, a prompt ends in time and a Timebox line names
// the store.

import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeResponses } from "../../../demo/fakes/responses.ts";
import { ensureOmp, OMP_BIN_DIR, writeFakeProvider } from "../../../demo/hosts/omp.ts";
import { REPO } from "../../../demo/repo.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { RedisServer } from "../support/redis.ts";

const SPENT = "[timebox] error: Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.";
let omp: string;
let api: FakeResponses;
let redis: RedisServer;
let root: string;

beforeAll(async () => {
	omp = await ensureOmp();
	api = await FakeResponses.start();
	redis = await RedisServer.start();
	root = await mkdtemp(join(tmpdir(), "timebox-team-omp-"));
	writeFakeProvider(root, api.url);
}, 900_000);

afterAll(async () => {
	await api?.close();
	await redis?.dispose();
	await rm(root, { recursive: true, force: true });
});

/**
 * A machine of its own, with `daily: "turns:2"` in the project's `.pi/settings.json`.
 */
function machine(name: string): string {
	for (const folder of ["home", "work/.pi", "tmp", "state"]) mkdirSync(join(root, name, folder), { recursive: true });
	writeFileSync(join(root, name, "work/.pi/settings.json"), JSON.stringify({ timebox: { daily: "turns:2" } }));
	return name;
}

function ompPrint(name: string, prompt: string, store = redis.url()): Promise<RunResult> {
	const args = ["-e", REPO, "-e", join(root, "fake-provider.ts"), "--model", "fake/fake-model", "-p", prompt];
	const env = {
		PATH: `${OMP_BIN_DIR}:${process.env.PATH}`,
		HOME: join(root, name, "home"),
		TMPDIR: join(root, name, "tmp"),
		XDG_STATE_HOME: join(root, name, "state"),
		TIMEBOX_DAILY_STORE: store,
		TIMEBOX_TEAM: "platform",
	};
	return runProcess(omp, args, { cwd: join(root, name, "work"), env, timeoutMs: 180_000 });
}

describe("a team's daily budget in oh-my-pi", () => {
	it("answers exactly 2 of 3 prompts sent at once from three machines", async () => {
		const machines = ["o1", "o2", "o3"].map(machine);
		api.reply({ text: "ANSWERED" }, { text: "ANSWERED" }, { text: "ANSWERED" });
		const runs = await Promise.all(machines.map((name, index) => ompPrint(name, `task ${index}`)));
		expect(runs.filter((run) => run.stderr.includes("cannot be reached"))).toEqual([]);
		expect(runs.filter((run) => run.stderr.includes(SPENT))).toHaveLength(1);
		expect(api.requests).toHaveLength(2);
		expect(redis.cli(["HGET", `timebox:{platform}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("2");
	});

	it("ends a prompt in time with the store down, and a Timebox line names the store", async () => {
		const name = machine("o4");
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		// The first test left one reply unused.
		const run = await ompPrint(name, "are you there", `redis://bot:hunter2@127.0.0.1:${port}`);
		expect(run.ms).toBeLessThan(20_000);
		expect(run.stderr).toContain(
			`[timebox] warning: Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached`,
		);
		expect(`${run.stdout}${run.stderr}`).not.toContain("hunter2");
	});
});
