// A fake pi host that behaves like pi 0.73 where Timebox touches it: handlers kept per event in registration order and
// awaited, appendEntry visible through sessionManager.getEntries(), the prompt entering the transcript only after the
// first turn_start, a fresh extension instance per session, and contexts that go stale after replacement.

import type {
	BeforeAgentStartEventResult,
	ExtensionAPI,
	ExtensionCommandContext,
	ExtensionContext,
	RegisteredCommand,
	SessionEntry,
} from "@mariozechner/pi-coding-agent";
import { createTimeboxExtension } from "../../../src/adapters/pi/extension.ts";
import type { NotifyLevel } from "../../../src/core/ports.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { RecordingRunner } from "../../support/memory-host.ts";

type Handler = (event: unknown, ctx: ExtensionContext) => unknown;
type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;

export const BASE_SYSTEM_PROMPT = "You are pi, a coding agent.";

/** The session file: entries shared by every extension instance that opens it. */
export class FakeSessionFile {
	readonly entries: SessionEntry[] = [];
	leafId: string | null = null;
	private nextId = 1;

	append(entry: Omit<SessionEntry, "id" | "parentId" | "timestamp">): void {
		const id = `e${this.nextId++}`;
		this.entries.push({ ...entry, id, parentId: this.leafId, timestamp: new Date(0).toISOString() } as SessionEntry);
		this.leafId = id;
	}

	appendUserMessage(text: string): void {
		this.append({ type: "message", message: { role: "user", content: text, timestamp: 0 } } as Omit<
			SessionEntry,
			"id" | "parentId" | "timestamp"
		>);
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

/** What the user saw and what pi was told, across every extension instance of one fake pi process. */
export class FakeScreen {
	readonly notifications: { message: string; level: NotifyLevel }[] = [];
	readonly statusUpdates: (string | undefined)[] = [];
	status: string | undefined;
	readonly fallbackLines: string[] = [];

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
		appendEntry: (customType: string, data?: unknown) => {
			this.assertActive();
			this.file.appendCustom(customType, data);
		},
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
			notify: (message: string, level: NotifyLevel = "info") => screen.notifications.push({ message, level }),
			setStatus: (key: string, text: string | undefined) => {
				if (key !== "timebox") throw new Error(`unexpected status key ${key}`);
				screen.status = text;
				screen.statusUpdates.push(text);
			},
		};
		const sessionManager = {
			getEntries: () => file.entries.slice(),
			getLeafId: () => file.leafId,
			getEntry: (id: string) => file.entries.find((entry) => entry.id === id),
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
			abort: () => {
				instance.assertActive();
				instance.aborts++;
				instance.abortRequested = true;
			},
			getSystemPrompt: () => BASE_SYSTEM_PROMPT,
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
	/** LLM calls in the run: 1 for a plain answer, more when the answer calls tools. */
	llmCalls?: number;
	/** Runs between LLM calls, as a tool call would (for example, advance the clock or steer). */
	duringTool?: (call: number) => void | Promise<void>;
}

/** A fake pi process: one session file open at a time, Timebox loaded into a fresh instance per session. */
export class FakePi {
	readonly screen = new FakeScreen();
	readonly time: FakeTime;
	readonly runner = new RecordingRunner();
	hasUI = true;
	file: FakeSessionFile;
	instance!: FakePiInstance;
	readonly instances: FakePiInstance[] = [];

	constructor(options: { file?: FakeSessionFile; time?: FakeTime; hasUI?: boolean } = {}) {
		this.time = options.time ?? new FakeTime();
		this.file = options.file ?? new FakeSessionFile();
		this.hasUI = options.hasUI ?? true;
	}

	/** Starts pi: loads Timebox for the current session file and emits session_start. */
	async start(reason: "startup" | "reload" | "new" | "resume" | "fork" = "startup"): Promise<this> {
		this.instance = new FakePiInstance(this, this.file);
		this.instances.push(this.instance);
		createTimeboxExtension({
			clock: this.time,
			scheduler: this.time,
			onStop: this.runner,
			writeFallback: (line) => this.screen.fallbackLines.push(line),
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

	/** Types `/timebox <args>`. */
	async timebox(args: string): Promise<void> {
		const command = this.instance.commands.get("timebox");
		if (!command) throw new Error("/timebox is not registered");
		await command.handler(args, this.instance.context());
	}

	/**
	 * Sends a prompt through pi's event order: before_agent_start and the first turn_start see the transcript without
	 * it; it is persisted after the first turn_start; an abort ends the run at the next boundary.
	 */
	async prompt(text: string, options: PromptOptions = {}): Promise<{ aborted: boolean; systemPrompt: string }> {
		const instance = this.instance;
		instance.abortRequested = false;
		const result = (await instance.emit({
			type: "before_agent_start",
			prompt: text,
			systemPrompt: BASE_SYSTEM_PROMPT,
			systemPromptOptions: {},
		})) as BeforeAgentStartEventResult | undefined;
		const systemPrompt = result?.systemPrompt ?? BASE_SYSTEM_PROMPT;
		instance.systemPrompts.push(systemPrompt);
		await instance.emit({ type: "agent_start" });
		const calls = options.llmCalls ?? 1;
		for (let call = 0; call < calls; call++) {
			await instance.emit({ type: "turn_start", turnIndex: call, timestamp: this.time.now() });
			if (call === 0) this.file.appendUserMessage(text);
			if (instance.abortRequested) break;
			if (call < calls - 1) await options.duringTool?.(call);
			if (instance.abortRequested) break;
		}
		await instance.emit({ type: "agent_end", messages: [] });
		return { aborted: instance.abortRequested, systemPrompt };
	}
}
