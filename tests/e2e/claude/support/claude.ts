// The real Claude Code for the e2e suites: installed once, run hermetically against a scripted fake Messages API.

import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type RunOptions, type RunResult, runProcess } from "../../../support/processes.ts";

export { type RunOptions, type RunResult, runProcess };

export const REPO = resolve(import.meta.dirname, "../../../..");
export const PLUGIN_DIR = join(REPO, "plugins/claude-code");
export const TIMEBOX_BIN = join(PLUGIN_DIR, "bin/timebox.mjs");

export const CLAUDE_CODE_VERSION = "2.1.332";
// One folder per version, so that worktrees or branches pinned to different versions do not reinstall over each other.
const INSTALL_DIR = join(REPO, `node_modules/.cache/timebox-claude-code-${CLAUDE_CODE_VERSION}`);
const PACKAGE_DIR = join(INSTALL_DIR, "node_modules/@anthropic-ai/claude-code");
export const CLAUDE_BIN = join(INSTALL_DIR, "node_modules/.bin/claude");
const INSTALL_TIMEOUT_MS = 300_000;

async function installedVersion(): Promise<string> {
	if (!existsSync(CLAUDE_BIN)) return "";
	const result = await runProcess(CLAUDE_BIN, ["--version"], { env: { PATH: process.env.PATH }, timeoutMs: 20_000 });
	return result.stdout.trim();
}

/** Installs the pinned Claude Code on first use (skipped when it is already there) and returns its binary. */
export async function ensureClaudeCode(): Promise<string> {
	const wanted = `${CLAUDE_CODE_VERSION} (Claude Code)`;
	if ((await installedVersion()) === wanted) return CLAUDE_BIN;
	console.log(`Installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${INSTALL_DIR} (first run only)…`);
	mkdirSync(INSTALL_DIR, { recursive: true });
	const npmArgs = ["install", "--prefix", INSTALL_DIR, "--no-save", "--no-audit", "--no-fund"];
	const installed = await runProcess("npm", [...npmArgs, `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], {
		env: process.env,
		timeoutMs: INSTALL_TIMEOUT_MS,
	});
	if (installed.code !== 0) throw new Error(`npm install failed (${installed.code}):\n${installed.stderr}`);
	// With install scripts turned off, the package's postinstall never linked the native binary: run it by hand.
	if ((await installedVersion()) !== wanted && existsSync(join(PACKAGE_DIR, "install.cjs"))) {
		await runProcess(process.execPath, ["install.cjs"], { cwd: PACKAGE_DIR, env: process.env, timeoutMs: 120_000 });
	}
	const version = await installedVersion();
	if (version !== wanted) throw new Error(`expected ${CLAUDE_BIN} --version to print "${wanted}", got "${version}"`);
	return CLAUDE_BIN;
}

/** One tool call of a scripted reply. */
export interface ToolCall {
	name: string;
	input: Record<string, unknown>;
}

/** What the fake model answers next: text, or tool calls (stop_reason tool_use); held back until `holdUntil`. */
export type ScriptedReply = ({ text: string } | { tools: ToolCall[] }) & {
	/** Epoch ms before which the answer is not sent. */
	holdUntil?: number;
	/** The usage the answer reports; 10 tokens in and 5 out by default. */
	usage?: { input_tokens: number; output_tokens: number };
};

/** One request the fake API received. */
export interface ModelRequest {
	url: string;
	/** When it arrived, epoch ms. */
	at: number;
	body: MessagesBody;
}

export interface MessagesBody {
	model?: string;
	stream?: boolean;
	tools?: unknown[];
	messages?: { role: string; content: string | { type: string; text?: string }[] }[];
}

const UNSCRIPTED_TEXT = "UNSCRIPTED-REPLY";

/** The text blocks of a request's messages with `role`, each message's texts joined. */
export function messageTexts(request: ModelRequest, role: string): string[] {
	return (request.body.messages ?? [])
		.filter((message) => message.role === role)
		.map((message) =>
			typeof message.content === "string"
				? message.content
				: message.content.map((block) => block.text ?? "").join("\n"),
		);
}

/**
 * A fake Anthropic Messages API on 127.0.0.1: main-loop requests (those offering tools) take the next scripted reply;
 * anything else gets a plain text. Every Messages request is recorded, in order.
 */
export class FakeAnthropic {
	readonly requests: ModelRequest[] = [];
	private readonly queue: ScriptedReply[] = [];
	private count = 0;

	private constructor(private readonly server: Server) {
		server.on("request", (request, response) => this.handle(request, response));
	}

	static async start(): Promise<FakeAnthropic> {
		const server = createServer();
		const fake = new FakeAnthropic(server);
		await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
		return fake;
	}

	get url(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** Queues replies for the next main-loop requests. */
	reply(...replies: ScriptedReply[]): void {
		this.queue.push(...replies);
	}

	/** Forgets the requests received so far (a warm-up's), so that a test's assertions see only its own. */
	forget(): void {
		this.requests.length = 0;
	}

	/** The newest request; throws when there is none. */
	get lastRequest(): ModelRequest {
		const last = this.requests.at(-1);
		if (!last) throw new Error("the fake API received no request");
		return last;
	}

	/** Scripted replies not used yet. */
	get pending(): number {
		return this.queue.length;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((done) => this.server.close(() => done()));
	}

	private handle(request: IncomingMessage, response: ServerResponse): void {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const url = request.url ?? "";
			if (request.method !== "POST" || !url.startsWith("/v1/messages") || url.includes("count_tokens")) {
				response.writeHead(404, { "content-type": "application/json" });
				response.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "fake: not found" } }));
				return;
			}
			const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as MessagesBody;
			this.requests.push({ url, at: Date.now(), body });
			const mainLoop = Array.isArray(body.tools) && body.tools.length > 0;
			const reply = (mainLoop ? this.queue.shift() : undefined) ?? { text: UNSCRIPTED_TEXT };
			const delay = Math.max(0, (reply.holdUntil ?? 0) - Date.now());
			setTimeout(() => this.answer(body, reply, response), delay);
		});
	}

	private answer(body: MessagesBody, reply: ScriptedReply, response: ServerResponse): void {
		this.count += 1;
		const id = `msg_fake_${this.count}`;
		const model = body.model ?? "claude-fake";
		const usage = reply.usage ?? { input_tokens: 10, output_tokens: 5 };
		const content =
			"tools" in reply
				? reply.tools.map((tool, index) => ({ type: "tool_use", id: `toolu_fake_${this.count}_${index}`, ...tool }))
				: [{ type: "text", text: reply.text }];
		const stopReason = "tools" in reply ? "tool_use" : "end_turn";
		if (!body.stream) {
			response.writeHead(200, { "content-type": "application/json" });
			const message = { id, type: "message", role: "assistant", model, content, stop_reason: stopReason, usage };
			response.end(JSON.stringify({ ...message, stop_sequence: null }));
			return;
		}
		response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		const send = (event: string, data: Record<string, unknown>) =>
			response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
		const startUsage = { ...usage, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
		send("message_start", {
			message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, usage: startUsage },
		});
		content.forEach((block, index) => {
			if (block.type === "tool_use") {
				const { input, ...start } = block as { input: unknown };
				send("content_block_start", { index, content_block: { ...start, input: {} } });
				send("content_block_delta", {
					index,
					delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
				});
			} else {
				send("content_block_start", { index, content_block: { type: "text", text: "" } });
				send("content_block_delta", { index, delta: { type: "text_delta", text: (block as { text: string }).text } });
			}
			send("content_block_stop", { index });
		});
		send("message_delta", {
			delta: { stop_reason: stopReason, stop_sequence: null },
			usage: { output_tokens: usage.output_tokens },
		});
		send("message_stop", {});
		response.end();
	}
}

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
