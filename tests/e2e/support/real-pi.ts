// Real pi sessions for the e2e suites: pi's SDK, a scripted offline model, the package manifest and a recording UI.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { AssistantMessage, FauxProviderRegistration, ToolResultMessage } from "@mariozechner/pi-ai";
import { registerFauxProvider } from "@mariozechner/pi-ai";
import {
	type AgentSession,
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
} from "@mariozechner/pi-coding-agent";

export type NotifyLevel = "info" | "warning" | "error";

export interface Notification {
	message: string;
	level: NotifyLevel;
}

/** The repository root: pi reads `package.json` → `pi.extensions` from here, as `pi install` would. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The entry the manifest names; the loader must have loaded exactly this file. */
export const MANIFEST_ENTRY = join(PACKAGE_ROOT, "src/adapters/pi/index.ts");

const PROVIDER = "timebox-e2e";
const STATUS_KEY = "timebox";
const ENV_KEYS = ["HOME", "PI_CODING_AGENT_DIR", "PI_OFFLINE"] as const;

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

	/** The part of `ExtensionUIContext` Timebox uses; pi gets it cast once, here. */
	context(): ExtensionUIContext {
		const recorder: Pick<ExtensionUIContext, "notify" | "setStatus"> = {
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

	constructor(options: { tokensPerSecond?: number } = {}) {
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
		this.faux = registerFauxProvider({
			provider: PROVIDER,
			...(options.tokensPerSecond === undefined ? {} : { tokensPerSecond: options.tokensPerSecond }),
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
		const { session } = await createAgentSession({
			cwd: this.cwd,
			agentDir: this.agentDir,
			resourceLoader,
			sessionManager: options.sessionManager ?? SessionManager.inMemory(this.cwd),
			authStorage: this.authStorage,
			modelRegistry: this.modelRegistry,
			model: this.faux.getModel(),
		});
		const ui = options.withUI === false ? null : new RecordingUI();
		const piSession = new PiSession(session, ui);
		this.sessions.push(piSession);
		await session.bindExtensions(ui ? { uiContext: ui.context() } : {});
		return piSession;
	}

	/** A session runtime (what pi's modes use for /new and /resume) whose sessions all load Timebox. */
	async startRuntime(sessionManager: SessionManager): Promise<AgentSessionRuntime> {
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
