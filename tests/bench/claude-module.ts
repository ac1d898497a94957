// Benchmark 1b: what Timebox's hooks module costs Claude Code per event, in process: the `turn.step` hook of one model
// request (its response's usage counted) and the `tool.call` hook of one tool (the step's last, which carries what the
// model reads at the next step), with an aware budget in force and a session of 10,000 records in the plugin's store.
// The fake `$` answers at once and writes the store as JSON text, as Claude Code's store keeps it.

import type {
	Dollar,
	EngineTimer,
	On,
	TurnStepAnswer,
	TurnStepEvent,
} from "../../src/adapters/claude/function-hooks/engine.ts";
import { registerWith } from "../../src/adapters/claude/function-hooks/module.ts";
import { median, nowMs } from "./stats.ts";

export const MODULE_RECORDS = 10_000;
export const MODULE_SAMPLES = 2_000;

export interface ClaudeModuleResult {
	modelCallMs: number;
	toolCallMs: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the hooks are called by event name, as Claude Code calls them
type Hook = (...args: any[]) => any;

/** A `$` that answers at once: the bench measures Timebox, not Claude Code. */
function fastDollar(values: Map<string, string>): Dollar {
	const timer: EngineTimer = { cancel: () => {} };
	return {
		session: { id: async () => "bench", usage: async () => ({ cost: { usd: 0 } }) },
		turn: { abort: async () => {} },
		ui: { status: () => {}, log: () => {} },
		store: {
			get: async (key) => {
				const text = values.get(key);
				return text === undefined ? undefined : JSON.parse(text);
			},
			set: async (key, value) => {
				values.set(key, JSON.stringify(value));
			},
			delete: async (key) => {
				values.delete(key);
			},
		},
		clock: { after: () => timer, every: () => timer },
		process: { run: async () => ({ exitCode: 0, stdout: "", stderr: "" }) },
		env: { get: async () => undefined, set: async () => ({}) },
		fs: { read: async () => "", list: async () => [] },
	};
}

/** A session's entry of `MODULE_RECORDS` records: an aware budget, then prompts and what their calls used. */
function storedSession(): string {
	const budget = {
		kind: "active",
		version: 2,
		budget: {
			id: "b-bench",
			timeLimitMs: 60 * 60 * 1_000,
			turnLimit: MODULE_RECORDS,
			startTime: Date.now(),
			onStopCommand: null,
			stepLimit: 1_000_000,
			awareness: "always",
		},
	};
	const history: unknown[] = [{ kind: "record", record: budget }];
	for (let index = 1; index < MODULE_RECORDS; index++) {
		history.push(index % 2 ? { kind: "prompt", key: `p${index}` } : { kind: "usage", tokens: 100, cost: 0, at: 0 });
	}
	return JSON.stringify({ history, claims: [] });
}

async function drain(generator: AsyncGenerator<unknown, TurnStepAnswer, undefined>): Promise<TurnStepAnswer> {
	for (;;) {
		const step = await generator.next();
		if (step.done) return step.value;
	}
}

export async function measureClaudeModule(): Promise<ClaudeModuleResult> {
	const values = new Map<string, string>([["session:bench", storedSession()]]);
	const $ = fastDollar(values);
	const hooks = new Map<string, Hook>();
	const on: On = (event, ...rest) => {
		hooks.set(event, rest.at(-1) as Hook);
		return { catch: () => {} };
	};
	registerWith(on, { clock: { now: () => Date.now() }, newId: () => crypto.randomUUID() });
	const hook = (event: string): Hook => {
		const found = hooks.get(event);
		if (!found) throw new Error(`no hook on ${event}`);
		return found;
	};
	await hook("session.start")($, { cwd: "/", isInteractive: false }, async () => ({}));
	await hook("prompt.submit")($, { text: "go", wait: false }, async (event: { text: string }) => event);
	let index = 0;
	const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 };
	const step = () => {
		const event: TurnStepEvent = { turnId: "turn-bench", index: index++ };
		return drain(
			hook("turn.step")($, event, async function* () {
				yield { type: "text", text: "." };
				return { ...event, answer: ".", toolUses: [{ id: "t" }], stopReason: "tool_use", usage };
			}),
		);
	};
	const tool = () =>
		hook("tool.call")($, { tool: "Bash", tool_use_id: "t", command: "true" }, async () => ({ result: "ok" }));
	// Each step asks for one tool: the tool call measured is the step's last, which reads the next step's note.
	const steps: number[] = [];
	const tools: number[] = [];
	for (let sample = -200; sample < MODULE_SAMPLES; sample++) {
		const stepStarted = nowMs();
		await step();
		const toolStarted = nowMs();
		await tool();
		const ended = nowMs();
		if (sample < 0) continue;
		steps.push(toolStarted - stepStarted);
		tools.push(ended - toolStarted);
	}
	return { modelCallMs: median(steps), toolCallMs: median(tools) };
}
