// The real Claude Code for the e2e suites: installed once, run hermetically against a scripted fake Messages API.

import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { ModelRequest } from "../../../../demo/fakes/anthropic.ts";
import { CLAUDE_BIN, PLUGIN_DIR } from "../../../../demo/hosts/claude.ts";
import { type RunOptions, type RunResult, runProcess } from "../../../support/processes.ts";
import { processesUnder, removeSandbox } from "../../../support/sandbox.ts";

export {
	FakeAnthropic,
	isSubagentRequest,
	type MessagesBody,
	type ModelRequest,
	messageTexts,
	type ScriptedReply,
	type ToolCall,
} from "../../../../demo/fakes/anthropic.ts";
export { CLAUDE_BIN, CLAUDE_CODE_VERSION, ensureClaudeCode, PLUGIN_DIR } from "../../../../demo/hosts/claude.ts";
export { REPO } from "../../../../demo/repo.ts";
export { type RunOptions, type RunResult, runProcess };
/** The hook script as the hook gate starts it: its CommonJS entry (`bin/timebox.mjs` runs the same code). */
export const TIMEBOX_BIN = join(PLUGIN_DIR, "bin/timebox.cjs");

/**
 * How Claude Code runs the plugin: its hooks module in Claude Code's own process ("function hooks", the default where
 * the module loads), or the command hooks alone ("classic hooks"), as in a Claude Code that refuses hooks modules.
 */
export type ClaudeMode = "function hooks" | "classic hooks";

/** What `claude` prints on stderr, and only that, in a "classic hooks" sandbox: the plugin's module was refused. */
export const MODULE_REFUSED_NOTE =
	"timebox: hooks module not loaded: hooks modules are turned off for installed plugins in this process: the rollout switch served off; built-in plugins load regardless\n";

/** A throwaway user: HOME and a working folder under one temporary root, removed by `cleanup`. */
export interface Sandbox {
	mode: ClaudeMode;
	root: string;
	home: string;
	cwd: string;
	/** Timebox's data folder, as Claude Code gives it to a plugin loaded with --plugin-dir. */
	dataDir: string;
	cleanup(): Promise<void>;
}

/**
 * A new sandbox. In "classic hooks" mode its `~/.claude.json` holds the rollout switch of hooks modules as an earlier
 * online session would have saved it, off: Claude Code then loads no plugin's hooks module and runs the command hooks
 * alone (`runClaude` has Claude Code read that saved switch though telemetry is off).
 */
export async function createSandbox(mode: ClaudeMode = "function hooks"): Promise<Sandbox> {
	const root = await mkdtemp(join(tmpdir(), "timebox-claude-e2e-"));
	const home = join(root, "home");
	const cwd = join(root, "work");
	mkdirSync(home);
	mkdirSync(cwd);
	if (mode === "classic hooks") {
		const switches = { cachedGrowthBookFeatures: { tengu_plugin_hooks_modules: false } };
		writeFileSync(join(home, ".claude.json"), JSON.stringify(switches));
	}
	return {
		mode,
		root,
		home,
		cwd,
		dataDir: join(home, ".claude/plugins/data/timebox-inline"),
		// A detached watcher of the sandbox's budget may still write into it for up to a second after `claude` exits.
		cleanup: () => removeSandbox(root),
	};
}

export interface ClaudeOptions {
	home: string;
	cwd: string;
	apiUrl: string;
	timeoutMs?: number;
	/** Added to the environment; its PATH, when given, replaces the test's. */
	env?: NodeJS.ProcessEnv;
}

/**
 * The hermetic environment of a `claude` run: the fake API, no telemetry, no updater; the switches saved in the HOME's
 * `~/.claude.json` are read though telemetry is off (the sandbox's mode is one of them).
 */
export function claudeEnv(options: ClaudeOptions): NodeJS.ProcessEnv {
	return {
		...options.env,
		PATH: options.env?.PATH ?? process.env.PATH,
		HOME: options.home,
		ANTHROPIC_BASE_URL: options.apiUrl,
		ANTHROPIC_API_KEY: "sk-fake",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_TELEMETRY: "1",
		DISABLE_AUTOUPDATER: "1",
		CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF: "1",
	};
}

/** Runs the real `claude` with a hermetic environment (`claudeEnv`), stdin closed. */
export function runClaude(args: readonly string[], options: ClaudeOptions): Promise<RunResult> {
	return runProcess(CLAUDE_BIN, args, { cwd: options.cwd, env: claudeEnv(options), timeoutMs: options.timeoutMs });
}

/** One line `claude --output-format stream-json` printed, and when it arrived (epoch ms). */
export interface StreamLine {
	at: number;
	line: Record<string, unknown>;
}

/**
 * A `claude -p` session kept open: prompts go in as stream-json on stdin, one at a time, and every line it prints is
 * kept with its arrival time. The session stays idle between prompts, as a user's does, until `close`.
 */
export class ClaudeSession {
	readonly lines: StreamLine[] = [];
	stderr = "";
	private readonly child: ChildProcess;
	private buffered = "";
	private readonly exited: Promise<number | null>;

	constructor(args: readonly string[], options: ClaudeOptions) {
		const streaming = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
		this.child = spawn(CLAUDE_BIN, [...streaming, ...args], {
			cwd: options.cwd,
			env: claudeEnv(options),
			stdio: ["pipe", "pipe", "pipe"],
		});
		this.child.stdout?.on("data", (chunk: Buffer) => this.read(chunk.toString()));
		this.child.stderr?.on("data", (chunk: Buffer) => {
			this.stderr += chunk.toString();
		});
		this.exited = new Promise((done) => this.child.once("close", (code) => done(code)));
	}

	/** The process id of `claude`. */
	get pid(): number {
		return this.child.pid ?? Number.NaN;
	}

	/** Sends a prompt; resolves with its `result` line once the prompt's run ended (or throws after `timeoutMs`). */
	async send(prompt: string, timeoutMs = 60_000): Promise<StreamLine> {
		const before = this.results().length;
		const message = { type: "user", message: { role: "user", content: prompt } };
		this.child.stdin?.write(`${JSON.stringify(message)}\n`);
		const deadline = Date.now() + timeoutMs;
		while (this.results().length === before) {
			if (Date.now() > deadline || this.child.exitCode !== null) {
				throw new Error(`no result for ${JSON.stringify(prompt)}; stderr: ${this.stderr.slice(0, 2_000)}`);
			}
			await new Promise((done) => setTimeout(done, 20));
		}
		return this.results()[before] as StreamLine;
	}

	/** The `result` lines so far, one per prompt. */
	results(): StreamLine[] {
		return this.lines.filter((entry) => entry.line.type === "result");
	}

	/** The texts of the status line (`$.ui.status`) as the session printed them, in order. */
	statuses(): string[] {
		return this.lines
			.filter((entry) => entry.line.type === "system" && entry.line.subtype === "ui_status")
			.map((entry) => String(entry.line.text ?? ""));
	}

	/** Ends the session (stdin closed, then killed if it lingers) and resolves with its exit code. */
	async close(): Promise<number | null> {
		this.child.stdin?.end();
		const killer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
		const code = await this.exited;
		clearTimeout(killer);
		return code;
	}

	private read(text: string): void {
		this.buffered += text;
		const parts = this.buffered.split("\n");
		this.buffered = parts.pop() ?? "";
		for (const part of parts) {
			if (part.trim().length === 0) continue;
			this.lines.push({ at: Date.now(), line: JSON.parse(part) as Record<string, unknown> });
		}
	}
}

/**
 * A `node` on PATH that notes each start (its arguments, one line) in a log file, then runs the real Node: how a test
 * sees whether a hook started Node at all. Returns the PATH to run with and a reader of the starts noted.
 */
export function loggingNode(root: string): { path: string; starts: () => string[] } {
	const folder = join(root, "logging-node");
	const log = join(root, "node-starts.log");
	mkdirSync(folder, { recursive: true });
	const shim = join(folder, "node");
	writeFileSync(shim, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${process.execPath}' "$@"\n`);
	chmodSync(shim, 0o755);
	return {
		path: `${folder}:${process.env.PATH ?? ""}`,
		starts: () =>
			existsSync(log)
				? readFileSync(log, "utf8")
						.split("\n")
						.filter((line) => line.length > 0)
				: [],
	};
}

/** The command lines of the processes running with HOME set to `home`: whatever a sandbox's `claude` left running. */
export function processesOf(home: string): string[] {
	return processesUnder(home).map((found) => found.command);
}

/** A budget the hooks module saved: its session's id, when it started (epoch ms) and its turn limit. */
export interface SavedBudget {
	id: string;
	startTime: number;
	turnLimit: unknown;
}

/**
 * The budgets the hooks module saved in the plugin's store under `home` (`~/.claude/plugins/store/timebox_*.json`: an
 * entry `session:<id>` per session, holding its records), oldest first within a session. A budget's start is when the
 * module began counting it, not when its `/timebox` was sent. A file caught half written is passed over.
 */
export function savedBudgets(home: string): SavedBudget[] {
	const folder = join(home, ".claude/plugins/store");
	if (!existsSync(folder)) return [];
	const budgets: SavedBudget[] = [];
	// The store files alone: Claude Code writes one as a draft (`<name>.tmp.<hex>`) and renames it into place, beside a
	// `.lock` folder. A draft read while it is renamed is gone, and the store file read a moment before still held the
	// old entries: a start seen in the draft would be lost on the next look.
	for (const file of readdirSync(folder).filter((name) => name.startsWith("timebox_") && name.endsWith(".json"))) {
		let entries: Record<string, { history?: unknown[] }>;
		try {
			entries = JSON.parse(readFileSync(join(folder, file), "utf8")) as Record<string, { history?: unknown[] }>;
		} catch {
			// Claude Code is writing the file: what it holds is read on the next look.
			continue;
		}
		for (const [key, entry] of Object.entries(entries)) {
			if (!key.startsWith("session:")) continue;
			for (const item of entry.history ?? []) {
				const record = (item as { record?: { kind?: string; budget?: { startTime?: unknown; turnLimit?: unknown } } })
					.record;
				const startTime = record?.budget?.startTime;
				if (record?.kind === "active" && typeof startTime === "number") {
					budgets.push({ id: key.slice("session:".length), startTime, turnLimit: record.budget?.turnLimit });
				}
			}
		}
	}
	return budgets;
}

/** When the newest budget saved under `home` started (epoch ms), as the first look that finds one sees it. */
export async function polledBudgetStart(home: string): Promise<number> {
	let start = Number.NaN;
	await expect
		.poll(
			() => {
				start = savedBudgetStart(home);
				return start;
			},
			{ timeout: 5_000, interval: 50 },
		)
		.toBeGreaterThan(0);
	return start;
}

/** When the newest budget the hooks module saved under `home` started (epoch ms), or NaN while there is none. */
export function savedBudgetStart(home: string): number {
	const starts = savedBudgets(home).map((budget) => budget.startTime);
	return starts.length > 0 ? Math.max(...starts) : Number.NaN;
}

/**
 * Runs the plugin's bundled script (`hook` or `statusline …`) directly with `node`, as Claude Code does, in a
 * throwaway HOME (the script keeps its code cache in Timebox's state folder there).
 */
export function runTimebox(
	args: readonly string[],
	input: string,
	env: NodeJS.ProcessEnv & { HOME: string },
): Promise<RunResult> {
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

/**
 * What the model read of its last tool call in a request: the text of the last tool result after its last answer (the
 * result of the tool it asked for, or why that tool was refused), or "" when there is none (Claude Code may add a
 * system message after it).
 */
export function lastToolResult(request: ModelRequest): string {
	const messages = request.body.messages ?? [];
	const answered = messages.findLastIndex((message) => message.role === "assistant");
	const blocks = messages
		.slice(answered + 1)
		.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
	const result = blocks.findLast((block) => block.type === "tool_result") as
		| { content?: string | { type: string; text?: string }[] }
		| undefined;
	const inner = result?.content;
	return typeof inner === "string" ? inner : (inner ?? []).map((block) => block.text ?? "").join("\n");
}

/** The `result` object of `--output-format json` (a single object, or the last `result` of a `--verbose` array). */
export function resultOf(stdout: string): Record<string, unknown> {
	const parsed = JSON.parse(stdout) as unknown;
	const entries = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[];
	const result = entries.findLast((entry) => entry.type === "result");
	if (!result) throw new Error(`no result in the JSON output: ${stdout.slice(0, 500)}`);
	return result;
}
