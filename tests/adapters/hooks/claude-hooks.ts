// Fixtures and helpers of the hook adapter's tests as Claude Code's classic hooks run it: hook payloads as Claude Code
// sends them, through the command line, with a manual clock, a shell that runs nothing and a temporary data folder
// per test (session logs and the per-user ledger); each test file calls `useClaudeHooks()` for that set-up.

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
import { afterEach, beforeEach, expect, vi } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { type Clock, LEDGER_FOLDER, type OnStopOutcome, type OnStopStarter } from "../../../src/core/index.ts";
import { type CliDeps, type CliResult, runCli } from "../../../src/entries/hook-cli.ts";

/** What `/timebox status` adds on the classic hooks. */
export const CLASSIC = "\nTimebox runs on Claude Code's classic hooks.";

export const SESSION = "3f1c2a4e-0000-4000-8000-000000000001";
export const START = Date.UTC(2026, 10, 22, 9, 0, 0);

/** A clock that moves only when the test says so: two budgets can be set in the same millisecond. */
export class ManualClock implements Clock {
	private current = START;

	now(): number {
		return this.current;
	}

	advance(ms: number): void {
		this.current += ms;
	}
}

/** Stands in for the shell: a command "runs" by being listed in `ran`, and the start is reported as `outcome` says. */
export class FakeShell implements OnStopStarter {
	readonly ran: string[] = [];

	constructor(private readonly outcomes: readonly OnStopOutcome[] = [{ kind: "started" }]) {}

	start(command: string, report: (outcome: OnStopOutcome) => void): void {
		this.ran.push(command);
		for (const outcome of this.outcomes) report(outcome);
	}
}

export let dataDir: string;
export let clock: ManualClock;
export let shell: FakeShell;
export let budgetIds: number;
export let wrappedCalls: { command: string; stdin: string }[];
export let watchers: { folder: string; sessionId: string; budget: string }[];

/** Registers the per-test set-up (a fresh data folder, clock and shell) in the test file that calls it. */
export function useClaudeHooks(): void {
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
}

export const base = { session_id: SESSION, transcript_path: "/nonexistent/transcript.jsonl", cwd: "/nonexistent" };

export const logFile = () => join(dataDir, "sessions", `${SESSION}.jsonl`);
export const ledgerDir = () => join(dataDir, LEDGER_FOLDER);

export function deps(overrides: Partial<CliDeps> = {}): CliDeps {
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
		entry: import.meta.url,
		importReport: () => import("../../../src/entries/report/entry.ts"),
		sleep: async (ms) => clock.advance(ms),
		...overrides,
	};
}

export function run(payload: object, args: string[] = ["hook"], overrides: Partial<CliDeps> = {}): Promise<CliResult> {
	return runCli(args, JSON.stringify(payload), { CLAUDE_PLUGIN_DATA: dataDir }, deps(overrides));
}

/** Sends a hook event and returns the JSON Claude Code would read ({} for no answer), typed as the SDK types it. */
export async function hook(payload: object, overrides: Partial<CliDeps> = {}): Promise<SyncHookJSONOutput> {
	const { stdout, stderr } = await run(payload, ["hook"], overrides);
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as SyncHookJSONOutput);
}

export function promptPayload(prompt: string, promptId: string): UserPromptSubmitHookInput {
	return { ...base, hook_event_name: "UserPromptSubmit", prompt, prompt_id: promptId };
}

export function toolPayload(promptId: string | undefined, toolUseId = "toolu_1"): PreToolUseHookInput {
	return {
		...base,
		hook_event_name: "PreToolUse",
		...(promptId === undefined ? {} : { prompt_id: promptId }),
		tool_name: "Bash",
		tool_input: { command: "sleep 5" },
		tool_use_id: toolUseId,
	};
}

export function submit(
	prompt: string,
	promptId: string,
	overrides: Partial<CliDeps> = {},
): Promise<SyncHookJSONOutput> {
	return hook(promptPayload(prompt, promptId), overrides);
}

export function preToolUse(
	promptId: string | undefined,
	overrides: Partial<CliDeps> = {},
): Promise<SyncHookJSONOutput> {
	return hook(toolPayload(promptId), overrides);
}

export function postToolBatchPayload(promptId: string): PostToolBatchHookInput {
	return { ...base, hook_event_name: "PostToolBatch", prompt_id: promptId, tool_calls: [] };
}

export function postToolBatch(promptId: string): Promise<SyncHookJSONOutput> {
	return hook(postToolBatchPayload(promptId));
}

export function sessionStart(source: SessionStartHookInput["source"]): Promise<SyncHookJSONOutput> {
	const input: SessionStartHookInput = { ...base, hook_event_name: "SessionStart", source };
	return hook(input);
}

export async function statusLine(extra: string[] = []): Promise<string> {
	return (await run({ ...base, model: { id: "m" } }, ["statusline", ...extra])).stdout;
}

/** The session log, one parsed object a line. */
export function logLines(): Record<string, unknown>[] {
	return readFileSync(logFile(), "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Writes the session log by hand, as the first version (or another process) left it. */
export function writeLog(lines: readonly (object | string)[]): void {
	mkdirSync(join(dataDir, "sessions"), { recursive: true });
	writeFileSync(logFile(), lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n"));
}

export const SPENT = (turns: string, time: string) =>
	`Timebox budget spent. Used ${turns}, ${time}. The agent stops for this turn. The chat continues.`;
export const RAN = (command: string) => `Timebox ran the on-stop command: ${command}`;

/** The answer of a PreToolUse hook that stops the run: the tool is denied, with the reason the model reads. */
export function deniedTool(stopReason: string, modelReason: string) {
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
