// Timebox in the real Codex CLI, installed as a plugin from this repository's marketplace (`codex plugin marketplace
// add`, `codex plugin add`), against a loopback fake of the Responses API, in a throwaway HOME: the budget line answered
// without a request, the prompt limit across resumed runs, the warning in the request, every tool refused once the time
// is up or the loop guard stopped the run (Codex cannot end a running turn), the on-stop command once, idle expiry, a
// bad budget line, and in its TUI the replies in Codex's words.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeResponses } from "../../../demo/fakes/responses.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { removeSandbox } from "../../support/sandbox.ts";
import { CODEX, ensureCodex, REPO, writeCodexConfig } from "./support.ts";

let api: FakeResponses;
let root: string;

beforeAll(async () => {
	await ensureCodex();
}, 600_000);

beforeEach(async () => {
	api = await FakeResponses.start();
	root = await mkdtemp(join(tmpdir(), "timebox-codex-"));
	mkdirSync(join(root, "work"));
	writeCodexConfig(join(root, "home", ".codex"), api.url);
	for (const args of [
		["plugin", "marketplace", "add", REPO],
		["plugin", "add", "timebox@timebox"],
	]) {
		const done = await codex(args);
		if (done.code !== 0) throw new Error(`codex ${args.join(" ")} failed: ${done.stderr}`);
	}
});

afterEach(async () => {
	await api.close();
	await removeSandbox(root);
});

function codex(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(CODEX, args, {
		cwd: join(root, "work"),
		env: {
			PATH: process.env.PATH,
			HOME: join(root, "home"),
			CODEX_HOME: join(root, "home", ".codex"),
			FAKE_API_KEY: "sk-fake",
			...env,
		},
		timeoutMs: 120_000,
	});
}

/** `codex exec` with the plugin's hooks trusted for the run, as a user trusts them once in the TUI. */
function exec(prompt: string, options: { resume?: boolean; env?: NodeJS.ProcessEnv; fullAccess?: boolean } = {}) {
	const args = ["exec", ...(options.resume ? ["resume", "--last"] : []), "--skip-git-repo-check"];
	args.push("--dangerously-bypass-hook-trust", ...(options.fullAccess ? ["--sandbox", "danger-full-access"] : []));
	return codex([...args, prompt], options.env);
}

/** The records of Timebox's log for the one session in the plugin's data folder. */
function sessionLog(): Array<Record<string, unknown>> {
	const folder = join(root, "home", ".codex", "plugins", "data", "timebox-timebox", "sessions");
	const files = existsSync(folder) ? readdirSync(folder) : [];
	return files.flatMap((file) =>
		readFileSync(join(folder, file), "utf8")
			.split("\n")
			.filter((line) => line.length > 0)
			.map((line) => JSON.parse(line) as Record<string, unknown>),
	);
}

/**
 * Runs one prompt in a session of its own under a long budget, and returns how long Codex took from the budget's start
 * (SessionStart) to its model request; the warm-up's requests are forgotten.
 */
async function warmUp(): Promise<number> {
	api.reply({ text: "WARM" });
	await exec("warm up", { env: { TIMEBOX_DEFAULT: "1h" } });
	const budget = sessionLog().find((line) => line.kind === "active")?.budget as { startTime: number };
	const startUp = (api.receivedAt[0] ?? Number.NaN) - budget.startTime;
	api.forget();
	return startUp;
}

describe("Timebox in Codex CLI (codex exec)", () => {
	it("answers the budget line in both forms without a model request, and sets nothing for a bad word", async () => {
		const bad = await exec("/timebox 15x");
		expect(bad.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect(sessionLog()).toEqual([]);
		const set = await exec("timebox 15m turns:3");
		expect(set.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect(set.stdout).toBe("");
		expect(sessionLog()).toContainEqual(
			expect.objectContaining({
				kind: "active",
				budget: expect.objectContaining({ timeLimitMs: 900_000, turnLimit: 3 }),
			}),
		);
		expect(api.requests).toEqual([]);
	});

	it("leaves a session with nothing in force alone, and counts from a budget line sent later in it", async () => {
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		const first = await exec("first");
		expect(first.stdout).toContain("ONE");
		// The hook gate answered every event without the hook script, which would have logged the prompt.
		expect(first.stderr).not.toContain("Failed");
		expect(sessionLog()).toEqual([]);
		const set = await exec("timebox turns:1", { resume: true });
		expect(set.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect((await exec("second", { resume: true })).stdout).toContain("TWO");
		const third = await exec("third", { resume: true });
		expect(third.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect(third.stdout).not.toContain("THREE");
		expect(api.requests).toHaveLength(2);
	});

	it("answers prompts 1 and 2 of turns:2 across resumed runs, and blocks the 3rd with no request", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		expect((await exec("first", { env })).stdout).toContain("ONE");
		expect((await exec("second", { env, resume: true })).stdout).toContain("TWO");
		const third = await exec("third", { env, resume: true });
		expect(third.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect(third.stdout).not.toContain("THREE");
		expect(api.requests).toHaveLength(2);
	});

	it("waits for a prompt's hook that takes 6 s to start (a machine busy starting agents) and counts its prompt", async () => {
		// Node, as the gate starts it, 6 s late for a prompt's hook: past the 5 s a host gave a hook before, when Codex
		// ended the hook and let its prompt through uncounted.
		const shims = join(root, "shims");
		mkdirSync(shims);
		const node = spawnSync("sh", ["-c", "command -v node"], { encoding: "utf8" }).stdout.trim();
		writeFileSync(
			join(shims, "node"),
			`#!/bin/sh\ninput=$(cat)\ncase $input in *'"hook_event_name":"UserPromptSubmit"'*) sleep 6 ;; esac\nprintf '%s' "$input" | exec '${node}' "$@"\n`,
			{ mode: 0o755 },
		);
		const env = { TIMEBOX_DEFAULT: "turns:1", PATH: `${shims}:${process.env.PATH}` };
		api.reply({ text: "ONE" }, { text: "TWO" });
		expect((await exec("first", { env })).stdout).toContain("ONE");
		const second = await exec("second", { env, resume: true });
		expect(second.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect(second.stdout).not.toContain("TWO");
		expect(api.requests).toHaveLength(1);
	});

	it("puts the warning into the request of the last prompt of turns:5, and not into the first ones", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:5" };
		await exec("p1", { env });
		for (const prompt of ["p2", "p3", "p4", "p5"]) await exec(prompt, { env, resume: true });
		const warned = (body: string) => body.includes("IMPORTANT TIMEBOX WARNING");
		expect(api.requests.map(warned)).toEqual([false, false, false, false, true]);
	});

	it("refuses every tool call with the reason once the time is up, and runs the on-stop command once", async () => {
		const stopFile = join(root, "stopped.txt");
		const ranFile = join(root, "ran.txt");
		// The budget starts at SessionStart, before Codex runs its hooks and asks for the first tool: it outlasts three
		// start-ups as long as a warm-up's and 2 s, so that a tool runs before the deadline on a busy machine too.
		const seconds = Math.max(3, Math.ceil((3 * (await warmUp()) + 2_000) / 1_000));
		const step = (index: number) => ({ tool: "exec_command", args: { cmd: `echo ${index} >> '${ranFile}'; sleep 1` } });
		api.reply(...Array.from({ length: seconds + 5 }, (_, index) => step(index)), { text: "FINAL SUMMARY" });
		const env = { TIMEBOX_DEFAULT: `${seconds}s -- echo stopped >> '${stopFile}'` };
		const run = await exec("loop until told otherwise", { env, fullAccess: true });
		expect(run.stdout).toContain("FINAL SUMMARY");
		const ran = readFileSync(ranFile, "utf8").trim().split("\n");
		expect(ran.length).toBeGreaterThanOrEqual(1);
		// Each tool sleeps 1 s: no more of them run than the budget has seconds, and the one running at the deadline.
		expect(ran.length).toBeLessThanOrEqual(seconds + 2);
		const refused = api.requests.filter((body) => body.includes("Command blocked by PreToolUse hook"));
		expect(refused.length).toBe(api.requests.length - 1 - ran.length);
		const refusal = /Command blocked by PreToolUse hook: ([^"\\]*)/.exec(refused.at(-1) ?? "")?.[1];
		console.log(`codex time stop: the model read "${refusal}"`);
		console.log(
			`codex time stop: budget ${seconds}s, ${ran.length} tools ran, ${refused.length} refused, ${api.requests.length} requests`,
		);
		expect(refusal).toMatch(
			/^Timebox budget spent\. Used 0 turns, \d+s\. .* Write the final answer now, with what was done and what is left\. Call no more tools\. Command:/,
		);
		await new Promise((done) => setTimeout(done, 500));
		expect(readFileSync(stopFile, "utf8")).toBe("stopped\n");
	});

	it("refuses the 3rd identical call of loop:3, refuses every tool from the 4th ask on (Codex cannot end the turn), starts afresh, and counts A B A B", async () => {
		const stopFile = join(root, "stopped.txt");
		const env = { TIMEBOX_DEFAULT: `loop:3 -- touch '${stopFile}'` };
		const call = (cmd: string) => ({ tool: "exec_command", args: { cmd } });
		// What the model read of its last tool call in each request: the output of the call, which for a call its hook
		// blocked is Codex's `Command blocked by PreToolUse hook: <reason> Command: <command>`.
		const lastRead = () =>
			api.requests.map((body) => {
				const last = (JSON.parse(body) as { input?: { type?: string; output?: unknown }[] }).input?.at(-1);
				return last?.type === "function_call_output" ? String(last.output) : "";
			});
		const blocked = (reason: string, command: string) =>
			`Command blocked by PreToolUse hook: ${reason} Command: ${command}`;
		const refused = (view: string) =>
			`Timebox: this is the 3rd identical Bash call in this run (${view}); its result will not change. Change your approach or finish with what you have.`;
		const finish = "Write the final answer now, with what was done and what is left. Call no more tools.";
		api.reply(...Array.from({ length: 4 }, () => call("echo same")), call("echo other"), { text: "FINAL ANSWER" });
		const first = await exec("run it until it passes", { env });
		// The 3rd ask is refused with why; from the 4th on every tool is refused (Codex cannot end a turn), with what the
		// model is to do now; the model's text answer ends the turn.
		expect(lastRead()).toEqual([
			"",
			expect.stringContaining("same"),
			expect.stringContaining("same"),
			blocked(refused("echo same"), "echo same"),
			blocked(`Timebox stopped a loop: Bash (echo same) asked for 4 times in this run. ${finish}`, "echo same"),
			blocked(
				`Timebox stopped this run: the model asked again for a call that was refused as a loop. ${finish}`,
				"echo other",
			),
		]);
		expect(first.stdout).toContain("FINAL ANSWER");
		// `codex exec` shows the person only that the hook blocked each of the three (its TUI shows the hook's message).
		expect(first.stderr.match(/hook: PreToolUse Blocked/g)).toHaveLength(3);
		// The next prompt (the session resumed) starts the count again, and A B A B refuses each at its 3rd.
		const alternating = ["echo same", "echo b", "echo same", "echo b", "echo same", "echo b", "echo same"];
		api.reply(...alternating.map(call), { text: "SECOND ANSWER" });
		const second = await exec("alternate", { env, resume: true });
		expect(second.stdout).toContain("SECOND ANSWER");
		expect(lastRead().slice(7)).toEqual([
			expect.stringContaining("same"),
			expect.stringContaining("b"),
			expect.stringContaining("same"),
			expect.stringContaining("b"),
			blocked(refused("echo same"), "echo same"),
			blocked(refused("echo b"), "echo b"),
			blocked(`Timebox stopped a loop: Bash (echo same) asked for 4 times in this run. ${finish}`, "echo same"),
		]);
		await new Promise((done) => setTimeout(done, 300));
		expect(existsSync(stopFile)).toBe(false);
	});

	it("keeps its sessions where `npm run report` finds them, as Codex's: nothing of tokens or model calls measured", async () => {
		api.reply({ text: "ONE" }, { text: "TWO" });
		await exec("first", { env: { TIMEBOX_DEFAULT: "turns:5" } });
		await exec("second", { env: { TIMEBOX_DEFAULT: "turns:5" } });
		const report = spawnSync(
			process.execPath,
			[join(REPO, "plugins/claude-code/bin/timebox.mjs"), "report", "--suggest", "--json"],
			{ cwd: join(root, "work"), env: { PATH: process.env.PATH, HOME: join(root, "home") }, encoding: "utf8" },
		);
		expect(report.stderr).toBe("");
		const sessions = (JSON.parse(report.stdout) as { sessions: { host: string; steps: unknown; tokens: unknown }[] })
			.sessions;
		expect(sessions.map(({ host, steps, tokens }) => [host, steps, tokens])).toEqual([
			["Codex", null, null],
			["Codex", null, null],
		]);
	});

	it("runs the on-stop command at the deadline while no prompt comes (idle expiry), once", async () => {
		const stopFile = join(root, "idle-stopped.txt");
		await exec(`/timebox 2s -- echo stopped >> '${stopFile}'`);
		const read = () => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : "");
		await expect.poll(read, { timeout: 8_000, interval: 100 }).toBe("stopped\n");
		await new Promise((done) => setTimeout(done, 1_500));
		expect(read()).toBe("stopped\n");
		expect(api.requests).toEqual([]);
	});
});

// `codex exec` prints no hook's reason (only `hook: UserPromptSubmit Blocked`): what a Codex user reads is in its TUI.
describe("Timebox in Codex CLI's TUI", () => {
	/** Codex's TUI in tmux, started with `more` in its environment, and a line typed into it until `shown` appears. */
	async function tui(more: Record<string, string> = {}) {
		const socket = join(root, "tmux.sock");
		const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" }).stdout ?? "";
		const script = join(root, "codex.sh");
		const env = {
			HOME: join(root, "home"),
			CODEX_HOME: join(root, "home", ".codex"),
			FAKE_API_KEY: "sk-fake",
			...more,
		};
		const exports = Object.entries(env).map(([name, value]) => `export ${name}='${value}'`);
		const start = `exec '${CODEX}' --dangerously-bypass-hook-trust`;
		writeFileSync(script, [`cd '${join(root, "work")}'`, ...exports, start].join("\n"));
		tmux("-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "45", `sh '${script}'`);
		tmux("set", "-g", "extended-keys", "on");
		const screen = () => tmux("capture-pane", "-p", "-S", "-200");
		const send = async (line: string, shown: string | RegExp) => {
			tmux("send-keys", "-l", line);
			await expect.poll(screen, { timeout: 5_000, interval: 100 }).toContain(`› ${line}`);
			tmux("send-keys", "C-m");
			await expect.poll(screen, { timeout: 20_000, interval: 250 }).toMatch(shown);
		};
		await expect.poll(screen, { timeout: 60_000, interval: 250 }).toContain("Ask Codex to do anything");
		return { screen, send, close: () => tmux("kill-server") };
	}

	it("speaks Codex's words: usage without the slash, its own daily setting, a report with no unmeasured zero", async () => {
		const { screen, send, close } = await tui();
		try {
			await send("timebox 15x", "e.g. timebox 15m turns:3");
			await send("timebox today", 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment codex starts in.');
			await send("timebox 10m", "Timebox set: 10m.");
			await send("timebox report", "Tokens and cost not tracked in Codex.");
			const shown = screen();
			console.log(`codex TUI:\n${shown.replace(/\n\s*\n/g, "\n")}`);
			expect(shown).toContain("Usage: timebox <budget> [-- <command>] | status | off");
			// The command with a slash nowhere (the working folder, timebox-codex-…, names no command).
			expect(shown).not.toMatch(/(^|\s)\/timebox\b/m);
			expect(shown).toContain("No daily budget is set.");
			expect(shown).toMatch(/1\. 10m, set \d+s ago: used \d+s, 0 turns\. Still active\./);
			expect(shown).not.toMatch(/0 tokens|\$0\.00/);
			expect(api.requests).toEqual([]);
		} finally {
			close();
		}
	});

	it("names a bad TIMEBOX_DEFAULT once a session, and a TIMEBOX_DAILY it cannot read at its start and at timebox today", async () => {
		// With a daily budget set, Codex runs its session start's hook (at the first prompt) as well as the prompt's: each
		// a process of its own, and only the start's says it.
		const { screen, send, close } = await tui({ TIMEBOX_DEFAULT: "30x", TIMEBOX_DAILY: "turns:5 $x" });
		api.respond = () => ({ text: "ANSWERED IN THE TUI" });
		try {
			// Each line once the turn before it has ended ("Worked for"): typed into a running turn, Codex queues it.
			await send("hello there", /ANSWERED IN THE TUI[\s\S]*Worked for/);
			await send("and again", /ANSWERED IN THE TUI[\s\S]*ANSWERED IN THE TUI[\s\S]*Worked for/);
			await send("timebox today", /› timebox today[\s\S]*Blocked by hook/);
			const shown = screen().replace(/\s+/g, " ");
			console.log(`codex TUI:\n${screen().replace(/\n\s*\n/g, "\n")}`);
			expect(shown.split('TIMEBOX_DEFAULT: "30x" is not a budget word')).toHaveLength(2);
			// Once as the session started, once for `timebox today`, which does not say that none is set.
			expect(shown.split('TIMEBOX_DAILY: "$x" is not a budget word')).toHaveLength(3);
			expect(shown).not.toContain("No daily budget is set.");
		} finally {
			close();
		}
	});
});
