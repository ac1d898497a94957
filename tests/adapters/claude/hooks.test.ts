// The Claude Code adapter through its command line, with hook payloads as Claude Code sends them, a manual clock and a
// temporary data folder per test (session logs and the per-user ledger): every mapping row of FUTURE-CLAUDE.md, from
// /timebox answered without a model call to the stop at a tool boundary, and logs written by the first version.

import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
	PostToolBatchHookInput,
	PreToolUseHookInput,
	SessionStartHookInput,
	StopHookInput,
	SyncHookJSONOutput,
	UserPromptSubmitHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { type CliDeps, type CliResult, runCli, runStatusLineCommand } from "../../../src/adapters/hooks/cli.ts";
import { handleHook } from "../../../src/adapters/hooks/handle.ts";
import { parseHookInput } from "../../../src/adapters/hooks/input.ts";
import { createFileLedger } from "../../../src/adapters/node/file-ledger.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import {
	type BudgetLedger,
	type Clock,
	LEDGER_FOLDER,
	type OnStopOutcome,
	type OnStopStarter,
	USAGE,
} from "../../../src/core/index.ts";

/** What `/timebox status` adds on the classic hooks. */
const CLASSIC = "\nTimebox runs on Claude Code's classic hooks.";

const SESSION = "3f1c2a4e-0000-4000-8000-000000000001";
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

/** A clock that moves only when the test says so: two budgets can be set in the same millisecond. */
class ManualClock implements Clock {
	private current = START;

	now(): number {
		return this.current;
	}

	advance(ms: number): void {
		this.current += ms;
	}
}

/** Stands in for the shell: a command "runs" by being listed in `ran`, and the start is reported as `outcome` says. */
class FakeShell implements OnStopStarter {
	readonly ran: string[] = [];

	constructor(private readonly outcomes: readonly OnStopOutcome[] = [{ kind: "started" }]) {}

	start(command: string, report: (outcome: OnStopOutcome) => void): void {
		this.ran.push(command);
		for (const outcome of this.outcomes) report(outcome);
	}
}

let dataDir: string;
let clock: ManualClock;
let shell: FakeShell;
let budgetIds: number;
let wrappedCalls: { command: string; stdin: string }[];
let watchers: { folder: string; sessionId: string; budget: string }[];

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-claude-"));
	clock = new ManualClock();
	shell = new FakeShell();
	budgetIds = 0;
	wrappedCalls = [];
	watchers = [];
});

afterEach(() => {
	vi.useRealTimers();
	rmSync(dataDir, { recursive: true, force: true });
});

const base = { session_id: SESSION, transcript_path: "/nonexistent/transcript.jsonl", cwd: "/nonexistent" };

const logFile = () => join(dataDir, "sessions", `${SESSION}.jsonl`);
const ledgerDir = () => join(dataDir, LEDGER_FOLDER);

function deps(overrides: Partial<CliDeps> = {}): CliDeps {
	return {
		hosts: [claudeCodeHost, geminiCliHost, codexCliHost],
		clock,
		onStop: shell,
		runStatusLine: (command, stdin) => {
			wrappedCalls.push({ command, stdin });
			return "main ~/project\n";
		},
		newBudgetId: () => `budget-${++budgetIds}`,
		script: "/plugin/bin/timebox.mjs",
		startWatcher: (folder, sessionId, budget) => watchers.push({ folder, sessionId, budget }),
		sleep: async (ms) => clock.advance(ms),
		...overrides,
	};
}

function run(payload: object, args: string[] = ["hook"], overrides: Partial<CliDeps> = {}): Promise<CliResult> {
	return runCli(args, JSON.stringify(payload), { CLAUDE_PLUGIN_DATA: dataDir }, deps(overrides));
}

/** Sends a hook event and returns the JSON Claude Code would read ({} for no answer), typed as the SDK types it. */
async function hook(payload: object, overrides: Partial<CliDeps> = {}): Promise<SyncHookJSONOutput> {
	const { stdout, stderr } = await run(payload, ["hook"], overrides);
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as SyncHookJSONOutput);
}

function promptPayload(prompt: string, promptId: string): UserPromptSubmitHookInput {
	return { ...base, hook_event_name: "UserPromptSubmit", prompt, prompt_id: promptId };
}

function toolPayload(promptId: string | undefined, toolUseId = "toolu_1"): PreToolUseHookInput {
	return {
		...base,
		hook_event_name: "PreToolUse",
		...(promptId === undefined ? {} : { prompt_id: promptId }),
		tool_name: "Bash",
		tool_input: { command: "sleep 5" },
		tool_use_id: toolUseId,
	};
}

function submit(prompt: string, promptId: string, overrides: Partial<CliDeps> = {}): Promise<SyncHookJSONOutput> {
	return hook(promptPayload(prompt, promptId), overrides);
}

function preToolUse(promptId: string | undefined, overrides: Partial<CliDeps> = {}): Promise<SyncHookJSONOutput> {
	return hook(toolPayload(promptId), overrides);
}

function postToolBatchPayload(promptId: string): PostToolBatchHookInput {
	return { ...base, hook_event_name: "PostToolBatch", prompt_id: promptId, tool_calls: [] };
}

function postToolBatch(promptId: string): Promise<SyncHookJSONOutput> {
	return hook(postToolBatchPayload(promptId));
}

function sessionStart(source: SessionStartHookInput["source"]): Promise<SyncHookJSONOutput> {
	const input: SessionStartHookInput = { ...base, hook_event_name: "SessionStart", source };
	return hook(input);
}

async function statusLine(extra: string[] = []): Promise<string> {
	return (await run({ ...base, model: { id: "m" } }, ["statusline", ...extra])).stdout;
}

/** The session log, one parsed object a line. */
function logLines(): Record<string, unknown>[] {
	return readFileSync(logFile(), "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Writes the session log by hand, as the first version (or another process) left it. */
function writeLog(lines: readonly (object | string)[]): void {
	mkdirSync(join(dataDir, "sessions"), { recursive: true });
	writeFileSync(logFile(), lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n"));
}

const SPENT = (turns: string, time: string) =>
	`Timebox budget spent. Used ${turns}, ${time}. The agent stops for this turn. The chat continues.`;
const RAN = (command: string) => `Timebox ran the on-stop command: ${command}`;

/** The answer of a PreToolUse hook that stops the run: the tool is denied, with the reason the model reads. */
function deniedTool(stopReason: string, modelReason: string) {
	return {
		continue: false,
		stopReason,
		hookSpecificOutput: {
			hookEventName: "PreToolUse",
			permissionDecision: "deny",
			permissionDecisionReason: modelReason,
		},
	};
}

describe("/timebox typed in Claude Code", () => {
	it("sets a budget and answers with decision block, so no model call happens", async () => {
		expect(await submit("/timebox 15m turns:3", "p0")).toEqual({
			decision: "block",
			reason: "Timebox set: 15m and 3 turns.",
		});
		expect(await statusLine()).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)\n");
	});

	it("accepts the namespaced form /timebox:timebox", async () => {
		expect(await submit("/timebox:timebox turns:2", "p0")).toEqual({
			decision: "block",
			reason: "Timebox set: 2 turns.",
		});
	});

	it("answers status and off without the usage, and bad input with it, changing nothing on bad input", async () => {
		expect(await submit("/timebox status", "p0")).toEqual({
			decision: "block",
			reason: `No active timebox.${CLASSIC}`,
		});
		await submit("/timebox 10m -- say done", "p1");
		expect(await submit("/timebox status", "p2")).toEqual({
			decision: "block",
			reason: `Timebox: 10m 0s left (10m budget) | no turn limit\nOn stop it runs: say done${CLASSIC}`,
		});
		expect(await submit("/timebox 15m turn:3", "p3")).toEqual({
			decision: "block",
			reason: `Timebox: "turn:3" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s. Nothing changed.\n${USAGE}`,
		});
		expect(await statusLine()).toBe("Timebox: 10m 0s left (10m budget) | no turn limit\n");
		expect(await submit("/timebox off", "p4")).toEqual({ decision: "block", reason: "Timebox off." });
		expect(await submit("/timebox off", "p5")).toEqual({ decision: "block", reason: "No active timebox." });
		expect(await statusLine()).toBe("\n");
	});

	it("answers a bare /timebox with the usage", async () => {
		expect(await submit("/timebox", "p0")).toEqual({
			decision: "block",
			reason: `Timebox: No budget given. Nothing changed.\n${USAGE}`,
		});
	});

	it("says when a new budget replaces a running one", async () => {
		await submit("/timebox turns:2", "p0");
		expect(await submit("/timebox 5m", "p1")).toEqual({
			decision: "block",
			reason: "Timebox set: 5m. It replaces the previous budget.",
		});
		expect(await statusLine()).toBe("Timebox: 5m 0s left (5m budget) | no turn limit\n");
	});

	it("does not count /timebox lines as turns", async () => {
		await submit("/timebox turns:2", "p0");
		await submit("/timebox status", "p1");
		expect(await submit("first", "p2")).toEqual({});
		expect(await statusLine()).toBe("Timebox: no time limit | 1 turn left (1/2)\n");
	});

	it("does not count the prompt being answered in a /timebox status typed mid-turn", async () => {
		await submit("/timebox turns:3", "p0");
		await submit("one", "p1");
		expect(await submit("/timebox status", "p1")).toEqual({
			decision: "block",
			reason: `Timebox: no time limit | 3 turns left (0/3)${CLASSIC}`,
		});
		expect(await submit("/timebox status", "p2")).toEqual({
			decision: "block",
			reason: `Timebox: no time limit | 2 turns left (1/3)${CLASSIC}`,
		});
	});
});

describe("turns", () => {
	it("lets N prompts through and blocks prompt N+1 with the hard-stop message, running the command once", async () => {
		await submit("/timebox turns:2 -- notify-send done", "p0");
		expect(await submit("one", "p1")).toEqual({});
		expect(await submit("two", "p2")).toEqual({});
		clock.advance(65_000);
		expect(await submit("three", "p3")).toEqual({
			decision: "block",
			reason: `${SPENT("2 turns", "1m 5s")}\n${RAN("notify-send done")}`,
		});
		expect(shell.ran).toEqual(["notify-send done"]);
		expect(await submit("four", "p4")).toEqual({});
		expect(shell.ran).toEqual(["notify-send done"]);
		expect(await statusLine()).toBe("Timebox: budget spent\n");
		expect(await submit("/timebox status", "p5")).toEqual({
			decision: "block",
			reason: `Timebox budget spent. Used 2 turns, 1m 5s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.${CLASSIC}`,
		});
	});

	it("lets prompts through without a budget, and counts only the prompts sent after one is set", async () => {
		expect(await submit("before", "p1")).toEqual({});
		expect(await submit("/timebox turns:1", "p2")).toEqual({ decision: "block", reason: "Timebox set: 1 turn." });
		expect(await statusLine()).toBe("Timebox: no time limit | 1 turn left (0/1)\n");
		expect(await submit("one", "p3")).toEqual({});
		expect(await submit("two", "p4")).toEqual({ decision: "block", reason: SPENT("1 turn", "0s") });
	});

	it("counts a message typed mid-turn (same prompt id) as the same turn", async () => {
		await submit("/timebox turns:2", "p0");
		await submit("one", "p1");
		expect(await submit("also this", "p1")).toEqual({});
		expect(await submit("two", "p2")).toEqual({});
		expect(await submit("more for two", "p2")).toEqual({});
		expect(await submit("three", "p3")).toEqual({ decision: "block", reason: SPENT("2 turns", "0s") });
	});

	it("counts a prompt without a prompt id or text each time", async () => {
		await submit("/timebox turns:2", "p0");
		expect(await hook({ ...base, hook_event_name: "UserPromptSubmit" })).toEqual({});
		expect(await hook({ ...base, hook_event_name: "UserPromptSubmit", prompt: "two" })).toEqual({});
		expect(await hook({ ...base, hook_event_name: "UserPromptSubmit", prompt: "three" })).toEqual({
			decision: "block",
			reason: SPENT("2 turns", "0s"),
		});
	});

	it("nudges at 80% once for the user and on every later prompt for the model", async () => {
		await submit("/timebox turns:5", "p0");
		for (const id of ["p1", "p2", "p3", "p4"]) expect(await submit(id, id)).toEqual({});
		// A message typed while prompt 4 runs is part of prompt 4: 3 of 5 used, no warning yet.
		expect(await submit("four, more", "p4")).toEqual({});
		const fifth = await submit("five", "p5");
		expect(fifth.systemMessage).toBe("Timebox: 1 prompt left of 5 — the model is asked to wrap up.");
		expect(fifth.hookSpecificOutput).toEqual({
			hookEventName: "UserPromptSubmit",
			additionalContext: expect.stringContaining(
				"IMPORTANT TIMEBOX WARNING\nThe user gave this session a budget and it is nearly spent.\nTurns: this is the last prompt the budget allows (4 of 5 used).",
			),
		});
		const again = await submit("five, more", "p5");
		expect(again.systemMessage).toBeUndefined();
		expect(again.hookSpecificOutput).toEqual(fifth.hookSpecificOutput);
		expect(await submit("six", "p6")).toEqual({ decision: "block", reason: SPENT("5 turns", "0s") });
	});
});

describe("time", () => {
	it("stops the run at the next tool call once the time is up: deny and continue false, once", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		expect(await submit("long job", "p1")).toEqual({});
		expect(await preToolUse("p1")).toEqual({});
		clock.advance(60_000);
		const stop = SPENT("0 turns", "1m 0s");
		expect(await preToolUse("p1")).toEqual(deniedTool(`${stop}\n${RAN("lmk")}`, stop));
		expect(await preToolUse("p1")).toEqual(deniedTool(stop, stop));
		expect(await postToolBatch("p1")).toEqual({ continue: false, stopReason: stop });
		expect(shell.ran).toEqual(["lmk"]);
		expect(await preToolUse("p2")).toEqual({});
		expect(await submit("next prompt", "p2")).toEqual({});
		expect(await preToolUse("p2")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
	});

	it("stops before the next model call at PostToolBatch", async () => {
		await submit("/timebox 30s", "p0");
		await submit("job", "p1");
		clock.advance(31_000);
		expect(await postToolBatch("p1")).toEqual({ continue: false, stopReason: SPENT("0 turns", "31s") });
		expect(await postToolBatch("p1")).toEqual({ continue: false, stopReason: SPENT("0 turns", "31s") });
	});

	it("blocks a message typed mid-turn once the time is up, and refuses the rest of that run", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("job", "p1");
		clock.advance(70_000);
		const stop = SPENT("0 turns", "1m 10s");
		expect(await submit("are you done?", "p1")).toEqual({ decision: "block", reason: `${stop}\n${RAN("lmk")}` });
		expect(await preToolUse("p1")).toEqual(deniedTool(stop, stop));
		expect(await submit("and now?", "p2")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
	});

	it("blocks the first prompt after the time ran out while idle, and lets the next one through", async () => {
		await submit("/timebox 30s", "p0");
		clock.advance(45_000);
		expect(await submit("hello?", "p1")).toEqual({ decision: "block", reason: SPENT("0 turns", "45s") });
		expect(await submit("hello again", "p2")).toEqual({});
	});

	it("does not stop on turns at a tool boundary: turns are spent by prompts", async () => {
		await submit("/timebox turns:1", "p0");
		await submit("one", "p1");
		expect(await preToolUse("p1")).toEqual({});
		expect(await postToolBatch("p1")).toEqual({});
	});

	it("warns the user once at a tool call when 80% of the time is used, and the model on every later prompt", async () => {
		await submit("/timebox 10m", "p0");
		await submit("job", "p1");
		clock.advance(8 * 60_000);
		expect(await preToolUse("p1")).toEqual({
			systemMessage: "Timebox: 2m 0s left of 10m — the model is asked to wrap up.",
		});
		expect(await preToolUse("p1")).toEqual({});
		const next = await submit("next", "p2");
		expect(next.systemMessage).toBeUndefined();
		expect(next.hookSpecificOutput).toEqual({
			hookEventName: "UserPromptSubmit",
			additionalContext: expect.stringMatching(/^IMPORTANT TIMEBOX WARNING\n.*\nTime left: 2m 0s of 10m\.\n/),
		});
		clock.advance(90_000);
		const last = await submit("last", "p3");
		expect(last.hookSpecificOutput).toEqual({
			hookEventName: "UserPromptSubmit",
			additionalContext: expect.stringMatching(/^CRITICAL TIMEBOX WARNING\n.*\nTime left: 30s of 10m\.\n/),
		});
	});

	it("treats a tool call without a prompt id (before Claude Code 2.1.196) as part of the latest prompt", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("job", "p1");
		clock.advance(60_000);
		const stop = SPENT("0 turns", "1m 0s");
		expect(await preToolUse(undefined)).toEqual(deniedTool(`${stop}\n${RAN("lmk")}`, stop));
		expect(await preToolUse(undefined)).toEqual(deniedTool(stop, stop));
	});

	it("lets tools run without a budget, or before any prompt", async () => {
		expect(await preToolUse("p1")).toEqual({});
		await submit("/timebox 10m", "p0");
		expect(await preToolUse("p1")).toEqual({});
	});
});

describe("parallel hooks", () => {
	it("runs the on-stop command from exactly one of the parallel tool calls, and refuses them all", async () => {
		const command = "say stopped";
		await submit(`/timebox 1m -- ${command}`, "p0");
		await submit("job", "p1");
		clock.advance(61_000);
		const answers = await Promise.all(
			["toolu_1", "toolu_2", "toolu_3"].map(async (id) =>
				JSON.parse((await run(toolPayload("p1", id), ["hook"])).stdout),
			),
		);
		const stop = SPENT("0 turns", "1m 1s");
		expect(answers.filter((answer) => answer.stopReason === `${stop}\n${RAN(command)}`)).toHaveLength(1);
		for (const answer of answers) expect(answer).toMatchObject(deniedTool(expect.any(String), stop));
		// A later tool call of the stopped prompt is refused too, and runs nothing.
		expect(await preToolUse("p1")).toEqual(deniedTool(stop, stop));
		expect(shell.ran).toEqual([command]);
	});

	/** A ledger in which another hook's claim lands between this hook's read and its own claim. */
	function racingLedger(): BudgetLedger {
		const files = createFileLedger(ledgerDir());
		return {
			read: (budgetId) => files.read(budgetId),
			claim: (claim) => {
				files.claim(claim);
				return files.claim(claim);
			},
		};
	}

	async function racingHook(payload: object): Promise<unknown> {
		const input = parseHookInput(JSON.stringify(payload));
		if ("error" in input) throw new Error(input.error);
		const store = new SessionLog(dataDir, SESSION);
		const event = claudeCodeHost.read(input);
		const reply = await handleHook(event, { store, ledger: racingLedger(), clock, onStop: shell });
		return reply === null ? null : claudeCodeHost.write(reply, event);
	}

	it("answers the stop without running the command when a parallel hook claimed it first", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("job", "p1");
		clock.advance(60_000);
		const stop = SPENT("0 turns", "1m 0s");
		expect(await racingHook(toolPayload("p1"))).toEqual(deniedTool(stop, stop));
		expect(await racingHook({ ...base, hook_event_name: "PostToolBatch", prompt_id: "p1" })).toEqual({
			continue: false,
			stopReason: stop,
		});
		expect(shell.ran).toEqual([]);
	});

	it("leaves the user's warning to the hook that claimed it, but still warns the model", async () => {
		await submit("/timebox turns:5", "p0");
		for (const id of ["p1", "p2", "p3", "p4"]) await submit(id, id);
		expect(await racingHook(promptPayload("five", "p5"))).toEqual({
			hookSpecificOutput: {
				hookEventName: "UserPromptSubmit",
				additionalContext: expect.stringContaining("IMPORTANT TIMEBOX WARNING"),
			},
		});
	});
});

describe("budgets never confused", () => {
	it("enforces a second budget set in the same millisecond as a spent one, and runs its on-stop command", async () => {
		const commandA = "say A";
		const commandB = "say B";
		expect(await submit(`/timebox turns:1 -- ${commandA}`, "p0")).toEqual({
			decision: "block",
			reason: `Timebox set: 1 turn. On stop it runs: ${commandA}`,
		});
		expect(await submit("one", "p1")).toEqual({});
		expect(await submit("two", "p2")).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\n${RAN(commandA)}`,
		});
		expect(shell.ran).toEqual([commandA]);

		// The clock has not moved: budget B starts in the very millisecond budget A started.
		expect(await submit(`/timebox turns:1 -- ${commandB}`, "p3")).toEqual({
			decision: "block",
			reason: `Timebox set: 1 turn. On stop it runs: ${commandB}`,
		});
		const starts = logLines()
			.filter((line) => line.kind === "active")
			.map((line) => (line.budget as { startTime: number }).startTime);
		expect(starts).toEqual([START, START]);
		expect(await statusLine()).toBe("Timebox: no time limit | 1 turn left (0/1)\n");
		expect(await submit("three", "p4")).toEqual({});
		expect(await submit("four", "p5")).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\n${RAN(commandB)}`,
		});
		expect(shell.ran).toEqual([commandA, commandB]);
		expect(await submit("five", "p6")).toEqual({});
		expect(readdirSync(ledgerDir()).sort()).toEqual(["budget-1.spent.json", "budget-2.spent.json"]);
		expect(shell.ran).toEqual([commandA, commandB]);
	});

	it("ignores a first-version spent line that shares the start time of a budget with an id", async () => {
		await submit("/timebox turns:2", "p0");
		writeFileSync(
			logFile(),
			`${readFileSync(logFile(), "utf8")}${JSON.stringify({ kind: "spent", budgetStart: START })}\n`,
		);
		expect(await statusLine()).toBe("Timebox: no time limit | 2 turns left (0/2)\n");
		expect(await submit("one", "p1")).toEqual({});
	});
});

describe("logs from the first version", () => {
	const v1Budget = (turnLimit: number, onStopCommand: string | null) => ({
		kind: "active",
		budget: {
			timeLimitMs: null,
			turnLimit,
			startTime: START - 30_000,
			onStopCommand,
			softNudgeSent: false,
			active: true,
		},
	});

	it("loads a budget the first version spent as spent, and never runs its on-stop command again", async () => {
		writeLog([
			v1Budget(1, "lmk"),
			{ kind: "prompt", promptId: "p1", at: START - 20_000 },
			{ kind: "prompt", promptId: "p2", at: START - 10_000 },
			{ kind: "spent", budgetStart: START - 30_000, promptId: "p2", usedTurns: 1, elapsedMs: 20_000 },
			"",
		]);
		expect(await sessionStart("resume")).toEqual({});
		expect(await statusLine()).toBe("Timebox: budget spent\n");
		expect(await submit("/timebox status", "p3")).toEqual({
			decision: "block",
			reason: `Timebox budget spent. Used 1 turn, 20s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.${CLASSIC}`,
		});
		expect(await preToolUse("p2")).toEqual(deniedTool(SPENT("1 turn", "20s"), SPENT("1 turn", "20s")));
		expect(await submit("next", "p4")).toEqual({});
		expect(await preToolUse("p4")).toEqual({});
		expect(shell.ran).toEqual([]);
		expect(existsSync(ledgerDir())).toBe(false);
	});

	it("keeps a first-version budget running: its warning counts as given, and its stop runs the command once", async () => {
		writeLog([
			v1Budget(5, "lmk"),
			...["p1", "p2", "p3", "p4"].map((promptId) => ({ kind: "prompt", promptId, at: START - 10_000 })),
			{ kind: "nudged", budgetStart: START - 30_000 },
			"",
		]);
		expect(await sessionStart("resume")).toEqual({
			systemMessage: "Timebox restored: no time limit | 1 turn left (4/5). On stop it runs: lmk",
		});
		const fifth = await submit("five", "p5");
		expect(fifth.systemMessage).toBeUndefined();
		expect(fifth.hookSpecificOutput).toMatchObject({ additionalContext: expect.stringContaining("(4 of 5 used)") });
		expect(await submit("six", "p6")).toEqual({
			decision: "block",
			reason: `${SPENT("5 turns", "30s")}\n${RAN("lmk")}`,
		});
		expect(await sessionStart("resume")).toEqual({});
		expect(await preToolUse("p6")).toEqual(deniedTool(SPENT("5 turns", "30s"), SPENT("5 turns", "30s")));
		expect(await submit("seven", "p7")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
		expect(readdirSync(ledgerDir())).toEqual([`legacy-${START - 30_000}.spent.json`]);
	});

	it("reads a first-version off record as no budget", async () => {
		writeLog([v1Budget(3, null), { kind: "off", disabledAt: START - 1_000 }, ""]);
		expect(await statusLine()).toBe("\n");
		expect(await submit("/timebox status", "p1")).toEqual({
			decision: "block",
			reason: `No active timebox.${CLASSIC}`,
		});
	});

	it("reads damaged log lines without throwing or showing NaN", async () => {
		writeLog([
			v1Budget(3, null),
			"[1,2]",
			'"text"',
			'{"kind":"prompt","promptId":7}',
			"",
			'{"kind":"prompt","prom',
			JSON.stringify({ kind: "spent", budgetStart: START - 30_000, usedTurns: "two" }),
			"",
		]);
		expect(await statusLine()).toBe("Timebox: budget spent\n");
		expect(await submit("/timebox status", "p1")).toEqual({
			decision: "block",
			reason: `Timebox budget spent. Used 0 turns, 0s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.${CLASSIC}`,
		});
	});
});

describe("on-stop command", () => {
	it("reports a command that cannot start once, as failed and never as run", async () => {
		const failing = { onStop: new FakeShell([{ kind: "failed", problem: 'could not start "lmk": spawn EAGAIN' }]) };
		await submit("/timebox turns:1 -- lmk", "p0", failing);
		await submit("one", "p1", failing);
		expect(await submit("two", "p2", failing)).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\nTimebox on-stop command failed: could not start "lmk": spawn EAGAIN`,
		});
		expect(await preToolUse("p2", failing)).toEqual(deniedTool(SPENT("1 turn", "0s"), SPENT("1 turn", "0s")));
		expect(await submit("three", "p3", failing)).toEqual({});
		expect(await sessionStart("resume")).toEqual({});
		expect(failing.onStop.ran).toEqual(["lmk"]);
	});

	it.each([
		["an Error", new Error("spawn EAGAIN"), 'could not start "lmk": spawn EAGAIN'],
		["anything else", "no processes left", 'could not start "lmk": no processes left'],
	])("reports a runner that throws %s as a command that could not start", async (_name, thrown, problem) => {
		const throwing: OnStopStarter = {
			start: () => {
				throw thrown;
			},
		};
		await submit("/timebox 1s -- lmk", "p0");
		await submit("job", "p1");
		clock.advance(2_000);
		const stop = SPENT("0 turns", "2s");
		expect(await preToolUse("p1", { onStop: throwing })).toEqual(
			deniedTool(`${stop}\nTimebox on-stop command failed: ${problem}`, stop),
		);
	});

	it("does not wait for a failing exit: a command that started is reported as run", async () => {
		const exiting = new FakeShell([{ kind: "started" }, { kind: "exited", problem: '"lmk" exited with code 1' }]);
		await submit("/timebox turns:1 -- lmk", "p0");
		await submit("one", "p1");
		expect(await submit("two", "p2", { onStop: exiting })).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\n${RAN("lmk")}`,
		});
	});

	it("answers after a second when the runner never says whether the command started", async () => {
		const silent = new FakeShell([]);
		await submit("/timebox turns:1 -- lmk", "p0");
		await submit("one", "p1");
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		const pending = run(promptPayload("two", "p2"), ["hook"], { onStop: silent });
		await vi.advanceTimersByTimeAsync(999);
		let answered = false;
		void pending.then(() => {
			answered = true;
		});
		await vi.advanceTimersByTimeAsync(0);
		expect(answered).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(JSON.parse((await pending).stdout)).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\n${RAN("lmk")}`,
		});
		expect(silent.ran).toEqual(["lmk"]);
	});
});

describe("sessions", () => {
	it("says what it restored on resume, and nothing on compact, startup, clear or fork", async () => {
		await submit("/timebox 15m -- lmk", "p0");
		clock.advance(5 * 60_000);
		expect(await sessionStart("resume")).toEqual({
			systemMessage: "Timebox restored: 10m 0s left (15m budget) | no turn limit. On stop it runs: lmk",
		});
		for (const source of ["compact", "startup", "clear"] as const) expect(await sessionStart(source)).toEqual({});
	});

	it("restores nothing in a fresh session and reports a damaged newest record", async () => {
		expect(await sessionStart("startup")).toEqual({});
		expect(await sessionStart("resume")).toEqual({});
		writeLog(['{"kind":"active","budget":{"turnLimit":"x"}}', "not json", ""]);
		expect(await sessionStart("resume")).toEqual({
			systemMessage:
				"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.",
		});
	});

	it("keeps each session's budget in its own append-only log, with a new id for every budget", async () => {
		const unnamed = { newBudgetId: undefined };
		await submit("/timebox turns:3", "p0", unnamed);
		expect(logLines()).toEqual([
			{
				kind: "active",
				budget: {
					version: 2,
					id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
					timeLimitMs: null,
					turnLimit: 3,
					startTime: START,
					onStopCommand: null,
				},
			},
		]);
		await submit("one", "p1");
		await submit("one, more", "p1");
		clock.advance(1_000);
		await submit("/timebox off", "p2", unnamed);
		const [active, prompt, off, ...rest] = logLines();
		const budgetId = (active?.budget as { id?: unknown } | undefined)?.id;
		expect(prompt).toEqual({ kind: "prompt", promptId: "p1", at: START });
		expect(off).toEqual({
			kind: "off",
			version: 2,
			budgetId,
			disabledAt: START + 1_000,
		});
		expect(rest).toEqual([]);
		expect(readdirSync(ledgerDir())).toEqual([`${budgetId}.off.json`]);
		expect(await submit("/timebox status", "p3")).toEqual({
			decision: "block",
			reason: `No active timebox.${CLASSIC}`,
		});
	});

	it("reads the log back as the history: budget records and prompts, nothing else", async () => {
		await submit("/timebox turns:3", "p0");
		await submit("one", "p1");
		await submit("/timebox off", "p2");
		expect(new SessionLog(dataDir, SESSION).history()).toEqual([
			{ kind: "record", record: expect.objectContaining({ kind: "active" }) },
			{ kind: "prompt", key: "p1", at: expect.any(Number) },
			{ kind: "record", record: expect.objectContaining({ kind: "off" }) },
		]);
		expect(new SessionLog(dataDir, "another-session").history()).toEqual([]);
	});
});

describe("a default budget from TIMEBOX_DEFAULT", () => {
	async function startWith(
		defaultBudget: string,
		source: SessionStartHookInput["source"] = "startup",
		overrides: Partial<CliDeps> = {},
	) {
		const input: SessionStartHookInput = { ...base, hook_event_name: "SessionStart", source };
		const env = { CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_DEFAULT: defaultBudget };
		const { stdout } = await runCli(["hook"], JSON.stringify(input), env, deps(overrides));
		return stdout === "" ? {} : JSON.parse(stdout);
	}

	it("sets the default on a new session, says so, and enforces it", async () => {
		expect(await startWith("turns:1 -- say done")).toEqual({
			systemMessage: "Timebox set from TIMEBOX_DEFAULT: 1 turn. On stop it runs: say done",
		});
		expect(await statusLine()).toBe("Timebox: no time limit | 1 turn left (0/1)\n");
		expect(await submit("one", "p1")).toEqual({});
		expect(await submit("two", "p2")).toMatchObject({ decision: "block" });
		expect(shell.ran).toEqual(["say done"]);
	});

	it("gives the default budget an id of its own", async () => {
		const { newBudgetId: _none, ...withoutIds } = deps();
		await startWith("15m", "startup", { ...withoutIds, newBudgetId: undefined });
		const active = logLines().find((line) => line.kind === "active") as { budget: { id: string } } | undefined;
		expect(active?.budget.id).toMatch(/^[0-9a-f-]{36}$/);
	});

	it("never replaces a budget the session already had", async () => {
		await submit("/timebox turns:3", "p0");
		expect(await startWith("5m", "resume")).toEqual({
			systemMessage: "Timebox restored: no time limit | 3 turns left (0/3).",
		});
		expect(await statusLine()).toBe("Timebox: no time limit | 3 turns left (0/3)\n");
	});

	it("names a bad default, and the session starts without a budget", async () => {
		expect(await startWith("30x")).toEqual({
			systemMessage:
				'Timebox: TIMEBOX_DEFAULT: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s. The session starts without a budget.',
		});
		expect(await statusLine()).toBe("\n");
	});
});

describe("status line", () => {
	it("wraps the user's own status line command with the same stdin", async () => {
		await submit("/timebox turns:3", "p0");
		expect(await statusLine(["--wrap", "my-status"])).toBe(
			"main ~/project | Timebox: no time limit | 3 turns left (0/3)\n",
		);
		expect(wrappedCalls).toEqual([{ command: "my-status", stdin: JSON.stringify({ ...base, model: { id: "m" } }) }]);
	});

	it("reads the data folder from --data when the environment has none", async () => {
		await submit("/timebox turns:3", "p0");
		const result = await runCli(["statusline", "--data", dataDir], JSON.stringify(base), {}, deps());
		expect(result).toEqual({ stdout: "Timebox: no time limit | 3 turns left (0/3)\n", stderr: "" });
	});

	it("shows the budget spent at the deadline without claiming the stop or running anything", async () => {
		await submit("/timebox 30s -- lmk", "p0");
		clock.advance(24_000);
		expect(await statusLine()).toBe("Timebox: 6s left (30s budget) | no turn limit\n");
		clock.advance(7_000);
		expect(await statusLine()).toBe("Timebox: budget spent\n");
		expect(shell.ran).toEqual([]);
		expect(existsSync(ledgerDir())).toBe(false);
		expect(await submit("hello?", "p1")).toEqual({
			decision: "block",
			reason: `${SPENT("0 turns", "31s")}\n${RAN("lmk")}`,
		});
	});

	it("runs the user's status line command through /bin/sh with the given stdin", () => {
		expect(runStatusLineCommand("read line; printf 'got %s\\nsecond' \"$line\"", "hello\n")).toBe("got hello");
		expect(runStatusLineCommand("exit 3", "")).toBe("");
		expect(runStatusLineCommand("echo hi", "", "/nonexistent/shell")).toBe("");
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
		[
			"a hidden file as session id",
			JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: ".hidden", prompt: "/timebox off" }),
			"timebox: ignored this hook call: session_id is missing or not a plain id\n",
		],
	])("answers %s with one stderr line, no output and no change", async (_name, stdin, stderr) => {
		const result = await runCli(["hook"], stdin, { CLAUDE_PLUGIN_DATA: dataDir }, deps());
		expect(result).toEqual({ stdout: "", stderr });
		expect(readdirSync(dataDir)).toEqual([]);
	});

	it("explains a missing data folder and a wrong mode", async () => {
		const stop = JSON.stringify({ ...base, hook_event_name: "Stop" });
		expect(await runCli(["hook"], stop, {}, deps())).toEqual({
			stdout: "",
			stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n",
		});
		expect(await runCli(["serve"], "", {}, deps())).toEqual({
			stdout: "",
			stderr:
				"timebox: usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id> | timebox report [--session <id>] [--days <n>] [--out <file>]\n",
		});
	});

	it("ignores events it does not use", async () => {
		expect(await hook({ ...base, hook_event_name: "Stop", stop_hook_active: false })).toEqual({});
	});

	it("lets a prompt through on an internal error (an unwritable data folder), with one stderr line", async () => {
		writeFileSync(join(dataDir, "sessions"), "a file where the folder should be");
		const result = await run(promptPayload("hello", "p0"));
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^timebox: internal error, nothing enforced for this UserPromptSubmit: .+\n$/);
	});

	it("still blocks a /timebox line on an internal error, so the model never sees it", async () => {
		writeFileSync(join(dataDir, "sessions"), "a file where the folder should be");
		const result = await run(promptPayload("/timebox 5m", "p0"));
		expect(JSON.parse(result.stdout)).toEqual({
			decision: "block",
			reason: expect.stringMatching(
				/^Timebox hit an internal error \(\/timebox\): .+\. Your session goes on; check the budget with \/timebox status\.$/,
			),
		});
		// The reply says what failed; nothing was set, so nothing is enforced.
		expect(result.stderr).toBe("");
		expect((await run(toolPayload("p0"))).stdout).toBe("");
	});

	it("reports a failure that is not an Error", async () => {
		const broken: Clock = {
			now: () => {
				throw "the clock is gone";
			},
		};
		expect(await run(toolPayload("p1"), ["hook"], { clock: broken })).toEqual({
			stdout: "",
			stderr: "timebox: internal error, nothing enforced for this PreToolUse: the clock is gone\n",
		});
		const typed = await run(promptPayload("/timebox status", "p1"), ["hook"], { clock: broken });
		expect(JSON.parse(typed.stdout)).toEqual({
			decision: "block",
			reason:
				"Timebox hit an internal error (/timebox): the clock is gone. Your session goes on; check the budget with /timebox status.",
		});
	});
});

describe("what the model reads mid-run, and the wrap-up", () => {
	const REFUSAL =
		"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";

	function stop(promptId: string): Promise<SyncHookJSONOutput> {
		const input: StopHookInput = { ...base, hook_event_name: "Stop", prompt_id: promptId, stop_hook_active: false };
		return hook(input);
	}

	it("gives the next model call the warning at PostToolBatch once the run crossed 80%", async () => {
		await submit("/timebox 10m", "p0");
		expect(await submit("long job", "p1")).toEqual({});
		expect(await postToolBatch("p1")).toEqual({});
		clock.advance(8 * 60_000);
		const crossed = await postToolBatch("p1");
		expect(crossed.systemMessage).toBe("Timebox: 2m 0s left of 10m — the model is asked to wrap up.");
		expect(crossed.hookSpecificOutput).toEqual({
			hookEventName: "PostToolBatch",
			additionalContext: expect.stringMatching(/^IMPORTANT TIMEBOX WARNING\n[\s\S]*Time left: 2m 0s of 10m\./),
		});
		clock.advance(90_000);
		const critical = await postToolBatch("p1");
		expect(critical.systemMessage).toBeUndefined();
		expect(critical.hookSpecificOutput).toEqual({
			hookEventName: "PostToolBatch",
			additionalContext: expect.stringMatching(/^CRITICAL TIMEBOX WARNING\n[\s\S]*Time left: 30s of 10m\./),
		});
	});

	it("gives every model call a line with what is left when the budget is aware", async () => {
		await submit("/timebox 15m turns:5 aware", "p0");
		expect(await submit("go", "p1")).toEqual({
			hookSpecificOutput: {
				hookEventName: "UserPromptSubmit",
				additionalContext: "Timebox: 15m 0s and 5 prompts left of 15m / 5 prompts.",
			},
		});
		clock.advance(48_000);
		expect(await postToolBatch("p1")).toEqual({
			hookSpecificOutput: {
				hookEventName: "PostToolBatch",
				additionalContext: "Timebox: 14m 12s and 5 prompts left of 15m / 5 prompts.",
			},
		});
	});

	it("with grace, denies tools without ending the run, then ends it at the next boundary after the grace period", async () => {
		await submit("/timebox 1m grace:5s -- lmk", "p0");
		await submit("long job", "p1");
		clock.advance(60_000);
		const first = await preToolUse("p1");
		expect(first).toEqual({
			systemMessage:
				"Timebox budget spent. Used 0 turns, 1m 0s. The agent is wrapping up: its tools are refused, and it has 5s to write its final answer. The chat continues.",
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: REFUSAL,
			},
		});
		expect(await postToolBatch("p1")).toEqual({
			hookSpecificOutput: {
				hookEventName: "PostToolBatch",
				additionalContext: expect.stringMatching(/^TIMEBOX: BUDGET SPENT\n/),
			},
		});
		clock.advance(2_000);
		expect(await preToolUse("p1")).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: REFUSAL,
			},
		});
		expect(shell.ran).toEqual([]);
		clock.advance(3_000);
		const cut = "Timebox stopped the agent: the time to wrap up ran out.";
		expect(await preToolUse("p1")).toEqual(deniedTool(`${cut}\n${RAN("lmk")}`, REFUSAL));
		expect(shell.ran).toEqual(["lmk"]);
		expect(await stop("p1")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
	});

	it("with grace, runs the on-stop command once when the run ends by itself, at the Stop hook", async () => {
		await submit("/timebox 1m grace:30s -- lmk", "p0");
		await submit("long job", "p1");
		clock.advance(61_000);
		expect((await preToolUse("p1")).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
		expect(shell.ran).toEqual([]);
		expect(await stop("p1")).toEqual({ systemMessage: RAN("lmk") });
		expect(await stop("p1")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
		expect(await submit("next", "p2")).toEqual({});
	});

	it("counts no prompt at a PostToolBatch of a prompt other than the latest, or of none", async () => {
		await submit("/timebox turns:3 aware", "p0");
		await submit("go", "p1");
		expect(await postToolBatch("p-other")).toEqual({});
		expect(await hook({ ...base, hook_event_name: "PostToolBatch", tool_calls: [] })).toEqual({
			hookSpecificOutput: {
				hookEventName: "PostToolBatch",
				additionalContext: "Timebox: 3 prompts left of 3 prompts.",
			},
		});
		expect(await statusLine()).toContain("2 turns left (1/3)");
	});

	it("answers hook events it does not use with nothing", async () => {
		await submit("/timebox 1m", "p0");
		expect(await hook({ ...base, hook_event_name: "Notification", message: "hi" })).toEqual({});
	});

	it("answers a Stop hook with nothing when no run is wrapping up", async () => {
		expect(await stop("p1")).toEqual({});
		await submit("/timebox 1m", "p0");
		await submit("job", "p1");
		expect(await stop("p1")).toEqual({});
	});
});

describe("tokens read from the transcript, and cost", () => {
	/** A transcript line of one content block of a response, as Claude Code 2.1.328 writes it. */
	function assistantLine(id: string, input: number, output: number, block = 0): string {
		return `${JSON.stringify({
			type: "assistant",
			apiBlockIndex: block,
			message: {
				id,
				role: "assistant",
				content: [{ type: "text", text: "…" }],
				usage: {
					input_tokens: input,
					output_tokens: output,
					cache_read_input_tokens: 7,
					cache_creation_input_tokens: 3,
				},
			},
		})}\n`;
	}

	let transcript: string;
	beforeEach(() => {
		transcript = join(dataDir, "transcript.jsonl");
		writeFileSync(transcript, `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n`);
	});
	const withTranscript = <T extends object>(payload: T) => ({ ...payload, transcript_path: transcript });

	it("counts each response once, across hooks and content blocks, and stops at the next boundary past the limit", async () => {
		await hook(withTranscript(promptPayload("/timebox tokens:1000 -- lmk", "p0")));
		expect(await hook(withTranscript(promptPayload("work", "p1")))).toEqual({});
		appendFileSync(transcript, assistantLine("msg_1", 100, 490) + assistantLine("msg_1", 100, 490, 1));
		expect(await hook(withTranscript(toolPayload("p1")))).toEqual({});
		expect(await statusLine()).toContain("| 600 of 1k tokens");
		// Half of the next response reaches the transcript before this hook, the rest after it.
		appendFileSync(transcript, `${assistantLine("msg_2", 100, 490)}{"type":"assist`);
		const stop = await hook(withTranscript({ ...toolPayload("p1"), tool_use_id: "toolu_2" }));
		const spent =
			"Timebox budget spent. Used 0 turns, 0s, 1,200 of 1,000 tokens. The agent stops for this turn. The chat continues.";
		expect(stop).toEqual(deniedTool(`${spent}\n${RAN("lmk")}`, spent));
		appendFileSync(transcript, `ant"}\n${assistantLine("msg_2", 100, 490, 1)}`);
		await hook(withTranscript(postToolBatchPayload("p1")));
		expect(await statusLine()).toBe("Timebox: budget spent\n");
		expect(logLines().filter((line) => line.kind === "usage")).toHaveLength(2);
	});

	it("says once when the transcript shows usage it cannot read, and counts nothing from it", async () => {
		await hook(withTranscript(promptPayload("/timebox tokens:1000", "p0")));
		appendFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { id: "m", usage: "lots" } })}\n`);
		expect(await hook(withTranscript(promptPayload("work", "p1")))).toEqual({
			systemMessage:
				"Timebox: Claude Code's transcript shows token usage in a form Timebox cannot read, so a token limit is not enforced until it can.",
		});
		appendFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { id: "n" } })}\n`);
		expect(await hook(withTranscript(toolPayload("p1")))).toEqual({});
		expect(await statusLine()).toContain("| 0 of 1k tokens");
	});

	it("adds the transcript warning to what the hook says anyway, and skips lines that are not JSON", async () => {
		await hook(withTranscript(promptPayload("/timebox 10m tokens:1000", "p0")));
		appendFileSync(transcript, `not json\n${JSON.stringify({ type: "assistant", message: { id: "m" } })}\n`);
		clock.advance(8 * 60_000);
		const warned = await hook(withTranscript(promptPayload("work", "p1")));
		expect(warned.systemMessage).toBe(
			[
				"Timebox: 2m 0s left of 10m and 1k tokens left of 1k — the model is asked to wrap up.",
				"Timebox: Claude Code's transcript shows token usage in a form Timebox cannot read, so a token limit is not enforced until it can.",
			].join("\n"),
		);
	});

	it("reads nothing from a transcript that is a folder, empty, or has no whole line yet, and counts a log once", async () => {
		await hook(withTranscript(promptPayload("/timebox tokens:1000", "p0")));
		expect(await hook({ ...toolPayload("p0"), transcript_path: dataDir })).toEqual({});
		expect(await hook({ ...toolPayload("p0"), transcript_path: "" })).toEqual({});
		writeFileSync(transcript, "");
		expect(await hook(withTranscript(toolPayload("p0")))).toEqual({});

		appendFileSync(logFile(), `${JSON.stringify({ kind: "usage", responseId: 7, tokens: 900, offset: 1 })}\n`);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "usage", responseId: "r", tokens: "900" })}\n`);
		expect(await statusLine()).toContain("| 0 of 1k tokens");
	});

	it("skips a line longer than one read instead of waiting for it forever", async () => {
		const huge = join(dataDir, "huge.jsonl");
		writeFileSync(huge, "x".repeat(8 * 1024 * 1024 + 10));
		await hook({ ...promptPayload("/timebox tokens:1000", "p0"), transcript_path: huge });
		appendFileSync(
			huge,
			`\n${JSON.stringify({ type: "assistant", message: { id: "m1", usage: { input_tokens: 9 } } })}\n`,
		);
		await hook({ ...toolPayload("p0"), transcript_path: huge });
		expect(await statusLine()).toContain("| 9 of 1k tokens");
	});

	it("waits for a line to be whole before counting it", async () => {
		const partial = join(dataDir, "partial.jsonl");
		writeFileSync(partial, `{"type":"assistant","message":{"id":"m1","usage":{"input_tokens":5}}}`);
		await hook({ ...promptPayload("/timebox tokens:1000", "p0"), transcript_path: partial });
		expect(await statusLine()).toContain("| 0 of 1k tokens");
		appendFileSync(partial, "\n");
		await hook({ ...toolPayload("p0"), transcript_path: partial });
		expect(await statusLine()).toContain("| 5 of 1k tokens");
	});

	it("sets a cost budget and says that Claude Code cannot enforce it", async () => {
		expect(await submit("/timebox 30m cost:2", "p0")).toEqual({
			decision: "block",
			reason:
				"Timebox set: 30m and $2.00.\nTimebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.",
		});
	});

	it("reports the session's budgets with the tokens their runs used", async () => {
		await hook(withTranscript(promptPayload("/timebox turns:3", "p0")));
		await hook(withTranscript(promptPayload("work", "p1")));
		appendFileSync(transcript, assistantLine("msg_1", 1_000, 490));
		clock.advance(60_000);
		const report = await hook(withTranscript(promptPayload("/timebox report", "p2")));
		expect(report).toEqual({
			decision: "block",
			reason: [
				"Timebox report: 1 budget in this session.",
				"1. 3 turns, set 1m 0s ago: used 1m 0s, 1 turn, 1.5k tokens. Still active.",
				"Cost not tracked in Claude Code.",
			].join("\n"),
		});
	});
});

describe("steps:N in Claude Code", () => {
	const REFUSAL =
		"Timebox: this prompt used its 3 steps. Write the final answer now, with what was done and what is left, without tools.";

	it("counts the prompt and each PostToolBatch, gives call N+1 the wrap-up, and ends the run at its tool", async () => {
		await submit("/timebox steps:3", "p0");
		expect(await submit("loop", "p1")).toEqual({});
		expect(await preToolUse("p1")).toEqual({});
		expect(await postToolBatch("p1")).toEqual({});
		expect(await statusLine()).toContain("| 3 steps per prompt");
		const third = await postToolBatch("p1");
		expect(third.hookSpecificOutput).toMatchObject({
			additionalContext: expect.stringContaining("Steps: this is model call 3 of the 3 this prompt may make."),
		});
		expect(await submit("also this", "p1")).toMatchObject({
			hookSpecificOutput: { hookEventName: "UserPromptSubmit" },
		});
		const wrapUp = await postToolBatch("p1");
		expect(wrapUp.systemMessage).toBe("Timebox: this prompt used its 3 steps; the model was asked to finish.");
		expect(wrapUp.hookSpecificOutput).toEqual({
			hookEventName: "PostToolBatch",
			additionalContext: expect.stringMatching(/^TIMEBOX: STEPS SPENT\n/),
		});
		expect(await preToolUse("p1")).toEqual(deniedTool(REFUSAL, REFUSAL));
		expect(await submit("next", "p2")).toEqual({});
		expect(await statusLine()).toContain("| 3 steps per prompt");
	});
});

describe("the daily budget in Claude Code (TIMEBOX_DAILY)", () => {
	/** A hook call with TIMEBOX_DAILY set and the shared ledger in the test's folder. */
	async function dailyHook(payload: object, daily: string): Promise<SyncHookJSONOutput> {
		const env = { CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_DAILY: daily, XDG_STATE_HOME: join(dataDir, "state") };
		const { stdout, stderr } = await runCli(["hook"], JSON.stringify(payload), env, deps());
		expect(stderr).toBe("");
		return stdout === "" ? {} : (JSON.parse(stdout) as SyncHookJSONOutput);
	}
	const SPENT = "Timebox: today's budget is spent (2 prompts). It resets at midnight.";

	it("counts prompts into the shared day, a message typed mid-turn not, and blocks the one past the limit", async () => {
		expect(await dailyHook(promptPayload("one", "p1"), "turns:2")).toEqual({});
		expect(await dailyHook(promptPayload("one, more", "p1"), "turns:2")).toEqual({});
		expect(await dailyHook(promptPayload("two", "p2"), "turns:2")).toEqual({});
		expect(await dailyHook(promptPayload("three", "p3"), "turns:2")).toEqual({ decision: "block", reason: SPENT });
		const today = await dailyHook(promptPayload("/timebox today", "p4"), "turns:2");
		expect(today.reason).toBe(
			"Timebox today: 1 daily budget.\nEvery session (TIMEBOX_DAILY): 2 of 2 prompts used, 0 left. Used by 1 session.",
		);
	});

	it("stops a run at its next tool once today's agent time is spent, and adds the run's time when it ends", async () => {
		await dailyHook(promptPayload("work", "p1"), "1m");
		clock.advance(61_000);
		const message = "Timebox: today's budget is spent (1m of agent time). It resets at midnight.";
		expect(await dailyHook(toolPayload("p1"), "1m")).toEqual(deniedTool(message, message));
		expect(await dailyHook(postToolBatchPayload("p1"), "1m")).toEqual({ continue: false, stopReason: message });
		expect(
			await dailyHook({ ...base, hook_event_name: "Stop", prompt_id: "p1", stop_hook_active: false }, "1m"),
		).toEqual({});
		expect(await dailyHook(promptPayload("again", "p2"), "1m")).toEqual({ decision: "block", reason: message });
	});

	it("tells the model and the user at 80% of the day, beside what the session's own budget says", async () => {
		const daily = "turns:5";
		await dailyHook(promptPayload("/timebox 15m aware", "p0"), daily);
		for (const id of ["p1", "p2", "p3", "p4"]) await dailyHook(promptPayload(id, id), daily);
		const fifth = await dailyHook(promptPayload("p5", "p5"), daily);
		expect(fifth).toEqual({
			systemMessage: "Timebox: today's budget: 1 prompt left of 5 — the model is asked to wrap up.",
			hookSpecificOutput: {
				hookEventName: "UserPromptSubmit",
				additionalContext:
					"Timebox: 15m 0s left of 15m.\n\nToday's budget (shared by every session): 1 prompt left of 5.",
			},
		});
		expect(await dailyHook(postToolBatchPayload("p5"), daily)).toMatchObject({
			hookSpecificOutput: { additionalContext: expect.stringContaining("Today's budget (shared by every session)") },
		});
		expect(await dailyHook(toolPayload("p5"), daily)).toEqual({});
		expect(
			await dailyHook({ ...base, hook_event_name: "Notification", prompt_id: "p5", message: "hi" }, daily),
		).toEqual({});
	});

	it("adds the tokens the transcript shows to the day, and answers /timebox today without a daily budget", async () => {
		const transcript = join(dataDir, "transcript.jsonl");
		writeFileSync(
			transcript,
			`${JSON.stringify({ type: "assistant", message: { id: "m1", usage: { input_tokens: 900, output_tokens: 100 } } })}\n`,
		);
		await dailyHook({ ...promptPayload("work", "p1"), transcript_path: transcript }, "tokens:5k");
		const today = await dailyHook(promptPayload("/timebox today", "p2"), "tokens:5k");
		expect(today.reason).toBe(
			"Timebox today: 1 daily budget.\nEvery session (TIMEBOX_DAILY): 1k of 5k tokens used, 4k left. Used by 1 session.",
		);
		expect((await submit("/timebox today", "p3")).reason).toMatch(/^No daily budget is set\./);
	});

	it("names a TIMEBOX_DAILY it cannot read when a session starts, and enforces nothing", async () => {
		expect(await dailyHook({ ...base, hook_event_name: "SessionStart", source: "startup" }, "3h steps:2")).toEqual({
			systemMessage:
				"Timebox: TIMEBOX_DAILY: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.",
		});
		expect(await dailyHook(promptPayload("one", "p1"), "3h steps:2")).toEqual({});
	});
});

describe("setting up the status line from Claude Code, and a status line without --data", () => {
	it("answers /timebox statusline by merging the status line into the user's settings", async () => {
		const home = join(dataDir, "home");
		const env = { CLAUDE_PLUGIN_DATA: dataDir, CLAUDE_PLUGIN_ROOT: "/plugin/root", HOME: home };
		const { stdout } = await runCli(["hook"], JSON.stringify(promptPayload("/timebox statusline", "p1")), env, deps());
		expect(JSON.parse(stdout)).toEqual({
			decision: "block",
			reason: "Timebox's status line is set up: it shows the budget of each session.",
		});
		expect(JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")).statusLine.command).toBe(
			"node '/plugin/root/bin/timebox.mjs' statusline",
		);
		expect(await submit("/timebox statusline", "p2")).toEqual({
			decision: "block",
			reason: "Timebox: run the plugin's script with setup-statusline to set up the status line.",
		});
	});

	it("finds the data folder of a plugin installed from a marketplace for a status line call", async () => {
		const home = join(dataDir, "home");
		const data = join(home, ".claude", "plugins", "data", "timebox-timebox");
		await runCli(
			["hook"],
			JSON.stringify(promptPayload("/timebox turns:3", "p0")),
			{ CLAUDE_PLUGIN_DATA: data },
			deps(),
		);
		const { stdout } = await runCli(
			["statusline"],
			JSON.stringify({ ...base, model: { id: "m" } }),
			{ HOME: home },
			deps(),
		);
		expect(stdout).toBe("Timebox: no time limit | 3 turns left (0/3)\n");
	});
});

describe("the watcher of a time budget (idle expiry)", () => {
	const watch = (budget: string) =>
		runCli(["watch", "--data", dataDir, "--session", SESSION, "--budget", budget], "", {}, deps());

	it("starts when a time budget is set, stops it at its deadline while idle, runs on-stop once, and tells the next prompt", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		expect(watchers).toEqual([{ folder: dataDir, sessionId: SESSION, budget: "budget-1" }]);
		const started = clock.now();
		expect(await watch("budget-1")).toEqual({ stdout: "", stderr: "" });
		expect(clock.now() - started).toBe(60_000);
		expect(shell.ran).toEqual(["lmk"]);
		expect(await watch("budget-1")).toEqual({ stdout: "", stderr: "" });
		expect(shell.ran).toEqual(["lmk"]);
		const next = await submit("back again", "p1");
		expect(next).toEqual({
			systemMessage: [
				"Timebox budget spent. Used 0 turns, 1m 0s, while the agent was idle. The chat continues.",
				RAN("lmk"),
			].join("\n"),
		});
		expect(await submit("and again", "p2")).toEqual({});
	});

	it("leaves a run going on to the hooks, and stops at the deadline once the run has ended", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("work", "p1");
		const stop = { ...base, hook_event_name: "Stop", prompt_id: "p1", stop_hook_active: false };
		const started = clock.now();
		const watching = watch("budget-1");
		await watching;
		// No Stop came: the run looked to be going on, and the watcher waited 10 minutes past the deadline.
		expect(clock.now() - started).toBe(60_000 + 10 * 60_000);
		expect(shell.ran).toEqual(["lmk"]);
		await submit("/timebox 1m -- lmk2", "p2");
		await submit("work again", "p3");
		expect(await hook(stop)).toEqual({});
		expect(await hook({ ...stop, prompt_id: "p3" })).toEqual({});
		const again = clock.now();
		await watch("budget-2");
		expect(clock.now() - again).toBe(60_000);
		expect(shell.ran).toEqual(["lmk", "lmk2"]);
	});

	it("puts what the watcher could not tell before the answer of the next prompt, whatever that answer is", async () => {
		await submit("/timebox turns:5", "p0");
		for (const id of ["p1", "p2", "p3", "p4"]) await submit(id, id);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "untold", notices: ["EARLIER NOTICE"] })}\n`);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "untold" })}\n`);
		expect((await submit("p5", "p5")).systemMessage).toBe(
			"EARLIER NOTICE\nTimebox: 1 prompt left of 5 — the model is asked to wrap up.",
		);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "untold", notices: ["LATER NOTICE"] })}\n`);
		expect(await submit("/timebox status", "p6")).toMatchObject({
			reason: expect.stringMatching(/^LATER NOTICE\nTimebox: /),
		});
	});

	it("stops the budget on time and runs its command even when the ledger cannot be written", async () => {
		await submit("/timebox 1s -- lmk", "p0");
		rmSync(join(dataDir, LEDGER_FOLDER), { recursive: true, force: true });
		writeFileSync(join(dataDir, LEDGER_FOLDER), "a file where the ledger's folder should be");
		clock.advance(2_000);
		expect(await watch(watchers.at(-1)?.budget ?? "")).toEqual({ stdout: "", stderr: "" });
		expect(shell.ran).toEqual(["lmk"]);
		// The log kept the claim: the chat goes on, and nothing fires twice.
		const next = await submit("next", "p1");
		expect(next.systemMessage).toContain("Timebox budget spent. Used 0 turns, 2s, while the agent was idle.");
		expect(next.systemMessage).toContain("Timebox hit an internal error (ledger)");
		expect(await submit("again", "p2")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
	});

	it("leaves at once when its budget was turned off, replaced, extended or paused, and fires nothing", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("/timebox +1m", "p1");
		expect(watchers.map((watcher) => watcher.budget)).toEqual(["budget-1", "budget-1.e1"]);
		const before = clock.now();
		await watch("budget-1");
		expect(clock.now()).toBe(before);
		await submit("/timebox pause", "p2");
		await watch("budget-1.e1");
		await submit("/timebox off", "p3");
		await watch("budget-1.e1");
		expect(clock.now()).toBe(before);
		expect(shell.ran).toEqual([]);
		const broken = { ...deps(), clock: { now: () => Number.NaN } };
		broken.clock.now = () => {
			throw new Error("no clock");
		};
		expect(await runCli(["watch", "--data", dataDir, "--session", SESSION, "--budget", "b"], "", {}, broken)).toEqual({
			stdout: "",
			stderr: "timebox: the watcher stopped: Error: no clock\n",
		});
		expect(await runCli(["watch", "--data", dataDir], "", {}, deps())).toMatchObject({
			stderr: expect.stringMatching(/^timebox: usage/),
		});
	});
});
