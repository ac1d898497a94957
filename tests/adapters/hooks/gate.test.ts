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
	writeFileSync(join(fakeBin, "node"), '#!/bin/sh\nprintf "node %s\\n" "$*"\nexec cat\n');
	chmodSync(join(fakeBin, "node"), 0o755);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** One run of the gate: its host's name, stdin, the variables given (besides PATH and HOME) and more arguments. */
interface Run {
	host: string;
	stdin: string;
	env?: Record<string, string>;
	more?: string[];
}

const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Runs the gate once per run, each as a host does (`sh timebox-gate.sh <host>` with only the variables given, PATH and
 * HOME, on the run's stdin), one after the other from one sh. A process started from the test runner, a large
 * multi-threaded Node process, costs several times one started from sh. Stdin is a file here: the gate reads it as
 * it reads a host's pipe, one read of at most 8 KiB and then `cat` for the rest. Returns each run's stdout, the
 * gate's folder named /plugin/bin.
 */
function gates(runs: readonly Run[]): string[] {
	const dir = mkdtempSync(join(root, "runs-"));
	const script = runs.map(({ host, stdin, env = {}, more = [] }, i) => {
		writeFileSync(join(dir, `${i}.in`), stdin);
		const vars = Object.entries({ PATH: `${fakeBin}:/usr/bin:/bin`, HOME: home, ...env });
		const command = [
			...vars.map(([name, value]) => `${name}=${quoted(value)}`),
			"sh",
			...[GATE, host, ...more].map(quoted),
		];
		return `${command.join(" ")} <${i}.in >${i}.out 2>${i}.err; echo $? >${i}.status`;
	});
	// The batch starts with no variables, and sh's own PWD is dropped: each run has only those it is given.
	writeFileSync(join(dir, "runs.sh"), `unset PWD\n${script.join("\n")}\n`);
	const batch = spawnSync("sh", ["runs.sh"], { cwd: dir, env: {}, encoding: "utf8" });
	expect(batch.status).toBe(0);
	return runs.map((_, i) => {
		expect(readFileSync(join(dir, `${i}.err`), "utf8")).toBe("");
		expect(readFileSync(join(dir, `${i}.status`), "utf8")).toBe("0\n");
		// The gate names the hook script by its own path: the one beside it.
		return readFileSync(join(dir, `${i}.out`), "utf8").replaceAll(dirname(GATE), "/plugin/bin");
	});
}

const handed = (stdin: string, host = "codex") => `node /plugin/bin/timebox.cjs hook --host ${host}\n${stdin}`;

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
		const stdins = [
			event("SessionStart", { source: "startup" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "fix the tests" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "what does timebox do?" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "" }),
			event("UserPromptSubmit", { turn_id: "t1", prompt: "--- ?" }),
			event("PreToolUse", { turn_id: "t1", tool_name: "Bash", tool_input: { command: "timebox 1m" } }),
			event("PostToolUse", { turn_id: "t1", tool_name: "Bash", tool_response: "x".repeat(100_000) }),
			event("Stop", { turn_id: "t1" }),
		];
		expect(gates(stdins.map((stdin) => ({ host: "codex", stdin })))).toEqual(stdins.map(() => ""));
	});

	it("answers Gemini CLI's events with nothing where its data folder holds no log of the session", () => {
		const stdins = [event("BeforeAgent", { prompt: "hello" }), event("AfterTool", { tool_name: "x" })];
		expect(gates(stdins.map((stdin) => ({ host: "gemini", stdin })))).toEqual(["", ""]);
	});
});

describe("the hook gate when Claude Code loaded Timebox's hooks module", () => {
	it("answers every Claude Code event with nothing and starts no Node, whatever is in force", () => {
		const dataDir = join(root, "claude-data");
		logOf(dataDir);
		const env = { TIMEBOX_MODULE_LOADED: "1", CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_DEFAULT: "10m" };
		const names = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolBatch", "Stop"];
		const runs = names.map((name) => ({ host: "claude", stdin: event(name, { prompt: "/timebox 15m turns:3" }), env }));
		expect(gates(runs)).toEqual(names.map(() => ""));
	});

	it("leaves the other hosts' hooks and a Claude Code without the module as they are", () => {
		const prompt = event("UserPromptSubmit", { prompt: "/timebox 15m" });
		const dataDir = join(root, "claude-data");
		const runs: Run[] = [
			{ host: "codex", stdin: prompt, env: { TIMEBOX_MODULE_LOADED: "1" } },
			{ host: "claude", stdin: prompt, env: { CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_MODULE_LOADED: "" } },
		];
		expect(gates(runs)).toEqual([handed(prompt), handed(prompt, "claude")]);
	});
});

describe("the hook gate hands the event, whole, to the hook script", () => {
	it("for a prompt that may be a budget line, in every form a host sends it", () => {
		const prompts = [
			"timebox 15m",
			"/timebox 15m turns:3",
			"  \n\t/timebox",
			"\u00a0/timebox status",
			"/timebox:timebox off",
			"TIMEBOX-CMD 15m",
			"Timebox report",
		];
		const stdins = prompts.map((prompt) => event("UserPromptSubmit", { turn_id: "t1", prompt }));
		const gemini = event("BeforeAgent", { prompt: "TIMEBOX-CMD 15m" });
		expect(gates([...stdins.map((stdin) => ({ host: "codex", stdin })), { host: "gemini", stdin: gemini }])).toEqual([
			...stdins.map((stdin) => handed(stdin)),
			handed(gemini, "gemini"),
		]);
	});

	it("with stdin larger than the gate reads, byte for byte", () => {
		const stdin = event("UserPromptSubmit", { turn_id: "t1", prompt: `/timebox 15m ${"é".repeat(20_000)}` });
		expect(gates([{ host: "codex", stdin }])).toEqual([handed(stdin)]);
	});

	it("in a session that had a budget set: its log exists in the host's data folder", () => {
		const stop = event("Stop", { turn_id: "t1" });
		const afterTool = event("AfterTool", { tool_name: "x" });
		const elsewhere = { host: "codex", stdin: stop, env: { CODEX_HOME: join(root, "elsewhere") } };
		// A plugin's hooks are told its data folder, which the hook script uses first.
		const plugin = { host: "codex", stdin: stop, env: { CLAUDE_PLUGIN_DATA: join(root, "plugin-data") } };
		const gemini = { host: "gemini", stdin: afterTool };
		logOf(join(home, ".codex", "timebox"));
		expect(gates([{ host: "codex", stdin: stop }, elsewhere, plugin, gemini])).toEqual([handed(stop), "", "", ""]);
		logOf(join(root, "elsewhere", "timebox"));
		logOf(join(root, "plugin-data"));
		logOf(join(home, ".gemini", "timebox"));
		expect(gates([elsewhere, plugin, gemini])).toEqual([handed(stop), handed(stop), handed(afterTool, "gemini")]);
	});

	it("when a default, a daily or a subagent budget is in force, without reading stdin", () => {
		const stdin = event("SessionStart", { source: "startup" });
		const runs: Run[] = [
			{ host: "claude", stdin, env: { TIMEBOX_DEFAULT: "1h", CLAUDE_PLUGIN_DATA: join(root, "data") } },
			{ host: "gemini", stdin, env: { TIMEBOX_DEFAULT: "1h" } },
			{ host: "codex", stdin, env: { TIMEBOX_DAILY: "2h" } },
			{ host: "codex", stdin, env: { TIMEBOX_SUBAGENTS: "5m steps:30" } },
			{ host: "codex", stdin: "not json", env: { TIMEBOX_DAILY: "2h" } },
		];
		expect(gates(runs)).toEqual([
			handed(stdin, "claude"),
			handed(stdin, "gemini"),
			handed(stdin),
			handed(stdin),
			handed("not json"),
		]);
	});

	it("when a team's store is set, with no daily budget here: the limits its admin keeps there cover the session", () => {
		const stdin = event("UserPromptSubmit", { turn_id: "t1", prompt: "hello" });
		const store = { TIMEBOX_DAILY_STORE: "redis://127.0.0.1:6379", TIMEBOX_TEAM: "platform" };
		const runs: Run[] = [
			{ host: "codex", stdin, env: store },
			{ host: "gemini", stdin, env: store },
			// One of them alone, too: the hook script says what is missing.
			{ host: "codex", stdin, env: { TIMEBOX_TEAM: "platform" } },
			{ host: "codex", stdin, env: { TIMEBOX_DAILY_STORE: "redis://127.0.0.1:6379" } },
			{ host: "codex", stdin },
		];
		expect(gates(runs)).toEqual([handed(stdin), handed(stdin, "gemini"), handed(stdin), handed(stdin), ""]);
	});

	it("for a request about to be sent (Gemini's BeforeModel), only under a budget of tokens or cost", () => {
		const request = event("BeforeModel", { llm_request: { config: {} } });
		const sent = (env: Record<string, string> = {}) => ({ host: "gemini", stdin: request, env, more: ["BeforeModel"] });
		const gemini = handed(request, "gemini");
		expect(
			gates([
				sent(),
				...["1h", "turns:3"].map((words) => sent({ TIMEBOX_DEFAULT: words })),
				sent({ TIMEBOX_DAILY: "2h tokens:1m" }),
				...["1h tokens:50k", "Cost:2", "$2.50"].map((words) => sent({ TIMEBOX_DEFAULT: words })),
			]),
		).toEqual(["", "", "", "", gemini, gemini, gemini]);
		const data = join(home, ".gemini", "timebox");
		logOf(data);
		expect(gates([sent()])).toEqual([""]);
		writeFileSync(join(data, "sessions", "s1.jsonl"), '{"kind":"active","budget":{"tokenLimit":50000}}\n');
		expect(gates([sent()])).toEqual([gemini]);
	});

	it("on Codex with a default budget, every event but a session's start with nothing in its log", () => {
		const env = { TIMEBOX_DEFAULT: "1h" };
		const start = event("SessionStart", { source: "startup" });
		const stdins = [
			event("UserPromptSubmit", { turn_id: "t1", prompt: "hello" }),
			event("PreToolUse", { tool_name: "exec_command" }),
			event("Stop"),
			JSON.stringify({ session_id: "s1" }),
			"not json",
		];
		// The default budget starts at the session's first prompt: its start needs no Node.
		expect(gates([start, ...stdins].map((stdin) => ({ host: "codex", stdin, env })))).toEqual([
			"",
			...stdins.map((stdin) => handed(stdin)),
		]);
		logOf(join(home, ".codex", "timebox"));
		const runs: Run[] = [
			{ host: "codex", stdin: start, env },
			{ host: "codex", stdin: start, env: { ...env, CODEX_HOME: "" } },
		];
		expect(gates(runs)).toEqual([handed(start), handed(start)]);
	});

	it("whenever it cannot tell for sure that there is nothing to do", () => {
		const stdins = [
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
		];
		const stop = event("Stop");
		const runs: Run[] = [
			...stdins.map((stdin) => ({ host: "codex", stdin })),
			// A data folder the hook script would not find as the gate does: an empty or unset variable it reads.
			{ host: "codex", stdin: stop, env: { CODEX_HOME: "" } },
			{ host: "codex", stdin: stop, env: { CLAUDE_PLUGIN_DATA: "" } },
			{ host: "codex", stdin: stop, env: { HOME: "" } },
			// Claude Code's data folder is only ever the plugin's.
			{ host: "claude", stdin: stop },
		];
		expect(gates(runs)).toEqual([
			...stdins.map((stdin) => handed(stdin)),
			handed(stop),
			handed(stop),
			handed(stop),
			handed(stop, "claude"),
		]);
	});
});

describe("the hook gate before the real hook script", () => {
	it("lets the budget line set a budget, and from then on every event of that session reaches Timebox", () => {
		const bin = join(root, "plugin", "bin");
		mkdirSync(bin, { recursive: true });
		copyFileSync(GATE, join(bin, "timebox-gate.sh"));
		copyFileSync(join(REPO, "plugins/codex-cli/bin/timebox.cjs"), join(bin, "timebox.cjs"));
		copyFileSync(join(REPO, "plugins/codex-cli/bin/timebox-hook.cjs"), join(bin, "timebox-hook.cjs"));
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
