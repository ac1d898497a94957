// The Claude Code adapter through its command line, with hook payloads as Claude Code sends them and a fake clock:
// every mapping row of FUTURE-CLAUDE.md, from /timebox answered without a model call to the stop at a tool boundary.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
	PostToolBatchHookInput,
	PreToolUseHookInput,
	SessionStartHookInput,
	SyncHookJSONOutput,
	UserPromptSubmitHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, runStatusLineCommand } from "../../../src/adapters/claude/cli.ts";
import { ClaudeSessionStore } from "../../../src/adapters/claude/session-store.ts";
import { USAGE } from "../../../src/core/messages.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { RecordingRunner } from "../../support/memory-host.ts";

const SESSION = "3f1c2a4e-0000-4000-8000-000000000001";
let dataDir: string;
let time: FakeTime;
let runner: RecordingRunner;
let wrappedCalls: { command: string; stdin: string }[];

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-claude-"));
	time = new FakeTime();
	runner = new RecordingRunner();
	wrappedCalls = [];
});

afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

const base = { session_id: SESSION, transcript_path: "/tmp/t.jsonl", cwd: "/tmp" };

function run(payload: object, args: string[] = ["hook"]) {
	return runCli(
		args,
		JSON.stringify(payload),
		{ CLAUDE_PLUGIN_DATA: dataDir },
		{
			clock: time,
			onStop: runner,
			runStatusLine: (command, stdin) => {
				wrappedCalls.push({ command, stdin });
				return "main ~/project\n";
			},
		},
	);
}

/** Sends a hook event and returns the JSON Claude Code would read ({} for no answer), typed as the SDK types it. */
function hook(payload: object): SyncHookJSONOutput {
	const { stdout, stderr } = run(payload);
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as SyncHookJSONOutput);
}

function submit(prompt: string, promptId: string): SyncHookJSONOutput {
	const input: UserPromptSubmitHookInput = {
		...base,
		hook_event_name: "UserPromptSubmit",
		prompt,
		prompt_id: promptId,
	} as UserPromptSubmitHookInput;
	return hook(input);
}

function preToolUse(promptId: string): SyncHookJSONOutput {
	const input = {
		...base,
		hook_event_name: "PreToolUse",
		prompt_id: promptId,
		tool_name: "Bash",
		tool_input: { command: "sleep 5" },
		tool_use_id: "toolu_1",
	} as PreToolUseHookInput;
	return hook(input);
}

function postToolBatch(promptId: string): SyncHookJSONOutput {
	return hook({
		...base,
		hook_event_name: "PostToolBatch",
		prompt_id: promptId,
		tool_calls: [],
	} as unknown as PostToolBatchHookInput);
}

function sessionStart(source: SessionStartHookInput["source"]): SyncHookJSONOutput {
	return hook({ ...base, hook_event_name: "SessionStart", source } as SessionStartHookInput);
}

function statusLine(extra: string[] = []): string {
	return run({ ...base, model: { id: "m" } }, ["statusline", ...extra]).stdout;
}

const SPENT = (turns: string, time: string) =>
	`Timebox budget spent. Used ${turns}, ${time}. The agent stops for this turn. The chat continues.`;

describe("/timebox typed in Claude Code", () => {
	it("sets a budget and answers with decision block, so no model call happens", () => {
		expect(submit("/timebox 15m turns:3", "p0")).toEqual({
			decision: "block",
			reason: "Timebox set: 15m and 3 turns.",
		});
		expect(statusLine()).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)\n");
	});

	it("accepts the namespaced form /timebox:timebox", () => {
		expect(submit("/timebox:timebox turns:2", "p0")).toEqual({ decision: "block", reason: "Timebox set: 2 turns." });
	});

	it("answers status, off, and bad input with the usage, changing nothing on bad input", () => {
		expect(submit("/timebox status", "p0")).toEqual({ decision: "block", reason: `No active timebox.\n${USAGE}` });
		submit("/timebox 10m -- say done", "p1");
		expect(submit("/timebox status", "p2")).toEqual({
			decision: "block",
			reason: "Timebox: 10m 0s left (10m budget) | no turn limit\nOn stop it runs: say done",
		});
		expect(submit("/timebox 15m turn:3", "p3")).toEqual({
			decision: "block",
			reason: `Timebox: "turn:3" is neither a time (30s, 15m, 2h) nor a turn count (turns:5). Nothing changed.\n${USAGE}`,
		});
		expect(statusLine()).toBe("Timebox: 10m 0s left (10m budget) | no turn limit\n");
		expect(submit("/timebox off", "p4")).toEqual({ decision: "block", reason: "Timebox off." });
		expect(submit("/timebox off", "p5")).toEqual({ decision: "block", reason: "No active timebox." });
		expect(statusLine()).toBe("\n");
	});

	it("does not count /timebox lines as turns", () => {
		submit("/timebox turns:2", "p0");
		submit("/timebox status", "p1");
		expect(submit("first", "p2")).toEqual({});
		expect(statusLine()).toBe("Timebox: no time limit | 1 turn left (1/2)\n");
	});
});

describe("turns", () => {
	it("lets N prompts through and blocks prompt N+1 with the hard-stop message, running the command once", () => {
		submit("/timebox turns:2 -- notify-send done", "p0");
		expect(submit("one", "p1")).toEqual({});
		expect(submit("two", "p2")).toEqual({});
		time.advance(65_000);
		expect(submit("three", "p3")).toEqual({
			decision: "block",
			reason: `${SPENT("2 turns", "1m 5s")}\nTimebox ran the on-stop command: notify-send done`,
		});
		expect(runner.commands).toEqual(["notify-send done"]);
		expect(submit("four", "p4")).toEqual({});
		expect(runner.commands).toEqual(["notify-send done"]);
		expect(statusLine()).toBe("Timebox: budget spent\n");
	});

	it("counts a message typed mid-turn (same prompt id) as the same turn", () => {
		submit("/timebox turns:2", "p0");
		submit("one", "p1");
		submit("also this", "p1");
		expect(submit("two", "p2")).toEqual({});
		expect(submit("three", "p3")).toMatchObject({ decision: "block" });
	});

	it("nudges at 80% once for the user and on every later prompt for the model", () => {
		submit("/timebox turns:5", "p0");
		for (const id of ["p1", "p2", "p3", "p4"]) expect(submit(id, id)).toEqual({});
		const fifth = submit("five", "p5");
		expect(fifth.systemMessage).toBe(
			"Timebox warning: no time limit | 1 turn left (4/5). The agent is now asked to wrap up.",
		);
		expect(fifth.hookSpecificOutput).toEqual({
			hookEventName: "UserPromptSubmit",
			additionalContext: expect.stringContaining("IMPORTANT TIMEBOX WARNING"),
		});
		const again = submit("five, more", "p5");
		expect(again.systemMessage).toBeUndefined();
		expect(again.hookSpecificOutput).toMatchObject({ additionalContext: expect.stringContaining("TIMEBOX WARNING") });
	});
});

describe("time", () => {
	it("stops the run at the next tool call once the time is up: deny and continue false, once", () => {
		submit("/timebox 1m -- lmk", "p0");
		expect(submit("long job", "p1")).toEqual({});
		expect(preToolUse("p1")).toEqual({});
		time.advance(60_000);
		const stop = SPENT("0 turns", "1m 0s");
		expect(preToolUse("p1")).toEqual({
			continue: false,
			stopReason: `${stop}\nTimebox ran the on-stop command: lmk`,
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: `${stop}\nTimebox ran the on-stop command: lmk`,
			},
		});
		expect(preToolUse("p1")).toEqual({
			continue: false,
			stopReason: stop,
			hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: stop },
		});
		expect(runner.commands).toEqual(["lmk"]);
		expect(preToolUse("p2")).toEqual({});
		expect(submit("next prompt", "p2")).toEqual({});
	});

	it("stops before the next model call at PostToolBatch", () => {
		submit("/timebox 30s", "p0");
		submit("job", "p1");
		time.advance(31_000);
		expect(postToolBatch("p1")).toEqual({ continue: false, stopReason: SPENT("0 turns", "31s") });
	});

	it("blocks the first prompt after the time ran out while idle, and lets the next one through", () => {
		submit("/timebox 30s", "p0");
		time.advance(45_000);
		expect(submit("hello?", "p1")).toEqual({ decision: "block", reason: SPENT("0 turns", "45s") });
		expect(submit("hello again", "p2")).toEqual({});
	});

	it("does not stop on turns at a tool boundary: turns are spent by prompts", () => {
		submit("/timebox turns:1", "p0");
		submit("one", "p1");
		expect(preToolUse("p1")).toEqual({});
	});
});

describe("sessions", () => {
	it("says what it restored on resume, and nothing on compact", () => {
		submit("/timebox 15m -- lmk", "p0");
		time.advance(5 * 60_000);
		expect(sessionStart("resume")).toEqual({
			systemMessage: "Timebox restored: 10m 0s left (15m budget) | no turn limit. On stop it runs: lmk",
		});
		expect(sessionStart("compact")).toEqual({});
	});

	it("restores nothing in a fresh session and reports a damaged newest record", () => {
		expect(sessionStart("startup")).toEqual({});
		mkdirSync(join(dataDir, "sessions"), { recursive: true });
		writeFileSync(
			join(dataDir, "sessions", `${SESSION}.jsonl`),
			'{"kind":"active","budget":{"turnLimit":"x"}}\nnot json\n',
		);
		expect(sessionStart("resume")).toEqual({
			systemMessage:
				"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.",
		});
	});

	it("keeps each session's budget in its own append-only file", () => {
		submit("/timebox turns:3", "p0");
		const log = readFileSync(join(dataDir, "sessions", `${SESSION}.jsonl`), "utf8")
			.trim()
			.split("\n");
		expect(log.map((line) => JSON.parse(line).kind)).toEqual(["active"]);
		submit("one", "p1");
		const after = readFileSync(join(dataDir, "sessions", `${SESSION}.jsonl`), "utf8")
			.trim()
			.split("\n");
		expect(JSON.parse(after[1] ?? "{}")).toEqual({ kind: "prompt", promptId: "p1", at: time.now() });
	});
});

describe("status line", () => {
	it("wraps the user's own status line command with the same stdin", () => {
		submit("/timebox turns:3", "p0");
		expect(statusLine(["--wrap", "my-status"])).toBe("main ~/project | Timebox: no time limit | 3 turns left (0/3)\n");
		expect(wrappedCalls).toEqual([{ command: "my-status", stdin: JSON.stringify({ ...base, model: { id: "m" } }) }]);
	});

	it("reads the data folder from --data when the environment has none", () => {
		submit("/timebox turns:3", "p0");
		const result = runCli(
			["statusline", "--data", dataDir],
			JSON.stringify(base),
			{},
			{
				clock: time,
				onStop: runner,
				runStatusLine: () => "",
			},
		);
		expect(result.stdout).toBe("Timebox: no time limit | 3 turns left (0/3)\n");
	});
});

describe("bad input never breaks Claude Code", () => {
	it.each([
		["not JSON", "{", "timebox: ignored this hook call: stdin is not JSON\n"],
		["an array", "[]", "timebox: ignored this hook call: stdin is not a JSON object\n"],
		[
			"no event",
			JSON.stringify({ session_id: SESSION }),
			"timebox: ignored this hook call: hook_event_name is missing\n",
		],
		[
			"a path as session id",
			JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "../../etc/passwd", prompt: "/timebox off" }),
			"timebox: ignored this hook call: session_id is missing or not a plain id\n",
		],
	])("answers %s with one stderr line, no output and no change", (_name, stdin, stderr) => {
		const result = runCli(
			["hook"],
			stdin,
			{ CLAUDE_PLUGIN_DATA: dataDir },
			{
				clock: time,
				onStop: runner,
				runStatusLine: () => "",
			},
		);
		expect(result).toEqual({ stdout: "", stderr });
	});

	it("explains a missing data folder and a wrong mode", () => {
		const deps = { clock: time, onStop: runner, runStatusLine: () => "" };
		expect(runCli(["hook"], JSON.stringify({ ...base, hook_event_name: "Stop" }), {}, deps).stderr).toBe(
			"timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n",
		);
		expect(runCli(["serve"], "", {}, deps).stderr).toBe(
			"timebox: usage: timebox hook | timebox statusline [--data <folder>] [--wrap <command>]\n",
		);
	});

	it("ignores events it does not use", () => {
		expect(hook({ ...base, hook_event_name: "Stop", stop_hook_active: false })).toEqual({});
	});

	it("lets a prompt through on an internal error (an unwritable data folder), with one stderr line", () => {
		writeFileSync(join(dataDir, "sessions"), "a file where the folder should be");
		const result = run({ ...base, hook_event_name: "UserPromptSubmit", prompt: "hello", prompt_id: "p0" });
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^timebox: internal error, nothing enforced for this UserPromptSubmit: /);
	});

	it("still blocks a /timebox line on an internal error, so the model never sees it", () => {
		writeFileSync(join(dataDir, "sessions"), "a file where the folder should be");
		const result = run({ ...base, hook_event_name: "UserPromptSubmit", prompt: "/timebox 5m", prompt_id: "p0" });
		expect(JSON.parse(result.stdout)).toEqual({
			decision: "block",
			reason: expect.stringMatching(
				/^Timebox hit an internal error \(\/timebox\): .+\. Your session goes on; check the budget with \/timebox status\.$/,
			),
		});
		expect(run({ ...base, hook_event_name: "PreToolUse", prompt_id: "p0" }).stdout).toBe("");
	});
});

describe("parts", () => {
	it("reports an on-stop command that cannot start in the stop message", () => {
		submit("/timebox turns:1 -- lmk", "p0");
		submit("one", "p1");
		const failing = runCli(
			["hook"],
			JSON.stringify({ ...base, hook_event_name: "UserPromptSubmit", prompt: "two", prompt_id: "p2" }),
			{ CLAUDE_PLUGIN_DATA: dataDir },
			{
				clock: time,
				onStop: { run: (_command, report) => report('could not start "lmk": spawn EAGAIN') },
				runStatusLine: () => "",
			},
		);
		expect(JSON.parse(failing.stdout)).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\nTimebox on-stop command failed: could not start "lmk": spawn EAGAIN`,
		});
	});

	it("reads damaged log lines without throwing or showing NaN", () => {
		const file = join(dataDir, "sessions", `${SESSION}.jsonl`);
		submit("/timebox turns:3", "p0");
		const start = JSON.parse(readFileSync(file, "utf8").split("\n")[0] ?? "{}").budget.startTime;
		writeFileSync(
			file,
			`${readFileSync(file, "utf8")}[1,2]\n"text"\n{"kind":"prompt","promptId":7}\n{"kind":"spent","budgetStart":${start},"usedTurns":"two"}\n`,
		);
		expect(statusLine()).toBe("Timebox: budget spent\n");
		expect(submit("/timebox status", "p1")).toEqual({
			decision: "block",
			reason:
				"Timebox budget spent. Used 0 turns, 0s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.",
		});
	});

	it("lists only the core's records as the store's records", () => {
		submit("/timebox turns:3", "p0");
		submit("one", "p1");
		submit("/timebox off", "p2");
		const store = new ClaudeSessionStore(dataDir, SESSION);
		expect(store.loadRecords()).toEqual([
			{ kind: "active", budget: expect.objectContaining({ turnLimit: 3 }) },
			{ kind: "off", disabledAt: time.now() },
		]);
		expect(store.claim("x")).toBe(true);
		expect(store.claim("x")).toBe(false);
	});

	it("runs the user's status line command through /bin/sh with the given stdin", () => {
		expect(runStatusLineCommand("read line; printf 'got %s\\nsecond' \"$line\"", "hello\n")).toBe("got hello");
		expect(runStatusLineCommand("exit 3", "")).toBe("");
	});
});

describe("edges", () => {
	const claimFile = (key: string) => join(dataDir, "sessions", `${SESSION}.${key}.claim`);
	const startOf = () =>
		JSON.parse(readFileSync(join(dataDir, "sessions", `${SESSION}.jsonl`), "utf8").split("\n")[0] ?? "{}").budget
			.startTime as number;

	it("answers a bare /timebox with the usage", () => {
		expect(submit("/timebox", "p0")).toEqual({
			decision: "block",
			reason: `Timebox: No budget given. Nothing changed.\n${USAGE}`,
		});
	});

	it("counts a prompt without a prompt id or text each time", () => {
		submit("/timebox turns:2", "p0");
		expect(hook({ ...base, hook_event_name: "UserPromptSubmit" })).toEqual({});
		expect(hook({ ...base, hook_event_name: "UserPromptSubmit", prompt: "two" })).toEqual({});
		expect(hook({ ...base, hook_event_name: "UserPromptSubmit", prompt: "three" })).toMatchObject({
			decision: "block",
		});
	});

	it("leaves the user's nudge to the hook that claimed it, but still warns the model", () => {
		submit("/timebox turns:5", "p0");
		for (const id of ["p1", "p2", "p3", "p4"]) submit(id, id);
		writeFileSync(claimFile(`nudge-${startOf()}`), "");
		const fifth = submit("five", "p5");
		expect(fifth.systemMessage).toBeUndefined();
		expect(fifth.hookSpecificOutput).toMatchObject({ additionalContext: expect.stringContaining("TIMEBOX WARNING") });
	});

	it("stops without running the command again when a parallel hook claimed the stop", () => {
		submit("/timebox 1m -- lmk", "p0");
		submit("job", "p1");
		time.advance(60_000);
		writeFileSync(claimFile(`spent-${startOf()}`), "");
		expect(preToolUse("p1")).toMatchObject({ continue: false, stopReason: SPENT("0 turns", "1m 0s") });
		expect(runner.commands).toEqual([]);
	});

	it("lets tools run without a budget", () => {
		expect(preToolUse("p1")).toEqual({});
	});

	it("reports a failure that is not an Error", () => {
		submit("/timebox 1s -- lmk", "p0");
		time.advance(2_000);
		const result = runCli(
			["hook"],
			JSON.stringify({ ...base, hook_event_name: "PreToolUse", prompt_id: "p1" }),
			{ CLAUDE_PLUGIN_DATA: dataDir },
			{
				clock: time,
				onStop: {
					run: () => {
						throw "no processes left";
					},
				},
				runStatusLine: () => "",
			},
		);
		expect(result).toEqual({
			stdout: "",
			stderr: "timebox: internal error, nothing enforced for this PreToolUse: no processes left\n",
		});
	});

	it("shows nothing of a status line command that cannot run", () => {
		expect(runStatusLineCommand("echo hi", "", "/nonexistent/shell")).toBe("");
	});
});
