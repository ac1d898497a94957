// Benchmark 7: what Timebox costs opencode. In process: the hooks of one model call (`messages.transform` and
// `chat.params`) and of one tool call (`tool.execute.before`), with a budget in force, on a conversation of 200
// messages and a session log of 10,000 lines; and whole `opencode run` answers with and without the plugin.

import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, Part } from "@opencode-ai/sdk";
import { FakeChat } from "../../demo/fakes/chat.ts";
import type { Hooks, PluginInput } from "../../src/adapters/opencode/host.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "../e2e/opencode/support.ts";
import { loadBundledOpencode } from "./bundled.ts";
import { median, nowMs, runProcess } from "./stats.ts";

export const OPENCODE_SAMPLES = 2_000;
export const OPENCODE_RUNS = 5;
export const CONVERSATION_MESSAGES = 200;
export const LOG_LINES = 10_000;

export interface OpencodeResult {
	modelCallMs: number;
	toolCallMs: number;
	withoutPluginMs: number;
	withPluginMs: number;
}

const SESSION = "ses_bench";

/** A conversation of `size` messages: a prompt, then answers that called tools, as opencode hands it to the plugin. */
function conversation(size: number): { info: Message; parts: Part[] }[] {
	const prompt = { role: "user", id: "msg_prompt", sessionID: SESSION } as Message;
	const text = { type: "text", text: "loop", id: "prt_0", sessionID: SESSION, messageID: "msg_prompt" } as Part;
	const answers = Array.from({ length: size - 1 }, (_, index) => ({
		info: { role: "assistant", id: `msg_${index}`, parentID: "msg_prompt", finish: "tool-calls" } as Message,
		parts: [] as Part[],
	}));
	return [{ info: prompt, parts: [text] }, ...answers];
}

/** The hooks with a `1h steps:100000` budget and an aware model, and a session log already 10,000 lines long. */
async function pluginWithBudget(dir: string): Promise<Hooks> {
	const dataDir = join(dir, "data");
	mkdirSync(join(dataDir, "sessions"), { recursive: true });
	const filler = Array.from({ length: LOG_LINES }, (_, index) =>
		JSON.stringify({ kind: "prompt", promptId: `p${index}` }),
	);
	appendFileSync(join(dataDir, "sessions", `${SESSION}.jsonl`), `${filler.join("\n")}\n`);
	// A client that answers every call at once: the bench measures Timebox, not opencode's server.
	const client = {
		tui: { showToast: async () => true },
		session: { abort: async () => true },
	} as unknown as PluginInput["client"];
	const { createTimeboxPlugin, createDailyLedger, createFileLedger, nodeScheduler, systemClock } =
		await loadBundledOpencode();
	const plugin = createTimeboxPlugin({
		clock: systemClock,
		scheduler: nodeScheduler,
		onStop: { start: () => {} },
		newBudgetId: () => crypto.randomUUID(),
		env: { TIMEBOX_DEFAULT: "1h steps:100000 aware" },
		dataDir,
		ledger: createFileLedger,
		dailyLedger: (id) => createDailyLedger(join(dir, "daily"), id, systemClock),
		interactive: false,
		writeStderr: () => {},
	});
	return plugin({ client });
}

/** Untimed calls before the samples: what a long session runs at, with the hooks compiled and warm. */
const OPENCODE_WARMUP = 5_000;

async function perCall(samples: number, call: () => Promise<unknown>): Promise<number> {
	for (let index = 0; index < OPENCODE_WARMUP; index++) await call();
	const times: number[] = [];
	for (let index = 0; index < samples; index++) {
		const started = nowMs();
		await call();
		times.push(nowMs() - started);
	}
	return median(times);
}

export async function measureOpencode(): Promise<OpencodeResult> {
	const dir = mkdtempSync(join(tmpdir(), "timebox-bench-opencode-"));
	try {
		const hooks = await pluginWithBudget(dir);
		const messages = conversation(CONVERSATION_MESSAGES);
		const transform = hooks["experimental.chat.messages.transform"];
		const params = hooks["chat.params"];
		const tool = hooks["tool.execute.before"];
		if (!transform || !params || !tool) throw new Error("the plugin lost a hook");
		const callInput = { sessionID: SESSION, agent: "build", message: { id: "msg_prompt" } } as Parameters<
			typeof params
		>[0];
		const modelCallMs = await perCall(OPENCODE_SAMPLES, async () => {
			await transform({}, { messages: [...messages] });
			await params(callInput, { temperature: 0, topP: 1, topK: 0, maxOutputTokens: undefined, options: {} });
		});
		const toolCallMs = await perCall(OPENCODE_SAMPLES, () =>
			tool({ tool: "bash", sessionID: SESSION, callID: "call" }, { args: {} }),
		);
		return { modelCallMs, toolCallMs, ...(await measureRuns()) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** `opencode run` one answer, in a HOME without Timebox and one with it in the `plugin` list. */
async function measureRuns(): Promise<{ withoutPluginMs: number; withPluginMs: number }> {
	await ensureOpencode();
	const api = await FakeChat.start();
	const root = mkdtempSync(join(tmpdir(), "timebox-bench-opencode-run-"));
	const plain = join(root, "plain");
	const loaded = join(root, "loaded");
	const work = join(root, "work");
	mkdirSync(work);
	writeOpencodeHome(loaded, api.url);
	writeOpencodeHome(plain, api.url, undefined, false);
	const run = (home: string) =>
		runProcess(OPENCODE, ["run", "hello"], { cwd: work, env: opencodeEnv(home, { TIMEBOX_DEFAULT: "1h" }) });
	const timed = async (home: string) => {
		const started = nowMs();
		await run(home);
		return nowMs() - started;
	};
	try {
		await run(plain);
		await run(loaded);
		const without: number[] = [];
		const withPlugin: number[] = [];
		for (let index = 0; index < OPENCODE_RUNS; index++) {
			without.push(await timed(plain));
			withPlugin.push(await timed(loaded));
		}
		return { withoutPluginMs: median(without), withPluginMs: median(withPlugin) };
	} finally {
		await api.close();
		rmSync(root, { recursive: true, force: true });
	}
}
