// Real pi sessions for the e2e suites: pi's SDK, a scripted offline model, the package manifest and a recording UI.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type {
	Api,
	AssistantMessage,
	Context,
	FauxProviderRegistration,
	Model,
	ToolResultMessage,
} from "@mariozechner/pi-ai";
import {
	type FauxResponseStep,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "@mariozechner/pi-ai";
import {
	type AgentSession,
	type AgentSessionEvent,
	type AgentSessionRuntime,
	AuthStorage,
	type CreateAgentSessionRuntimeFactory,
	type CreateAgentSessionServicesOptions,
	createAgentSession,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	DefaultResourceLoader,
	type ExtensionUIContext,
	type LoadExtensionsResult,
	ModelRegistry,
	SessionManager,
	SettingsManager,
} from "@mariozechner/pi-coding-agent";
import { expect } from "vitest";

export type NotifyLevel = "info" | "warning" | "error";

export interface Notification {
	message: string;
	level: NotifyLevel;
}

/** The repository root: pi reads `package.json` → `pi.extensions` from here, as `pi install` would. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The entry the manifest names; the loader must have loaded exactly this file. */
export const MANIFEST_ENTRY = join(PACKAGE_ROOT, "plugins/pi/timebox/index.js");

const PROVIDER = "timebox-e2e";
const STATUS_KEY = "timebox";
const ENV_KEYS = ["HOME", "PI_CODING_AGENT_DIR", "PI_OFFLINE", "XDG_STATE_HOME"] as const;

/** The user's screen as Timebox sees it through `ctx.ui`: every notification and every `timebox` status value. */
export class RecordingUI {
	readonly notifications: Notification[] = [];
	/** When each notification arrived (epoch ms), parallel to `notifications`. */
	readonly notifiedAt: number[] = [];
	/** Every value set for the `timebox` status key, in order; undefined means cleared. */
	readonly statusUpdates: (string | undefined)[] = [];
	status: string | undefined;

	messages(level?: NotifyLevel): string[] {
		return this.notifications.filter((n) => level === undefined || n.level === level).map((n) => n.message);
	}

	/** When the first notification at `level` arrived (epoch ms), or undefined. */
	firstAt(level: NotifyLevel): number | undefined {
		const index = this.notifications.findIndex((n) => n.level === level);
		return index === -1 ? undefined : this.notifiedAt[index];
	}

	/** Every dialog Timebox opened, and the answers the user gives (a choice's text, or undefined for none in time). */
	readonly questions: { title: string; options: string[]; timeout: number | undefined }[] = [];
	readonly answers: (string | undefined)[] = [];
	/** When set, the user takes this long to answer each dialog (in ms of real time). */
	answerDelayMs = 0;

	/** The part of `ExtensionUIContext` Timebox uses; pi gets it cast once, here. */
	context(): ExtensionUIContext {
		const recorder: Pick<ExtensionUIContext, "notify" | "setStatus" | "select"> = {
			select: async (title, options, opts) => {
				this.questions.push({ title, options, timeout: opts?.timeout });
				if (this.answerDelayMs > 0) await sleep(this.answerDelayMs);
				return this.answers.shift();
			},
			notify: (message, type) => {
				this.notifications.push({ message, level: type ?? "info" });
				this.notifiedAt.push(Date.now());
			},
			setStatus: (key, text) => {
				if (key !== STATUS_KEY) return;
				this.statusUpdates.push(text);
				this.status = text;
			},
		};
		return recorder as ExtensionUIContext;
	}
}

/** Polls until `predicate` holds; rejects with `what` after `timeoutMs`. Returns the time it took. */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<number> {
	const started = Date.now();
	while (!predicate()) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(10);
	}
	return Date.now() - started;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((done) => setTimeout(done, ms));
}

/** Sleeps until the wall clock reaches `epochMs` (no-op when it already has). */
export function sleepUntil(epochMs: number): Promise<void> {
	return sleep(Math.max(0, epochMs - Date.now()));
}

export function isAssistant(message: { role: string }): message is AssistantMessage {
	return message.role === "assistant";
}

export function isToolResult(message: { role: string }): message is ToolResultMessage {
	return message.role === "toolResult";
}

/** pi's settings (`~/.pi/agent/settings.json`), as `SettingsManager.inMemory` takes them. */
export type PiSettings = NonNullable<Parameters<typeof SettingsManager.inMemory>[0]>;

/** Settings with pi's auto-retry on: a retryable provider error waits `baseDelayMs` (doubling) and re-runs the prompt. */
export function retrySettings(baseDelayMs: number, maxRetries = 3): PiSettings {
	return { retry: { enabled: true, maxRetries, baseDelayMs } };
}

/** The hard-stop notification (level "error"); group 1 is the number of turns used. */
export const SPENT =
	/^Timebox budget spent\. Used (\d+) turns?, \d+s(?:\. The agent stops for this turn|, while the agent was idle)\. The chat continues\.$/;

/** The start of the warning shown when a restored session's budget is found spent already. */
export const ALREADY_SPENT_PREFIX = "Timebox budget of this session was already spent (";

/** An error text pi's `_isRetryableError` matches (503, overloaded): pi waits and re-runs the prompt. */
export const OVERLOADED_ERROR = "503 Service Unavailable: the model is overloaded, try again later";

/** An error text pi-ai's `isContextOverflow` matches (Anthropic's wording): pi compacts, then re-runs the prompt. */
export const CONTEXT_OVERFLOW_ERROR = "prompt is too long: 213000 tokens > 200000 maximum";

/** A scripted model answer that failed with the provider error `errorMessage`. */
export function providerError(errorMessage: string): FauxResponseStep {
	return fauxAssistantMessage([], { stopReason: "error", errorMessage });
}

/** One LLM answer that calls `bash` with `command`. */
export function bashCall(command: string): FauxResponseStep {
	return fauxAssistantMessage(fauxToolCall("bash", { command }), { stopReason: "toolUse" });
}

/** One closing LLM answer with `text`. */
export function textAnswer(text: string): FauxResponseStep {
	return fauxAssistantMessage(fauxText(text));
}

/** The text of a user message's content. */
export function userText(message: { role: string; content?: unknown }): string {
	const content = message.content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part: unknown) =>
			typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" ? part.text : "",
		)
		.join("");
}

/** How Timebox's budget note begins: the warning block, the wrap-up notice, or the line of an aware budget. */
const BUDGET_NOTE_START = /^(?:(?:IMPORTANT|CRITICAL) TIMEBOX WARNING|TIMEBOX: |Timebox: )/;

/** What Timebox added at the end of a model call's messages (pi sends it as a user message), or null. */
export function budgetNote(context: Context): string | null {
	const last = context.messages.at(-1);
	if (last?.role !== "user") return null;
	const text = userText(last);
	return BUDGET_NOTE_START.test(text) ? text : null;
}

/** The non-empty lines of a file, or [] while it does not exist. */
export function linesOf(path: string): string[] {
	if (!existsSync(path)) return [];
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.length > 0);
}

/** An on-stop command that appends a line to a file of the test's folder, so its runs can be counted. */
export interface OnStopProbe {
	/** The shell command to put after `/timebox … --`. */
	command: string;
	path: string;
	/** How many times the command ran so far. */
	runs(): number;
}

/** Waits until the probe's command ran, then `settleMs` more, and returns how often it ran by then. */
export async function settledRuns(probe: OnStopProbe, settleMs = 300): Promise<number> {
	await waitFor(() => probe.runs() > 0, "the on-stop command's file");
	await sleep(settleMs);
	return probe.runs();
}

/** A value of the `timebox` status seen at a session event. */
export interface StatusSample {
	event: AgentSessionEvent["type"];
	status: string | undefined;
}

/**
 * Records the `timebox` status each time `session` emits one of `events`. pi hands an event to extensions before its
 * subscribers, so a sample shows the status after Timebox handled that event.
 */
export function recordStatusAt(
	session: AgentSession,
	ui: RecordingUI,
	events: readonly AgentSessionEvent["type"][],
): StatusSample[] {
	const samples: StatusSample[] = [];
	session.subscribe((event) => {
		if (events.includes(event.type)) samples.push({ event: event.type, status: ui.status });
	});
	return samples;
}

/** Counts the session events of one type (e.g. `auto_retry_start`, `compaction_end`). */
export function countEvents(session: AgentSession, type: AgentSessionEvent["type"]): { count: number } {
	const counter = { count: 0 };
	session.subscribe((event) => {
		if (event.type === type) counter.count++;
	});
	return counter;
}

type SessionEntry = ReturnType<SessionManager["getEntries"]>[number];

/** The session entry of the user message whose text is `text` (the newest, if sent twice). */
export function userEntry(session: AgentSession, text: string): SessionEntry {
	const entry = session.sessionManager
		.getEntries()
		.findLast(
			(candidate) =>
				candidate.type === "message" && candidate.message.role === "user" && userText(candidate.message) === text,
		);
	if (!entry) throw new Error(`no user message "${text}" in the session`);
	return entry;
}

/** The session entry of the last assistant answer of the prompt whose text is `text`. */
export function answerEntry(session: AgentSession, text: string): SessionEntry {
	const entries = session.sessionManager.getBranch();
	const from = entries.findIndex((entry) => entry.id === userEntry(session, text).id);
	const next = entries.findIndex((entry, at) => at > from && entry.type === "message" && entry.message.role === "user");
	const run = entries.slice(from + 1, next === -1 ? entries.length : next);
	const answer = run.findLast((entry) => entry.type === "message" && entry.message.role === "assistant");
	if (!answer) throw new Error(`no answer to "${text}" in the session`);
	return answer;
}

/** pi's /clone: a new session file holding the current branch up to and including `entryId` (default: the leaf). */
export async function cloneSession(runtime: AgentSessionRuntime, entryId?: string): Promise<void> {
	const target = entryId ?? runtime.session.sessionManager.getLeafId();
	if (!target) throw new Error("nothing to clone yet");
	const result = await runtime.fork(target, { position: "at" });
	if (result.cancelled) throw new Error("the clone was cancelled");
}

/** pi's /fork from a user message: a new session file holding the path before that message. */
export async function forkBefore(runtime: AgentSessionRuntime, userEntryId: string): Promise<void> {
	const result = await runtime.fork(userEntryId, { position: "before" });
	if (result.cancelled) throw new Error("the fork was cancelled");
}

/** Fails loudly unless the loader loaded the manifest's entry, with the /timebox command, and nothing failed. */
export function assertTimeboxLoaded(result: LoadExtensionsResult): void {
	if (result.errors.length > 0) {
		throw new Error(`pi failed to load extensions: ${result.errors.map((e) => `${e.path}: ${e.error}`).join("; ")}`);
	}
	const loaded = result.extensions.map((extension) => extension.resolvedPath);
	const timebox = result.extensions.filter((extension) => extension.commands.has("timebox"));
	if (timebox.length !== 1 || resolve(timebox[0]?.resolvedPath ?? "") !== MANIFEST_ENTRY) {
		throw new Error(
			`expected pi to load ${MANIFEST_ENTRY} from the manifest with /timebox; loaded: ${loaded.join(", ")}`,
		);
	}
}

/** One real pi session with Timebox loaded, and what its user saw. */
export class PiSession {
	private closed = false;

	constructor(
		readonly session: AgentSession,
		/** Null when the session runs without a UI (`ctx.hasUI` false). */
		readonly ui: RecordingUI | null,
	) {}

	/** The recording UI; throws for a session started without one. */
	get screen(): RecordingUI {
		if (!this.ui) throw new Error("this session has no UI");
		return this.ui;
	}

	/** Sends `/timebox <args>`; pi runs extension commands at once. */
	timebox(args: string): Promise<void> {
		return this.session.prompt(`/timebox ${args}`);
	}

	prompt(text: string): Promise<void> {
		return this.session.prompt(text);
	}

	get sessionFile(): string {
		const file = this.session.sessionFile;
		if (!file) throw new Error("this session is not file-backed");
		return file;
	}

	/** Assistant messages of the session, oldest first. */
	assistantMessages(): AssistantMessage[] {
		return this.session.messages.filter(isAssistant);
	}

	/** Messages after the `index`-th user prompt (1-based) up to the next prompt. */
	promptRun(index: number): { assistant: AssistantMessage[]; toolResults: ToolResultMessage[] } {
		const messages = this.session.messages;
		const starts = messages.flatMap((message, at) => (message.role === "user" ? [at] : []));
		const from = starts[index - 1];
		if (from === undefined) throw new Error(`no prompt #${index} in the session`);
		const run = messages.slice(from + 1, starts[index] ?? messages.length);
		return { assistant: run.filter(isAssistant), toolResults: run.filter(isToolResult) };
	}

	/** Quits like pi does: `session_shutdown` (Timebox stops its timers), then dispose. Idempotent. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
		this.session.dispose();
	}
}

export interface StartOptions {
	/** Defaults to an in-memory session. */
	sessionManager?: SessionManager;
	/** Bind a recording UI (`ctx.hasUI` true); default true. */
	withUI?: boolean;
	/** pi's settings for this session (e.g. `retrySettings(200)`); default: pi's defaults from the empty agent dir. */
	settings?: PiSettings;
	/** A model of a real API (a loopback fake of it) in place of the scripted model; its provider gets an API key. */
	model?: Model<Api>;
}

export interface RuntimeOptions {
	/**
	 * The screen to bind to every session the runtime holds: bound at start and again after each replacement
	 * (/new, /resume, /fork, /clone), as pi's modes do, so `session_start` of each new session reaches it.
	 */
	ui?: RecordingUI;
	/** pi's settings for every session of the runtime. */
	settings?: PiSettings;
}

/**
 * Everything one test needs for real pi, all in one throwaway folder: HOME, the agent dir, the project cwd and the
 * session dir, plus a scripted offline model. `dispose()` closes every session, unregisters the model, restores the
 * environment and removes the folder.
 */
export class RealPi {
	readonly root: string;
	readonly home: string;
	readonly agentDir: string;
	readonly cwd: string;
	readonly sessionDir: string;
	readonly faux: FauxProviderRegistration;
	readonly authStorage: AuthStorage;
	readonly modelRegistry: ModelRegistry;
	private readonly sessions: PiSession[] = [];
	private readonly runtimes: AgentSessionRuntime[] = [];
	private readonly savedEnv = new Map<string, string | undefined>();

	constructor(options: { tokensPerSecond?: number; priced?: boolean } = {}) {
		this.root = mkdtempSync(join(tmpdir(), "pi-timebox-e2e-"));
		this.home = join(this.root, "home");
		this.agentDir = join(this.root, "agent");
		this.cwd = join(this.root, "project");
		this.sessionDir = join(this.root, "sessions");
		for (const dir of [this.home, this.agentDir, this.cwd, this.sessionDir]) mkdirSync(dir, { recursive: true });
		for (const key of ENV_KEYS) this.savedEnv.set(key, process.env[key]);
		process.env.HOME = this.home;
		process.env.PI_CODING_AGENT_DIR = this.agentDir;
		process.env.PI_OFFLINE = "1";
		// The daily ledger lives under the throwaway HOME, never under the user's state folder.
		delete process.env.XDG_STATE_HOME;
		this.faux = registerFauxProvider({
			provider: PROVIDER,
			...(options.tokensPerSecond === undefined ? {} : { tokensPerSecond: options.tokensPerSecond }),
			// A model with prices, as a real provider's: pi works out each answer's cost from them.
			...(options.priced
				? { models: [{ id: "priced", cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }] }
				: {}),
		});
		this.authStorage = AuthStorage.inMemory();
		this.authStorage.setRuntimeApiKey(PROVIDER, "x");
		this.modelRegistry = ModelRegistry.inMemory(this.authStorage);
	}

	/** A new file-backed session in this test's session dir. */
	newSessionFile(): SessionManager {
		return SessionManager.create(this.cwd, this.sessionDir);
	}

	/** Reopens a session file, as `pi --session <file>` or /resume does. */
	openSessionFile(path: string): SessionManager {
		return SessionManager.open(path, this.sessionDir);
	}

	/** Loader options that load only this package, through its manifest, and nothing else from disk. */
	loaderOptions(): NonNullable<CreateAgentSessionServicesOptions["resourceLoaderOptions"]> {
		return {
			additionalExtensionPaths: [PACKAGE_ROOT],
			noExtensions: true,
			noSkills: true,
			noPromptTemplates: true,
			noThemes: true,
			noContextFiles: true,
		};
	}

	/** Starts a session with Timebox loaded from the manifest, and binds the UI (which emits session_start). */
	async start(options: StartOptions = {}): Promise<PiSession> {
		const resourceLoader = new DefaultResourceLoader({
			cwd: this.cwd,
			agentDir: this.agentDir,
			...this.loaderOptions(),
		});
		await resourceLoader.reload();
		assertTimeboxLoaded(resourceLoader.getExtensions());
		if (options.model) this.authStorage.setRuntimeApiKey(options.model.provider, "x");
		const { session } = await createAgentSession({
			cwd: this.cwd,
			agentDir: this.agentDir,
			resourceLoader,
			sessionManager: options.sessionManager ?? SessionManager.inMemory(this.cwd),
			authStorage: this.authStorage,
			modelRegistry: this.modelRegistry,
			model: options.model ?? this.faux.getModel(),
			...(options.settings ? { settingsManager: SettingsManager.inMemory(options.settings) } : {}),
		});
		const ui = options.withUI === false ? null : new RecordingUI();
		const piSession = new PiSession(session, ui);
		this.sessions.push(piSession);
		await session.bindExtensions(ui ? { uiContext: ui.context() } : {});
		return piSession;
	}

	/** An on-stop command that appends `ran` to `<name>` in this test's folder. */
	onStopProbe(name = "stopped.txt"): OnStopProbe {
		const path = join(this.root, name);
		return { command: `echo ran >> "${path}"`, path, runs: () => linesOf(path).length };
	}

	/**
	 * A session runtime (what pi's modes use for /new, /resume, /fork and /clone) whose sessions all load Timebox.
	 * With `options.ui` the runtime binds that screen to its session now and after every replacement.
	 */
	async startRuntime(sessionManager: SessionManager, options: RuntimeOptions = {}): Promise<AgentSessionRuntime> {
		const createRuntime: CreateAgentSessionRuntimeFactory = async ({
			cwd,
			agentDir,
			sessionManager,
			sessionStartEvent,
		}) => {
			const services = await createAgentSessionServices({
				cwd,
				agentDir,
				authStorage: this.authStorage,
				modelRegistry: this.modelRegistry,
				resourceLoaderOptions: this.loaderOptions(),
				...(options.settings ? { settingsManager: SettingsManager.inMemory(options.settings) } : {}),
			});
			assertTimeboxLoaded(services.resourceLoader.getExtensions());
			const created = await createAgentSessionFromServices({
				services,
				sessionManager,
				...(sessionStartEvent ? { sessionStartEvent } : {}),
				model: this.faux.getModel(),
			});
			return { ...created, services, diagnostics: services.diagnostics };
		};
		const runtime = await createAgentSessionRuntime(createRuntime, {
			cwd: this.cwd,
			agentDir: this.agentDir,
			sessionManager,
		});
		this.runtimes.push(runtime);
		const ui = options.ui;
		if (ui) {
			runtime.setRebindSession((session) => session.bindExtensions({ uiContext: ui.context() }));
			await runtime.session.bindExtensions({ uiContext: ui.context() });
		}
		return runtime;
	}

	/** Closes every session and runtime, unregisters the model, restores the environment and removes the folder. */
	async dispose(): Promise<void> {
		try {
			for (const runtime of this.runtimes) await runtime.dispose();
			for (const session of this.sessions) await session.close();
		} finally {
			this.faux.unregister();
			for (const [key, value] of this.savedEnv) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
			rmSync(this.root, { recursive: true, force: true });
		}
	}
}

/**
 * The end of a turns:2 story on real pi: prompt 2 ran one `echo two` tool call and was answered while the footer held
 * `(1/2)`; then prompt 3 is stopped before its tool runs, with "Used 2 turns", and the footer reads spent.
 */
export async function expectSecondAnsweredThenThirdStopped(
	host: RealPi,
	pi: PiSession,
	atTools: readonly { event: string; status: string | undefined }[],
): Promise<void> {
	const second = pi.promptRun(2);
	expect(second.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "stop"]);
	expect(second.toolResults.map((result) => result.content)).toEqual([[{ type: "text", text: "two\n" }]]);
	expect(atTools).toEqual([{ event: "tool_execution_start", status: "Timebox: no time limit | 1 turn left (1/2)" }]);
	expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");

	const marker = join(host.cwd, "third-ran.txt");
	host.faux.setResponses([bashCall(`echo three >> "${marker}"`), textAnswer("done three")]);
	await pi.prompt("third task");
	const third = pi.promptRun(3);
	expect(third.assistant.at(-1)?.stopReason).toBe("aborted");
	expect(third.toolResults).toEqual([]);
	expect(existsSync(marker)).toBe(false);
	const errors = pi.screen.messages("error");
	expect(errors).toHaveLength(1);
	expect(errors[0]?.match(SPENT)?.[1]).toBe("2");
	expect(pi.screen.status).toBe("Timebox: budget spent");
}
