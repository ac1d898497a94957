// The hook adapter as Claude Code's classic hooks run it, through its command line: the limits (turns, time, steps,
// tokens and cost) stopped at a tool boundary, and what the model reads mid-run and while it wraps up.
// Fixtures and helpers: claude-hooks.ts.

import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StopHookInput, SyncHookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { beforeEach, describe, expect, it } from "vitest";
import {
	base,
	CLASSIC,
	clock,
	dataDir,
	deniedTool,
	hook,
	logFile,
	logLines,
	postToolBatch,
	postToolBatchPayload,
	preToolUse,
	promptPayload,
	RAN,
	SPENT,
	shell,
	statusLine,
	submit,
	toolPayload,
	useClaudeHooks,
} from "./claude-hooks.ts";

useClaudeHooks();

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
