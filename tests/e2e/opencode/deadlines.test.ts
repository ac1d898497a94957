// Timebox's deadlines in the real opencode, loaded from this checkout through the `plugin` list of a throwaway HOME,
// against a loopback fake of the chat completions API: in `opencode run`, the hard stop of a running tool at the
// deadline, the wrap-up of a grace period, and a prompt whose time ran out before its first request, each with the
// on-stop command once; in the TUI, the idle expiry, in a session reopened there too. These measure how late a stop
// comes: `npm run test:e2e` runs them one file at a time at the normal priority.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatReply, ChatRequest, FakeChat } from "../../../demo/fakes/chat.ts";
import { opencodeWorld, runOpencode, sessionLogOf, stopScriptOf } from "./harness.ts";
import { OPENCODE, opencodeEnv } from "./support.ts";

const world = opencodeWorld();
let api: FakeChat;
let root: string;
let home: string;
beforeEach(() => {
	({ api, root, home } = world);
});
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runOpencode(world, args, env);
const sessionLog = () => sessionLogOf(world);
const stopScript = (file: string) => stopScriptOf(world, file);

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

describe("Timebox's deadlines in opencode run", () => {
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
});

/** How many TUIs the file started: each has a tmux server of its own. */
let tuis = 0;

/**
 * A TUI session in tmux on its own socket. Its own, not one shared with the TUI before it: `kill-server` returns before
 * that server has gone, and a session started at once on the same socket joined the dying server and went with it (the
 * reopened TUI's screen stayed empty for 30 s in one CI run).
 */
class Tui {
	private readonly socket = join(root, `tmux-${++tuis}.sock`);

	/** opencode's TUI in the test's home, with the variables and words given (`-c` continues the last session). */
	start(env: NodeJS.ProcessEnv, args: readonly string[] = []): void {
		const vars = Object.entries(opencodeEnv(home, env)).map(([key, value]) => `${key}='${value}'`);
		const command = `cd '${join(root, "work")}' && env ${vars.join(" ")} '${OPENCODE}' ${args.join(" ")}`;
		const started = spawnSync(
			"tmux",
			["-S", this.socket, "-f", "/dev/null", "new-session", "-d", "-x", "160"].concat(["-y", "45", command]),
			{ encoding: "utf8" },
		);
		if (started.status !== 0) throw new Error(`tmux did not start the TUI: ${started.stderr}`);
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
		// The status of the process killed may still be on file, and shows at once: the session's own load says so first.
		await expect
			.poll(() => tui.screen(), { timeout: 30_000, interval: 100 })
			.toMatch(/Timebox restored: \d+s left \(30s budget\)/);
		await expect.poll(left, { timeout: 5_000, interval: 100 }).toBeDefined();
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
