// Benchmark 3: how late the time limit stops real pi, mid-`bash sleep 30` and while idle (pi's SDK, faux provider).

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@mariozechner/pi-ai";
import {
	type AgentSession,
	AuthStorage,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionUIContext,
	ModelRegistry,
	SessionManager,
} from "@mariozechner/pi-coding-agent";
import { ACTIVE_ENTRY_TYPE } from "../../src/core/constants.ts";
import { progress, REPO_ROOT } from "./stats.ts";

/** Repetitions of each scenario. */
export const STOP_RUNS = 5;

export interface StopLatencyResult {
	/** Per run: ms from the deadline to the end of the aborted bash call. */
	midToolMs: number[];
	/** Per run: ms from the deadline to the hard-stop notification while idle. */
	idleMs: number[];
}

const PROVIDER = "timebox-bench";
const MANIFEST_ENTRY = join(REPO_ROOT, "plugins/pi/timebox/index.js");
const ENV_KEYS = ["HOME", "PI_CODING_AGENT_DIR", "PI_OFFLINE", "TMPDIR"] as const;
const WAIT_LIMIT_MS = 10_000;

/** Notifications with the time they arrived (epoch ms). */
class TimedUI {
	readonly notes: { message: string; level: string; at: number }[] = [];

	context(): ExtensionUIContext {
		const recorder: Pick<ExtensionUIContext, "notify" | "setStatus"> = {
			notify: (message, level) => {
				this.notes.push({ message, level: level ?? "info", at: Date.now() });
			},
			setStatus: () => {},
		};
		return recorder as ExtensionUIContext;
	}

	firstErrorAt(): number | undefined {
		return this.notes.find((note) => note.level === "error")?.at;
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((done) => setTimeout(done, ms));
}

/** The deadline (epoch ms) of the budget `/timebox` just wrote, from its `timebox-active` entry. */
function deadlineOf(session: AgentSession): number {
	const entry = session.sessionManager
		.getEntries()
		.findLast((item) => item.type === "custom" && item.customType === ACTIVE_ENTRY_TYPE);
	const data = entry?.type === "custom" ? (entry.data as { startTime?: unknown; timeLimitMs?: unknown }) : undefined;
	if (typeof data?.startTime !== "number" || typeof data.timeLimitMs !== "number") {
		throw new Error("no timebox-active entry with a time limit in the session");
	}
	return data.startTime + data.timeLimitMs;
}

/** Runs benchmark 3 in a throwaway HOME, agent dir and cwd, with only this package loaded, through its manifest. */
export async function measureStopLatency(): Promise<StopLatencyResult> {
	const root = mkdtempSync(join(tmpdir(), "timebox-bench-stop-"));
	const saved = new Map<string, string | undefined>(ENV_KEYS.map((key) => [key, process.env[key]]));
	const home = join(root, "home");
	const agentDir = join(home, ".pi/agent");
	const cwd = join(root, "project");
	const temp = join(root, "tmp");
	for (const dir of [home, agentDir, cwd, temp]) mkdirSync(dir, { recursive: true });
	Object.assign(process.env, { HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", TMPDIR: temp });
	const faux = registerFauxProvider({ provider: PROVIDER });
	const authStorage = AuthStorage.inMemory();
	authStorage.setRuntimeApiKey(PROVIDER, "x");
	const modelRegistry = ModelRegistry.inMemory(authStorage);
	const sessions: AgentSession[] = [];

	const start = async (): Promise<{ session: AgentSession; ui: TimedUI }> => {
		const resourceLoader = new DefaultResourceLoader({
			cwd,
			agentDir,
			additionalExtensionPaths: [REPO_ROOT],
			noExtensions: true,
			noSkills: true,
			noPromptTemplates: true,
			noThemes: true,
			noContextFiles: true,
		});
		await resourceLoader.reload();
		const loaded = resourceLoader.getExtensions();
		const timebox = loaded.extensions.filter((extension) => extension.commands.has("timebox"));
		if (
			loaded.errors.length > 0 ||
			timebox.length !== 1 ||
			resolve(timebox[0]?.resolvedPath ?? "") !== MANIFEST_ENTRY
		) {
			throw new Error(`pi did not load Timebox from the manifest: ${JSON.stringify(loaded.errors)}`);
		}
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			resourceLoader,
			sessionManager: SessionManager.inMemory(cwd),
			authStorage,
			modelRegistry,
			model: faux.getModel(),
		});
		sessions.push(session);
		const ui = new TimedUI();
		await session.bindExtensions({ uiContext: ui.context() });
		return { session, ui };
	};

	const midTool = async (): Promise<number> => {
		const { session } = await start();
		faux.setResponses([
			fauxAssistantMessage(fauxToolCall("bash", { command: "sleep 30" }), { stopReason: "toolUse" }),
			fauxAssistantMessage(fauxText("slept well")),
		]);
		let toolStartAt: number | undefined;
		let toolEnd: { at: number; isError: boolean } | undefined;
		session.subscribe((event) => {
			if (event.type === "tool_execution_start" && event.toolName === "bash") toolStartAt = Date.now();
			if (event.type === "tool_execution_end" && event.toolName === "bash") {
				toolEnd = { at: Date.now(), isError: event.isError };
			}
		});
		await session.prompt("/timebox 2s");
		const deadline = deadlineOf(session);
		await session.prompt("run the long job");
		if (toolStartAt === undefined || toolStartAt >= deadline) throw new Error("bash did not start before the deadline");
		if (!toolEnd?.isError) throw new Error(`the bash call was not aborted: ${JSON.stringify(toolEnd)}`);
		return toolEnd.at - deadline;
	};

	const idle = async (): Promise<number> => {
		const { session, ui } = await start();
		await session.prompt("/timebox 1s");
		const deadline = deadlineOf(session);
		const started = Date.now();
		while (ui.firstErrorAt() === undefined) {
			if (Date.now() - started > WAIT_LIMIT_MS) throw new Error("no hard-stop notification while idle");
			await sleep(10);
		}
		const stoppedAt = ui.firstErrorAt() ?? Number.NaN;
		return stoppedAt - deadline;
	};

	try {
		const result: StopLatencyResult = { midToolMs: [], idleMs: [] };
		for (let run = 0; run < STOP_RUNS; run++) {
			result.midToolMs.push(await midTool());
			result.idleMs.push(await idle());
		}
		progress(`stop latency: mid-tool ${result.midToolMs.join(" ")} ms; idle ${result.idleMs.join(" ")} ms`);
		return result;
	} finally {
		for (const session of sessions) {
			await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
			session.dispose();
		}
		faux.unregister();
		for (const [key, value] of saved) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
		rmSync(root, { recursive: true, force: true });
	}
}
