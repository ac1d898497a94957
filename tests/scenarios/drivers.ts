// The hosts the behaviour scenarios run on, behind one driver interface: the core's live session in memory, the fake
// pi, and the Claude Code hook handler in process. Each driver turns "the user does X" into that host's events.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HookOutput, handleHook } from "../../src/adapters/claude/hooks.ts";
import { createDailyLedger } from "../../src/adapters/node/daily-ledger.ts";
import { createFileLedger } from "../../src/adapters/node/file-ledger.ts";
import { SessionLog } from "../../src/adapters/node/session-log.ts";
import { LiveSession, type NotifyLevel, parseDailyBudget } from "../../src/core/index.ts";
import { FakePi } from "../adapters/pi/fake-pi.ts";
import { FakeTime } from "../support/fake-time.ts";
import {
	MemoryLedger,
	MemoryStore,
	MemoryUI,
	RecordingStarter,
	ScriptedUser,
	sequentialIds,
} from "../support/memory-host.ts";

/** How one prompt's run went. */
export interface PromptOutcome {
	/** The run was stopped (aborted, or refused before the model saw it). */
	stopped: boolean;
	/** The blocks the model was given for this prompt. */
	context: string[];
}

export interface PromptPlan {
	/** Tool calls the model makes before its answer. */
	toolCalls?: number;
	/** Runs while tool call `index` runs, e.g. to let time pass. */
	duringTool?: (index: number) => void;
}

/** What a scenario can do and see on any host. */
export interface HostDriver {
	readonly name: string;
	command(args: string): Promise<void>;
	prompt(plan?: PromptPlan): Promise<PromptOutcome>;
	/** Lets time pass (a host with timers fires them). */
	advance(ms: number): void;
	/** The session is opened again (a reload, a resume). */
	reopen(): Promise<void>;
	/** Every message the user was shown, in order, with its level where the host has levels. */
	notices(): { message: string; level: NotifyLevel | null }[];
	/** The on-stop commands started. */
	onStopRuns(): string[];
	dispose(): void;
}

/** A daily budget the driver's session shares with every driver given the same ledger folder. */
export interface DriverOptions {
	daily?: { text: string; dir: string };
}

let drivers = 0;

/** The core's live session with no host around it. */
export function memoryDriver(options: DriverOptions = {}): HostDriver {
	const time = new FakeTime();
	const store = new MemoryStore();
	const ledger = new MemoryLedger();
	const ui = new MemoryUI();
	const runner = new RecordingStarter();
	const ids = sequentialIds();
	const user = new ScriptedUser();
	let aborted = false;
	let prompts = 0;
	const open = () => {
		const session = new LiveSession({
			store,
			ledger,
			ui,
			clock: time,
			scheduler: time,
			onStop: runner,
			abortRun: () => {
				aborted = true;
			},
			newBudgetId: ids,
			canAsk: () => user.canAsk,
			ask: (question, choices, timeoutMs) => user.ask(question, choices, timeoutMs),
			...(options.daily ? { daily: createDailyLedger(options.daily.dir, `memory-${++drivers}`, time) } : {}),
		});
		const daily = options.daily ? [{ value: options.daily.text, source: "daily", scope: "user" }] : [];
		session.load("restore", true, null, { daily });
		return session;
	};
	let session = open();
	return {
		name: "in-memory host",
		async command(args) {
			session.command(args);
		},
		async prompt(plan = {}) {
			aborted = false;
			const key = `prompt-${++prompts}`;
			store.addPrompt(key);
			const context = (await session.handle({ type: "modelCall", prompt: key })).context;
			for (let index = 0; index < (plan.toolCalls ?? 0) && !aborted; index++) {
				if ((await session.handle({ type: "toolCall", prompt: null })).refusal !== null) break;
				plan.duringTool?.(index);
				if (aborted) break;
				await session.handle({ type: "modelCall", prompt: null });
			}
			await session.handle({ type: "runEnd" });
			return { stopped: aborted, context };
		},
		advance: (ms) => time.advance(ms),
		async reopen() {
			session.dispose();
			session = open();
		},
		notices: () => ui.notifications.map((n) => ({ message: n.message, level: n.level })),
		onStopRuns: () => [...runner.commands],
		dispose() {},
	};
}

/** The pi extension on the fake pi host. */
export function fakePiDriver(options: DriverOptions = {}): HostDriver {
	const pi = new FakePi();
	if (options.daily) {
		pi.dailyDir = options.daily.dir;
		pi.globalSettings = join(options.daily.dir, `settings-${++drivers}.json`);
		writeFileSync(pi.globalSettings, JSON.stringify({ timebox: { daily: options.daily.text } }));
	}
	let started = false;
	const ensure = async () => {
		if (!started) await pi.start();
		started = true;
	};
	return {
		name: "fake pi",
		async command(args) {
			await ensure();
			await pi.timebox(args);
		},
		async prompt(plan = {}) {
			await ensure();
			const calls = (plan.toolCalls ?? 0) + 1;
			const result = await pi.prompt("do the task", {
				llmCalls: calls,
				...(plan.duringTool ? { duringTool: plan.duringTool } : {}),
			});
			const blocks = result.notes[0]?.split("\n\n") ?? [];
			return { stopped: result.aborted || result.refusals.length > 0, context: blocks };
		},
		advance: (ms) => pi.time.advance(ms),
		async reopen() {
			await ensure();
			await pi.replaceSession("reload");
		},
		notices: () => pi.screen.notifications.map((n) => ({ message: n.message, level: n.level })),
		onStopRuns: () => [...pi.runner.commands],
		dispose() {},
	};
}

/** The Claude Code hooks, called in process as Claude Code would call the plugin's command. */
export function claudeDriver(options: DriverOptions = {}): HostDriver {
	const dataDir = mkdtempSync(join(tmpdir(), "timebox-scenario-"));
	const time = new FakeTime();
	const runner = new RecordingStarter();
	const sessionId = `scenario-session-${++drivers}`;
	const budget = options.daily ? parseDailyBudget(options.daily.text, "user", "TIMEBOX_DAILY") : null;
	const deps = {
		store: new SessionLog(dataDir, sessionId),
		ledger: createFileLedger(join(dataDir, "timebox-ledger")),
		clock: time,
		onStop: runner,
		newBudgetId: sequentialIds(),
		...(options.daily && budget && !("warning" in budget)
			? { daily: { ledger: createDailyLedger(options.daily.dir, sessionId, time), budgets: [budget] } }
			: {}),
	};
	const seen: { message: string; level: NotifyLevel | null }[] = [];
	let prompts = 0;
	const hook = async (event: string, fields: { promptId?: string; prompt?: string; source?: string } = {}) => {
		const output = await handleHook(
			{
				event,
				sessionId,
				promptId: fields.promptId ?? null,
				prompt: fields.prompt ?? null,
				source: fields.source ?? null,
			},
			deps,
		);
		for (const text of shown(output)) for (const line of text.split("\n")) seen.push({ message: line, level: null });
		return output;
	};
	return {
		name: "Claude Code hooks",
		async command(args) {
			await hook("UserPromptSubmit", { prompt: `/timebox ${args}`, promptId: `command-${++prompts}` });
		},
		async prompt(plan = {}) {
			const promptId = `prompt-${++prompts}`;
			const submitted = await hook("UserPromptSubmit", { prompt: "do the task", promptId });
			if (submitted?.decision === "block") return { stopped: true, context: [] };
			const specific = submitted?.hookSpecificOutput as { additionalContext?: string } | undefined;
			const context = specific?.additionalContext ? [specific.additionalContext] : [];
			for (let index = 0; index < (plan.toolCalls ?? 0); index++) {
				if ((await hook("PreToolUse", { promptId }))?.continue === false) return { stopped: true, context };
				plan.duringTool?.(index);
				if ((await hook("PostToolBatch", { promptId }))?.continue === false) return { stopped: true, context };
			}
			return { stopped: false, context };
		},
		advance: (ms) => time.advance(ms),
		async reopen() {
			await hook("SessionStart", { source: "resume" });
		},
		notices: () => [...seen],
		onStopRuns: () => [...runner.commands],
		dispose: () => rmSync(dataDir, { recursive: true, force: true }),
	};
}

/** The texts a hook answer shows the user. */
function shown(output: HookOutput): string[] {
	if (!output) return [];
	return [output.reason, output.systemMessage, output.stopReason].filter(
		(text): text is string => typeof text === "string",
	);
}

export const DRIVERS: readonly ((options?: DriverOptions) => HostDriver)[] = [memoryDriver, fakePiDriver, claudeDriver];
