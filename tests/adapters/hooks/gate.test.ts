// The hook gate (sh, before any Node starts): a session where Timebox has nothing to do gets nothing and no Node, a
// budget line, a session with a budget, a default or a daily budget reach the hook script with stdin whole, and
// whatever the gate cannot read for sure goes to the hook script too. Run with sh, a stand-in for `node` on PATH (it
// says it started and echoes its stdin), and once with the real hook script.

import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../..");
const GATE = join(REPO, "src/adapters/hooks/gate.sh");

let root: string;
let home: string;
let fakeBin: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-gate-"));
	home = join(root, "home");
	mkdirSync(home);
	fakeBin = join(root, "fake-bin");
	mkdirSync(fakeBin);
	// The stand-in for node: its arguments on one line, then stdin as it got it.
	writeFileSync(join(fakeBin, "node"), '#!/bin/sh\nprintf "node %s\\n" "$*"\ncat\n');
	chmodSync(join(fakeBin, "node"), 0o755);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Runs the gate of `host` beside a hook script in `bin`, with only the variables given (and PATH), on `stdin`. */
function gate(
	host: string,
	stdin: string,
	env: Record<string, string> = {},
	bin = "/plugin/bin",
	more: string[] = [],
): string {
	const result = spawnSync("sh", [GATE, host, ...more], {
		input: stdin,
		encoding: "utf8",
		env: { PATH: `${fakeBin}:/usr/bin:/bin`, HOME: home, ...env },
	});
	expect(result.stderr).toBe("");
	expect(result.status).toBe(0);
	// The gate names the hook script by its own path: the one beside it.
	return result.stdout.replaceAll(dirname(GATE), bin);
}

const handed = (stdin: string, host = "codex") => `node /plugin/bin/timebox.mjs hook --host ${host}\n${stdin}`;

function event(name: string, fields: object = {}, session = "s1"): string {
	return JSON.stringify({
		session_id: session,
		transcript_path: null,
		cwd: "/project",
		hook_event_name: name,
		...fields,
	});
}

/** Writes a line into a session's log: the session had a budget set. */
function logOf(dataDir: string, session = "s1"): void {
	mkdirSync(join(dataDir, "sessions"), { recursive: true });
	writeFileSync(join(dataDir, "sessions", `${session}.jsonl`), '{"kind":"off","disabledAt":1}\n');
}

describe("the hook gate in a session with nothing in force", () => {
	it("answers every Codex event with nothing and starts no Node", () => {
		for (const stdin of [
			event("SessionStart", { source: "startup" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "fix the tests" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "what does timebox do?" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "--- ?" }),
			event("PreToolUse", { turn_id: "t1", tool_name: "Bash", tool_input: { command: "timebox 1m" } }),
			event("PostToolUse", { turn_id: "t1", tool_name: "Bash", tool_response: "x".repeat(100_000) }),
			event("Stop", { turn_id: "t1" }),
		]) {
			expect(gate("codex", stdin)).toBe("");
		}
	});

	it("answers Gemini CLI's events with nothing where its data folder holds no log of the session", () => {
		expect(gate("gemini", event("BeforeAgent", { prompt: "hello" }))).toBe("");
		expect(gate("gemini", event("AfterTool", { tool_name: "x" }))).toBe("");
	});
});

describe("the hook gate when Claude Code loaded Timebox's hooks module", () => {
	it("answers every Claude Code event with nothing and starts no Node, whatever is in force", () => {
		const dataDir = join(root, "claude-data");
		logOf(dataDir);
		const loaded = { TIMEBOX_MODULE_LOADED: "1", CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_DEFAULT: "10m" };
		for (const name of ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolBatch", "Stop"]) {
			expect(gate("claude", event(name, { prompt: "/timebox 15m turns:3" }), loaded)).toBe("");
		}
	});

	it("leaves the other hosts' hooks and a Claude Code without the module as they are", () => {
		const prompt = event("UserPromptSubmit", { prompt: "/timebox 15m" });
		const dataDir = join(root, "claude-data");
		expect(gate("codex", prompt, { TIMEBOX_MODULE_LOADED: "1" })).toBe(handed(prompt));
		expect(gate("claude", prompt, { CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_MODULE_LOADED: "" })).toBe(
			handed(prompt, "claude"),
		);
	});
});

describe("the hook gate hands the event, whole, to the hook script", () => {
	it("for a prompt that may be a budget line, in every form a host sends it", () => {
		for (const prompt of [
			"timebox 15m",
			"/timebox 15m turns:3",
			"  \n\t/timebox",
			"\u00a0/timebox status",
			"/timebox:timebox off",
			"TIMEBOX-CMD 15m",
			"Timebox report",
		]) {
			const stdin = event("UserPromptSubmit", { turn_id: "t1", prompt });
			expect(gate("codex", stdin)).toBe(handed(stdin));
		}
		const gemini = event("BeforeAgent", { prompt: "TIMEBOX-CMD 15m" });
		expect(gate("gemini", gemini)).toBe(handed(gemini, "gemini"));
	});

	it("with stdin larger than the gate reads, byte for byte", () => {
		const stdin = event("UserPromptSubmit", { turn_id: "t1", prompt: `/timebox 15m ${"é".repeat(20_000)}` });
		expect(gate("codex", stdin)).toBe(handed(stdin));
	});

	it("in a session that had a budget set: its log exists in the host's data folder", () => {
		const stop = event("Stop", { turn_id: "t1" });
		logOf(join(home, ".codex", "timebox"));
		expect(gate("codex", stop)).toBe(handed(stop));
		expect(gate("codex", stop, { CODEX_HOME: join(root, "elsewhere") })).toBe("");
		logOf(join(root, "elsewhere", "timebox"));
		expect(gate("codex", stop, { CODEX_HOME: join(root, "elsewhere") })).toBe(handed(stop));
		// A plugin's hooks are told its data folder, which the hook script uses first.
		expect(gate("codex", stop, { CLAUDE_PLUGIN_DATA: join(root, "plugin-data") })).toBe("");
		logOf(join(root, "plugin-data"));
		expect(gate("codex", stop, { CLAUDE_PLUGIN_DATA: join(root, "plugin-data") })).toBe(handed(stop));
		const afterTool = event("AfterTool", { tool_name: "x" });
		logOf(join(home, ".gemini", "timebox"));
		expect(gate("gemini", afterTool)).toBe(handed(afterTool, "gemini"));
	});

	it("when a default, a daily or a subagent budget is in force, without reading stdin", () => {
		const stdin = event("SessionStart", { source: "startup" });
		expect(gate("claude", stdin, { TIMEBOX_DEFAULT: "1h", CLAUDE_PLUGIN_DATA: join(root, "data") })).toBe(
			handed(stdin, "claude"),
		);
		expect(gate("gemini", stdin, { TIMEBOX_DEFAULT: "1h" })).toBe(handed(stdin, "gemini"));
		expect(gate("codex", stdin, { TIMEBOX_DAILY: "2h" })).toBe(handed(stdin));
		expect(gate("codex", stdin, { TIMEBOX_SUBAGENTS: "5m steps:30" })).toBe(handed(stdin));
		expect(gate("codex", "not json", { TIMEBOX_DAILY: "2h" })).toBe(handed("not json"));
	});

	it("when a team's store is set, with no daily budget here: the limits its admin keeps there cover the session", () => {
		const stdin = event("UserPromptSubmit", { turn_id: "t1", prompt: "hello" });
		const store = { TIMEBOX_DAILY_STORE: "redis://127.0.0.1:6379", TIMEBOX_TEAM: "platform" };
		expect(gate("codex", stdin, store)).toBe(handed(stdin));
		expect(gate("gemini", stdin, store)).toBe(handed(stdin, "gemini"));
		// One of them alone, too: the hook script says what is missing.
		expect(gate("codex", stdin, { TIMEBOX_TEAM: "platform" })).toBe(handed(stdin));
		expect(gate("codex", stdin, { TIMEBOX_DAILY_STORE: "redis://127.0.0.1:6379" })).toBe(handed(stdin));
		expect(gate("codex", stdin)).toBe("");
	});

	it("for a request about to be sent (Gemini's BeforeModel), only under a budget of tokens or cost", () => {
		const request = event("BeforeModel", { llm_request: { config: {} } });
		const sent = (env: Record<string, string> = {}) => gate("gemini", request, env, "/plugin/bin", ["BeforeModel"]);
		expect(sent()).toBe("");
		for (const words of ["1h", "turns:3"]) expect(sent({ TIMEBOX_DEFAULT: words })).toBe("");
		expect(sent({ TIMEBOX_DAILY: "2h tokens:1m" })).toBe("");
		for (const words of ["1h tokens:50k", "Cost:2", "$2.50"]) {
			expect(sent({ TIMEBOX_DEFAULT: words })).toBe(handed(request, "gemini"));
		}
		const data = join(home, ".gemini", "timebox");
		logOf(data);
		expect(sent()).toBe("");
		writeFileSync(join(data, "sessions", "s1.jsonl"), '{"kind":"active","budget":{"tokenLimit":50000}}\n');
		expect(sent()).toBe(handed(request, "gemini"));
	});

	it("on Codex with a default budget, every event but a session's start with nothing in its log", () => {
		const env = { TIMEBOX_DEFAULT: "1h" };
		const start = event("SessionStart", { source: "startup" });
		// The default budget starts at the session's first prompt: its start needs no Node.
		expect(gate("codex", start, env)).toBe("");
		for (const stdin of [
			event("UserPromptSubmit", { turn_id: "t1", prompt: "hello" }),
			event("PreToolUse", { tool_name: "exec_command" }),
			event("Stop"),
			JSON.stringify({ session_id: "s1" }),
			"not json",
		]) {
			expect(gate("codex", stdin, env)).toBe(handed(stdin));
		}
		logOf(join(home, ".codex", "timebox"));
		expect(gate("codex", start, env)).toBe(handed(start));
		expect(gate("codex", start, { ...env, CODEX_HOME: "" })).toBe(handed(start));
	});

	it("whenever it cannot tell for sure that there is nothing to do", () => {
		for (const stdin of [
			"",
			"not json",
			JSON.stringify({ hook_event_name: "Stop" }),
			event("Stop", {}, "../escape"),
			event("Stop", {}, ".hidden"),
			JSON.stringify({ session_id: "s1" }),
			// A prompt event whose prompt the gate did not read.
			event("UserPromptSubmit", { turn_id: "t1" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: `${" ".repeat(100)}hello` }),
			event("UserPromptSubmit", { cwd: "x".repeat(9_000), prompt: "hello" }),
			// A session id cut off by the end of what the gate reads, the event's name before it.
			`{"hook_event_name":"Stop","cwd":"${"x".repeat(8_133)}","session_id":"3f1c2a4e-0000-4000-8000-000000000001"}`,
		]) {
			expect(gate("codex", stdin)).toBe(handed(stdin));
		}
		const stop = event("Stop");
		// A data folder the hook script would not find as the gate does: an empty or unset variable it reads.
		expect(gate("codex", stop, { CODEX_HOME: "" })).toBe(handed(stop));
		expect(gate("codex", stop, { CLAUDE_PLUGIN_DATA: "" })).toBe(handed(stop));
		expect(gate("codex", stop, { HOME: "" })).toBe(handed(stop));
		// Claude Code's data folder is only ever the plugin's.
		expect(gate("claude", stop)).toBe(handed(stop, "claude"));
	});
});

describe("the hook gate before the real hook script", () => {
	it("lets the budget line set a budget, and from then on every event of that session reaches Timebox", () => {
		const bin = join(root, "plugin", "bin");
		mkdirSync(bin, { recursive: true });
		copyFileSync(GATE, join(bin, "timebox-gate.sh"));
		copyFileSync(join(REPO, "plugins/codex-cli/bin/timebox.mjs"), join(bin, "timebox.mjs"));
		const run = (stdin: string) =>
			spawnSync("sh", [join(bin, "timebox-gate.sh"), "codex"], {
				input: stdin,
				encoding: "utf8",
				env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home },
			}).stdout;
		expect(run(event("UserPromptSubmit", { turn_id: "t0", prompt: "hello" }))).toBe("");
		expect(JSON.parse(run(event("UserPromptSubmit", { turn_id: "t1", prompt: "timebox turns:1" })))).toEqual({
			decision: "block",
			reason: "Timebox set: 1 turn.",
		});
		expect(run(event("UserPromptSubmit", { turn_id: "t2", prompt: "first" }))).toBe("");
		expect(JSON.parse(run(event("UserPromptSubmit", { turn_id: "t3", prompt: "second" })))).toMatchObject({
			decision: "block",
			reason: expect.stringMatching(/^Timebox budget spent\./),
		});
		expect(readFileSync(join(home, ".codex", "timebox", "sessions", "s1.jsonl"), "utf8")).toContain('"promptId":"t2"');
	});
});
