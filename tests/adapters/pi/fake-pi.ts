// A fake pi host that behaves like pi 0.73 where Timebox touches it: handlers kept per event in registration order and
// awaited, appendEntry visible through sessionManager.getBranch(), a `context` event with the call's messages before
// every model call, `tool_call` that can block, pi's own re-runs (retry, overflow compaction) without
// before_agent_start, follow-ups and steering, forks that copy a branch, and a fresh extension instance per session.

import type {
	BeforeAgentStartEventResult,
	ExtensionAPI,
	ExtensionCommandContext,
	ExtensionContext,
	RegisteredCommand,
	SessionEntry,
} from "@mariozechner/pi-coding-agent";
import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { createTimeboxExtension } from "../../../src/adapters/pi/extension.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../../../src/adapters/report/writer.ts";
import type { DailyLedger, NotifyLevel } from "../../../src/core/index.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { MemoryLedger, RecordingStarter, sequentialIds } from "../../support/memory-host.ts";

type Handler = (event: unknown, ctx: ExtensionContext) => unknown;
type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;

export const BASE_SYSTEM_PROMPT = "You are pi, a coding agent.";

/** The session file: entries shared by every extension instance that opens it. */
let sessionFiles = 0;

export class FakeSessionFile {
	readonly entries: SessionEntry[] = [];
	/** The session's id, as pi names it. */
	readonly id = `session-${++sessionFiles}`;
	leafId: string | null = null;
	private nextId = 1;

	append(entry: Omit<SessionEntry, "id" | "parentId" | "timestamp">): void {
		const id = `e${this.nextId++}`;
		this.entries.push({ timestamp: new Date(0).toISOString(), ...entry, id, parentId: this.leafId } as SessionEntry);
		this.leafId = id;
	}

	appendMessage(message: FakeMessage): void {
		this.append({ type: "message", message } as Omit<SessionEntry, "id" | "parentId" | "timestamp">);
	}

	/** A message an extension sent (`pi.sendMessage`): pi keeps it as a custom_message entry, a `custom` message. */
	appendExtensionMessage(text: string, timestamp: number): void {
		const at = new Date(timestamp).toISOString();
		this.append({ type: "custom_message", customType: "e2e", content: text, display: true, timestamp: at } as Omit<
			SessionEntry,
			"id" | "parentId" | "timestamp"
		>);
	}

	appendUserMessage(text: string, timestamp = 0): void {
		this.appendMessage({ role: "user", content: text, timestamp });
	}

	/** The entries from the root to the leaf. */
	branch(): SessionEntry[] {
		const byId = new Map(this.entries.map((entry) => [entry.id, entry]));
		const path: SessionEntry[] = [];
		for (let id = this.leafId; id !== null; ) {
			const entry = byId.get(id);
			if (!entry) break;
			path.unshift(entry);
			id = entry.parentId;
		}
		return path;
	}

	/** The messages of the branch, as pi would send them to the model. */
	messages(): FakeMessage[] {
		return this.branch().flatMap((entry): FakeMessage[] => {
			if (entry.type === "message") return [entry.message as unknown as FakeMessage];
			if (entry.type === "custom_message") {
				return [{ role: "custom", content: String(entry.content), timestamp: Date.parse(entry.timestamp) }];
			}
			return [];
		});
	}

	/** A new session file holding the branch up to `entryId` (before it, as /fork does, or at it, as /clone does). */
	fork(entryId: string, position: "before" | "at"): FakeSessionFile {
		const path = this.branch();
		const at = path.findIndex((entry) => entry.id === entryId);
		const kept = position === "at" ? path.slice(0, at + 1) : path.slice(0, Math.max(0, at));
		const copy = new FakeSessionFile();
		for (const entry of kept) copy.append({ ...entry } as Omit<SessionEntry, "id" | "parentId" | "timestamp">);
		return copy;
	}

	appendCustom(customType: string, data: unknown): void {
		this.append({ type: "custom", customType, data } as Omit<SessionEntry, "id" | "parentId" | "timestamp">);
	}

	custom(customType: string): unknown[] {
		return this.entries.flatMap((entry) =>
			entry.type === "custom" && entry.customType === customType ? [entry.data] : [],
		);
	}
}

/** A message as the model sees it. */
export interface FakeMessage {
	role: "user" | "assistant" | "toolResult" | "custom";
	content: string;
	timestamp: number;
	/** An answer's usage, as pi's providers report it. */
	usage?: FakeUsage;
}

/** What one model call used, in pi's shape. */
export interface FakeUsage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cost: { total: number };
}

/** What the user saw and what pi was told, across every extension instance of one fake pi process. */
export class FakeScreen {
	readonly notifications: { message: string; level: NotifyLevel }[] = [];
	readonly statusUpdates: (string | undefined)[] = [];
	status: string | undefined;
	readonly fallbackLines: string[] = [];
	/** Every dialog shown, and the answers the user will give (a choice's text, or undefined for none in time). */
	readonly questions: { title: string; options: string[]; timeout: number | undefined }[] = [];
	readonly answers: (string | undefined)[] = [];
	/** What the chat shows, in order: the prompts sent, the notifications, and where each run ended. */
	readonly timeline: string[] = [];

	messages(level?: NotifyLevel): string[] {
		return this.notifications.filter((n) => level === undefined || n.level === level).map((n) => n.message);
	}

	get last(): { message: string; level: NotifyLevel } | undefined {
		return this.notifications.at(-1);
	}
}

/** One extension instance bound to one session, as pi creates after startup and after every replacement. */
export class FakePiInstance {
	readonly handlers = new Map<string, Handler[]>();
	readonly commands = new Map<string, CommandOptions>();
	readonly flags = new Set<string>();
	stale = false;
	aborts = 0;
	abortRequested = false;
	readonly systemPrompts: string[] = [];

	constructor(
		readonly host: FakePi,
		readonly file: FakeSessionFile,
	) {}

	readonly api = {
		on: (event: string, handler: Handler) => {
			const list = this.handlers.get(event) ?? [];
			list.push(handler);
			this.handlers.set(event, list);
		},
		registerCommand: (name: string, options: CommandOptions) => {
			this.commands.set(name, options);
		},
		registerFlag: (name: string) => {
			this.flags.add(name);
		},
		getFlag: (name: string) => (this.flags.has(name) ? this.host.flag : undefined),
		appendEntry: (customType: string, data?: unknown) => {
			this.assertActive();
			this.file.appendCustom(customType, data);
		},
		// pi's tools, where the fake sends requests; without them a call's size cannot be measured.
		getActiveTools: () => {
			this.host.toolListReads++;
			if (!this.host.requests) throw new Error("this fake pi sends no requests");
			return ["bash"];
		},
		getAllTools: () => [
			{ name: "bash", description: "Runs a command.", parameters: { type: "object" }, sourceInfo: {} },
			{ name: "off", description: "Not active.", parameters: {}, sourceInfo: {} },
		],
	} as unknown as ExtensionAPI;

	private assertActive(): void {
		if (this.stale) throw new Error("This extension ctx is stale after session replacement or reload.");
	}

	/** A context whose members throw once this instance is stale, as pi's do. */
	context(): ExtensionCommandContext {
		const instance = this;
		const screen = this.host.screen;
		const file = this.file;
		const ui = {
			notify: (message: string, level: NotifyLevel = "info") => {
				screen.notifications.push({ message, level });
				screen.timeline.push(`${level}: ${message}`);
			},
			// A dialog: the user picks the scripted answer, or the first choice when none is scripted.
			select: async (title: string, options: string[], opts?: { timeout?: number }) => {
				screen.questions.push({ title, options, timeout: opts?.timeout });
				const scripted = screen.answers.length > 0 ? screen.answers.shift() : options[0];
				return scripted;
			},
			setStatus: (key: string, text: string | undefined) => {
				if (key !== "timebox") throw new Error(`unexpected status key ${key}`);
				screen.status = text;
				screen.statusUpdates.push(text);
			},
		};
		const sessionManager = {
			getEntries: () => file.entries.slice(),
			getBranch: () => file.branch(),
			getLeafId: () => file.leafId,
			getEntry: (id: string) => file.entries.find((entry) => entry.id === id),
			getSessionId: () => file.id,
		};
		return {
			get ui() {
				instance.assertActive();
				return ui;
			},
			get hasUI() {
				instance.assertActive();
				return instance.host.hasUI;
			},
			get sessionManager() {
				instance.assertActive();
				return sessionManager;
			},
			get model() {
				instance.assertActive();
				return instance.host.model;
			},
			abort: () => {
				instance.aborts++;
				instance.abortRequested = true;
			},
			getSystemPrompt: () => BASE_SYSTEM_PROMPT,
			get cwd() {
				return instance.host.cwd;
			},
		} as unknown as ExtensionCommandContext;
	}

	/** Emits an event to every handler in registration order, awaiting each; returns the last handler result. */
	async emit(event: { type: string } & Record<string, unknown>): Promise<unknown> {
		let result: unknown;
		const ctx = this.context();
		for (const handler of this.handlers.get(event.type) ?? []) {
			const value = await handler(event, ctx);
			if (value !== undefined) result = value;
		}
		return result;
	}
}

export interface PromptOptions {
	/** Model calls in the run: 1 for a plain answer, more when the answer calls tools. */
	llmCalls?: number;
	/** Runs between model calls, as a tool call would (for example, advance the clock or steer). */
	duringTool?: (call: number) => void | Promise<void>;
	/** Runs after the model asked for tool call `call` and before pi asks extensions about it. */
	beforeTool?: (call: number) => void;
	/** A message to deliver after the run's last answer, as pi delivers a follow-up: it continues the same run. */
	followUp?: string;
	/** What model call `call` used; its answer carries it, and pi emits `message_end` with it. */
	usage?: (call: number) => FakeUsage;
	/** The tool model call `call` asks for (`bash` with no input unless said), and the details of its result. */
	tool?: (call: number) => { toolName: string; input: unknown; details?: unknown };
}

/** What one run did, as the user would see it in the chat. */
export interface RunResult {
	aborted: boolean;
	/** The system prompt the run was sent with: Timebox never changes it. */
	systemPrompt: string;
	/** Per model call sent, what Timebox added at the end of its messages (its budget note), or null. */
	notes: (string | null)[];
	/** Model calls that were sent (not aborted before they started). */
	modelCalls: number;
	/** The request of each call sent, as the extensions left it (`before_provider_request`), where the fake sends them. */
	payloads: unknown[];
	/** Tool calls that ran; refused ones are in `refusals`. */
	toolsRun: number;
	refusals: string[];
	/** The text of each tool's result as the model reads it, once extensions changed it (\`tool_result\`). */
	results: string[];
}

/** A fake pi process: one session file open at a time, Timebox loaded into a fresh instance per session. */
export class FakePi {
	readonly screen = new FakeScreen();
	readonly time: FakeTime;
	readonly runner = new RecordingStarter();
	readonly ledger: MemoryLedger;
	hasUI = true;
	file: FakeSessionFile;
	instance!: FakePiInstance;
	readonly instances: FakePiInstance[] = [];
	private readonly ids = sequentialIds();
	/** The folder of the daily ledger every fake pi given the same one shares; none: no daily budgets. */
	dailyDir: string | undefined;
	/** The daily ledger of a session, where it is not this machine's in `dailyDir` (a team's). */
	dailyLedger: ((sessionId: string) => DailyLedger) | undefined;
	/** The environment Timebox reads (PI_TIMEBOX), the --timebox flag's value, and where settings files are. */
	env: NodeJS.ProcessEnv = {};
	flag: string | undefined;
	cwd = "/nonexistent/project";
	/** The model in use, with its API and its prices per million tokens (a model priced at zero reports no cost). */
	model:
		| { id: string; api?: string; cost: { input: number; output: number; cacheRead: number; cacheWrite: number } }
		| undefined = {
		id: "fake-model",
		api: "anthropic-messages",
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	};
	/**
	 * The request each model call sends, as the provider built it before `before_provider_request`; none: the fake sends
	 * no requests and has no tools, as a host that tells Timebox nothing of a call's size.
	 */
	requests: { payload: Record<string, unknown> } | undefined;
	/** How many times Timebox asked for pi's active tools: once per model call it measured. */
	toolListReads = 0;
	globalSettings = "/nonexistent/agent/settings.json";
	/** Writes the report page; none: the extension writes no page. */
	reportPage: ReportPageWriter | undefined;
	/** Reads a project's past sessions; none: the extension reads none. */
	projectHistory: ProjectHistoryReader | undefined;
	private sent = 0;
	private steering: FakeMessage[] = [];

	constructor(options: { file?: FakeSessionFile; time?: FakeTime; hasUI?: boolean; ledger?: MemoryLedger } = {}) {
		this.time = options.time ?? new FakeTime();
		this.file = options.file ?? new FakeSessionFile();
		this.hasUI = options.hasUI ?? true;
		this.ledger = options.ledger ?? new MemoryLedger();
	}

	/** Starts pi: loads Timebox for the current session file and emits session_start. */
	async start(reason: "startup" | "reload" | "new" | "resume" | "fork" = "startup"): Promise<this> {
		const dailyDir = this.dailyDir;
		this.instance = new FakePiInstance(this, this.file);
		this.instances.push(this.instance);
		createTimeboxExtension({
			clock: this.time,
			scheduler: this.time,
			onStop: this.runner,
			writeFallback: (line) => this.screen.fallbackLines.push(line),
			ledger: () => this.ledger,
			newBudgetId: this.ids,
			env: this.env,
			globalSettings: () => this.globalSettings,
			...(dailyDir ? { dailyLedger: (id: string) => createDailyLedger(dailyDir, id, this.time) } : {}),
			...(this.dailyLedger ? { dailyLedger: this.dailyLedger } : {}),
			...(this.reportPage ? { reportPage: this.reportPage } : {}),
			...(this.projectHistory ? { projectHistory: this.projectHistory } : {}),
		})(this.instance.api);
		await this.instance.emit({ type: "session_start", reason });
		return this;
	}

	/** /new, /resume, /fork, /reload: shutdown, the old instance goes stale, a new one starts on `file`. */
	async replaceSession(reason: "reload" | "new" | "resume" | "fork", file = this.file): Promise<void> {
		await this.instance.emit({ type: "session_shutdown", reason });
		this.instance.stale = true;
		this.file = file;
		await this.start(reason);
	}

	/**
	 * pi's /reload (`AgentSession.reload()`): the old instance gets session_shutdown, but pi does not invalidate its
	 * context, so its timers still find a live session; a new instance starts on the same file.
	 */
	async reload(): Promise<void> {
		await this.instance.emit({ type: "session_shutdown", reason: "reload" });
		await this.start("reload");
	}

	/** Types `/timebox <args>`. */
	async timebox(args: string): Promise<void> {
		const command = this.instance.commands.get("timebox");
		if (!command) throw new Error("/timebox is not registered");
		await command.handler(args, this.instance.context());
	}

	/** A user message with a timestamp of its own, as pi stamps each one. */
	userMessage(text: string): FakeMessage {
		return { role: "user", content: text, timestamp: this.time.now() + this.sent++ };
	}

	/**
	 * Sends a prompt through pi's event order: before_agent_start, agent_start, then per model call turn_start and the
	 * awaited context event (the prompt is in the session from the first call on); tools go through tool_call; an
	 * abort ends the run at the next boundary.
	 */
	async prompt(text: string, options: PromptOptions = {}): Promise<RunResult> {
		const instance = this.instance;
		const result = (await instance.emit({
			type: "before_agent_start",
			prompt: text,
			systemPrompt: BASE_SYSTEM_PROMPT,
			systemPromptOptions: {},
		})) as BeforeAgentStartEventResult | undefined;
		const systemPrompt = result?.systemPrompt ?? BASE_SYSTEM_PROMPT;
		instance.systemPrompts.push(systemPrompt);
		this.file.appendMessage(this.userMessage(text));
		this.screen.timeline.push(`prompt: ${text}`);
		return { ...(await this.run(options)), systemPrompt };
	}

	/**
	 * An extension's `pi.sendMessage(…, { triggerTurn: true })` while pi is idle: the message goes into the session and
	 * starts a run of its own, which no user sent.
	 */
	async extensionRun(text: string, options: PromptOptions = {}): Promise<RunResult> {
		this.file.appendExtensionMessage(text, this.time.now() + this.sent++);
		return { ...(await this.run(options)), systemPrompt: this.instance.systemPrompts.at(-1) ?? BASE_SYSTEM_PROMPT };
	}

	/** pi re-runs the latest prompt by itself (auto-retry, or after an overflow compaction): no before_agent_start. */
	async rerun(options: PromptOptions = {}): Promise<RunResult> {
		return { ...(await this.run(options)), systemPrompt: this.instance.systemPrompts.at(-1) ?? BASE_SYSTEM_PROMPT };
	}

	/** Queues a steering message: pi delivers it after the running tool call's result. */
	steer(text: string): void {
		this.steering.push(this.userMessage(text));
	}

	private async run(options: PromptOptions): Promise<Omit<RunResult, "systemPrompt">> {
		const instance = this.instance;
		instance.abortRequested = false;
		const outcome = {
			aborted: false,
			modelCalls: 0,
			payloads: [] as unknown[],
			toolsRun: 0,
			refusals: [] as string[],
			notes: [] as (string | null)[],
			results: [] as string[],
		};
		await instance.emit({ type: "agent_start" });
		let followUp = options.followUp;
		const calls = options.llmCalls ?? 1;
		for (let call = 0; ; call++) {
			const last = call >= calls - 1;
			if (call > 0) await instance.emit({ type: "turn_start", turnIndex: call, timestamp: this.time.now() });
			else await instance.emit({ type: "turn_start", turnIndex: 0, timestamp: this.time.now() });
			// pi hands the handlers a copy of the messages, which they may change.
			const sent = this.file.messages();
			const changed = (await instance.emit({ type: "context", messages: [...sent] })) as
				| { messages?: FakeMessage[] }
				| undefined;
			if (instance.abortRequested) {
				// pi keeps the aborted answer in the session, so the next prompt follows an assistant message.
				this.file.appendMessage({ role: "assistant", content: "", timestamp: this.time.now() });
				break;
			}
			outcome.modelCalls++;
			outcome.notes.push(budgetNote(sent, changed?.messages));
			const requests = this.requests;
			if (requests) {
				const payload = structuredClone(requests.payload);
				outcome.payloads.push((await instance.emit({ type: "before_provider_request", payload })) ?? payload);
			}
			const answer = (content: string): FakeMessage => {
				const usage = options.usage?.(call);
				return { role: "assistant", content, timestamp: this.time.now(), ...(usage ? { usage } : {}) };
			};
			if (last) {
				const done = answer("done");
				this.file.appendMessage(done);
				await instance.emit({ type: "message_end", message: done });
				if (followUp === undefined || instance.abortRequested) break;
				this.file.appendMessage(this.userMessage(followUp));
				followUp = undefined;
				continue;
			}
			const toolAnswer = answer("calls a tool");
			this.file.appendMessage(toolAnswer);
			await instance.emit({ type: "message_end", message: toolAnswer });
			if (instance.abortRequested) {
				// pi runs no tool of an aborted answer.
				break;
			}
			options.beforeTool?.(call);
			const tool = options.tool?.(call) ?? { toolName: "bash", input: {} };
			const toolCallId = `t${call}`;
			const blocked = (await instance.emit({
				type: "tool_call",
				toolName: tool.toolName,
				toolCallId,
				input: tool.input,
			})) as { block?: boolean; reason?: string } | undefined;
			if (blocked?.block) outcome.refusals.push(blocked.reason ?? "");
			else {
				outcome.toolsRun++;
				await options.duringTool?.(call);
				const content = [{ type: "text", text: "ok" }];
				const changed = (await instance.emit({
					type: "tool_result",
					toolName: tool.toolName,
					toolCallId,
					input: tool.input,
					content,
					details: tool.details,
					isError: false,
				})) as { content?: { type: string; text: string }[] } | undefined;
				outcome.results.push((changed?.content ?? content).map((part) => part.text).join("\n"));
			}
			this.file.appendMessage({ role: "toolResult", content: "ok", timestamp: this.time.now() });
			for (const message of this.steering.splice(0)) this.file.appendMessage(message);
			if (instance.abortRequested) {
				// pi asks the model once more with the run aborted, and keeps that empty, aborted answer.
				this.file.appendMessage({ role: "assistant", content: "", timestamp: this.time.now() });
				break;
			}
		}
		outcome.aborted = instance.abortRequested;
		if (outcome.aborted) this.screen.timeline.push("Operation aborted");
		await instance.emit({ type: "agent_end", messages: [] });
		return outcome;
	}
}

/**
 * What a context answer added to a call: the messages pi sent, unchanged, then one custom message of Timebox's. A
 * context answer that changed anything else fails the test.
 */
function budgetNote(sent: readonly FakeMessage[], answered: readonly FakeMessage[] | undefined): string | null {
	if (answered === undefined) return null;
	if (answered.length !== sent.length + 1 || sent.some((message, index) => answered[index] !== message)) {
		throw new Error("the context answer changed the call's own messages");
	}
	const note = answered.at(-1) as { role?: unknown; customType?: unknown; content?: unknown; display?: unknown };
	if (note.role !== "custom" || note.customType !== "timebox" || note.display !== false) {
		throw new Error(`the context answer added an unexpected message: ${JSON.stringify(note)}`);
	}
	return String(note.content);
}
