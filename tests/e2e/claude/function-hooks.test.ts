// Timebox inside Claude Code's own process (function hooks) on the real binary: the registered /timebox command, prompts
// counted once, the warning in the request, the stop mid-tool and while idle from a timer with no watcher process, the
// countdown under the prompt, state across --continue, the classic hooks standing down without starting Node, and the
// loop guard.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	CLAUDE_BIN,
	ClaudeSession,
	claudeEnv,
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	lastToolResult,
	loggingNode,
	messageTexts,
	PLUGIN_DIR,
	polledBudgetStart,
	processesOf,
	type RunResult,
	runClaude,
	type Sandbox,
	savedBudgets,
} from "./support/claude.ts";

let api: FakeAnthropic;
let box: Sandbox;
/** Every Node started under the sandbox's `claude`, as the logging `node` on its PATH saw it. */
let node: ReturnType<typeof loggingNode>;

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

afterEach(async () => {
	await api.close();
	await box.cleanup();
});

/** Starts the fake API and a sandbox in `mode`, with the logging `node` first on PATH. */
async function start(mode: Sandbox["mode"]): Promise<void> {
	api = await FakeAnthropic.start();
	box = await createSandbox(mode);
	node = loggingNode(box.root);
}

function options() {
	return { home: box.home, cwd: box.cwd, apiUrl: api.url, env: { PATH: node.path } };
}

/** `claude -p [--continue] --plugin-dir <plugin> <prompt>` in the sandbox. */
function claude(prompt: string, resume = true): Promise<RunResult> {
	return runClaude(["-p", ...(resume ? ["--continue"] : []), "--plugin-dir", PLUGIN_DIR, prompt], options());
}

/** A kept-open `claude -p` session in the sandbox (stream-json in and out); Bash allowed. */
function session(): ClaudeSession {
	return new ClaudeSession(["--plugin-dir", PLUGIN_DIR, "--allowedTools", "Bash"], options());
}

/** What `claude -p` prints for a reply of the plugin's registered command: the plugin's name, then the text. */
function reply(text: string): string {
	return `timebox: ${text}`;
}

/** The Nodes started to run Timebox's hook script (the classic hooks): none may start where the module runs. */
function hookScriptStarts(): string[] {
	return node.starts().filter((start) => /timebox\.[cm]js/.test(start));
}

/** The processes under the sandbox that are Node or Timebox's hook script: a watcher, or a classic hook at work. */
function nodeProcesses(): string[] {
	return processesOf(box.home).filter((line) => /(^|\/)node(\s|$)|timebox\.[cm]js/.test(line));
}

/** The sessions of the saved budgets, each with the turn limits of its budgets. */
function savedSessions(): { id: string; turnLimits: unknown[] }[] {
	const sessions = new Map<string, unknown[]>();
	for (const budget of savedBudgets(box.home))
		sessions.set(budget.id, [...(sessions.get(budget.id) ?? []), budget.turnLimit]);
	return [...sessions].map(([id, turnLimits]) => ({ id, turnLimits }));
}

/** The start of the budget just set, once the module saved it. */
async function budgetStart(): Promise<number> {
	return polledBudgetStart(box.home);
}

/** The text of a stream-json `result` line. */
function resultText(line: Record<string, unknown>): string {
	return typeof line.result === "string" ? line.result : "";
}

function readText(file: string): string {
	return existsSync(file) ? readFileSync(file, "utf8") : "";
}

describe("Timebox on function hooks, in claude -p", () => {
	beforeEach(() => start("function hooks"));

	it("answers /timebox with no request, counts turns:2 once per prompt across --continue runs, refuses the third, keeps it across --resume, and names the mode", async () => {
		const set = await claude("/timebox 15m turns:3", false);
		expect(set.stdout.split("\n")[0]).toBe(reply("Timebox set: 15m and 3 turns."));
		expect(set.stdout).not.toContain("blocked by hook");
		expect(api.requests).toEqual([]);

		// A new session for the turns: the one --continue takes up from here on.
		const reset = await claude("/timebox turns:2", false);
		expect(reset.stdout).toBe(`${reply("Timebox set: 2 turns.")}\n`);
		for (const [n, answer] of [
			[1, "ANSWER-ONE"],
			[2, "ANSWER-TWO"],
		] as const) {
			api.reply({ text: answer });
			const asked = await claude(`question ${n}`);
			expect(asked.stdout).toBe(`${answer}\n`);
			expect(api.requests).toHaveLength(n);
			expect(messageTexts(api.lastRequest, "user").join("\n")).toContain(`question ${n}`);
		}
		// The state came through every --continue run; each prompt counted once (the classic hooks stood down).
		const status = await claude("/timebox status");
		expect(status.stdout).toContain("Timebox: no time limit | 0 turns left (2/2)");
		expect(status.stdout).toContain("function hooks");

		const third = await claude("question 3");
		expect(third.stdout).toContain("Timebox budget spent. Used 2 turns");
		expect(third.stdout).not.toContain("UNSCRIPTED");
		expect(api.requests).toHaveLength(2);
		// The session named with --resume is the same to Timebox: its budget is the spent one.
		const [resumed] = savedSessions().filter((entry) => entry.turnLimits.includes(2));
		const spent = await runClaude(
			["-p", "--resume", resumed?.id ?? "", "--plugin-dir", PLUGIN_DIR, "/timebox status"],
			options(),
		);
		expect(spent.stdout).toContain(reply("Timebox budget spent. Used 2 turns"));
		expect(api.requests).toHaveLength(2);
		expect(node.starts()).toEqual([]);
	});
});

describe("Timebox on function hooks, in a kept-open claude -p session", () => {
	let open: ClaudeSession | undefined;
	beforeEach(() => start("function hooks"));
	afterEach(async () => {
		await open?.close();
		open = undefined;
	});

	it("puts the warning in the request of the 5th prompt of turns:5 and no earlier one", async () => {
		open = session();
		await open.send("/timebox turns:5");
		for (const n of [1, 2, 3, 4, 5]) {
			api.reply({ text: `ANSWER-${n}` });
			expect(resultText((await open.send(`question ${n}`)).line)).toBe(`ANSWER-${n}`);
		}
		const warned = api.requests.map((request) => JSON.stringify(request.body).includes("TIMEBOX WARNING"));
		expect(warned).toEqual([false, false, false, false, true]);
		expect(JSON.stringify(api.lastRequest.body)).toContain(
			"Turns: this is the last prompt the budget allows (4 of 5 used).",
		);
		expect(node.starts()).toEqual([]);
	});

	it("stops a sleep 20 tool at the deadline of /timebox 3s, ends the turn within 1 s with no further request, and runs the command once", async () => {
		const ranAt = join(box.root, "ran-at.txt");
		// Its own length, so that no other process on the machine is taken for it.
		const sleep = "sleep 20.0417";
		open = session();
		const set = await open.send(`/timebox 3s -- date +%s%3N >> '${ranAt}'`);
		expect(resultText(set.line)).toContain("Timebox set: 3s.");
		const deadline = (await budgetStart()) + 3_000;
		api.reply({ tools: [{ name: "Bash", input: { command: sleep } }] }, { text: "NEVER SENT" });
		const running = open.send("do the work", 30_000);
		// The tool is running before the deadline: the stop has a process to kill.
		const sleeping = () => processesOf(box.home).filter((line) => line.includes(sleep));
		await expect.poll(sleeping, { timeout: Math.max(0, deadline - Date.now()), interval: 50 }).not.toEqual([]);
		const run = await running;
		await expect.poll(() => readText(ranAt), { timeout: 2_000, interval: 50 }).toMatch(/^\d+\n$/);
		const ended = run.at - deadline;
		const ran = Number(readText(ranAt)) - deadline;
		const asked = (api.requests[0]?.at ?? Number.NaN) - deadline;
		console.log(
			`claude function hooks, mid-tool stop: the tool was asked for ${asked} ms, the turn ended ${ended} ms and the command ran ${ran} ms after the deadline`,
		);
		await expect.poll(sleeping, { timeout: 1_000, interval: 50 }).toEqual([]);
		expect(asked).toBeLessThan(0);
		expect(ended).toBeGreaterThanOrEqual(0);
		expect(ended).toBeLessThanOrEqual(1_000);
		expect(api.requests).toHaveLength(1);
		expect(api.pending).toBe(1);
		await new Promise((done) => setTimeout(done, 500));
		expect(readText(ranAt).split("\n").filter(Boolean)).toHaveLength(1);
		expect(node.starts()).toEqual([]);
	});

	it("refuses the 3rd identical call of loop:3, ends the turn at the 4th ask with no further request, starts afresh, and counts A B A B", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const bash = (command: string) => ({ tools: [{ name: "Bash", input: { command } }] });
		// Claude Code hands the model a refused tool's reason as a tool error.
		const refused = (view: string) =>
			`<tool_use_error>Timebox: this is the 3rd identical Bash call in this run (${view}); its result will not change. Change your approach or finish with what you have.</tool_use_error>`;
		const main = () => api.requests.filter((request) => Array.isArray(request.body.tools));
		const logged = () =>
			(open?.lines ?? [])
				.filter((entry) => entry.line.type === "system" && entry.line.subtype === "ui_log")
				.map((entry) => String(entry.line.text ?? ""));
		open = session();
		const set = await open.send(`/timebox loop:3 -- touch '${stopFile}'`);
		expect(resultText(set.line)).toContain(
			"Timebox set: a loop guard (the 3rd identical tool call of a run is refused).",
		);
		api.reply(...Array.from({ length: 4 }, () => bash("echo same")));
		await open.send("run it until it passes");
		// The model read the refusal with its 4th request; the 4th ask ended the turn: no 5th request.
		expect(main().map(lastToolResult)).toEqual(["", "same", "same", refused("echo same")]);
		expect(api.pending).toBe(0);
		// The next prompt starts the count again, and A B A B refuses each at its 3rd and ends at the next ask.
		api.reply(...["echo same", "echo b", "echo same", "echo b", "echo same", "echo b", "echo same"].map(bash));
		await open.send("alternate");
		expect(main().slice(4).map(lastToolResult)).toEqual([
			// The next prompt's request carries the result of the call that the stop refused: its refusal, or, where the
			// turn's end landed first, Claude Code's own note that it did not complete.
			expect.stringMatching(
				/^(?:<tool_use_error>Timebox stopped a loop: Bash \(echo same\) asked for 4 times in this run\.|\[Tool call did not complete: the turn was ended)/,
			),
			"same",
			"b",
			"same",
			"b",
			refused("echo same"),
			refused("echo b"),
		]);
		expect(logged()).toEqual([
			"Timebox refused a repeated call: Bash (echo same), the 3rd identical one in this run.",
			"Timebox stopped a loop: Bash (echo same) asked for 4 times in this run.",
			"Timebox refused a repeated call: Bash (echo same), the 3rd identical one in this run.",
			"Timebox refused a repeated call: Bash (echo b), the 3rd identical one in this run.",
			"Timebox stopped a loop: Bash (echo same) asked for 4 times in this run.",
		]);
		await new Promise((done) => setTimeout(done, 300));
		expect(existsSync(stopFile)).toBe(false);
		expect(node.starts()).toEqual([]);
	});

	it("runs the on-stop command within 1 s of the deadline while idle, once, with no watcher process", async () => {
		const ranAt = join(box.root, "ran-at.txt");
		open = session();
		const set = await open.send(`/timebox 3s -- date +%s%3N >> '${ranAt}'`);
		expect(resultText(set.line)).toContain("Timebox set: 3s.");
		const deadline = (await budgetStart()) + 3_000;
		// While the budget runs, nothing but claude itself runs under the sandbox: no watcher, no Node.
		console.log(`claude function hooks, idle: running under the sandbox: ${JSON.stringify(processesOf(box.home))}`);
		expect(nodeProcesses()).toEqual([]);
		await expect.poll(() => readText(ranAt), { timeout: 8_000, interval: 50 }).toMatch(/^\d+\n$/);
		const late = Number(readText(ranAt)) - deadline;
		console.log(`claude function hooks, idle: the on-stop command ran ${late} ms after the deadline`);
		expect(late).toBeGreaterThanOrEqual(0);
		expect(late).toBeLessThanOrEqual(1_000);
		await new Promise((done) => setTimeout(done, 500));
		expect(readText(ranAt).split("\n").filter(Boolean)).toHaveLength(1);
		expect(api.requests).toEqual([]);
		expect(node.starts()).toEqual([]);
	});
});

describe("Timebox with function hooks refused, in claude -p", () => {
	beforeEach(() => start("classic hooks"));

	it("runs on the classic hooks: /timebox status names them, and the hook script is what answered", async () => {
		const status = await claude("/timebox status", false);
		expect(status.stdout).toContain("classic hooks");
		expect(status.stdout).toContain("blocked by hook");
		expect(hookScriptStarts().length).toBeGreaterThan(0);
		expect(api.requests).toEqual([]);
	});
});

/** A TUI session of `claude` in tmux on its own socket, in the sandbox, with a copy of the plugin. */
class Tui {
	private readonly socket: string;

	constructor(private readonly sandbox: Sandbox) {
		this.socket = join(sandbox.root, "tmux.sock");
	}

	start(env: NodeJS.ProcessEnv): void {
		// A user who has been through onboarding, trusts the folder and approved the API key.
		const user = {
			hasCompletedOnboarding: true,
			customApiKeyResponses: { approved: ["sk-fake"], rejected: [] },
			projects: { [this.sandbox.cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
		};
		writeFileSync(join(this.sandbox.home, ".claude.json"), JSON.stringify(user));
		// The TUI writes the plugin API's types and a tsconfig.json into a plugin it loads with --plugin-dir: a copy.
		const plugin = join(this.sandbox.root, "plugin");
		cpSync(PLUGIN_DIR, plugin, { recursive: true });
		const vars = Object.entries({ ...env, TERM: "xterm-256color" }).map(([key, value]) => `${key}='${value}'`);
		const command = `cd '${this.sandbox.cwd}' && env -i ${vars.join(" ")} '${CLAUDE_BIN}' --plugin-dir '${plugin}'`;
		this.tmux("-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "45", command);
		this.tmux("set", "-g", "extended-keys", "on");
	}

	screen(): string {
		return this.tmux("capture-pane", "-p");
	}

	/**
	 * The seconds left that the status line under the prompt shows, from the first look that finds it (a look taken
	 * while the TUI redraws may find no status line).
	 */
	async countdown(): Promise<number> {
		let seconds = Number.NaN;
		await expect
			.poll(
				() => {
					seconds = countdown(this.screen());
					return seconds;
				},
				{ timeout: 3_000, interval: 100 },
			)
			.toBeGreaterThan(0);
		return seconds;
	}

	type(text: string): void {
		this.tmux("send-keys", "-l", text);
	}

	enter(): void {
		this.tmux("send-keys", "C-m");
	}

	/** Ends the session, and waits until nothing of it runs (it may still write under HOME as it goes). */
	async stop(): Promise<void> {
		this.tmux("kill-server");
		await expect.poll(() => processesOf(this.sandbox.home), { timeout: 10_000, interval: 100 }).toEqual([]);
	}

	private tmux(...args: string[]): string {
		return spawnSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" }).stdout ?? "";
	}
}

/** The seconds left that the status line under the prompt shows (`Timebox: 1m 04s left …`), or NaN. */
function countdown(screen: string): number {
	const match = screen.match(/Timebox: (?:(\d+)m )?(\d+)s left/);
	if (!match) return Number.NaN;
	return Number(match[1] ?? 0) * 60 + Number(match[2]);
}

describe("Timebox on function hooks, in the TUI", () => {
	let tui: Tui;
	beforeEach(async () => {
		await start("function hooks");
		tui = new Tui(box);
	});
	afterEach(() => tui.stop());

	it("answers /timebox with no request, counts down under the prompt every second, and runs the on-stop command at the deadline", async () => {
		const ranAt = join(box.root, "ran-at.txt");
		tui.start(claudeEnv(options()));
		await expect.poll(() => tui.screen(), { timeout: 60_000, interval: 250 }).toContain("❯");
		// The prompt takes keys a moment after it is drawn (on a busy machine, keys typed at once were lost).
		await new Promise((done) => setTimeout(done, 1_500));
		tui.type(`/timebox 8s -- date +%s%3N >> '${ranAt}'`);
		await expect.poll(() => tui.screen(), { timeout: 5_000, interval: 100 }).toContain("/timebox 8s --");
		tui.enter();
		await expect.poll(() => tui.screen(), { timeout: 10_000, interval: 100 }).toContain("Timebox set: 8s.");
		const deadline = (await budgetStart()) + 8_000;
		// Two readings of the countdown, a second and a half apart: it went down.
		const first = await tui.countdown();
		await new Promise((done) => setTimeout(done, 1_500));
		const second = await tui.countdown();
		console.log(`claude TUI countdown: ${first}s, then ${second}s`);
		expect(second).toBeLessThan(first);
		expect(first).toBeLessThanOrEqual(8);
		expect(nodeProcesses()).toEqual([]);
		await expect.poll(() => readText(ranAt), { timeout: 10_000, interval: 50 }).toMatch(/^\d+\n$/);
		const late = Number(readText(ranAt)) - deadline;
		console.log(`claude TUI, idle: the on-stop command ran ${late} ms after the deadline`);
		expect(late).toBeGreaterThanOrEqual(0);
		expect(late).toBeLessThanOrEqual(1_000);
		await new Promise((done) => setTimeout(done, 500));
		expect(readText(ranAt).split("\n").filter(Boolean)).toHaveLength(1);
		expect(api.requests).toEqual([]);
		expect(node.starts()).toEqual([]);
	});
});
