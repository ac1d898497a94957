// The hook adapter as Claude Code's classic hooks run it, through its command line: sessions and their logs (parallel
// hooks, budgets never confused, logs of the first version, resumes), the default and the daily budgets.
// Fixtures and helpers: claude-hooks.ts.

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionStartHookInput, SyncHookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { handleHook } from "../../../src/adapters/hooks/handle.ts";
import { parseHookInput } from "../../../src/adapters/hooks/input.ts";
import { createFileLedger } from "../../../src/adapters/node/file-ledger.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import type { BudgetLedger } from "../../../src/core/index.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";
import {
	base,
	CLASSIC,
	clock,
	dataDir,
	deniedTool,
	deps,
	ledgerDir,
	logFile,
	logLines,
	postToolBatchPayload,
	preToolUse,
	promptPayload,
	RAN,
	run,
	SESSION,
	SPENT,
	START,
	sessionStart,
	shell,
	statusLine,
	submit,
	toolPayload,
	useClaudeHooks,
	writeLog,
} from "./claude-hooks.ts";

useClaudeHooks();

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
			reason: `No active timebox.\nSet one with /timebox 15m turns:3.${CLASSIC}`,
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
		// The prompt's line keeps the folder the hook's input names: the session's project, for a suggested budget.
		expect(prompt).toEqual({ kind: "prompt", promptId: "p1", at: START, cwd: "/nonexistent" });
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
			reason: `No active timebox.\nSet one with /timebox 15m turns:3.${CLASSIC}`,
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
				'Timebox: TIMEBOX_DEFAULT: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. The session starts without a budget.',
		});
		expect(await statusLine()).toBe("\n");
	});

	const BAD =
		'Timebox: TIMEBOX_DEFAULT: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. The session starts without a budget.';

	// Each hook is a process of its own: the start's hook said it, and the first prompt's must not say it again. Codex
	// runs its start's hook where a daily budget is set too (its gate passes it on).
	it.each([
		["claude", "UserPromptSubmit", {}],
		["gemini", "BeforeAgent", {}],
		["codex", "UserPromptSubmit", { TIMEBOX_DAILY: "turns:5" }],
	])("names a bad default once a session on %s: at its start, not again at its prompts", async (host, name, daily) => {
		const here = host === "claude" ? { CLAUDE_PLUGIN_DATA: dataDir } : {};
		const env = { HOME: dataDir, XDG_STATE_HOME: join(dataDir, "state"), TIMEBOX_DEFAULT: "30x", ...here, ...daily };
		const send = async (payload: object) => {
			const { stdout, stderr } = await runCli(["hook", "--host", host], JSON.stringify(payload), env, deps());
			expect(stderr).toBe("");
			return stdout === "" ? {} : JSON.parse(stdout);
		};
		expect(await send({ ...base, hook_event_name: "SessionStart", source: "startup" })).toEqual({ systemMessage: BAD });
		for (const turn of ["t1", "t2"]) {
			const prompt = { ...base, hook_event_name: name, prompt: "hello", prompt_id: turn, turn_id: turn };
			expect(await send(prompt)).toEqual({});
		}
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

	it("counts a run's agent time at the stop that ends it, though Claude Code sends no Stop after it", async () => {
		await dailyHook(promptPayload("work", "p1"), "1m");
		clock.advance(61_000);
		const message = "Timebox: today's budget is spent (1m of agent time). It resets at midnight.";
		expect(await dailyHook(postToolBatchPayload("p1"), "1m")).toEqual({ continue: false, stopReason: message });
		// Claude Code ends the run there, with no Stop hook: the next prompt, minutes later, finds the day spent.
		clock.advance(300_000);
		expect(await dailyHook(promptPayload("again", "p2"), "1m")).toEqual({ decision: "block", reason: message });
		expect((await dailyHook(promptPayload("/timebox today", "p3"), "1m")).reason).toBe(
			"Timebox today: 1 daily budget.\nEvery session (TIMEBOX_DAILY): 1m 1s of 1m of agent time used, 0s left. Used by 1 session.",
		);
	});

	it("counts a run the session's own budget stopped in today's agent time, though no Stop comes after it", async () => {
		await dailyHook(promptPayload("/timebox 1m", "p0"), "1h");
		await dailyHook(promptPayload("work", "p1"), "1h");
		clock.advance(61_000);
		expect(await dailyHook(postToolBatchPayload("p1"), "1h")).toMatchObject({ continue: false });
		clock.advance(300_000);
		expect((await dailyHook(promptPayload("/timebox today", "p2"), "1h")).reason).toContain(
			"(TIMEBOX_DAILY): 1m 1s of 1h of agent time used",
		);
	});

	it("adds only what ran after the stop when a Stop comes after it, never the run's time again", async () => {
		await dailyHook(promptPayload("work", "p1"), "1m");
		clock.advance(61_000);
		await dailyHook(toolPayload("p1"), "1m");
		clock.advance(2_000);
		await dailyHook({ ...base, hook_event_name: "Stop", prompt_id: "p1", stop_hook_active: false }, "1m");
		expect((await dailyHook(promptPayload("/timebox today", "p2"), "1m")).reason).toContain(
			"(TIMEBOX_DAILY): 1m 3s of 1m of agent time used",
		);
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
					"Timebox: 15m 0s left of 15m.\n\nToday's budget (shared by every session): 1 prompt left of 5. Wrap up what you are doing, and start nothing new.",
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
