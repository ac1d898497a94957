// Gemini CLI's session file as Timebox reads it: each answer's tokens once, with its prompt and the byte its line begins
// at; and the cap on a request about to be sent (BeforeModel), bounded from that file, through the real hook script's
// adapter: none before the session's first answer, the room left after it, and the stop when not even a minimal answer
// fits.

import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { readGeminiUsage, transcriptSize } from "../../../src/adapters/gemini/transcript-usage.ts";
import { handleHook } from "../../../src/adapters/hooks/handle.ts";
import { parseHookInput } from "../../../src/adapters/hooks/input.ts";
import { createFileLedger } from "../../../src/adapters/node/file-ledger.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import { LEDGER_FOLDER, NOTE_ALLOWANCE_BYTES } from "../../../src/core/index.ts";
import { runCli } from "../../../src/entries/hook-cli.ts";

let home: string;
let file: string;
let now: number;
beforeEach(() => {
	home = mkdtempSync(join(tmpdir(), "timebox-gemini-transcript-"));
	file = join(home, "session.jsonl");
	now = Date.UTC(2026, 10, 22, 9, 0, 0);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const header = JSON.stringify({ sessionId: "g1", projectHash: "p", startTime: "t", kind: "main" });
const user = JSON.stringify({ id: "u1", timestamp: "t", type: "user", content: [{ text: "fix it" }] });
/** An answer's line, as Gemini writes it before and after its stream ends. */
const answer = (id: string, tokens?: object) =>
	JSON.stringify({ id, timestamp: "t", type: "gemini", content: "working", ...(tokens ? { tokens } : {}) });
const used = { input: 11_589, output: 1_234, cached: 0, thoughts: 0, tool: 0, total: 12_823 };

describe("Gemini CLI's session file", () => {
	it("gives each answer once, when its tokens are in, with its prompt and where its line begins", () => {
		writeFileSync(file, `${header}\n${user}\n${answer("a1")}\n`);
		const before = statSync(file).size;
		appendFileSync(file, `${answer("a1", used)}\n${answer("a1", used)}\n`);
		expect(readGeminiUsage(file, 0, new Set())).toEqual({
			responses: [{ id: "a1", tokens: 12_823, prompt: { input: 11_589, from: before } }],
			offset: statSync(file).size,
			unreadable: false,
		});
		expect(readGeminiUsage(file, 0, new Set(["a1"])).responses).toEqual([]);
	});

	it("adds up an answer's parts where it names no total, and says a line it cannot read", () => {
		writeFileSync(
			file,
			`${answer("a1", { input: 100, output: 20, thoughts: 5, tool: 1 })}\n${answer("a2", { output: 5 })}\n`,
		);
		const read = readGeminiUsage(file, 0, new Set());
		expect(read.responses).toEqual([{ id: "a1", tokens: 126, prompt: { input: 100, from: 0 } }]);
		expect(read.unreadable).toBe(true);
	});

	it("reads nothing of a file that is not there, a line not yet whole, or one longer than a read", () => {
		expect(readGeminiUsage(join(home, "none.jsonl"), 0, new Set())).toEqual({
			responses: [],
			offset: 0,
			unreadable: false,
		});
		writeFileSync(file, answer("a1", used));
		expect(readGeminiUsage(file, 0, new Set())).toEqual({ responses: [], offset: 0, unreadable: false });
		expect(readGeminiUsage(file, 99_999, new Set()).offset).toBe(statSync(file).size);
		writeFileSync(file, `${"x".repeat(8 * 1024 * 1024 + 10)}`);
		expect(readGeminiUsage(file, 0, new Set()).offset).toBe(8 * 1024 * 1024);
		expect(transcriptSize(join(home, "none.jsonl"))).toBeNull();
	});

	it("skips a line that is no JSON, and reads nothing of a folder in the file's place", () => {
		writeFileSync(file, `{"torn\n[1]\n${answer("a1", used)}\n`);
		expect(readGeminiUsage(file, 0, new Set()).responses.map((response) => response.id)).toEqual(["a1"]);
		expect(readGeminiUsage(home, 0, new Set())).toEqual({ responses: [], offset: 0, unreadable: false });
	});
});

describe("a request about to be sent, in Gemini CLI", () => {
	const deps = () => ({
		hosts: [claudeCodeHost, geminiCliHost],
		clock: { now: () => now },
		onStop: { start: () => {} },
		runStatusLine: () => "",
		script: "/x/timebox.mjs",
		startWatcher: () => {},
		entry: import.meta.url,
		importReport: () => import("../../../src/entries/report/entry.ts"),
		sleep: async () => {},
	});
	async function gemini(payload: object): Promise<unknown> {
		const base = { session_id: "g1", transcript_path: file, cwd: "/nonexistent", timestamp: "t" };
		const { stdout, stderr } = await runCli(
			["hook", "--host", "gemini"],
			JSON.stringify({ ...base, ...payload }),
			{ HOME: home },
			deps(),
		);
		expect(stderr).toBe("");
		return stdout === "" ? null : JSON.parse(stdout);
	}
	const request = { hook_event_name: "BeforeModel", llm_request: { config: { temperature: 1, topP: 0.95, topK: 64 } } };

	it("goes as it is before the session's first answer, and is capped at the room left after it", async () => {
		writeFileSync(file, `${header}\n${user}\n`);
		await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD tokens:50k" });
		await gemini({ hook_event_name: "BeforeAgent", prompt: "fix it" });
		expect(await gemini(request)).toBeNull();
		const from = statSync(file).size;
		appendFileSync(file, `${answer("a1", used)}\n`);
		// The tool's result: the answer is counted from the file, and the next request is bounded from it.
		await gemini({ hook_event_name: "AfterTool", tool_name: "run_shell_command" });
		appendFileSync(file, `${JSON.stringify({ id: "a1", type: "gemini", toolCalls: [{ result: "x".repeat(500) }] })}\n`);
		const added = statSync(file).size - from;
		const cap = 50_000 - 12_823 - (11_589 + added + NOTE_ALLOWANCE_BYTES);
		expect(await gemini(request)).toEqual({
			hookSpecificOutput: {
				hookEventName: "BeforeModel",
				llm_request: { config: { temperature: 1, topP: 0.95, topK: 64, maxOutputTokens: cap } },
			},
		});
		const log = readFileSync(join(home, ".gemini", "timebox", "sessions", "g1.jsonl"), "utf8");
		expect(log).toContain(`"responseId":"a1","tokens":12823`);
	});

	it("is not sent when not even a minimal answer fits: the budget is spent there and the run ends", async () => {
		writeFileSync(file, `${header}\n${user}\n`);
		await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD tokens:30k" });
		await gemini({ hook_event_name: "BeforeAgent", prompt: "fix it" });
		appendFileSync(file, `${answer("a1", used)}\n`);
		await gemini({ hook_event_name: "AfterTool", tool_name: "run_shell_command" });
		expect(await gemini(request)).toEqual({
			continue: false,
			stopReason:
				"Timebox budget spent. Used 0 turns, 0s, 12,823 of 30,000 tokens (too little left for the next model call). The agent stops for this turn. The chat continues.",
		});
	});

	it("goes as it is without a token budget, or where the session file cannot be read", async () => {
		writeFileSync(file, `${header}\n${user}\n${answer("a1", used)}\n`);
		await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD 30m" });
		await gemini({ hook_event_name: "BeforeAgent", prompt: "fix it" });
		await gemini({ hook_event_name: "AfterTool", tool_name: "run_shell_command" });
		expect(await gemini(request)).toBeNull();
		rmSync(file);
		expect(await gemini(request)).toBeNull();
		expect(await gemini({ ...request, transcript_path: null })).toBeNull();
	});

	it("goes as it is where the adapter is given no way to size the session's file", async () => {
		writeFileSync(file, `${header}\n${user}\n${answer("a1", used)}\n`);
		await gemini({ hook_event_name: "BeforeAgent", prompt: "TIMEBOX-CMD tokens:50k" });
		const input = parseHookInput(JSON.stringify({ session_id: "g1", transcript_path: file, ...request }));
		if ("error" in input) throw new Error(input.error);
		const data = join(home, ".gemini", "timebox");
		const deps = {
			store: new SessionLog(data, "g1"),
			ledger: createFileLedger(join(data, LEDGER_FOLDER)),
			clock: { now: () => now },
			onStop: { start: () => {} },
		};
		expect(await handleHook(geminiCliHost.read(input), deps)).toBeNull();
	});
});
