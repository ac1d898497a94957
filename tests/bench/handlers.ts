// Benchmark 1: cost per call of each Timebox handler on pi's real in-memory SessionManager with 1k/10k/100k entries.

import type { AssistantMessage, ToolResultMessage, UserMessage } from "@mariozechner/pi-ai";
import {
	type ExtensionAPI,
	type ExtensionCommandContext,
	type ExtensionContext,
	type RegisteredCommand,
	SessionManager,
} from "@mariozechner/pi-coding-agent";
import { ACTIVE_ENTRY_TYPE, COMMAND_NAME } from "../../src/core/constants.ts";
import type { Cancel, Scheduler } from "../../src/core/ports.ts";
import type { SessionRuntime } from "../../src/core/run/runtime.ts";
import { type BundledHandlers, loadBundledHandlers } from "./bundled.ts";
import { median, nowMs, progress } from "./stats.ts";

/** Session sizes measured, in entries. */
export const SESSION_SIZES = [1_000, 10_000, 100_000] as const;

/** The handlers measured, in table order. */
export const HANDLERS = [
	"context",
	"tool_call",
	"tool_call_loop",
	"message_end",
	"status_refresh",
	"turn_start",
	"first_call",
	"agent_end",
	"timebox_status",
	"session_start",
	"subagent_call",
	"capped_call",
] as const;
export type HandlerName = (typeof HANDLERS)[number];

/** How one handler figure was sampled. */
export interface Sampling {
	/**
	 * `alone`: each size on its own fresh session and a collected heap, `rounds` times (sizes in alternating order), for
	 * handlers whose cost depends on the session; `in turn`: the three sessions side by side, taken in turn sample by
	 * sample, so that the sizes share the same moment (machine noise, JIT state), for handlers that should not depend on
	 * it at all.
	 */
	mode: "alone" | "in turn";
	rounds: number;
	/** Timed samples per round. */
	samples: number;
	/** Calls per sample (a sample's time is divided by this). */
	callsPerSample: number;
}

/** Rounds over the sizes for the handlers measured `alone`. */
const ROUNDS = 3;

export const SAMPLING: Record<HandlerName, Sampling> = {
	context: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	tool_call: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	tool_call_loop: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	message_end: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	status_refresh: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	turn_start: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	first_call: { mode: "alone", rounds: ROUNDS, samples: 101, callsPerSample: 1 },
	agent_end: { mode: "alone", rounds: ROUNDS, samples: 101, callsPerSample: 1 },
	timebox_status: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	session_start: { mode: "alone", rounds: ROUNDS, samples: 7, callsPerSample: 1 },
	subagent_call: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
	capped_call: { mode: "in turn", rounds: 1, samples: 61, callsPerSample: 200 },
};

/** Median ms per call, per handler, for one session size. */
export type HandlerResult = Record<HandlerName, number>;

type Handler = (event: unknown, ctx: ExtensionContext) => unknown;
type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;

/** Untimed samples per fixture before the timed ones. */
export const WARMUP_SAMPLES = 50;
/**
 * The budget the session carries: far from its nudge points for the whole run, so every call takes the common path,
 * and aware, so every model call builds and adds the budget note, as the warning does from 80%.
 */
const TIME_LIMIT_MS = 60 * 60 * 1_000;
const TURN_LIMIT = 1_000;

const USER_TEXT = "Please refactor the parser so that it reports every error with its line and column.";
/** pi's system prompt and tools as Timebox reads them at each call (about the size of pi's own). */
const SYSTEM_PROMPT = `You are an expert coding assistant. ${"Follow the user's instructions and the project's conventions. ".repeat(120)}`;
const TOOL_NAMES = ["read", "bash", "edit", "write"];
const TOOLS = TOOL_NAMES.map((name) => ({
	name,
	description: `${name}: ${"Operates on the project's files with the arguments given. ".repeat(8)}`,
	parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
	sourceInfo: { path: `<builtin:${name}>`, source: "builtin", scope: "temporary", origin: "top-level" },
}));
/** The model of every call: the Anthropic Messages API at Sonnet's prices, 32,000 output tokens at most. */
const MODEL = {
	api: "anthropic-messages",
	maxTokens: 32_000,
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
const ASSISTANT_TEXT = "Done: the parser now tracks positions and every error message carries its line and column.";
const TOOL_OUTPUT = `src/parse.ts\n${"  42 | const token = next();\n".repeat(12)}`;

/** A scheduler that records the timers the controller asks for and never fires them. */
class RecordingScheduler implements Scheduler {
	private readonly intervals = new Set<() => void>();

	setTimeout(): Cancel {
		return () => {};
	}

	setInterval(callback: () => void): Cancel {
		this.intervals.add(callback);
		return () => {
			this.intervals.delete(callback);
		};
	}

	/** The status refresh callback of the budget in force. */
	liveInterval(): () => void {
		const live = [...this.intervals];
		if (live.length !== 1) throw new Error(`expected one live status refresh, found ${live.length}`);
		return live[0] as () => void;
	}
}

/** The bundled code measured, loaded when the benchmark starts. */
let bundled: BundledHandlers | null = null;

function bundledCode(): BundledHandlers {
	if (bundled === null) throw new Error("the handler benchmark's bundle is not loaded");
	return bundled;
}

/** One Timebox extension instance as pi holds it: its handlers by event and its /timebox command. */
class LoadedExtension {
	readonly handlers = new Map<string, Handler>();
	command: CommandOptions | undefined;

	constructor(sessionManager: SessionManager, scheduler: Scheduler) {
		const api = {
			on: (event: string, handler: Handler) => {
				if (this.handlers.has(event)) throw new Error(`two handlers for ${event}`);
				this.handlers.set(event, handler);
			},
			registerCommand: (_name: string, options: CommandOptions) => {
				this.command = options;
			},
			registerFlag: () => {},
			getFlag: () => undefined,
			getActiveTools: () => TOOL_NAMES,
			getAllTools: () => TOOLS,
			appendEntry: (customType: string, data?: unknown) => {
				sessionManager.appendCustomEntry(customType, data);
			},
		} as unknown as ExtensionAPI;
		bundledCode().createTimeboxExtension({
			clock: { now: () => Date.now() },
			scheduler,
			onStop: { start: () => {} },
			writeFallback: () => {},
			ledger: () => ({ claim: () => true, read: () => ({ spent: null, off: false, nudged: false }) }),
			newBudgetId: () => "bench-budget",
			env: {},
			globalSettings: () => "/nonexistent/settings.json",
		})(api);
	}

	handler(event: string): Handler {
		const handler = this.handlers.get(event);
		if (!handler) throw new Error(`no handler for ${event}`);
		return handler;
	}

	status(ctx: ExtensionCommandContext): Promise<void> {
		if (!this.command) throw new Error(`/${COMMAND_NAME} is not registered`);
		return this.command.handler("status", ctx);
	}
}

/** A context whose UI does nothing (with hasUI true) and whose sessionManager is the real one. */
function quietContext(sessionManager: SessionManager): ExtensionCommandContext {
	const ui = { notify: () => {}, setStatus: () => {} };
	return {
		hasUI: true,
		ui,
		sessionManager,
		cwd: "/nonexistent/project",
		abort: () => {},
		getSystemPrompt: () => SYSTEM_PROMPT,
		model: MODEL,
	} as unknown as ExtensionCommandContext;
}

/** A context that keeps the notifications, for the final check that the budget stayed active and counted right. */
function recordingContext(sessionManager: SessionManager, notes: string[]): ExtensionCommandContext {
	const ui = { notify: (message: string) => notes.push(message), setStatus: () => {} };
	return {
		hasUI: true,
		ui,
		sessionManager,
		cwd: "/nonexistent/project",
		abort: () => {},
	} as unknown as ExtensionCommandContext;
}

let sentPrompts = 0;

/** A prompt of its own: Timebox tells prompts apart by time stamp and text. */
function userMessage(): UserMessage {
	return { role: "user", content: `${USER_TEXT} #${++sentPrompts}`, timestamp: Date.now() };
}

function assistantMessage(toolCallId: string | null): AssistantMessage {
	return {
		role: "assistant",
		content:
			toolCallId === null
				? [{ type: "text", text: ASSISTANT_TEXT }]
				: [{ type: "toolCall", id: toolCallId, name: "read", arguments: { path: "src/parse.ts" } }],
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage: {
			input: 1200,
			output: 80,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 1280,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: toolCallId === null ? "stop" : "toolUse",
		timestamp: Date.now(),
	};
}

function toolResult(toolCallId: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName: "read",
		content: [{ type: "text", text: TOOL_OUTPUT }],
		isError: false,
		timestamp: Date.now(),
	};
}

/**
 * A session of `size` entries: prompts each answered with four tool calls (user, 4 × assistant + tool result, final
 * assistant: 10 entries, 10% user messages), then the `timebox-active` entry of `/timebox 1h turns:1000` set just now
 * (with `loop:<loopLimit>` where given).
 */
export function filledSession(size: number, loopLimit?: number): SessionManager {
	const session = SessionManager.inMemory(process.cwd());
	let users = 0;
	for (let index = 0; index < size - 1; index++) {
		const step = index % 10;
		if (step === 0) {
			session.appendMessage(userMessage());
			users++;
		} else if (step === 9) session.appendMessage(assistantMessage(null));
		else if (step % 2 === 1) session.appendMessage(assistantMessage(`call-${index}`));
		else session.appendMessage(toolResult(`call-${index - 1}`));
	}
	const budget = {
		version: 2,
		id: "bench-budget",
		timeLimitMs: TIME_LIMIT_MS,
		turnLimit: TURN_LIMIT,
		startTime: Date.now(),
		onStopCommand: null,
		awareness: "always",
		...(loopLimit === undefined ? {} : { loopLimit }),
		// The first version counted prompts from this transcript count; kept so the figures compare with earlier runs.
		startTurn: users,
	};
	session.appendCustomEntry(ACTIVE_ENTRY_TYPE, budget);
	if (session.getEntries().length !== size) throw new Error(`expected ${size} entries`);
	return session;
}

/** ms per call of one timed batch of `calls` calls. */
function timeBatch(calls: number, call: () => void): number {
	const started = nowMs();
	for (let index = 0; index < calls; index++) call();
	return (nowMs() - started) / calls;
}

/** Like `timeBatch` for async calls, each awaited. */
async function timeBatchAsync(calls: number, call: () => Promise<void>): Promise<number> {
	const started = nowMs();
	for (let index = 0; index < calls; index++) await call();
	return (nowMs() - started) / calls;
}

/** ms of one call of `call` after an untimed `prepare` (say, an append to the session). */
function timePrepared(prepare: () => void, call: () => void): number {
	prepare();
	const started = nowMs();
	call();
	return nowMs() - started;
}

/** `samples` timed samples after `WARMUP_SAMPLES` untimed ones. */
async function sampled(samples: number, sample: () => number | Promise<number>): Promise<number[]> {
	for (let index = 0; index < WARMUP_SAMPLES; index++) await sample();
	const times: number[] = [];
	for (let index = 0; index < samples; index++) times.push(await sample());
	return times;
}

/** Frees what earlier measurements left behind, so every size is measured on a heap holding only its own session. */
function collectGarbage(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

/** One session of a given size with a Timebox instance restored on it, mid-way through a run. */
interface Fixture {
	size: number;
	session: SessionManager;
	ctx: ExtensionCommandContext;
	extension: LoadedExtension;
	refresh: () => void;
	/** ms of each timed `session_start`, in a fresh instance. */
	sessionStartTimes: number[];
	/** A session's runtime with its budget and five subagents running under a subagent budget, and the next to call. */
	subagents: { runtime: SessionRuntime; next: number };
	/** A second instance on the session, under `/timebox 1h tokens:1b $10000`: its calls are measured and capped. */
	capped: LoadedExtension;
	/** A session of the same size under `loop:1000` too, mid-run, with its Timebox instance, and the next call to ask. */
	loop: { extension: LoadedExtension; ctx: ExtensionCommandContext; next: number };
}

/** The loop guard of the loop row: never reached, as each of its different calls is asked for about 25 times. */
const LOOP_LIMIT = 1_000;
/** The different tool calls of the loop row's run, asked for in turn: the run's memory holds this many keys. */
const LOOP_CALLS = 1_000;
const LOOP_EVENTS = Array.from({ length: LOOP_CALLS }, (_, index) => ({
	type: "tool_call",
	toolName: "bash",
	toolCallId: `call-loop-${index}`,
	input: { command: `grep -n "column" src/parse.ts | head -${index + 1}`, timeout: 120 },
}));

/** The subagents running at once in the subagent row. */
const RUNNING_SUBAGENTS = 5;

/**
 * The core runtime of a session under `/timebox 1h turns:1000` whose main agent runs five subagents, each under
 * `/timebox subagents 1h steps:10000`: far from their warnings for the whole run, as the session's budget is. No pi
 * host maps subagents itself, so the runtime is measured as every host drives it, with its records kept in memory.
 */
function subagentRuntime(): SessionRuntime {
	const records: unknown[] = [];
	const runtime = new (bundledCode().SessionRuntime)({
		store: { append: (record) => records.push(record) },
		ledger: { claim: () => true },
		clock: { now: () => Date.now() },
		onStop: { start: () => {} },
		setStatus: () => {},
		abortRun: () => {},
		problem: (where, error) => {
			throw new Error(`${where}: ${String(error)}`);
		},
		late: () => {},
	});
	runtime.command("1h turns:1000", { newBudgetId: "bench-budget", report: () => "" });
	runtime.command("subagents 1h steps:10000", { newBudgetId: "unused", report: () => "" });
	runtime.handle({ type: "modelCall", prompt: "bench-prompt" });
	for (let agent = 0; agent < RUNNING_SUBAGENTS; agent++) {
		const started = runtime.handle({
			type: "agentStart",
			agent: `agent-${agent}`,
			parent: null,
			agentType: "Explore",
			task: "find where the parser loses the column of an error",
		});
		if (started.refusal !== null || started.context.length !== 1) throw new Error("a subagent did not start");
	}
	return runtime;
}

/**
 * A later model call of a run: the messages end with a tool result, so it is the running prompt's. pi hands each call
 * its own copy of the messages, where Timebox adds its note.
 */
function laterCallEvent() {
	return {
		type: "context",
		messages: [
			{ role: "user", content: USER_TEXT, timestamp: 1 },
			{ role: "assistant", content: [] },
			{ role: "toolResult", content: [] },
		],
	};
}
const END_EVENT = { type: "agent_end", messages: [] };
/** An answer with its usage: Timebox adds what it used to the budget's running totals. */
const ANSWER_EVENT = { type: "message_end", message: assistantMessage("call-bench") };
const TURN_START_EVENT = { type: "turn_start", turnIndex: 1, timestamp: 0 };
const TOOL_CALL_EVENT = { type: "tool_call", toolName: "bash", toolCallId: "call-bench", input: { command: "true" } };

/** Fills a session of `size` entries, loads Timebox on it (timing `session_start`) and starts a run. */
async function setUp(size: number): Promise<Fixture> {
	const session = filledSession(size);
	const ctx = quietContext(session);
	const scheduler = new RecordingScheduler();

	// session_start in a fresh instance each time, as pi loads the extension anew per session: a full restore and count.
	let extension = new LoadedExtension(session, scheduler);
	const sessionStartTimes: number[] = [];
	for (let sample = 0; sample < SAMPLING.session_start.samples + 2; sample++) {
		await extension.handler("session_shutdown")({ type: "session_shutdown", reason: "reload" }, ctx);
		extension = new LoadedExtension(session, scheduler);
		const started = nowMs();
		await extension.handler("session_start")({ type: "session_start", reason: "startup" }, ctx);
		if (sample >= 2) sessionStartTimes.push(nowMs() - started);
	}
	// A run in progress: the prompt's first model call went out; later calls follow tool calls.
	extension.handler("context")(
		{ type: "context", messages: [{ role: "user", content: USER_TEXT, timestamp: 1 }] },
		ctx,
	);
	const refresh = scheduler.liveInterval();
	// A budget of tokens and cost, far from its limits, restored by a second instance: each call's answer is capped.
	session.appendCustomEntry(ACTIVE_ENTRY_TYPE, { ...CAPPED_BUDGET, startTime: Date.now() });
	const capped = new LoadedExtension(session, new RecordingScheduler());
	await capped.handler("session_start")({ type: "session_start", reason: "startup" }, ctx);
	await capped.handler("context")(
		{ type: "context", messages: [{ role: "user", content: USER_TEXT, timestamp: 1 }] },
		ctx,
	);
	return {
		size,
		session,
		ctx,
		extension,
		refresh,
		sessionStartTimes,
		subagents: { runtime: subagentRuntime(), next: 0 },
		capped,
		loop: await loopExtension(size),
	};
}

/** The budget of the capped calls: tokens and cost far from their limits all along, so every call takes the common path. */
const CAPPED_BUDGET = {
	version: 2,
	id: "bench-capped",
	timeLimitMs: TIME_LIMIT_MS,
	turnLimit: null,
	tokenLimit: 1_000_000_000,
	costLimit: 10_000,
	onStopCommand: null,
	awareness: "always",
};

/** A later call of a capped run: the answer before it (with its usage) and the tool result after it are measured. */
function cappedCallEvent() {
	return {
		type: "context",
		messages: [
			{ role: "user", content: USER_TEXT, timestamp: 1 },
			assistantMessage("call-capped"),
			toolResult("call-capped"),
		],
	};
}

/** The request pi built for a capped call, at its own limit: Timebox lowers it to the cap. */
function providerRequestEvent() {
	return { type: "before_provider_request", payload: { model: "claude-sonnet-4-5", max_tokens: 64_000, messages: [] } };
}

/** A Timebox instance on a session of `size` entries under `loop:1000`, a run started. */
async function loopExtension(size: number): Promise<Fixture["loop"]> {
	const session = filledSession(size, LOOP_LIMIT);
	const ctx = quietContext(session);
	const extension = new LoadedExtension(session, new RecordingScheduler());
	await extension.handler("session_start")({ type: "session_start", reason: "startup" }, ctx);
	extension.handler("context")(
		{ type: "context", messages: [{ role: "user", content: USER_TEXT, timestamp: 1 }] },
		ctx,
	);
	return { extension, ctx, next: 0 };
}

/**
 * Fails unless the loop row's guard counted every call and refused none: the call asked for least is refused exactly
 * when it is asked for the LOOP_LIMIT-th time.
 */
async function checkLoop(fixture: Fixture): Promise<void> {
	const { extension, ctx, next } = fixture.loop;
	const handler = extension.handler("tool_call");
	const event = LOOP_EVENTS[next % LOOP_CALLS];
	const asked = Math.floor(next / LOOP_CALLS);
	for (let ask = asked + 1; ask <= LOOP_LIMIT; ask++) {
		const answer = (await handler(event, ctx)) as { block?: boolean; reason?: string } | undefined;
		const refused = answer?.block === true;
		if (refused !== (ask === LOOP_LIMIT)) {
			throw new Error(`the loop guard ${refused ? "refused" : "let through"} the ${ask}th ask: ${answer?.reason}`);
		}
	}
	progress(`loop guard at ${fixture.size} entries: ok, ${next} calls counted, the ${LOOP_LIMIT}th identical refused`);
}

/** Fails unless every subagent stayed running and within its budget, each having made its share of the calls. */
function checkSubagents(fixture: Fixture): void {
	const runs = Object.values(fixture.subagents.runtime.state.subagents.runs);
	const calls = runs.reduce((sum, run) => sum + run.steps, 0);
	if (runs.length !== RUNNING_SUBAGENTS || runs.some((run) => run.ended !== null || run.spent !== null)) {
		throw new Error("a subagent stopped during the benchmark");
	}
	progress(`subagents at ${fixture.size} entries: ok, ${calls} model calls over ${runs.length} running subagents`);
}

/** Fails unless the budget stayed active all along and counted every prompt appended by the benchmark. */
async function checkCount(fixture: Fixture, prompts: number): Promise<void> {
	const notes: string[] = [];
	await fixture.extension.status(recordingContext(fixture.session, notes));
	const expected = `(${prompts}/${TURN_LIMIT})`;
	if (notes.length !== 1 || !notes[0]?.startsWith("Timebox: ") || !notes[0].includes(expected)) {
		throw new Error(`the budget did not stay active with ${expected} turns: ${JSON.stringify(notes)}`);
	}
	progress(`handlers at ${fixture.size} entries: ok, status reads "${notes[0]}"`);
}

/** Samples (ms per call) of handlers on one session size. */
type HandlerSamples = Partial<Record<HandlerName, number[]>>;

/** Takes one sample of `name` on `fixture`. */
function sampleOf(name: Exclude<HandlerName, "session_start">, fixture: Fixture): number | Promise<number> {
	const { extension, ctx, session } = fixture;
	const { callsPerSample } = SAMPLING[name];
	switch (name) {
		case "context": {
			const handler = extension.handler("context");
			return timeBatch(callsPerSample, () => handler(laterCallEvent(), ctx));
		}
		case "tool_call": {
			const handler = extension.handler("tool_call");
			return timeBatch(callsPerSample, () => handler(TOOL_CALL_EVENT, ctx));
		}
		case "tool_call_loop": {
			// The same handler under loop:1000: each call of the run's 1,000 different ones in turn, counted.
			const loop = fixture.loop;
			const handler = loop.extension.handler("tool_call");
			return timeBatch(callsPerSample, () => handler(LOOP_EVENTS[loop.next++ % LOOP_CALLS], loop.ctx));
		}
		case "message_end": {
			const handler = extension.handler("message_end");
			return timeBatch(callsPerSample, () => handler(ANSWER_EVENT, ctx));
		}
		case "status_refresh":
			return timeBatch(callsPerSample, fixture.refresh);
		case "turn_start": {
			// A later turn of the run begins: the budget is checked on time, tokens and cost.
			const handler = extension.handler("turn_start");
			return timeBatchAsync(callsPerSample, async () => {
				await handler(TURN_START_EVENT, ctx);
			});
		}
		case "first_call": {
			// Each prompt starts after the previous one's entries were written: one new entry since the last count. Its
			// first model call is where Timebox counts it.
			const modelCall = extension.handler("context");
			let event = { type: "context", messages: [] as unknown[] };
			return timePrepared(
				() => {
					const prompt = userMessage();
					session.appendMessage(prompt);
					event = { type: "context", messages: [assistantMessage(null), prompt] };
				},
				() => modelCall(event, ctx),
			);
		}
		case "agent_end": {
			// Each run ends after its answer was written.
			const handler = extension.handler("agent_end");
			return timePrepared(
				() => session.appendMessage(assistantMessage(null)),
				() => handler(END_EVENT, ctx),
			);
		}
		case "timebox_status":
			// `/timebox status` typed while idle.
			return timeBatchAsync(callsPerSample, () => extension.status(ctx));
		case "capped_call": {
			// The call is measured and its answer capped (`context`), then the cap goes into the request.
			const context = fixture.capped.handler("context");
			const request = fixture.capped.handler("before_provider_request");
			return timeBatch(callsPerSample, () => {
				context(cappedCallEvent(), ctx);
				const capped = request(providerRequestEvent(), ctx) as { max_tokens?: number } | undefined;
				if (capped?.max_tokens === undefined || capped.max_tokens >= 64_000) throw new Error("a call was not capped");
			});
		}
		case "subagent_call": {
			// The five subagents call the model in turn.
			const subagents = fixture.subagents;
			return timeBatch(callsPerSample, () => {
				const agent = `agent-${subagents.next++ % RUNNING_SUBAGENTS}`;
				subagents.runtime.handle({ type: "modelCall", prompt: null, agent });
			});
		}
	}
}

/** The handlers whose cost depends on the session, each size measured alone on a fresh session and heap. */
async function measureAlone(size: number): Promise<HandlerSamples> {
	collectGarbage();
	const fixture = await setUp(size);
	collectGarbage();
	const result: HandlerSamples = { session_start: fixture.sessionStartTimes };
	for (const name of ["first_call", "agent_end"] as const) {
		result[name] = await sampled(SAMPLING[name].samples, () => sampleOf(name, fixture));
	}
	// Every prompt sent counts, and so does the one setUp started.
	await checkCount(fixture, WARMUP_SAMPLES + SAMPLING.first_call.samples + 1);
	return result;
}

/** The handlers that should not depend on the session, the sizes side by side and taken in turn. */
async function measureInTurn(): Promise<Map<number, HandlerSamples>> {
	collectGarbage();
	const fixtures: Fixture[] = [];
	for (const size of SESSION_SIZES) fixtures.push(await setUp(size));
	collectGarbage();
	const results = new Map(fixtures.map((fixture): [number, HandlerSamples] => [fixture.size, {}]));
	const inTurn = async (
		name:
			| "context"
			| "tool_call"
			| "tool_call_loop"
			| "message_end"
			| "status_refresh"
			| "turn_start"
			| "timebox_status"
			| "subagent_call"
			| "capped_call",
	): Promise<void> => {
		for (const fixture of fixtures) for (let index = 0; index < WARMUP_SAMPLES; index++) await sampleOf(name, fixture);
		const times = fixtures.map((): number[] => []);
		for (let index = 0; index < SAMPLING[name].samples; index++) {
			for (const [at, fixture] of fixtures.entries()) times[at]?.push(await sampleOf(name, fixture));
		}
		for (const [at, fixture] of fixtures.entries()) {
			const result = results.get(fixture.size);
			if (result) result[name] = times[at];
		}
	};
	await inTurn("context");
	await inTurn("tool_call");
	await inTurn("tool_call_loop");
	for (const fixture of fixtures) await checkLoop(fixture);
	await inTurn("message_end");
	await inTurn("status_refresh");
	await inTurn("turn_start");
	await inTurn("subagent_call");
	await inTurn("capped_call");
	for (const fixture of fixtures) checkSubagents(fixture);
	// The run ends, then the user asks for the status.
	for (const fixture of fixtures) fixture.extension.handler("agent_end")(END_EVENT, fixture.ctx);
	await inTurn("timebox_status");
	for (const fixture of fixtures) await checkCount(fixture, 1);
	return results;
}

/** Runs benchmark 1, after a discarded pass over every path so that the JIT has compiled them. */
export async function measureHandlers(): Promise<Map<number, HandlerResult>> {
	bundled = await loadBundledHandlers();
	await measureAlone(SESSION_SIZES[0]);
	const pooled = await measureInTurn();
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? [...SESSION_SIZES] : [...SESSION_SIZES].reverse();
		for (const size of order) {
			const samples = await measureAlone(size);
			const pool = pooled.get(size) ?? {};
			for (const name of HANDLERS) pool[name] = [...(pool[name] ?? []), ...(samples[name] ?? [])];
			pooled.set(size, pool);
		}
	}
	collectGarbage();
	return new Map(
		SESSION_SIZES.map((size): [number, HandlerResult] => {
			const pool = pooled.get(size) ?? {};
			const medians = Object.fromEntries(HANDLERS.map((name) => [name, median(pool[name] ?? [])]));
			return [size, medians as HandlerResult];
		}),
	);
}
