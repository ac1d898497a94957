// Codex CLI's hooks through the hook-host adapter: its events in the adapter's roles, the `timebox …` line its TUI lets
// through, and answers in the fields Codex's strict schema accepts (a stop before a tool becomes a refusal of the tool).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { createDailyLedger, dailyStateDir } from "../../../src/adapters/node/daily-ledger.ts";
import { DAILY_ENV, FINISH_NOW, parseDailyBudget } from "../../../src/core/index.ts";
import { runCli } from "../../../src/entries/hook-cli.ts";

let home: string;
let now: number;
beforeEach(() => {
	home = mkdtempSync(join(tmpdir(), "timebox-codex-unit-"));
	now = Date.UTC(2026, 10, 22, 9, 0, 0);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const deps = () => ({
	hosts: [claudeCodeHost, geminiCliHost, codexCliHost],
	clock: { now: () => now },
	onStop: { start: () => {} },
	runStatusLine: () => "",
	script: "/x/timebox.mjs",
	startWatcher: () => {},
	entry: import.meta.url,
	importReport: () => import("../../../src/entries/report/entry.ts"),
	sleep: async () => {},
});
const base = { session_id: "c1", transcript_path: "/nonexistent/rollout.jsonl", cwd: "/nonexistent", model: "m" };
async function codex(payload: object, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
	const { stdout, stderr } = await runCli(
		["hook", "--host", "codex"],
		JSON.stringify({ ...base, ...payload }),
		{ HOME: home, ...env },
		deps(),
	);
	expect(stderr).toBe("");
	return stdout === "" ? null : JSON.parse(stdout);
}

describe("Codex CLI's events in the adapter's roles", () => {
	const read = (event: string, fields: Record<string, unknown> = {}) =>
		codexCliHost.read({ event, sessionId: "c1", fields: { turn_id: "t1", ...fields } });

	it("plays PostToolUse as the next model call, names prompts by turn id, and reads `timebox …` as the budget line", () => {
		expect(read("PostToolUse")).toMatchObject({ role: "beforeModelCall", hostEvent: "PostToolUse", promptId: "t1" });
		expect(read("PreToolUse").role).toBe("beforeTool");
		expect(read("Stop").role).toBe("runEnd");
		expect(read("Notification").role).toBeNull();
		expect(read("UserPromptSubmit", { prompt: " timebox 15m " })).toMatchObject({ role: "prompt", command: "15m" });
		expect(read("UserPromptSubmit", { prompt: "/timebox status" }).command).toBe("status");
		expect(read("UserPromptSubmit", { prompt: "timebox" }).command).toBe("");
		expect(read("UserPromptSubmit", { prompt: "timeboxes are nice" }).command).toBeNull();
	});

	it("refuses a tool instead of stopping the turn, which Codex does not allow before a tool", () => {
		const finish =
			"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools";
		const denied = (reason: string) => ({
			hookEventName: "PreToolUse",
			permissionDecision: "deny",
			permissionDecisionReason: reason,
		});
		const reply = { notices: [], context: [], refusal: null, stop: false, answered: false };
		const tool = read("PreToolUse");
		expect(codexCliHost.write(reply, tool)).toBeNull();
		expect(codexCliHost.write({ ...reply, notices: ["S"], refusal: "R.", stop: true }, tool)).toEqual({
			systemMessage: "S",
			hookSpecificOutput: denied(`R. ${finish}`),
		});
		expect(codexCliHost.write({ ...reply, refusal: `${finish}.` }, tool)).toEqual({
			hookSpecificOutput: denied(finish),
		});
		// A refusal that stops nothing (the loop guard's Nth call) reads as it is; a stop that says what to do already
		// (the loop guard's) is not told twice.
		expect(codexCliHost.write({ ...reply, refusal: "Change your approach." }, tool)).toEqual({
			hookSpecificOutput: denied("Change your approach"),
		});
		const loopStop = `Timebox stopped a loop: bash (npm test) asked for 4 times in this run. ${FINISH_NOW}`;
		expect(codexCliHost.write({ ...reply, notices: ["S"], refusal: loopStop, stop: true }, tool)).toEqual({
			systemMessage: "S",
			hookSpecificOutput: denied(loopStop.replace(/\.$/, "")),
		});
		const next = read("PostToolUse");
		expect(codexCliHost.write({ ...reply, notices: ["S"], refusal: "R", stop: true }, next)).toEqual({
			continue: false,
			stopReason: "S",
		});
		expect(codexCliHost.write({ ...reply, context: ["W"] }, next)).toEqual({
			hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "W" },
		});
	});
});

describe("Codex's words", () => {
	it("names the command as Codex takes it, leaves out what Codex cannot measure, and says how to set a daily budget", async () => {
		const bad = (await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t0", prompt: "timebox 15x" })) as {
			reason: string;
		};
		expect(bad.reason).toContain("Usage: timebox <budget> [-- <command>] | status | off");
		expect(bad.reason).toContain("e.g. timebox 15m turns:3");
		expect(bad.reason).not.toContain("/timebox");
		await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "timebox 10m" });
		now += 6_000;
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t2", prompt: "timebox report" })).toEqual({
			decision: "block",
			reason: [
				"Timebox report: 1 budget in this session.",
				"1. 10m, set 6s ago: used 6s, 0 turns. Still active.",
				"Tokens and cost not tracked in Codex.",
			].join("\n"),
		});
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t3", prompt: "timebox today" })).toEqual({
			decision: "block",
			reason: 'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment codex starts in.',
		});
	});
});

describe("a daily budget's use in Codex, which measures neither tokens nor cost", () => {
	it("shows what the other hosts on the machine used of its cost and tokens, saying that Codex's own is not counted", async () => {
		const env = { TIMEBOX_DAILY: "turns:60 tokens:2m cost:10" };
		const budget = parseDailyBudget(env.TIMEBOX_DAILY, "user", DAILY_ENV);
		if ("warning" in budget) throw new Error(budget.warning);
		// A pi session on this machine used $1.50 and 300k tokens of the day.
		const pi = createDailyLedger(dailyStateDir({ HOME: home }), "pi-1", { now: () => now });
		pi.addUse([budget], { tokens: 300_000, cost: 1.5 });
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "timebox today" }, env)).toEqual({
			decision: "block",
			reason: [
				"Timebox today: 1 daily budget.",
				"Every session (TIMEBOX_DAILY): 0 of 60 prompts used, 60 left; 300k of 2m tokens used, 1.7m left (tokens not tracked in Codex); $1.50 of $10.00 used, $8.50 left (cost not tracked in Codex). Used by 1 session.",
			].join("\n"),
		});
	});
});

describe("a Codex CLI session through the command line", () => {
	it("answers both forms of the budget line, counts prompts by turn id and keeps the log under $CODEX_HOME", async () => {
		const env = { CODEX_HOME: join(home, "codex-home") };
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t0", prompt: "timebox turns:1" }, env)).toEqual(
			{
				decision: "block",
				reason: "Timebox set: 1 turn.",
			},
		);
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t0", prompt: "/timebox 15x" }, env)).toEqual({
			decision: "block",
			reason: expect.stringContaining('"15x" is not a budget word'),
		});
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "first" }, env)).toBeNull();
		expect(await codex({ hook_event_name: "PreToolUse", turn_id: "t1", tool_name: "Bash" }, env)).toBeNull();
		const second = await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t2", prompt: "second" }, env);
		expect(second).toMatchObject({ decision: "block", reason: expect.stringMatching(/^Timebox budget spent\./) });
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t3", prompt: "timebox status" }, env)).toEqual(
			expect.objectContaining({ reason: expect.stringMatching(/^Timebox budget spent\./) }),
		);
	});

	it("starts a default budget at the first prompt when its session start ran nothing, and counts that prompt", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:2" };
		// The gate ran no Node at SessionStart: the first prompt finds the session's log empty.
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "first" }, env)).toEqual({
			systemMessage: "Timebox set from TIMEBOX_DEFAULT: 2 turns.",
		});
		now += 1_000;
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t2", prompt: "second" }, env)).toBeNull();
		const third = await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t3", prompt: "third" }, env);
		expect(third).toMatchObject({ decision: "block", reason: expect.stringMatching(/^Timebox budget spent\. Used 2/) });
		// Turned off, the default does not start again.
		await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t4", prompt: "timebox off" }, env);
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t5", prompt: "fourth" }, env)).toBeNull();
	});

	it("tells at the first prompt, once, that a default budget it cannot read sets nothing", async () => {
		const env = { TIMEBOX_DEFAULT: "30x" };
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "work" }, env)).toEqual({
			systemMessage: expect.stringContaining('TIMEBOX_DEFAULT: "30x" is not a budget word'),
		});
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t2", prompt: "more" }, env)).toBeNull();
	});

	it("keeps its log under ~/.codex when CODEX_HOME is not set", async () => {
		expect(await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t0", prompt: "timebox turns:1" })).toEqual({
			decision: "block",
			reason: "Timebox set: 1 turn.",
		});
		expect(
			await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "timebox status" }, {}),
		).toMatchObject({ reason: expect.stringMatching(/^Timebox: /) });
	});

	it("denies every tool with the reason once the time is up, and never answers continue:false before a tool", async () => {
		await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t0", prompt: "timebox 1m" });
		await codex({ hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: "work" });
		now += 61_000;
		for (const tool of ["first", "second"]) {
			const answer = (await codex({ hook_event_name: "PreToolUse", turn_id: "t1", tool_name: tool })) as {
				continue?: unknown;
				hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
			};
			expect(answer.continue).toBeUndefined();
			expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
			expect(answer.hookSpecificOutput.permissionDecisionReason).toBe(
				"Timebox budget spent. Used 0 turns, 1m 1s. The agent stops for this turn. The chat continues. Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools",
			);
		}
	});

	it("names an unknown host and changes nothing", async () => {
		const { stdout, stderr } = await runCli(["hook", "--host", "nope"], "{}", { HOME: home }, deps());
		expect(stdout).toBe("");
		expect(stderr).toMatch(/^timebox: unknown host "nope": usage: timebox hook \[--host claude\|gemini\|codex\]/);
	});
});
