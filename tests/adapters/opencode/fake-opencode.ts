// A fake opencode 1.18.33 host for Timebox's server plugin: it keeps each session's messages as opencode stores them
// and calls the plugin's hooks in opencode's order (chat.message, the title call, then per model call the messages
// transform, chat.params, tool.execute.before for each tool and message.updated, and session.idle at the end of a run).
// A restart (`opencode run -c`, a reopened TUI) is a new plugin instance on the same data folder and conversation.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, Event, Model, Part, Session, UserMessage } from "@opencode-ai/sdk";
import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { createFileLedger } from "../../../src/adapters/node/file-ledger.ts";
import { type CallMessage, COMMAND_TEMPLATE } from "../../../src/adapters/opencode/calls.ts";
import type { Hooks, PluginInput } from "../../../src/adapters/opencode/host.ts";
import { createTimeboxPlugin, type TimeboxPluginDeps } from "../../../src/adapters/opencode/plugin.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../../../src/adapters/report/writer.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { RecordingStarter, sequentialIds } from "../../support/memory-host.ts";

/** The system prompt of the agent's calls, and the tools opencode defines for them. */
export const SYSTEM_PROMPT = "You are opencode, an interactive CLI tool.";
export const TOOLS: Readonly<Record<string, { description: string; parameters: unknown }>> = {
	bash: { description: "Runs a command.", parameters: { type: "object" } },
	task: { description: "Starts a subagent.", parameters: { type: "object" } },
};

/** The session every test talks to unless it names another. */
export const MAIN = "ses_main";

/** What outlives one opencode process: Timebox's folders, the clock, the shell, the sessions opencode stored. */
export interface World {
	dataDir: string;
	dailyDir: string;
	time: FakeTime;
	runner: RecordingStarter;
	newBudgetId: () => string;
	conversations: Map<string, Conversation>;
	/** The opencode process running now, by number: each start is a new one, and the ones before it have ended. */
	process: number;
	/** Where the ids of new messages start (a process that takes up a session stored by another goes on from its ids). */
	firstId?: number;
}

/** A new world in two fresh temporary folders (Timebox's opencode data, and the daily ledger's state). */
export function createWorld(): World {
	return {
		dataDir: mkdtempSync(join(tmpdir(), "timebox-opencode-")),
		dailyDir: mkdtempSync(join(tmpdir(), "timebox-opencode-daily-")),
		time: new FakeTime(),
		runner: new RecordingStarter(),
		newBudgetId: sequentialIds(),
		conversations: new Map(),
		process: 0,
	};
}

export function removeWorld(world: World): void {
	rmSync(world.dataDir, { recursive: true, force: true });
	rmSync(world.dailyDir, { recursive: true, force: true });
}

/** What one model call used, as opencode counts it on the assistant message. */
export interface Usage {
	input: number;
	output: number;
	reasoning?: number;
	cacheRead?: number;
	cacheWrite?: number;
	cost?: number;
}

const NOTHING_USED: Usage = { input: 0, output: 0 };

/** A model's prices per million tokens: all Timebox reads of opencode's model. */
export interface Prices {
	input: number;
	output: number;
}

export const PRICED: Prices = { input: 3, output: 15 };
export const FREE: Prices = { input: 0, output: 0 };

/** One opencode session's stored messages, with ids that sort in the order they were made, as opencode's do. */
export class Conversation {
	readonly messages: CallMessage[] = [];

	constructor(
		readonly id: string,
		private readonly time: FakeTime,
		private next = 0,
	) {}

	/** A new id, unique across sessions as opencode's are (a subagent's answer never shares its parent's id). */
	newId(prefix: string): string {
		this.next += 1;
		return `${prefix}_${String(this.next).padStart(4, "0")}${this.id === MAIN ? "" : `_${this.id}`}`;
	}

	/** A prompt; `byOpencode` is a message opencode writes itself (the "continue" after a compaction): synthetic text. */
	addUser(text: string, byOpencode = false): CallMessage & { info: UserMessage } {
		const id = this.newId("msg");
		const info: UserMessage = {
			id,
			sessionID: this.id,
			role: "user",
			time: { created: this.time.now() },
			agent: "build",
			model: { providerID: "fake", modelID: "fake-model" },
		};
		const part: Part = {
			id: this.newId("prt"),
			sessionID: this.id,
			messageID: id,
			type: "text",
			text,
			...(byOpencode ? { synthetic: true } : {}),
		};
		const message = { info, parts: [part] };
		this.messages.push(message);
		return message;
	}

	/** An assistant message of `parentId`, unfinished (no `time.completed`) until `complete` is called. */
	addAssistant(parentId: string, used: Usage = NOTHING_USED): AssistantMessage {
		const info: AssistantMessage = {
			id: this.newId("msg"),
			sessionID: this.id,
			role: "assistant",
			time: { created: this.time.now() },
			parentID: parentId,
			modelID: "fake-model",
			providerID: "fake",
			mode: "build",
			path: { cwd: "/project", root: "/project" },
			cost: used.cost ?? 0,
			tokens: {
				input: used.input,
				output: used.output,
				reasoning: used.reasoning ?? 0,
				cache: { read: used.cacheRead ?? 0, write: used.cacheWrite ?? 0 },
			},
		};
		this.messages.push({
			info,
			parts: [{ id: this.newId("prt"), sessionID: this.id, messageID: info.id, type: "text", text: "working" }],
		});
		return info;
	}

	/** The latest user message stored. */
	lastPrompt(): UserMessage {
		const info = this.messages.findLast((message) => message.info.role === "user")?.info;
		if (info?.role !== "user") throw new Error(`session ${this.id} has no prompt`);
		return info;
	}

	/** The user messages' ids, oldest first. */
	get prompts(): string[] {
		return this.messages.filter((message) => message.info.role === "user").map((message) => message.info.id);
	}
}

/** A model call as far as the test follows it. */
export interface CallResult {
	/** The message objects opencode handed to the transform (a copy of its array: the objects themselves). */
	given: CallMessage[];
	/** The messages the call sends, after the transform. */
	sent: CallMessage[];
	/** Why the call was not sent (what the transform or chat.params threw), or null. */
	refusal: string | null;
	/** The limit on the answer the call was sent with, once the plugins' chat.params ran. */
	maxOutputTokens: number | undefined;
}

/** A prompt's run. */
export interface RunResult {
	prompt: string;
	calls: CallResult[];
	/** What the title call threw, or null (also when there was none). */
	titleRefusal: string | null;
	toolsRun: number;
	/** Why tools were refused, in order. */
	toolRefusals: string[];
	/** Whether Timebox asked opencode to abort the session during the run. */
	aborted: boolean;
}

/** A tool the model asks for, with its arguments. */
export interface AskedTool {
	tool: string;
	args: Record<string, unknown>;
}

export interface PromptScript {
	/** The model calls the agent makes unless stopped: each but the last asks for `tools` tools. Default 1. */
	calls?: number;
	/** Tools each call but the last asks for. Default 1. */
	tools?: number;
	/** The tool (and its arguments) call number `call` (1-based) asks for; `bash` with no arguments unless said. */
	toolCall?: (call: number) => AskedTool;
	/** What call number `call` (1-based) used. */
	usage?: (call: number) => Usage;
	/** Runs while the tools of call number `call` run: time passes, a deadline falls, a subagent works. */
	whileTools?: (call: number) => void | Promise<void>;
	/** Runs between the prompt's `chat.message` and its first call: opencode's start-up, in which a deadline may fall. */
	beforeCalls?: () => void | Promise<void>;
	/** Whether opencode makes its title call: by default on a session's first prompt. */
	title?: boolean;
	/** The prices of the model the agent calls. */
	model?: Prices;
	/** The prices of the small model of the title call. */
	titleModel?: Prices;
	/** opencode wrote the message itself (the "continue" after a compaction): no chat.message, no title call. */
	byOpencode?: boolean;
	/** Whether opencode says the session is idle when the run ends; false: not yet (its work after the answer goes on). */
	idle?: boolean;
}

type ParamsInput = Parameters<NonNullable<Hooks["chat.params"]>>[0];
type Toast = { title: string; message: string; variant: string };

/** What Timebox said: a toast's text and variant, or a line on stderr. */
export interface Shown {
	message: string;
	level: string;
}

/** The part of opencode's client Timebox uses, recording what it was asked to show or do. */
export class FakeClient {
	readonly toasts: Toast[] = [];
	readonly aborts: string[] = [];
	failAborts = false;
	failToasts = false;

	readonly tui = {
		showToast: (options: { body: Toast }): Promise<boolean> => {
			this.toasts.push(options.body);
			return this.failToasts ? Promise.reject(new Error("the TUI is gone")) : Promise.resolve(true);
		},
	};

	/** The models opencode lists, by provider: the fake provider's model at the prices the test sets. */
	prices: Prices = PRICED;
	failProviders = false;
	/** How many times the plugin asked for opencode's providers (a request to opencode's server). */
	providersAsked = 0;
	readonly config = {
		providers: () =>
			++this.providersAsked > 0 && this.failProviders
				? Promise.reject(new Error("the server is gone"))
				: Promise.resolve({
						data: { providers: [{ id: "fake", models: { "fake-model": modelAt(this.prices) } }], default: {} },
					}),
	};

	readonly session = {
		abort: (options: { path: { id: string } }): Promise<boolean> => {
			this.aborts.push(options.path.id);
			return this.failAborts ? Promise.reject(new Error("the server is gone")) : Promise.resolve(true);
		},
	};
}

async function errorOf(action: () => Promise<unknown>): Promise<string | null> {
	try {
		await action();
		return null;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}

function sessionInfo(id: string, parentID?: string, title = "a session"): Session {
	return {
		id,
		projectID: "project",
		directory: "/project",
		title,
		version: "1.18.33",
		time: { created: 0, updated: 0 },
		...(parentID === undefined ? {} : { parentID }),
	};
}

/** One opencode process with Timebox's plugin loaded. */
export class FakeOpencode {
	readonly client = new FakeClient();
	readonly stderr: string[] = [];
	private hooks: Hooks = {};

	private constructor(
		readonly world: World,
		readonly interactive: boolean,
	) {}

	/** Starts opencode (`interactive` false is `opencode run`) with the environment and the plugin options given. */
	static async start(
		world: World,
		setup: {
			interactive?: boolean;
			env?: NodeJS.ProcessEnv;
			options?: Record<string, unknown>;
			reportPage?: ReportPageWriter;
			/** The folder opencode works in, and the reader of its past sessions. */
			directory?: string;
			projectHistory?: ProjectHistoryReader;
			/** The sessions the TUI shows, as the TUI plugin marks them. */
			sessionsShown?: TimeboxPluginDeps["sessionsShown"];
			/** The plugin to load instead of one over the world's fakes: the package's own `./server`, as opencode loads it. */
			server?: ReturnType<typeof createTimeboxPlugin>;
		} = {},
	): Promise<FakeOpencode> {
		const opencode = new FakeOpencode(world, setup.interactive ?? false);
		// A claim names the process that made it, which runs until the next start.
		const process = ++world.process;
		const ledgerOptions = { clock: world.time, pid: () => process, alive: (pid: unknown) => pid === world.process };
		const plugin =
			setup.server ??
			createTimeboxPlugin({
				clock: world.time,
				scheduler: world.time,
				onStop: world.runner,
				newBudgetId: world.newBudgetId,
				env: setup.env ?? {},
				dataDir: world.dataDir,
				ledger: (folder) => createFileLedger(folder, ledgerOptions),
				dailyLedger: (sessionId) => createDailyLedger(world.dailyDir, sessionId, world.time),
				interactive: opencode.interactive,
				writeStderr: (line) => opencode.stderr.push(line),
				...(setup.sessionsShown ? { sessionsShown: setup.sessionsShown } : {}),
				...(setup.reportPage ? { reportPage: setup.reportPage } : {}),
				...(setup.projectHistory ? { projectHistory: setup.projectHistory } : {}),
			});
		// The plugin reads only `tui.showToast` and `session.abort` of opencode's generated client.
		const client = opencode.client as unknown as PluginInput["client"];
		const input = setup.directory === undefined ? { client } : { client, directory: setup.directory };
		opencode.hooks = setup.options === undefined ? await plugin(input) : await plugin(input, setup.options);
		return opencode;
	}

	/** What Timebox showed: toasts in the TUI, stderr lines (`[timebox] <level>: <text>`) in `opencode run`. */
	get shown(): Shown[] {
		if (this.interactive) return this.client.toasts.map((toast) => ({ message: toast.message, level: toast.variant }));
		return this.stderr.map((line) => {
			const match = /^\[timebox\] (info|warning|error): ([\s\S]*)$/.exec(line);
			return match ? { level: match[1] ?? "", message: match[2] ?? "" } : { level: "?", message: line };
		});
	}

	get last(): Shown | undefined {
		return this.shown.at(-1);
	}

	messages(level?: string): string[] {
		return this.shown.filter((shown) => level === undefined || shown.level === level).map((shown) => shown.message);
	}

	conversation(id = MAIN): Conversation {
		let conversation = this.world.conversations.get(id);
		if (!conversation) {
			conversation = new Conversation(id, this.world.time, this.world.firstId);
			this.world.conversations.set(id, conversation);
		}
		return conversation;
	}

	hook<K extends keyof Hooks>(name: K): NonNullable<Hooks[K]> {
		const hook = this.hooks[name];
		if (!hook) throw new Error(`the plugin has no ${name} hook`);
		return hook;
	}

	/**
	 * `/timebox <args>`. In the TUI, command.execute.before answers and throws, and that is all. In `opencode run`, the
	 * command's prompt is stored and run: its calls must not reach the model.
	 */
	async timebox(
		args: string,
		session = MAIN,
	): Promise<{ commandError: string | null; run: RunResult | null; given: CallMessage[] }> {
		const commandError = await errorOf(() =>
			this.hook("command.execute.before")({ command: "timebox", sessionID: session, arguments: args }, { parts: [] }),
		);
		if (this.interactive) return { commandError, run: null, given: [] };
		const text = COMMAND_TEMPLATE.replace("$ARGUMENTS", args);
		const run = await this.prompt(text, { session });
		return { commandError, run, given: run.calls[0]?.given ?? [] };
	}

	/** A prompt and its run, to the end or until Timebox stops it. */
	async prompt(text: string, script: PromptScript & { session?: string } = {}): Promise<RunResult> {
		const conversation = this.conversation(script.session);
		const firstPrompt = conversation.prompts.length === 0;
		const prompt = conversation.addUser(text, script.byOpencode);
		if (!script.byOpencode) {
			await this.hook("chat.message")(
				{ sessionID: conversation.id, agent: "build", messageID: prompt.info.id },
				{ message: prompt.info, parts: prompt.parts },
			);
		}
		const result: RunResult = {
			prompt: prompt.info.id,
			calls: [],
			titleRefusal: null,
			toolsRun: 0,
			toolRefusals: [],
			aborted: false,
		};
		const abortsBefore = this.client.aborts.length;
		const aborted = () => this.client.aborts.length > abortsBefore;
		await script.beforeCalls?.();
		if (script.title ?? (firstPrompt && !script.byOpencode)) {
			result.titleRefusal = await errorOf(() =>
				this.hook("chat.params")(
					this.paramsInput(conversation.id, "title", prompt.info, script.titleModel ?? FREE),
					this.paramsOutput(),
				),
			);
		}
		const calls = script.calls ?? 1;
		for (let call = 1; call <= calls; call++) {
			const sent = await this.call(conversation, prompt.info, script.model ?? PRICED);
			result.calls.push(sent);
			if (sent.refusal !== null) {
				// opencode stores the failed call as an assistant message with an error, completed at once.
				await this.answer(conversation, prompt.info.id, NOTHING_USED, undefined);
				break;
			}
			const last = call === calls;
			if (!last) {
				for (let tool = 0; tool < (script.tools ?? 1); tool++) {
					const asked = script.toolCall?.(call);
					const refusal = await (asked
						? this.tool(conversation.id, `call_${call}_${tool}`, asked)
						: this.tool(conversation.id));
					if (refusal === null) result.toolsRun++;
					else result.toolRefusals.push(refusal);
				}
				await script.whileTools?.(call);
			}
			await this.answer(
				conversation,
				prompt.info.id,
				script.usage?.(call) ?? NOTHING_USED,
				last ? "stop" : "tool-calls",
			);
			if (aborted()) break;
		}
		result.aborted = aborted();
		if (script.idle !== false) await this.idle(conversation.id);
		return result;
	}

	/** One model call of the agent: the messages transform, then chat.params; either may refuse it by throwing. */
	async call(conversation: Conversation, prompt: UserMessage, model: Prices = PRICED): Promise<CallResult> {
		// opencode builds the request from copies of the stored messages, and hands the transform that array.
		const messages: CallMessage[] = structuredClone(conversation.messages);
		const given = [...messages];
		const params = this.paramsOutput();
		const input = this.paramsInput(conversation.id, "build", prompt, model);
		// opencode defines the tools first, then transforms the messages, then builds the system prompt and the params.
		for (const [toolID, definition] of Object.entries(TOOLS))
			await this.hook("tool.definition")({ toolID }, { ...definition });
		const refusal =
			(await errorOf(() => this.hook("experimental.chat.messages.transform")({}, { messages }))) ??
			(await errorOf(async () => {
				await this.hook("experimental.chat.system.transform")(
					{ sessionID: conversation.id, model: input.model },
					{ system: [SYSTEM_PROMPT] },
				);
				await this.hook("chat.params")(input, params);
			}));
		return { given, sent: messages, refusal, maxOutputTokens: params.maxOutputTokens };
	}

	/** A tool the model asked for is about to run: the reason it was refused, or null. */
	tool(session = MAIN, callID = "call_1", asked: AskedTool = { tool: "bash", args: {} }): Promise<string | null> {
		return errorOf(() =>
			this.hook("tool.execute.before")({ tool: asked.tool, sessionID: session, callID }, { args: asked.args }),
		);
	}

	/** The answer of a call: stored, reported while it streams (no usage yet) and again when it is complete. */
	async answer(conversation: Conversation, promptId: string, used: Usage, finish: string | undefined): Promise<void> {
		const info = conversation.addAssistant(promptId, used);
		await this.event({
			type: "message.updated",
			properties: { info: { ...info, time: { created: info.time.created } } },
		});
		info.time.completed = this.world.time.now();
		if (finish !== undefined) info.finish = finish;
		await this.event({ type: "message.updated", properties: { info } });
	}

	idle(session = MAIN): Promise<void> {
		return this.event({ type: "session.idle", properties: { sessionID: session } });
	}

	/** opencode's `task` tool starts a subagent in a child session of `parent` (titled "<description> (@<type> …)"). */
	subagent(id: string, parent = MAIN, title?: string): Promise<void> {
		return this.event({ type: "session.created", properties: { info: sessionInfo(id, parent, title) } });
	}

	/** The agent of `session` calls the `task` tool: the reason it was refused, or null when it runs. */
	task(callID: string, args: Record<string, unknown>, session = MAIN): Promise<string | null> {
		return errorOf(() => this.hook("tool.execute.before")({ tool: "task", sessionID: session, callID }, { args }));
	}

	/** The `task` tool's result, as the model of `session` reads it once the plugin added to it. */
	async taskResult(callID: string, result: string, session = MAIN, tool = "task"): Promise<string> {
		const output = { title: "a task", output: result, metadata: {} };
		await this.hook("tool.execute.after")({ tool, sessionID: session, callID, args: {} }, output);
		return output.output;
	}

	created(id: string): Promise<void> {
		return this.event({ type: "session.created", properties: { info: sessionInfo(id) } });
	}

	deleted(id = MAIN): Promise<void> {
		return this.event({ type: "session.deleted", properties: { info: sessionInfo(id) } });
	}

	event(event: Event): Promise<void> {
		return this.hook("event")({ event });
	}

	/** opencode shuts down: the plugin is disposed. */
	dispose(): Promise<void> {
		return this.hook("dispose")();
	}

	/** opencode exits, and starts again on the same data (`opencode run -c`, a reopened TUI). */
	async restart(
		setup: { interactive?: boolean; env?: NodeJS.ProcessEnv; options?: Record<string, unknown> } = {},
	): Promise<FakeOpencode> {
		await this.dispose();
		return FakeOpencode.start(this.world, { interactive: this.interactive, ...setup });
	}

	paramsInput(sessionID: string, agent: string, message: UserMessage, prices: Prices): ParamsInput {
		const provider = { source: "config", info: { id: "fake" }, options: {} };
		return { sessionID, agent, model: modelAt(prices), provider, message };
	}

	/** What chat.params starts from: opencode's own limit on the answer (`maxOutputTokens`, 32,000 unless the test says). */
	paramsOutput(
		maxOutputTokens: number | undefined = this.maxOutputTokens,
	): Parameters<NonNullable<Hooks["chat.params"]>>[1] {
		return { temperature: 0, topP: 1, topK: 0, maxOutputTokens, options: {} };
	}

	/** The limit opencode puts on each answer before the plugins' chat.params. */
	maxOutputTokens: number | undefined = 32_000;
}

/**
 * The fake model at these prices. Timebox reads only the prices of opencode's model; its Model has dozens of required
 * fields (capabilities, limits) that play no part here.
 */
function modelAt(prices: Prices): Model {
	return {
		id: "fake-model",
		providerID: "fake",
		cost: { input: prices.input, output: prices.output, cache: { read: 0, write: 0 } },
	} as unknown as Model;
}

/** The synthetic text parts Timebox added to the messages a call sends. */
export function notesOf(messages: readonly CallMessage[]): string[] {
	return messages.flatMap((message) =>
		message.parts.flatMap((part) => (part.type === "text" && part.synthetic ? [part.text] : [])),
	);
}

/** The texts of the messages a call sends, `role: text` each, for asserting what the model reads. */
export function textsOf(messages: readonly CallMessage[]): string[] {
	return messages.map(
		(message) =>
			`${message.info.role}: ${message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" + ")}`,
	);
}
