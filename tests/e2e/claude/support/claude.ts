// The real Claude Code for the e2e suites: installed once, run hermetically against a scripted fake Messages API.

import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLAUDE_BIN, PLUGIN_DIR } from "../../../../demo/hosts/claude.ts";
import { type RunOptions, type RunResult, runProcess } from "../../../support/processes.ts";

export {
	FakeAnthropic,
	type MessagesBody,
	type ModelRequest,
	messageTexts,
	type ScriptedReply,
	type ToolCall,
} from "../../../../demo/fakes/anthropic.ts";
export { CLAUDE_BIN, CLAUDE_CODE_VERSION, ensureClaudeCode, PLUGIN_DIR } from "../../../../demo/hosts/claude.ts";
export { REPO } from "../../../../demo/repo.ts";
export { type RunOptions, type RunResult, runProcess };
export const TIMEBOX_BIN = join(PLUGIN_DIR, "bin/timebox.mjs");

/** A throwaway user: HOME and a working folder under one temporary root, removed by `cleanup`. */
export interface Sandbox {
	root: string;
	home: string;
	cwd: string;
	/** Timebox's data folder, as Claude Code gives it to a plugin loaded with --plugin-dir. */
	dataDir: string;
	cleanup(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
	const root = await mkdtemp(join(tmpdir(), "timebox-claude-e2e-"));
	const home = join(root, "home");
	const cwd = join(root, "work");
	mkdirSync(home);
	mkdirSync(cwd);
	return {
		root,
		home,
		cwd,
		dataDir: join(home, ".claude/plugins/data/timebox-inline"),
		cleanup: () => rm(root, { recursive: true, force: true }),
	};
}

/** Runs the real `claude` with a hermetic environment: the fake API, no telemetry, no updater, stdin closed. */
export function runClaude(
	args: readonly string[],
	options: { home: string; cwd: string; apiUrl: string; timeoutMs?: number; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
	const env: NodeJS.ProcessEnv = {
		...options.env,
		PATH: process.env.PATH,
		HOME: options.home,
		ANTHROPIC_BASE_URL: options.apiUrl,
		ANTHROPIC_API_KEY: "sk-fake",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_TELEMETRY: "1",
		DISABLE_AUTOUPDATER: "1",
	};
	return runProcess(CLAUDE_BIN, args, { cwd: options.cwd, env, timeoutMs: options.timeoutMs });
}

/** Runs the plugin's bundled script (`hook` or `statusline …`) directly with `node`, as Claude Code does. */
export function runTimebox(args: readonly string[], input: string, env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(process.execPath, [TIMEBOX_BIN, ...args], { input, env: { PATH: process.env.PATH, ...env } });
}

/** The session ids Timebox keeps a log for, from `<data>/sessions/<id>.jsonl`. */
export function loggedSessions(dataDir: string): string[] {
	const folder = join(dataDir, "sessions");
	if (!existsSync(folder)) return [];
	return readdirSync(folder)
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => name.slice(0, -".jsonl".length));
}

/** The lines of Timebox's log of a session. */
export function sessionLog(dataDir: string, sessionId: string): Record<string, unknown>[] {
	const text = readFileSync(join(dataDir, "sessions", `${sessionId}.jsonl`), "utf8");
	return text
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** One `attachment` entry of a Claude Code transcript: what the interactive UI renders for hook output. */
export interface TranscriptAttachment {
	type: string;
	hookEvent?: string;
	hookName?: string;
	content?: unknown;
	message?: string;
	/** How long the hook took, as Claude Code measured it (`hook_success` entries). */
	durationMs?: number;
}

/** Every attachment in the transcripts Claude Code wrote under `<home>/.claude/projects`, oldest first per file. */
export function transcriptAttachments(home: string): TranscriptAttachment[] {
	const projects = join(home, ".claude/projects");
	if (!existsSync(projects)) return [];
	const files = readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".jsonl"));
	const attachments: TranscriptAttachment[] = [];
	for (const file of files) {
		for (const line of readFileSync(join(projects, file), "utf8").split("\n")) {
			if (line.length === 0) continue;
			const entry = JSON.parse(line) as { type?: string; attachment?: TranscriptAttachment };
			if (entry.type === "attachment" && entry.attachment) attachments.push(entry.attachment);
		}
	}
	return attachments;
}

/** The `result` object of `--output-format json` (a single object, or the last `result` of a `--verbose` array). */
export function resultOf(stdout: string): Record<string, unknown> {
	const parsed = JSON.parse(stdout) as unknown;
	const entries = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[];
	const result = entries.findLast((entry) => entry.type === "result");
	if (!result) throw new Error(`no result in the JSON output: ${stdout.slice(0, 500)}`);
	return result;
}
