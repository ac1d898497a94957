// Timebox's pi package inside oh-my-pi (`omp`, the pi fork that runs on Bun), loaded with `omp -e <checkout>`, against a
// loopback fake of the OpenAI Responses API, in a throwaway HOME: the budget line, the prompt limit, the warning in the
// request, the cap on each request's answer under a tokens: budget, the time stop of a tool loop with its on-stop
// command, a bad budget line, a turn budget used up and continued in a new process (restored; the next turn stops it
// once), and the loop guard.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BYTES_PER_TOKEN } from "../../../demo/fakes/as-allowed.ts";
import { FakeResponses } from "../../../demo/fakes/responses.ts";
import { ensureOmp, OMP_BIN_DIR, writeFakeProvider } from "../../../demo/hosts/omp.ts";
import { REPO } from "../../../demo/repo.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";

let omp: string;
let api: FakeResponses;
let root: string;

beforeAll(async () => {
	omp = await ensureOmp();
}, 900_000);

beforeEach(async () => {
	api = await FakeResponses.start();
	root = await mkdtemp(join(tmpdir(), "timebox-omp-"));
	mkdirSync(join(root, "home"));
	mkdirSync(join(root, "work"));
	writeFakeProvider(root, api.url);
});

afterEach(async () => {
	await api.close();
	await rm(root, { recursive: true, force: true });
});

/** `omp -p` with Timebox and the fake provider loaded, in the throwaway HOME, one process for all `prompts`. */
function ompPrint(prompts: string[], more: string[] = []): Promise<RunResult> {
	const args = [
		"-e",
		REPO,
		"-e",
		join(root, "fake-provider.ts"),
		"--model",
		"fake/fake-model",
		...more,
		"-p",
		...prompts,
	];
	const env = { PATH: `${OMP_BIN_DIR}:${process.env.PATH}`, HOME: join(root, "home") };
	return runProcess(omp, args, { cwd: join(root, "work"), env, timeoutMs: 120_000 });
}

describe("Timebox in oh-my-pi (omp -p)", () => {
	it("answers the budget line without a model request, and names a bad word without changing anything", async () => {
		const set = await ompPrint(["/timebox 15m turns:2"]);
		expect(set.stderr).toContain("[timebox] info: Timebox set: 15m and 2 turns.");
		const bad = await ompPrint(["/timebox 15x"]);
		expect(bad.stderr).toContain('[timebox] warning: Timebox: "15x" is not a budget word');
		expect(api.requests).toEqual([]);
	});

	it("reads the timebox key of the user's settings file, which omp moves into its config.yml at its start", async () => {
		const agent = join(root, "home", ".omp", "agent");
		mkdirSync(agent, { recursive: true });
		writeFileSync(join(agent, "settings.json"), JSON.stringify({ timebox: { default: "turns:1" } }));
		api.reply({ text: "ONE" }, { text: "TWO" });
		const run = await ompPrint(["first", "second"]);
		expect(existsSync(join(agent, "settings.json"))).toBe(false);
		expect(run.stderr).toContain(
			`[timebox] info: Timebox set from timebox.default in ${join(agent, "config.yml")}: 1 turn.`,
		);
		expect(run.stderr).toMatch(/\[timebox\] error: Timebox budget spent\. Used 1 turn, \d+s\./);
		expect(api.requests).toHaveLength(1);
	});

	it("answers prompts 1 and 2 of turns:2 and stops the 3rd before a request, and warns the last prompt's request", async () => {
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		const run = await ompPrint(["/timebox turns:2", "first", "second", "third"]);
		expect(api.requests).toHaveLength(2);
		expect(run.stderr).toMatch(/\[timebox\] error: Timebox budget spent\. Used 2 turns, \d+s\./);
		const warned = await ompPrint(["/timebox turns:5", "p1", "p2", "p3", "p4", "p5"]);
		expect(warned.stderr).toContain("[timebox] warning: Timebox: 1 prompt left of 5 — the model is asked to wrap up.");
		const bodies = api.requests.slice(2);
		expect(bodies.map((body) => body.includes("IMPORTANT TIMEBOX WARNING"))).toEqual([
			false,
			false,
			false,
			false,
			true,
		]);
	});

	it("caps each request's max_output_tokens at what is left of tokens:280k, and never sends the call that cannot fit", async () => {
		api.answerAsAllowed();
		api.respond = () => ({ bash: "echo step" });
		const run = await ompPrint(["/timebox tokens:280k", "loop until told otherwise"]);
		const limits = api.requests.map((body) => (JSON.parse(body) as { max_output_tokens?: number }).max_output_tokens);
		// omp names no limit of its own: Timebox sets one, no higher than the model's 32,000.
		expect(limits[0]).toBe(32_000);
		expect(limits.length).toBeGreaterThan(1);
		expect(limits.at(-1)).toBeLessThan(32_000);
		const used = api.requests.reduce(
			(sum, body, at) => sum + Math.ceil(Buffer.byteLength(body, "utf8") / BYTES_PER_TOKEN) + (limits[at] ?? 0),
			0,
		);
		expect(used).toBeLessThanOrEqual(280_000);
		expect(run.stderr).toContain(
			`, ${used.toLocaleString("en-US")} of 280,000 tokens (too little left for the next model call). The agent stops`,
		);
	});

	it("stops a tool loop when the time runs out, and runs the on-stop command once", async () => {
		const stopFile = join(root, "stopped.txt");
		api.reply(...Array.from({ length: 20 }, () => ({ bash: "sleep 1" })));
		const run = await ompPrint([`/timebox 3s -- echo stopped >> '${stopFile}'`, "loop until told otherwise"]);
		// Timed from the loop's first model request, not from the process's start: omp's start-up, slow on a busy
		// machine, is no part of the loop. The budget starts once omp is up, with the line before the loop's prompt.
		const elapsed = Date.now() - (api.receivedAt[0] ?? Number.NaN);
		expect(run.stderr).toMatch(/\[timebox\] error: Timebox budget spent\. Used 0 turns, [34]s\./);
		expect(api.requests.length).toBeLessThan(8);
		expect(elapsed).toBeLessThan(15_000);
		await new Promise((done) => setTimeout(done, 300));
		expect(readFileSync(stopFile, "utf8")).toBe("stopped\n");
	});
	it("refuses the 3rd identical call of loop:3, stops the run at the 4th with no further request, counts A B A B, and starts afresh", async () => {
		const stopFile = join(root, "stopped.txt");
		const alternating = ["echo a", "echo b", "echo a", "echo b", "echo a", "echo b", "echo a"];
		api.reply(
			...Array.from({ length: 4 }, () => ({ bash: "echo same" })),
			...alternating.map((bash) => ({ bash })),
			{ bash: "echo same" },
			{ bash: "echo same" },
			{ text: "done" },
		);
		const run = await ompPrint([
			`/timebox loop:3 -- touch '${stopFile}'`,
			"run it until it passes",
			"alternate",
			"once more",
		]);
		const warnings = run.stderr.split("\n").filter((line) => line.startsWith("[timebox] warning: "));
		expect(warnings.map((line) => line.slice("[timebox] warning: ".length))).toEqual([
			"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
			"Timebox stopped a loop: bash (echo same) asked for 4 times in this run.",
			"Timebox refused a repeated call: bash (echo a), the 3rd identical one in this run.",
			"Timebox refused a repeated call: bash (echo b), the 3rd identical one in this run.",
			"Timebox stopped a loop: bash (echo a) asked for 4 times in this run.",
		]);
		// Four requests, then seven, then three: a stopped run makes no request after the ask that stopped it.
		expect(api.requests).toHaveLength(14);
		const refused = (view: string) =>
			`this is the 3rd identical bash call in this run (${view}); its result will not change`;
		const firstRead = (text: string) => api.requests.findIndex((body) => body.includes(text));
		expect(firstRead(refused("echo same"))).toBe(3);
		expect(firstRead(refused("echo a"))).toBe(9);
		expect(firstRead(refused("echo b"))).toBe(10);
		expect(firstRead("Timebox stopped a loop")).toBe(-1);
		await new Promise((done) => setTimeout(done, 300));
		expect(existsSync(stopFile)).toBe(false);
	});

	it("restores a turns:2 budget with both turns used in a new process (--continue), stops the 3rd turn once, answers the 4th", async () => {
		const fired = join(root, "f");
		const lines = () => (existsSync(fired) ? readFileSync(fired, "utf8").split("\n").filter(Boolean) : []);
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "FOUR" });
		const first = await ompPrint([`/timebox turns:2 -- echo fired >> '${fired}'`, "turn one"]);
		expect(first.stdout).toContain("ONE");
		const second = await ompPrint(["turn two"], ["--continue"]);
		expect(second.stderr).toContain("[timebox] info: Timebox restored: no time limit | 1 turn left (1/2).");
		expect(second.stdout).toContain("TWO");
		const third = await ompPrint(["turn three"], ["--continue"]);
		expect(third.stderr).toContain("[timebox] info: Timebox restored: no time limit | 0 turns left (2/2).");
		expect(third.stderr).toMatch(/\[timebox\] error: Timebox budget spent\. Used 2 turns, \d+s\./);
		expect(third.stderr).not.toContain("already spent");
		expect(api.requests).toHaveLength(2);
		await expect.poll(lines).toEqual(["fired"]);
		const fourth = await ompPrint(["turn four"], ["--continue"]);
		expect(fourth.stdout).toContain("FOUR");
		expect(api.requests).toHaveLength(3);
		await new Promise((done) => setTimeout(done, 300));
		expect(lines()).toEqual(["fired"]);
	});
});
