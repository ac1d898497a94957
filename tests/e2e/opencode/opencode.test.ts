// Timebox in the real opencode, loaded from this checkout through the `plugin` list of a throwaway HOME, against a
// loopback fake of the chat completions API: the budget line answered without a request (in `opencode run` and in the
// TUI), the prompt limit across `opencode run -c`, the warning in the request, the hard stop of a running tool at the
// deadline with the on-stop command once, the idle expiry in the TUI (in a session reopened there too), a bad budget
// line, and the loop guard.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BYTES_PER_TOKEN } from "../../../demo/fakes/as-allowed.ts";
import { type ChatReply, type ChatRequest, FakeChat } from "../../../demo/fakes/chat.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, preinstallPluginPackage, REPO, writeOpencodeHome } from "./support.ts";

let api: FakeChat;
let root: string;
let home: string;

beforeAll(async () => {
	await ensureOpencode();
}, 600_000);

beforeEach(async () => {
	api = await FakeChat.start();
	root = await mkdtemp(join(tmpdir(), "timebox-opencode-"));
	home = join(root, "home");
	mkdirSync(join(root, "work"));
	writeOpencodeHome(home, api.url);
});

afterEach(async () => {
	await api.close();
	await rm(root, { recursive: true, force: true });
});

/** `opencode run` with the words given (`-c` continues the last session), stdin closed. */
async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	const result = await runProcess(OPENCODE, ["run", ...args], {
		cwd: join(root, "work"),
		env: opencodeEnv(home, env),
		timeoutMs: 120_000,
	});
	// opencode colours its own lines even into a pipe: what a user reads is the text.
	return {
		...result,
		stdout: stripVTControlCharacters(result.stdout),
		stderr: stripVTControlCharacters(result.stderr),
	};
}

/** The lines of Timebox's log of every session. */
function sessionLog(): Array<Record<string, unknown>> {
	const folder = join(home, ".local", "state", "timebox", "opencode", "sessions");
	const files = existsSync(folder) ? readdirSync(folder) : [];
	return files.flatMap((file) =>
		readFileSync(join(folder, file), "utf8")
			.split("\n")
			.filter((line) => line.length > 0)
			.map((line) => JSON.parse(line) as Record<string, unknown>),
	);
}

/** When the budget of the session that has one started (ms), from its log. */
function budgetStart(): number {
	const budget = sessionLog().find((line) => line.kind === "active")?.budget as { startTime: number } | undefined;
	if (budget === undefined) throw new Error("no session has a budget");
	return budget.startTime;
}

/**
 * A budget set with the session ends a time after opencode's start-up, which takes longer on a busy machine. This runs
 * one prompt in the test's home with no budget (opencode's first run in a home is its slowest, so the test's own run is
 * warm), and measures how long opencode took from the prompt reaching Timebox, where a default budget starts, to its
 * model request; the warm-up's requests are forgotten.
 */
async function warmUp(): Promise<number> {
	api.reply({ text: "WARM" });
	await run(["warm up"]);
	const prompt = sessionLog().find((line) => line.kind === "prompt")?.at as number;
	const startUp = (api.main[0]?.at ?? Number.NaN) - prompt;
	api.forget();
	return startUp;
}

/** A time budget of whole seconds, at least `least`, that outlasts three start-ups as long as the one measured and 1 s. */
function budgetAfter(startUp: number, least: number): number {
	return Math.max(least, Math.ceil((3 * startUp + 1_000) / 1_000));
}

/** A script that appends the time it ran (ms) to `file`: an on-stop command of one word, as opencode run passes it. */
function stopScript(file: string): string {
	const script = join(root, "on-stop.sh");
	writeFileSync(script, `#!/bin/sh\ndate +%s%3N >> '${file}'\n`, { mode: 0o755 });
	return script;
}

describe("Timebox in opencode run", () => {
	it("answers `--command timebox` without a model request, and keeps the line out of later requests", async () => {
		const set = await run(["--command", "timebox", "15m", "turns:3"]);
		expect(set.stderr).toContain("[timebox] info: Timebox set: 15m and 3 turns.");
		expect(set.stderr).toContain("Timebox answered /timebox itself (see above), so nothing was sent to the model");
		expect(set.stderr).not.toContain("Unexpected server error");
		expect(api.requests).toEqual([]);
		expect(sessionLog()).toContainEqual(
			expect.objectContaining({
				kind: "active",
				budget: expect.objectContaining({ timeLimitMs: 900_000, turnLimit: 3 }),
			}),
		);
		api.reply({ text: "ANSWER" });
		const next = await run(["-c", "next"]);
		expect(next.stdout).toContain("ANSWER");
		expect(next.stderr).toMatch(
			/\[timebox\] info: Timebox restored: 14m \d+s left \(15m budget\) \| 3 turns left \(0\/3\)/,
		);
		expect(api.main.map((request) => request.text.includes("[timebox command]"))).toEqual([false]);
		const status = await run(["-c", "--command", "timebox", "status"]);
		expect(status.stderr).toMatch(/\[timebox\] info: Timebox: 1[45]m \d+s left .*2 turns left \(1\/3\)/);
		expect(api.main).toHaveLength(1);
	});

	it("refuses a bad budget line, naming the bad word, and changes nothing", async () => {
		const bad = await run(["--command", "timebox", "15x"]);
		expect(bad.stderr).toContain('[timebox] warning: Timebox: "15x" is not a budget word');
		expect(bad.stderr).toContain("Nothing changed.");
		expect(sessionLog().filter((line) => line.kind === "active")).toEqual([]);
		expect(api.requests).toEqual([]);
	});

	it("speaks opencode's words: its usage, its own daily setting, and a report that keeps tokens and cost", async () => {
		const bad = await run(["--command", "timebox", "15x"]);
		expect(bad.stderr).toContain("Usage: /timebox <budget> [-- <command>] | status | off");
		expect(bad.stderr).toContain("e.g. /timebox 15m turns:3");
		const today = await run(["--command", "timebox", "today"]);
		expect(today.stderr).toContain(
			'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment opencode starts in, or the plugin option "daily".',
		);
		await run(["--command", "timebox", "10m"]);
		const report = await run(["-c", "--command", "timebox", "report"]);
		console.log(`opencode run, report: ${JSON.stringify(report.stderr)}`);
		// opencode measures both: its zeros are measured ones.
		expect(report.stderr).toMatch(/1\. 10m, set \d+s ago: used \d+s, 0 turns, 0 tokens, \$0\.00\. Still active\./);
		expect(report.stderr).not.toContain("not tracked");
		expect(api.requests).toEqual([]);
	});

	it("answers prompts 1 and 2 of TIMEBOX_DEFAULT=turns:2 across `run -c`, refuses the 3rd with no request, and extends from the stop", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		const first = await run(["first"], env);
		expect(first.stdout).toContain("ONE");
		expect(first.stderr).toContain("[timebox] info: Timebox set from TIMEBOX_DEFAULT: 2 turns.");
		const second = await run(["-c", "second"], env);
		expect(second.stdout).toContain("TWO");
		expect(second.stderr).toContain("Timebox restored: no time limit | 1 turn left (1/2).");
		const requests = api.requests.length;
		const third = await run(["-c", "third"], env);
		expect(third.stdout).not.toContain("THREE");
		expect(third.stderr).toContain("Error: Timebox budget spent. Used 2 turns");
		expect(third.code).toBe(1);
		expect(api.requests).toHaveLength(requests);
		// The refused prompt never reached the model: the log keeps the two that ran, as on every host.
		expect(sessionLog().filter((line) => line.kind === "prompt")).toHaveLength(2);
		// The chat goes on without a budget; an extension then counts from the stop, not from that prompt too.
		api.reply({ text: "FIVE" });
		// Answered with the reply the refused third never took.
		expect((await run(["-c", "fourth"], env)).stdout).toContain("THREE");
		const extended = await run(["-c", "--command", "timebox", "+turns:1"], env);
		expect(extended.stderr).toContain("Timebox extended by 1 turn. Timebox: no time limit | 1 turn left (2/3)");
		expect((await run(["-c", "fifth"], env)).stdout).toContain("FIVE");
	});

	it("puts the warning into the request of the last prompt of turns:5, and not into the first ones", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:5 aware" };
		await run(["p1"], env);
		for (const prompt of ["p2", "p3", "p4", "p5"]) await run(["-c", prompt], env);
		const warned = api.main.map((request) => request.text.includes("IMPORTANT TIMEBOX WARNING"));
		expect(warned).toEqual([false, false, false, false, true]);
		// `aware` tells every call what is left; opencode's title request, made from the first prompt, hears nothing.
		expect(api.main[0]?.text).toContain("Timebox: 5 prompts left of 5 prompts.");
		const titles = api.requests.filter((request) => request.title);
		expect(titles).toHaveLength(1);
		expect(titles[0]?.text).not.toContain("Timebox");
	});

	it("stops a running tool within 0.5 s of the deadline, sends nothing more, and runs the on-stop command once", async () => {
		const stopFile = join(root, "stopped.txt");
		// The budget starts with the session, before opencode's first model request: it outlasts the start-up measured.
		const startUp = await warmUp();
		const seconds = budgetAfter(startUp, 4);
		let left = Number.NaN;
		const sleep = (request: ChatRequest): ChatReply => {
			left = budgetStart() + seconds * 1_000 - request.at;
			return { bash: "sleep 60; echo slept" };
		};
		api.reply(sleep, { text: "NEVER" });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: `${seconds}s -- ${stopScript(stopFile)}` });
		const ended = Date.now();
		const deadline = budgetStart() + seconds * 1_000;
		expect(loop.stdout).not.toContain("slept");
		expect(loop.stdout).not.toContain("NEVER");
		expect(loop.stderr).toContain(`[timebox] error: Timebox budget spent. Used 0 turns, ${seconds}s.`);
		expect(api.main).toHaveLength(1);
		await new Promise((done) => setTimeout(done, 1_500));
		const ran = readFileSync(stopFile, "utf8").trim().split("\n").map(Number);
		const late = (ran[0] ?? Number.NaN) - deadline;
		console.log(
			`opencode time stop: start-up ${startUp} ms, budget ${seconds}s, the tool asked for ${left} ms before the deadline; on-stop ran ${late} ms after the deadline; run ended after ${ended - deadline} ms`,
		);
		expect(ran).toHaveLength(1);
		expect(late).toBeGreaterThanOrEqual(0);
		expect(late).toBeLessThanOrEqual(500);
	});

	it("caps a prompt at steps:2: the 3rd call is the wrap-up, a tool asked for then is refused, and the run ends", async () => {
		const ran = join(root, "ran.txt");
		api.reply({ bash: `echo 1 >> '${ran}'` }, { bash: `echo 2 >> '${ran}'` }, { bash: `echo 3 >> '${ran}'` });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: "steps:2" });
		expect(loop.stderr).toContain(
			"[timebox] warning: Timebox: this prompt used its 2 steps; the model was asked to finish.",
		);
		expect(readFileSync(ran, "utf8")).toBe("1\n2\n");
		expect(api.main.map((request) => request.text.includes("TIMEBOX: STEPS SPENT"))).toEqual([false, false, true]);
		api.reply({ text: "FRESH" });
		const next = await run(["-c", "next"], { TIMEBOX_DEFAULT: "steps:2" });
		expect(next.stdout).toContain("FRESH");
		expect(api.main).toHaveLength(4);
	});

	it("refuses the 3rd identical call of loop:3, stops the run at the 4th ask with no further request, starts afresh, and counts A B A B", async () => {
		const stopFile = join(root, "stopped.txt");
		const env = { TIMEBOX_DEFAULT: `loop:3 -- touch '${stopFile}'` };
		const warnings = (result: RunResult) =>
			result.stderr.split("\n").flatMap((line) => (line.startsWith("[timebox] warning: ") ? [line.slice(19)] : []));
		const refused = (view: string) =>
			`this is the 3rd identical bash call in this run (${view}); its result will not change`;
		// What the model read last in each request: the result of the tool it asked for before.
		const lastRead = () =>
			api.main.map((request) => {
				const content = request.body.messages.at(-1)?.content;
				return typeof content === "string" ? content : JSON.stringify(content);
			});
		api.reply(...Array.from({ length: 4 }, () => ({ bash: "echo same" })));
		const loop = await run(["run it until it passes"], env);
		expect(warnings(loop)).toEqual([
			"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
			"Timebox stopped a loop: bash (echo same) asked for 4 times in this run.",
		]);
		// The model read the refusal with its 4th request; the 4th ask ended the run: no 5th request.
		expect(api.main).toHaveLength(4);
		expect(lastRead().map((text) => text.includes(refused("echo same")))).toEqual([false, false, false, true]);
		// The next prompt starts the count again (the same call runs twice), and A B A B refuses each at its 3rd and
		// stops at the next ask; the budget stayed in force and ran no on-stop command.
		api.reply(
			...["echo same", "echo b", "echo same", "echo b", "echo same", "echo b", "echo same"].map((bash) => ({ bash })),
		);
		const alternating = await run(["-c", "alternate"], env);
		expect(warnings(alternating)).toEqual([
			"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
			"Timebox refused a repeated call: bash (echo b), the 3rd identical one in this run.",
			"Timebox stopped a loop: bash (echo same) asked for 4 times in this run.",
		]);
		expect(api.main).toHaveLength(11);
		const second = lastRead().slice(4);
		expect(second.map((text) => text.includes(refused("echo same")))).toEqual([
			false,
			false,
			false,
			false,
			false,
			true,
			false,
		]);
		expect(second.map((text) => text.includes(refused("echo b")))).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
			true,
		]);
		expect(existsSync(stopFile)).toBe(false);
	});

	it("shares a daily budget of TIMEBOX_DAILY=turns:2 between two sessions, and refuses the 3rd prompt", async () => {
		const env = { TIMEBOX_DAILY: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		expect((await run(["first"], env)).stdout).toContain("ONE");
		expect((await run(["second session"], env)).stdout).toContain("TWO");
		const requests = api.requests.length;
		const third = await run(["-c", "third"], env);
		expect(third.stderr).toContain("[timebox] error: Timebox: today's budget is spent (2 prompts).");
		expect(third.stdout).not.toContain("THREE");
		expect(api.requests).toHaveLength(requests);
	});

	it("with grace:10s lets the run wrap up: the tool asked for after the deadline is refused, the answer is kept", async () => {
		const stopFile = join(root, "stopped.txt");
		const ran = join(root, "ran.txt");
		// The budget outlasts opencode's start-up, and the first tool, asked for before the deadline, ends 2 s after it.
		const startUp = await warmUp();
		const seconds = budgetAfter(startUp, 2);
		let left = Number.NaN;
		const pastDeadline = (request: ChatRequest): ChatReply => {
			left = budgetStart() + seconds * 1_000 - request.at;
			return { bash: `sleep ${(Math.max(0, left) / 1_000 + 2).toFixed(1)}` };
		};
		api.reply(pastDeadline, { bash: `echo late >> '${ran}'` }, { text: "FINAL SUMMARY" });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: `${seconds}s grace:10s -- ${stopScript(stopFile)}` });
		const deadline = budgetStart() + seconds * 1_000;
		const after = api.main.map((request) => request.at - deadline);
		console.log(
			`opencode grace: start-up ${startUp} ms, budget ${seconds}s, the tool asked for ${left} ms before the deadline; requests ${after.join(", ")} ms after it`,
		);
		expect(loop.stdout).toContain("FINAL SUMMARY");
		expect(loop.stderr).toContain("it has 10s to write its final answer");
		expect(existsSync(ran)).toBe(false);
		expect(api.main).toHaveLength(3);
		expect(api.main[1]?.text).toContain("TIMEBOX: BUDGET SPENT");
		expect(api.main[2]?.text).toContain("Timebox: the budget is spent");
		await expect
			.poll(() => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : ""), { timeout: 3_000 })
			.not.toBe("");
		expect(readFileSync(stopFile, "utf8").trim().split("\n")).toHaveLength(1);
	});

	it("stops a prompt whose time runs out before its first request: nothing is sent, and the on-stop command runs once", async () => {
		const stopFile = join(root, "stopped.txt");
		// A second plugin holds the prompt for 2 s where opencode's start-up is, between the prompt reaching Timebox
		// (where a default budget starts) and its first model call: the 1 s budget runs out there. It holds both the
		// prompt's hook and the call's, so that the window falls between Timebox's two whichever plugin opencode runs first.
		const slow = join(home, ".config", "opencode", "plugin", "slow-start.js");
		mkdirSync(join(slow, ".."), { recursive: true });
		const hold = "() => new Promise((done) => setTimeout(done, 2000))";
		writeFileSync(
			slow,
			`export const SlowStart = async () => ({ "chat.message": ${hold}, "experimental.chat.messages.transform": ${hold} });\n`,
		);
		api.reply({ bash: `echo ran >> '${join(root, "ran.txt")}'` }, { text: "NEVER" });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: `1s -- ${stopScript(stopFile)}` });
		console.log(`opencode stop before the first request: ${JSON.stringify(loop.stderr)}`);
		expect(loop.stderr).toContain(
			"[timebox] error: Timebox budget spent. Used 0 turns, 1s. The agent stops for this turn.",
		);
		expect(loop.stderr).not.toContain("while the agent was idle");
		expect(loop.stdout).not.toContain("NEVER");
		expect(api.main).toHaveLength(0);
		expect(existsSync(join(root, "ran.txt"))).toBe(false);
		await expect
			.poll(() => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : ""), { timeout: 3_000 })
			.not.toBe("");
		expect(readFileSync(stopFile, "utf8").trim().split("\n")).toHaveLength(1);
	});

	it("caps each request's max_tokens at what is left of tokens:150k, and never sends the call that cannot fit", async () => {
		// The fake answers each request with as many tokens as it allows, and its input from the request's size.
		api.answerAsAllowed();
		api.respond = () => ({ bash: "echo step" });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: "tokens:150k" });
		const limits = api.main.map((request) => request.body.max_tokens as number);
		expect(limits[0]).toBe(32_000);
		expect(limits.length).toBeGreaterThan(1);
		expect(Math.min(...limits)).toBeLessThan(32_000);
		const used = api.main.reduce(
			(sum, request) =>
				sum + Math.ceil(Buffer.byteLength(request.text, "utf8") / BYTES_PER_TOKEN) + Number(request.body.max_tokens),
			0,
		);
		expect(used).toBeLessThanOrEqual(150_000);
		expect(loop.stderr).toContain(
			`, ${used.toLocaleString("en-US")} of 150,000 tokens (too little left for the next model call). The agent stops`,
		);
	});
});

describe("installing Timebox in opencode", () => {
	it("installs the packed npm package with `opencode plugin <folder>`, for the server and the TUI, and it loads", async () => {
		const packed = await runProcess("npm", ["pack", REPO, "--pack-destination", root, "--silent"], {
			timeoutMs: 60_000,
		});
		expect(packed.code).toBe(0);
		const unpacked = await runProcess("tar", ["xzf", join(root, packed.stdout.trim()), "-C", root]);
		expect(unpacked.code).toBe(0);
		const plain = join(root, "plain-home");
		writeOpencodeHome(plain, api.url, undefined, false);
		const env = opencodeEnv(plain);
		const work = join(root, "work");
		const added = await runProcess(OPENCODE, ["plugin", join(root, "package")], { cwd: work, env, timeoutMs: 60_000 });
		expect(added.code).toBe(0);
		for (const file of ["opencode.json", "tui.json"]) {
			const config = JSON.parse(readFileSync(join(work, ".opencode", file), "utf8")) as { plugin: unknown[] };
			expect(config.plugin).toEqual([join(root, "package")]);
		}
		preinstallPluginPackage(join(work, ".opencode"));
		const set = await runProcess(OPENCODE, ["run", "--command", "timebox", "15m"], {
			cwd: work,
			env,
			timeoutMs: 60_000,
		});
		expect(stripVTControlCharacters(set.stderr)).toContain("[timebox] info: Timebox set: 15m.");
		expect(api.requests).toEqual([]);
	});
});

/** A TUI session in tmux on its own socket. */
class Tui {
	private readonly socket = join(root, "tmux.sock");

	/** opencode's TUI in the test's home, with the variables and words given (`-c` continues the last session). */
	start(env: NodeJS.ProcessEnv, args: readonly string[] = []): void {
		const vars = Object.entries(opencodeEnv(home, env)).map(([key, value]) => `${key}='${value}'`);
		const command = `cd '${join(root, "work")}' && env ${vars.join(" ")} '${OPENCODE}' ${args.join(" ")}`;
		this.tmux("-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "45", command);
	}

	screen(): string {
		return this.tmux("capture-pane", "-p");
	}

	type(text: string): void {
		this.tmux("send-keys", "-l", text);
	}

	enter(): void {
		this.tmux("send-keys", "C-m");
	}

	stop(): void {
		this.tmux("kill-server");
	}

	private tmux(...args: string[]): string {
		return spawnSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" }).stdout ?? "";
	}
}

describe("Timebox in the opencode TUI", () => {
	let tui: Tui;
	beforeEach(() => {
		tui = new Tui();
	});
	afterEach(() => tui.stop());

	it("answers /timebox in a toast with no request, shows the status by the prompt, and runs the on-stop command at the deadline while idle, once", async () => {
		const stopFile = join(root, "stopped.txt");
		tui.start({});
		await expect.poll(() => tui.screen(), { timeout: 30_000, interval: 250 }).toContain("Ask anything");
		// The prompt shows before opencode has finished starting, and keys typed in that moment are lost.
		await new Promise((done) => setTimeout(done, 1_500));
		tui.type(`/timebox 4s -- ${stopScript(stopFile)}`);
		await expect.poll(() => tui.screen(), { timeout: 5_000, interval: 100 }).toContain("/timebox 4s --");
		tui.enter();
		await expect.poll(() => tui.screen(), { timeout: 10_000, interval: 100 }).toContain("Timebox set: 4s.");
		await expect.poll(() => tui.screen(), { timeout: 5_000, interval: 100 }).toMatch(/Timebox: \ds left \(4s budget\)/);
		const budget = sessionLog().find((line) => line.kind === "active")?.budget as { startTime: number };
		const read = () => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : "");
		await expect.poll(read, { timeout: 10_000, interval: 50 }).not.toBe("");
		await new Promise((done) => setTimeout(done, 1_500));
		const ran = read().trim().split("\n").map(Number);
		const late = (ran[0] ?? Number.NaN) - (budget.startTime + 4_000);
		console.log(`opencode idle expiry: on-stop ran ${late} ms after the deadline`);
		expect(ran).toHaveLength(1);
		expect(late).toBeLessThanOrEqual(500);
		expect(tui.screen()).toContain("Timebox ran the on-stop command");
		expect(api.requests).toEqual([]);
	});

	it("opens a session reopened with `opencode -c` as it shows: its status counts down, and its deadline runs the on-stop command while idle, once", async () => {
		const stopFile = join(root, "stopped.txt");
		tui.start({});
		await expect.poll(() => tui.screen(), { timeout: 30_000, interval: 250 }).toContain("Ask anything");
		await new Promise((done) => setTimeout(done, 1_500));
		tui.type(`/timebox 30s -- ${stopScript(stopFile)}`);
		await expect.poll(() => tui.screen(), { timeout: 5_000, interval: 100 }).toContain("/timebox 30s --");
		tui.enter();
		await expect.poll(() => tui.screen(), { timeout: 10_000, interval: 100 }).toContain("Timebox set: 30s.");
		const budget = sessionLog().find((line) => line.kind === "active")?.budget as { startTime: number };
		// The TUI closed as a closed terminal closes it, and opened again on the session: nothing is typed in it.
		tui.stop();
		tui = new Tui();
		tui.start({}, ["-c"]);
		const left = () => /Timebox: (\d+)s left \(30s budget\)/.exec(tui.screen())?.[1];
		await expect.poll(left, { timeout: 20_000, interval: 100 }).toBeDefined();
		expect(tui.screen()).toMatch(/Timebox restored: \d+s left \(30s budget\)/);
		const first = Number(left());
		await expect.poll(() => Number(left() ?? first), { timeout: 5_000, interval: 250 }).toBeLessThan(first);
		const read = () => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : "");
		await expect.poll(read, { timeout: 40_000, interval: 50 }).not.toBe("");
		await new Promise((done) => setTimeout(done, 1_500));
		const ran = read().trim().split("\n").map(Number);
		const late = (ran[0] ?? Number.NaN) - (budget.startTime + 30_000);
		console.log(`opencode reopened, idle expiry: on-stop ran ${late} ms after the deadline`);
		expect(ran).toHaveLength(1);
		expect(late).toBeLessThanOrEqual(500);
		expect(tui.screen()).toContain("Timebox ran the on-stop command");
		expect(api.requests).toEqual([]);
	});
});
