// Gemini CLI's hooks through the hook-host adapter: its events in the adapter's roles, and the adapter's answers in the
// fields Gemini CLI reads. Guards a Gemini hook that Timebox misreads, or an answer Gemini ignores.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { runCli } from "../../../src/entries/hook-cli.ts";

let home: string;
let now: number;
beforeEach(() => {
	home = mkdtempSync(join(tmpdir(), "timebox-gemini-unit-"));
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
const base = { session_id: "g1", transcript_path: "/nonexistent/chat.jsonl", cwd: "/nonexistent", timestamp: "t" };
async function gemini(payload: object): Promise<unknown> {
	const { stdout, stderr } = await runCli(
		["hook", "--host", "gemini"],
		JSON.stringify({ ...base, ...payload }),
		{ HOME: home },
		deps(),
	);
	expect(stderr).toBe("");
	return stdout === "" ? null : JSON.parse(stdout);
}

describe("Gemini CLI's events in the adapter's roles", () => {
	const read = (event: string, fields: Record<string, unknown> = {}) =>
		geminiCliHost.read({ event, sessionId: "g1", fields: { prompt_id: "x", ...fields } });

	it("maps BeforeAgent, AfterTool, BeforeModel, BeforeTool and AfterAgent, and names no prompt", () => {
		expect(read("BeforeAgent", { prompt: "hi" })).toMatchObject({ role: "prompt", promptId: null, command: null });
		expect(read("AfterTool").role).toBe("beforeModelCall");
		expect(read("BeforeModel", { llm_request: { config: { temperature: 1 } } })).toMatchObject({
			role: "modelRequest",
			requestConfig: { temperature: 1 },
		});
		expect(read("BeforeModel", { llm_request: { config: [] } }).requestConfig).toBeNull();
		expect(read("BeforeModel").requestConfig).toBeNull();
		expect(read("AfterModel").role).toBeNull();
		expect(read("BeforeTool").role).toBe("beforeTool");
		expect(read("AfterAgent").role).toBe("runEnd");
		expect(read("SessionStart", { source: "resume" })).toMatchObject({ role: "sessionStart", source: "resume" });
		expect(read("BeforeAgent", { prompt: "TIMEBOX-CMD 15m" }).command).toBe("15m");
		expect(read("BeforeAgent", { prompt: "/timebox status" }).command).toBe("status");
	});

	it("answers in Gemini's fields: context under the Gemini event, a refused tool as decision deny", () => {
		const reply = { notices: [], context: [], refusal: null, stop: false, answered: false };
		expect(geminiCliHost.write(reply, read("BeforeAgent"))).toBeNull();
		expect(geminiCliHost.write({ ...reply, context: ["WARN"] }, read("BeforeAgent"))).toEqual({
			hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "WARN" },
		});
		expect(geminiCliHost.write({ ...reply, refusal: "R" }, read("BeforeTool"))).toEqual({
			decision: "deny",
			reason: "R",
		});
		expect(geminiCliHost.write({ ...reply, notices: ["S"], refusal: "R", stop: true }, read("BeforeTool"))).toEqual({
			continue: false,
			stopReason: "S",
		});
		expect(geminiCliHost.write({ ...reply, notices: ["B"], answered: true }, read("BeforeAgent"))).toEqual({
			decision: "block",
			reason: "B",
		});
	});

	it("caps a request in BeforeModel's settings, sending back the others as they came, a lower limit kept", () => {
		const reply = { notices: [], context: [], refusal: null, stop: false, answered: false, maxOutputTokens: 5_000 };
		const config = { temperature: 1, topP: 0.95, topK: 64 };
		expect(geminiCliHost.write(reply, read("BeforeModel", { llm_request: { config } }))).toEqual({
			hookSpecificOutput: {
				hookEventName: "BeforeModel",
				llm_request: { config: { ...config, maxOutputTokens: 5_000 } },
			},
		});
		const lower = { ...config, maxOutputTokens: 1_000 };
		expect(
			geminiCliHost.write({ ...reply, notices: ["W"] }, read("BeforeModel", { llm_request: { config: lower } })),
		).toEqual({
			hookSpecificOutput: { hookEventName: "BeforeModel", llm_request: { config: lower } },
			systemMessage: "W",
		});
		expect(geminiCliHost.write(reply, read("BeforeModel"))).toEqual({
			hookSpecificOutput: { hookEventName: "BeforeModel", llm_request: { config: { maxOutputTokens: 5_000 } } },
		});
		// A higher limit, or one that is no limit, gives way to the cap.
		for (const maxOutputTokens of [65_536, 0, "8k"]) {
			const settings = { llm_request: { config: { maxOutputTokens } } };
			expect(geminiCliHost.write(reply, read("BeforeModel", settings))).toEqual({
				hookSpecificOutput: { hookEventName: "BeforeModel", llm_request: { config: { maxOutputTokens: 5_000 } } },
			});
		}
		// A request the budget stops is not sent: the run ends.
		const stop = { ...reply, notices: ["S"], refusal: "S", stop: true };
		expect(geminiCliHost.write(stop, read("BeforeModel"))).toEqual({ continue: false, stopReason: "S" });
	});
});

describe("Gemini CLI's words", () => {
	it("says how to set a daily budget in Gemini CLI, with no `$` for its screen to drop", async () => {
		expect(await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD today" })).toEqual({
			decision: "block",
			reason: 'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment gemini starts in.',
		});
	});
});

describe("a Gemini CLI session through the command line", () => {
	it("answers /timebox (and its TIMEBOX-CMD form) without a model call, counts prompts and keeps the log under ~/.gemini", async () => {
		expect(await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD turns:1" })).toEqual({
			decision: "block",
			reason: "Timebox set: 1 turn.",
		});
		expect(await gemini({ hook_event_name: "BeforeAgent", prompt: "first" })).toBeNull();
		expect(await gemini({ hook_event_name: "BeforeModel" })).toBeNull();
		expect(await gemini({ hook_event_name: "AfterAgent", prompt: "first" })).toBeNull();
		const second = (await gemini({ hook_event_name: "BeforeAgent", prompt: "second" })) as { decision: string };
		expect(second.decision).toBe("block");
		expect((await gemini({ hook_event_name: "BeforeAgent", prompt: "/timebox status" })) as object).toMatchObject({
			reason: expect.stringMatching(/^Timebox budget spent\./),
		});
	});

	it("counts steps at each tool result, and ends the run at the tool the wrap-up call asks for", async () => {
		await gemini({ hook_event_name: "BeforeAgent", prompt: "/timebox steps:2" });
		await gemini({ hook_event_name: "BeforeAgent", prompt: "loop" });
		expect(await gemini({ hook_event_name: "BeforeTool", tool_name: "run_shell_command" })).toBeNull();
		expect(await gemini({ hook_event_name: "AfterTool", tool_name: "run_shell_command" })).toMatchObject({
			hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: expect.stringContaining("TIMEBOX") },
		});
		expect(await gemini({ hook_event_name: "AfterTool", tool_name: "run_shell_command" })).toMatchObject({
			systemMessage: "Timebox: this prompt used its 2 steps; the model was asked to finish.",
			hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: expect.stringContaining("STEPS SPENT") },
		});
		expect(await gemini({ hook_event_name: "BeforeTool", tool_name: "run_shell_command" })).toMatchObject({
			continue: false,
		});
	});

	it("counts each prompt for the day, and refuses the one over the daily limit", async () => {
		const daily = { XDG_STATE_HOME: join(home, "state"), TIMEBOX_DAILY: "turns:1" };
		const run = async (payload: object) => {
			const { stdout } = await runCli(
				["hook", "--host", "gemini"],
				JSON.stringify({ ...base, ...payload }),
				{ HOME: home, ...daily },
				deps(),
			);
			return stdout === "" ? null : JSON.parse(stdout);
		};
		expect(await run({ hook_event_name: "BeforeAgent", prompt: "first" })).toBeNull();
		await run({ hook_event_name: "AfterAgent" });
		expect(await run({ hook_event_name: "BeforeAgent", prompt: "second" })).toMatchObject({
			decision: "block",
			reason: expect.stringContaining("today's budget is spent"),
		});
	});

	it("marks the run ended at AfterAgent, so a watcher knows the session is idle", async () => {
		await gemini({ hook_event_name: "BeforeAgent", prompt: "/timebox 1m" });
		await gemini({ hook_event_name: "BeforeAgent", prompt: "work" });
		await gemini({ hook_event_name: "AfterAgent" });
		const log = readFileSync(join(home, ".gemini", "timebox", "sessions", "g1.jsonl"), "utf8");
		const prompt = /"kind":"prompt","promptId":"(unnamed-[^"]+)"/.exec(log)?.[1];
		expect(prompt).toBeDefined();
		expect(log).toContain(`"kind":"ended","promptId":"${prompt}"`);
	});

	it("sets a token limit, counted from Gemini's session file, and says the cost limit cannot be enforced", async () => {
		expect(await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD tokens:1k $1" })).toEqual({
			decision: "block",
			reason: [
				"Timebox set: 1k tokens and $1.00.",
				"Timebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.",
			].join("\n"),
		});
	});

	it("stops at a tool result on time even when no prompt of the session was seen", async () => {
		await gemini({ hook_event_name: "BeforeAgent", prompt: "/timebox 1m" });
		now += 61_000;
		expect(await gemini({ hook_event_name: "AfterTool" })).toMatchObject({
			continue: false,
			stopReason: "Timebox budget spent. Used 0 turns, 1m 1s. The agent stops for this turn. The chat continues.",
		});
	});
});
