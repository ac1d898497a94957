// A fake of Claude Code's function hooks for the module's tests: a `$` with an in-memory store, environment and file
// system, timers on a manual clock, and what the person sees (status line, transcript lines, questions); and the
// module registered on a fake `on`, so that a test calls each hook as Claude Code would, with its `next`.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { WRITE_SCRIPT } from "../../../../src/adapters/claude/function-hooks/daily.ts";
import type {
	Dollar,
	EngineTimer,
	On,
	Registration,
	StepUsage,
	TurnStepAnswer,
	TurnStepEvent,
} from "../../../../src/adapters/claude/function-hooks/engine.ts";
import type { HostDeps } from "../../../../src/adapters/claude/function-hooks/host.ts";
import { registerWith } from "../../../../src/adapters/claude/function-hooks/module.ts";
import { DETACHED_WRAPPER_LINE } from "../../../../src/adapters/claude/function-hooks/on-stop.ts";
import { FakeTime } from "../../../support/fake-time.ts";

export class FakeDollar implements Dollar {
	sessionId = "session-1";
	costUsd = 0;
	readonly statuses: (string | undefined)[] = [];
	readonly logged: string[] = [];
	readonly ran: string[][] = [];
	readonly aborted: string[] = [];
	readonly values = new Map<string, unknown>();
	readonly variables = new Map<string, string>();
	/** Answers a command it knows (the hook script's team batch); else undefined, and `runResults` answers. */
	runner?: (argv: readonly string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }> | undefined;
	/** What each `$.process.run` resolves to, in turn; then exit 0. */
	readonly runResults: (() => Promise<{ exitCode: number; stdout: string; stderr: string }>)[] = [];
	storeFails = false;
	/** Held until it resolves: the store's reads wait for it. */
	storeHeld: Promise<void> = Promise.resolve();
	/** The turn to abort has ended already. */
	abortFails = false;

	constructor(readonly time: FakeTime) {}

	get status(): string | undefined {
		return this.statuses.at(-1);
	}

	session = {
		id: async () => this.sessionId,
		usage: async () => ({ cost: { usd: this.costUsd } }),
	};
	turn = {
		abort: async ({ turnId }: { turnId: string }) => {
			this.aborted.push(turnId);
			if (this.abortFails) throw new Error(`${turnId} is not the running turn`);
		},
	};
	ui = {
		status: (text: string | undefined) => {
			this.statuses.push(text);
		},
		log: (text: string) => {
			this.logged.push(text);
		},
	};
	store = {
		get: async (key: string) => {
			await this.storeHeld;
			if (this.storeFails) throw new Error("store unreadable");
			return structuredClone(this.values.get(key));
		},
		set: async (key: string, value: unknown) => {
			if (this.storeFails) throw new Error("store full");
			this.values.set(key, structuredClone(value));
		},
		delete: async (key: string) => {
			this.values.delete(key);
		},
	};
	clock = {
		after: (ms: number, fn: () => void): EngineTimer => ({ cancel: this.time.setTimeout(fn, ms) }),
		every: (ms: number, fn: () => void): EngineTimer => ({ cancel: this.time.setInterval(fn, ms) }),
	};
	/**
	 * The daily ledger's writes run in the real `sh`; any other command is recorded and answered from `runResults`. An
	 * on-stop command behind a mark is run as the wrapper would: only if its mark could be taken (`onStopRuns`).
	 */
	process = {
		run: (argv: readonly string[]) => {
			if (argv[2] === WRITE_SCRIPT) {
				this.dailyWrites++;
				const [command = "sh", ...args] = argv;
				const done = spawnSync(command, args, { encoding: "utf8" });
				return Promise.resolve({ exitCode: done.status ?? 1, stdout: done.stdout, stderr: done.stderr });
			}
			if (argv[2] === DETACHED_WRAPPER_LINE) {
				// Claude Code is killed before the call reaches it: nothing runs, and no answer ever comes.
				if (this.killedAtOnStop) return new Promise<never>(() => {});
				this.wrapper(argv);
			}
			this.ran.push([...argv]);
			const answered = this.runner?.(argv);
			if (answered) return answered;
			const next = this.runResults.shift();
			return next ? next() : Promise.resolve({ exitCode: 0, stdout: "", stderr: "" });
		},
	};
	dailyWrites = 0;
	/** The on-stop commands the wrapper ran: each that took its mark. */
	readonly onStopRuns: string[] = [];
	/** The starts of an on-stop command that found its mark taken, and so ran nothing. */
	readonly onStopSkipped: string[] = [];
	/** The process is killed as it asks Claude Code to start an on-stop command: the call never gets anywhere. */
	killedAtOnStop = false;

	/** Runs just before a wrapper takes its mark (another start of the command getting there first). */
	beforeWrapper: ((mark: string) => void) | null = null;

	/** What the wrapper does: the marks' folder made, the mark taken where none is, and only then the command run. */
	private wrapper(argv: readonly string[]): void {
		const [folder = "", mark = "", command = ""] = argv.slice(5);
		mkdirSync(folder, { recursive: true });
		this.beforeWrapper?.(mark);
		try {
			writeFileSync(mark, "", { flag: "wx" });
			this.onStopRuns.push(command);
		} catch {
			this.onStopSkipped.push(command);
		}
	}
	env = {
		get: async (name: string) => this.variables.get(name),
		set: async (name: string, value: string | undefined) => {
			if (value === undefined) this.variables.delete(name);
			else this.variables.set(name, value);
			return {};
		},
	};
	/** The real files: the daily ledger's are shared with the other hosts. */
	fs = {
		read: async (path: string, options: { offset: number; length: number }) => {
			const handle = await open(path, "r");
			try {
				const buffer = Buffer.alloc(options.length);
				const { bytesRead } = await handle.read(buffer, 0, options.length, options.offset);
				return buffer.subarray(0, bytesRead).toString("utf8");
			} finally {
				await handle.close();
			}
		},
		list: async (path: string) =>
			Promise.all((await readdir(path)).map(async (name) => ({ name, size: (await stat(join(path, name))).size }))),
	};
}

/** The fake Claude Code processes started so far. */
let fakeProcesses = 0;

// biome-ignore lint/suspicious/noExplicitAny: each hook's own signature is checked in module.ts; the test calls them by name
type AnyHook = (...args: any[]) => any;

/** The module registered on a fake `on`: each hook and its `.catch`, by event name. */
export class FakeClaude {
	readonly time: FakeTime;
	readonly $: FakeDollar;
	readonly hooks = new Map<string, { hook: AnyHook; matcher: unknown; caught?: AnyHook }>();
	/** Model requests sent (a step's `next` called). */
	readonly requests: TurnStepEvent[] = [];
	/** The contexts each prompt reached the model with. */
	readonly promptContexts: (readonly string[] | undefined)[] = [];
	private ids = 0;

	/** A Claude Code process; one opened after another on the same machine shares its clock and the plugin's store. */
	constructor(deps: Partial<HostDeps> = {}, after?: FakeClaude) {
		this.time = after?.time ?? new FakeTime();
		this.$ = new FakeDollar(this.time);
		if (after) for (const [key, value] of after.$.values) this.$.values.set(key, value);
		const on: On = (event: string, ...rest: unknown[]) => {
			const hook = rest.at(-1) as AnyHook;
			const entry: { hook: AnyHook; matcher: unknown; caught?: AnyHook } = {
				hook,
				matcher: rest.length > 1 ? rest[0] : undefined,
			};
			this.hooks.set(event, entry);
			const registration: Registration = {
				catch: (handler) => {
					entry.caught = handler as AnyHook;
				},
			};
			return registration;
		};
		// Each process's ids are its own, as Claude Code's random ids are.
		const process = ++fakeProcesses;
		registerWith(on, { clock: this.time, newId: () => `id-${process}-${++this.ids}`, ...deps });
	}

	hook(event: string): AnyHook {
		const entry = this.hooks.get(event);
		if (!entry) throw new Error(`no hook on ${event}`);
		return entry.hook;
	}

	caught(event: string): AnyHook {
		const entry = this.hooks.get(event);
		if (!entry?.caught) throw new Error(`no .catch on ${event}`);
		return entry.caught;
	}

	async start(interactive = false): Promise<void> {
		await this.hook("session.start")(this.$, { cwd: "/work", isInteractive: interactive }, async () => ({
			cwd: "/work",
		}));
	}

	/** `/timebox <args>`: the reply's text. */
	async command(args: string): Promise<string> {
		const answer = await this.hook("command.run")(this.$, { command: "timebox", args });
		expect(answer.isTextDisplayOnly).toBe(true);
		return answer.text;
	}

	/** A prompt: the reason it was dropped, or null when it went on (its context recorded). */
	async prompt(text: string, extra: Record<string, unknown> = {}): Promise<string | null> {
		const answer = await this.hook("prompt.submit")(
			this.$,
			{ text, wait: false, ...extra },
			async (event: { text: string; context?: readonly string[] }) => {
				this.promptContexts.push(event.context);
				return { text: event.text, ...(event.context ? { context: event.context } : {}) };
			},
		);
		return "drop" in answer ? answer.drop : null;
	}

	/** A model request of turn `turnId`: what it answered; `response` is what the fake model says when it is sent. */
	async step(
		turnId: string,
		index: number,
		response: {
			toolUses?: number;
			usage?: StepUsage | null;
			agentId?: string;
			costUsd?: number;
			/** Happens while the request is answered. */
			during?: () => Promise<unknown>;
		} = {},
	): Promise<TurnStepAnswer> {
		const event: TurnStepEvent = { turnId, index, ...(response.agentId ? { agentId: response.agentId } : {}) };
		const requests = this.requests;
		const $ = this.$;
		const generator = this.hook("turn.step")(this.$, event, async function* (sent: TurnStepEvent) {
			requests.push(sent);
			// What the request cost, in Claude Code's running total once it is answered.
			if (response.costUsd !== undefined) $.costUsd = response.costUsd;
			await response.during?.();
			yield { type: "text", text: "..." };
			return {
				turnId,
				index,
				answer: "...",
				toolUses: Array.from({ length: response.toolUses ?? 0 }, (_, n) => ({ id: `tool-${n}` })),
				stopReason: response.toolUses ? "tool_use" : "end_turn",
				usage: response.usage === undefined ? USAGE : response.usage,
			};
		});
		return drain(generator);
	}

	/** A tool call: what the model reads of it. `run` is the tool itself. */
	async tool(
		run: () => Promise<unknown> = async () => "ok",
		agentId?: string,
		call: { tool: string; id: string; input?: Record<string, unknown> } = { tool: "Bash", id: "toolu_1" },
	): Promise<{ deny?: string; result?: unknown; context?: readonly string[] }> {
		// Claude Code spreads the tool's input over the event, beside the event's own fields.
		return this.hook("tool.call")(
			this.$,
			{
				...(call.input ?? { command: "sleep 20" }),
				tool: call.tool,
				tool_use_id: call.id,
				requestMeta: { servedBy: "fake" },
				...(agentId ? { agentId } : {}),
			},
			async () => ({ result: await run() }),
		);
	}

	/** The prompts subagents were started with, by their Agent tool call's id. */
	readonly spawned = new Map<string, string>();

	/**
	 * The Agent tool call `toolUseId` starts a subagent: its loop gets the id `agentId` (Claude Code's); the reason it
	 * was refused, or null.
	 */
	async spawn(
		toolUseId: string,
		agentId: string,
		options: { type?: string; description?: string; prompt?: string; parentAgentId?: string } = {},
	): Promise<string | null> {
		const event = {
			tool_use_id: toolUseId,
			prompt: options.prompt ?? "Find the flaky test and say why it fails.",
			description: options.description ?? "find the flaky test",
			subagentType: options.type ?? "Explore",
			...(options.parentAgentId ? { parentAgentId: options.parentAgentId } : {}),
		};
		const answer = await this.hook("agent.spawn")(this.$, event, async (sent: { prompt: string }) => {
			this.spawned.set(toolUseId, sent.prompt);
			return { model: "claude-haiku", agentId };
		});
		return answer.deny ?? null;
	}

	async turnComplete(turnId: string, agentId?: string): Promise<void> {
		const answer = agentId ? { agentId, answer: "The flaky test races the clock." } : {};
		await this.hook("turn.complete")(this.$, { turnId, ...answer }, async () => ({ text: "" }));
	}

	async end(reason = "other"): Promise<void> {
		await this.hook("session.end")(this.$, { reason }, async () => ({}));
	}
}

/** 10 tokens in, 5 out, 100 read from the cache. */
export const USAGE: StepUsage = {
	input_tokens: 10,
	output_tokens: 5,
	cache_read_input_tokens: 100,
	cache_creation_input_tokens: 0,
};

/** Runs a streaming hook to its end: its result. */
export async function drain<R>(generator: AsyncGenerator<unknown, R, undefined>): Promise<R> {
	for (;;) {
		const step = await generator.next();
		if (step.done) return step.value;
	}
}

/** Lets the promises queued so far settle (the store's writes, a started command's report). */
export async function settle(): Promise<void> {
	await new Promise((done) => setImmediate(done));
}
