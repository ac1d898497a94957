// `/timebox suggest` and `TIMEBOX_DEFAULT=suggested` on the hook hosts, through the command line as Claude Code, Gemini
// CLI and Codex run it: the project's past sessions read for the folder the hook's input names, leaving out the session
// asking; the suggestion said, the suggested budget set and announced, or why there is none.

import { existsSync } from "node:fs";
import type { SessionStartHookInput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import type { ProjectHistoryReader } from "../../../src/adapters/report/writer.ts";
import { NO_SUGGESTION, type PastSession } from "../../../src/core/index.ts";
import { runCli } from "../../../src/entries/hook-cli.ts";
import {
	base,
	dataDir,
	deps,
	logFile,
	logLines,
	promptPayload,
	SESSION,
	START,
	statusLine,
	submit,
	useClaudeHooks,
} from "./claude-hooks.ts";

useClaudeHooks();

const MINUTE = 60_000;

/** Five past sessions of 10 to 50 minutes and 1 to 5 turns, on Gemini CLI (no tokens, no cost). */
const FIVE: PastSession[] = [1, 2, 3, 4, 5].map((n) => ({
	id: `past-${n}`,
	host: "Gemini CLI",
	startedAt: START - n * 24 * 60 * MINUTE,
	endedAt: START - n * 24 * 60 * MINUTE + n * 10 * MINUTE,
	turns: n,
	steps: null,
	tokens: null,
	cost: null,
}));

/** A reader of `sessions` that keeps what it was asked for. */
function reader(sessions: readonly PastSession[]) {
	const asked: { project: string; current: string | null }[] = [];
	const read: ProjectHistoryReader = async (project, current) => {
		asked.push({ project, current });
		return { sessions, current };
	};
	return { read, asked };
}

describe("/timebox suggest on the hook hosts", () => {
	it("says the suggestion of the hook's folder, leaving out the session asking, and never reaches the model", async () => {
		const { read, asked } = reader([...FIVE, { ...FIVE[0], id: SESSION } as PastSession]);
		const reply = await submit("/timebox suggest", "p1", { projectHistory: read });
		expect(asked).toEqual([{ project: "/nonexistent", current: SESSION }]);
		expect(reply).toEqual({
			decision: "block",
			reason: [
				"Timebox: your last 5 sessions here (5 Gemini CLI), median / 90th percentile:",
				"- time: 30m 0s / 50m 0s",
				"- turns: 3 / 5",
				"- model calls: not measured (none of these sessions' hosts measure it)",
				"- tokens: not measured (none of these sessions' hosts measure it)",
				"- cost: not measured (none of these sessions' hosts measure it)",
				"Try /timebox 50m turns:5 (the 90th percentile of your last 5 sessions here).",
			].join("\n"),
		});
		expect(existsSync(logFile())).toBe(false);
	});

	it("says why where the history cannot be read, and where to ask where the hook names no folder", async () => {
		const failing: ProjectHistoryReader = () => Promise.reject(new Error("EACCES: /home/u/.pi"));
		expect(await submit("/timebox suggest", "p1", { projectHistory: failing })).toEqual({
			decision: "block",
			reason: "Timebox: your past sessions could not be read (EACCES: /home/u/.pi).",
		});
		const { read, asked } = reader(FIVE);
		const input = { ...promptPayload("/timebox suggest", "p2"), cwd: "" };
		const { stdout } = await runCli(
			["hook"],
			JSON.stringify(input),
			{ CLAUDE_PLUGIN_DATA: dataDir },
			deps({ projectHistory: read }),
		);
		expect(JSON.parse(stdout)).toEqual({ decision: "block", reason: NO_SUGGESTION });
		expect(asked).toEqual([]);
	});

	it("answers Codex's `timebox suggest` in Codex's words", async () => {
		const { read } = reader(FIVE);
		const input = { ...base, hook_event_name: "UserPromptSubmit", prompt: "timebox suggest", turn_id: "t1" };
		const env = { CODEX_HOME: dataDir };
		const { stdout } = await runCli(
			["hook", "--host", "codex"],
			JSON.stringify(input),
			env,
			deps({ projectHistory: read }),
		);
		expect(JSON.parse(stdout).reason).toContain(
			"Try timebox 50m turns:5 (the 90th percentile of your last 5 sessions here).",
		);
	});
});

describe("TIMEBOX_DEFAULT=suggested on the hook hosts", () => {
	async function start(sessions: readonly PastSession[]) {
		const input: SessionStartHookInput = { ...base, hook_event_name: "SessionStart", source: "startup" };
		const env = { CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_DEFAULT: "suggested" };
		const { read, asked } = reader(sessions);
		const { stdout } = await runCli(["hook"], JSON.stringify(input), env, deps({ projectHistory: read }));
		return { reply: stdout === "" ? {} : JSON.parse(stdout), asked, read, env };
	}

	it("sets the suggested budget as the session starts, announced with where it came from", async () => {
		const { reply, asked } = await start(FIVE);
		expect(reply).toEqual({
			systemMessage:
				"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here): 50m and 5 turns.",
		});
		expect(asked).toEqual([{ project: "/nonexistent", current: SESSION }]);
		expect(await statusLine()).toBe("Timebox: 50m 0s left (50m budget) | 5 turns left (0/5)\n");
	});

	it("starts the session without a budget with too little history, says why, and keeps its prompts", async () => {
		const { reply, read, env } = await start(FIVE.slice(0, 2));
		expect(reply).toEqual({
			systemMessage:
				"Timebox: TIMEBOX_DEFAULT (suggested): too little history to suggest a budget: 2 sessions of this project so far, and a suggestion needs 5. The session starts without a budget.",
		});
		expect(await statusLine()).toBe("\n");
		const { stdout } = await runCli(
			["hook"],
			JSON.stringify(promptPayload("hello", "p1")),
			env,
			deps({ projectHistory: read }),
		);
		// The start said why: the first prompt neither tries the default again nor says it again.
		expect(stdout).toBe("");
		// The prompt is kept, with its folder: the session counts towards the next suggestion.
		expect(logLines()).toEqual([
			{ kind: "default-said", at: START },
			{ kind: "prompt", promptId: "p1", at: START, cwd: "/nonexistent" },
		]);
	});
});
