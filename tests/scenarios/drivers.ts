// The hosts the behaviour scenarios run on, behind one driver interface: the core's live session in memory, the fake
// pi, the fake opencode, Claude Code's hooks module in a fake of its engine, and the hook handler in process. Each driver turns "the user does X" into that host's events.

import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeCodeHost } from "../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../src/adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../src/adapters/gemini/hook-host.ts";
import { type HookDeps, handleHook } from "../../src/adapters/hooks/handle.ts";
import type { HookHost } from "../../src/adapters/hooks/roles.ts";
import { createDailyLedger } from "../../src/adapters/node/daily-ledger.ts";
import { createFileLedger } from "../../src/adapters/node/file-ledger.ts";
import { SessionLog } from "../../src/adapters/node/session-log.ts";
import {
	FINISH_NOW,
	LEDGER_FOLDER,
	LiveSession,
	type NotifyLevel,
	parseDailyBudget,
	type SessionEvent,
} from "../../src/core/index.ts";
import { FakeClaude } from "../adapters/claude/function-hooks/fake-engine.ts";
import {
	createWorld,
	FakeOpencode,
	MAIN,
	notesOf,
	removeWorld,
	type Shown,
} from "../adapters/opencode/fake-opencode.ts";
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
	/** The run was stopped (aborted, or refused before the model saw it; on Codex, its tools refused from then on). */
	stopped: boolean;
	/** The blocks the model was given for this prompt. */
	context: string[];
	/** Why each refused tool was refused, as the model reads it, in order (a `tools` plan's run). */
	refusals: string[];
	/** The tools that ran (a `tools` plan's run). */
	toolsRun: number;
}

/** A tool call the model asks for: the tool's name and its input. */
export interface ToolAsk {
	tool: string;
	input: Record<string, unknown>;
}

export interface PromptPlan {
	/** Tool calls the model makes before its answer. */
	toolCalls?: number;
	/**
	 * The tool calls the model makes before its answer, one per model call, in order, whatever is refused (instead of
	 * `toolCalls`): the run goes on after a refused tool and ends where the host ends it.
	 */
	tools?: readonly ToolAsk[];
	/** Runs while tool call `index` runs, e.g. to let time pass. */
	duringTool?: (index: number) => void;
}

/** What a subagent's request carried, and whether it was refused or its subagent stopped. */
export interface SubagentStep {
	context: string[];
	refusal: string | null;
	stopped: boolean;
}

/**
 * What a scenario can do with subagents, on a host whose adapter sees them: the main agent starts one (`parent` null)
 * or a subagent does, the subagent calls the model and its tools, and ends; `end` gives what its parent reads with its
 * result.
 */
export interface SubagentDriver {
	start(agent: string, agentType: string, task: string, parent?: string | null): Promise<SubagentStep>;
	call(agent: string): Promise<SubagentStep>;
	/** A tool the subagent asks for: `asked`, or a shell command the driver picks. */
	tool(agent: string, asked?: ToolAsk): Promise<SubagentStep>;
	end(agent: string): Promise<string[]>;
}

/** What a scenario can do and see on any host. */
export interface HostDriver {
	readonly name: string;
	/** The host's subagents, where its driver can start them; absent where the driver does not map them yet. */
	readonly subagents?: SubagentDriver;
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
	/** The ledger of budget outcomes cannot be written (a read-only or broken folder). */
	brokenLedger?: boolean;
	/** The `subagents` setting (or TIMEBOX_SUBAGENTS where the host has no settings). */
	subagents?: string;
	/**
	 * The process that stops the budget is killed between the stop's claim and the start of its on-stop command: the
	 * command does not start there, and that process is gone for every later one.
	 */
	killedAtStop?: boolean;
}

/** A ledger in memory whose claims fail, as a folder that cannot be written makes them. */
function memoryLedger(options: DriverOptions): MemoryLedger {
	const ledger = new MemoryLedger();
	if (options.brokenLedger) {
		ledger.claim = () => {
			throw new Error("EACCES: the ledger's folder is read-only");
		};
	}
	return ledger;
}

/** Where a file ledger lives in `dataDir`; a broken one has a file where its folder should be. */
function ledgerFolder(dataDir: string, options: DriverOptions): string {
	const folder = join(dataDir, LEDGER_FOLDER);
	if (options.brokenLedger) writeFileSync(folder, "a file where the ledger's folder should be");
	return folder;
}

let drivers = 0;

/** The core's live session with no host around it. */
export function memoryDriver(options: DriverOptions = {}): HostDriver {
	const time = new FakeTime();
	const store = new MemoryStore();
	const ledger = memoryLedger(options);
	const ui = new MemoryUI();
	const runner = new RecordingStarter();
	// The process is killed at its start of the command: the next one to load is another.
	if (options.killedAtStop) runner.killNext = () => ledger.process++;
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
			agent: {
				abortCurrentTurn: () => {
					aborted = true;
				},
			},
			newBudgetId: ids,
			canAsk: () => user.canAsk,
			ask: (question, choices, timeoutMs) => user.ask(question, choices, timeoutMs),
			...(options.daily ? { daily: createDailyLedger(options.daily.dir, `memory-${++drivers}`, time) } : {}),
		});
		const daily = options.daily ? [{ value: options.daily.text, source: "daily", scope: "user" }] : [];
		const subagents =
			options.subagents === undefined ? {} : { subagents: { value: options.subagents, source: "settings" } };
		session.onSessionStart("restore", true, null, { daily, ...subagents });
		return session;
	};
	let session = open();
	const step = async (agent: string, event: SessionEvent): Promise<SubagentStep> => {
		const answer = await session.handle(event);
		return { context: answer.context, refusal: answer.refusal, stopped: answer.stoppedAgents.includes(agent) };
	};
	return {
		name: "in-memory host",
		subagents: {
			start: (agent, agentType, task, parent = null) =>
				step(agent, { type: "agentStart", agent, parent, agentType, task }),
			call: (agent) => step(agent, { type: "modelCall", prompt: null, agent }),
			tool: (agent, asked) =>
				step(agent, {
					type: "toolCall",
					prompt: null,
					agent,
					...(asked ? { call: { tool: asked.tool, input: asked.input } } : {}),
				}),
			end: async (agent) => (await session.handle({ type: "agentEnd", agent })).context,
		},
		async command(args) {
			session.command(args);
		},
		async prompt(plan = {}) {
			aborted = false;
			const key = `prompt-${++prompts}`;
			store.addPrompt(key);
			const context = (await session.handle({ type: "modelCall", prompt: key })).context;
			const refusals: string[] = [];
			let toolsRun = 0;
			if (plan.tools) {
				for (const asked of plan.tools) {
					const call = { tool: asked.tool, input: asked.input };
					const refusal = (await session.handle({ type: "toolCall", prompt: null, call })).refusal;
					if (refusal === null) toolsRun++;
					else refusals.push(refusal);
					if (aborted || (await session.handle({ type: "modelCall", prompt: null })).refusal !== null) break;
				}
			}
			for (let index = 0; index < (plan.toolCalls ?? 0) && !aborted; index++) {
				if ((await session.handle({ type: "toolCall", prompt: null })).refusal !== null) break;
				plan.duringTool?.(index);
				if (aborted) break;
				await session.handle({ type: "modelCall", prompt: null });
			}
			await session.handle({ type: "runEnd" });
			return { stopped: aborted, context, refusals, toolsRun };
		},
		advance: (ms) => time.advance(ms),
		async reopen() {
			session.onShutdown();
			session = open();
		},
		notices: () => ui.notifications.map((n) => ({ message: n.message, level: n.level })),
		onStopRuns: () => [...runner.commands],
		dispose() {},
	};
}

/** The pi extension on the fake pi host. */
export function fakePiDriver(options: DriverOptions = {}): HostDriver {
	const ledger = memoryLedger(options);
	const pi = new FakePi({ ledger });
	// pi is killed at its start of the command: the reload after it is pi started again, another process.
	if (options.killedAtStop) pi.runner.killNext = () => ledger.process++;
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
			const tools = plan.tools;
			const calls = (tools ? tools.length : (plan.toolCalls ?? 0)) + 1;
			const result = await pi.prompt("do the task", {
				llmCalls: calls,
				...(plan.duringTool ? { duringTool: plan.duringTool } : {}),
				...(tools
					? { tool: (call: number) => ({ toolName: tools[call]?.tool ?? "bash", input: tools[call]?.input }) }
					: {}),
			});
			const blocks = result.notes[0]?.split("\n\n") ?? [];
			const stopped = tools ? result.aborted : result.aborted || result.refusals.length > 0;
			return { stopped, context: blocks, refusals: result.refusals, toolsRun: result.toolsRun };
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

/** The opencode server plugin on the fake opencode, in its TUI. */
export function opencodeDriver(options: DriverOptions = {}): HostDriver {
	const world = createWorld();
	if (options.brokenLedger) ledgerFolder(world.dataDir, options);
	// opencode is killed at its start of the command; a reopen is a new opencode process.
	if (options.killedAtStop) world.runner.killNext = () => {};
	const env = {
		...(options.daily ? { TIMEBOX_DAILY: options.daily.text } : {}),
		...(options.subagents === undefined ? {} : { TIMEBOX_SUBAGENTS: options.subagents }),
	};
	if (options.daily) world.dailyDir = options.daily.dir;
	let opencode: FakeOpencode | null = null;
	/** A subagent runs in a session of its own, which its `task` call (named by the subagent's id) starts. */
	const sessionOf = (agent: string | null) => (agent === null ? MAIN : `ses_${agent}`);
	/**
	 * A subagent's step: what its call read, and whether it was refused or stopped (a stopped one reads why; one that
	 * concludes at its loop guard reads that the loop was stopped, and goes on to its answer).
	 */
	const step = (refusal: string | null, context: string[] = []): SubagentStep => ({
		context,
		refusal,
		stopped: refusal !== null && /stopped/.test(refusal) && !refusal.startsWith("Timebox stopped a loop"),
	});
	/** What the instances before a reopen showed. */
	const earlier: Shown[] = [];
	const ensure = async (): Promise<FakeOpencode> => {
		opencode ??= await FakeOpencode.start(world, { interactive: true, env });
		return opencode;
	};
	const levels: readonly string[] = ["info", "warning", "error"];
	return {
		name: "fake opencode",
		subagents: {
			async start(agent, agentType, task, parent = null) {
				const host = await ensure();
				const refusal = await host.task(
					agent,
					{ description: task, prompt: task, subagent_type: agentType },
					sessionOf(parent),
				);
				if (refusal === null) {
					await host.subagent(sessionOf(agent), sessionOf(parent), `${task} (@${agentType} subagent)`);
					host.conversation(sessionOf(agent)).addUser(task);
				}
				return step(refusal);
			},
			async call(agent) {
				const host = await ensure();
				const conversation = host.conversation(sessionOf(agent));
				const call = await host.call(conversation, conversation.lastPrompt());
				return step(
					call.refusal,
					notesOf(call.sent).flatMap((note) => note.split("\n\n")),
				);
			},
			async tool(agent, asked) {
				const host = await ensure();
				return step(
					await (asked
						? host.tool(sessionOf(agent), `call_${agent}`, { tool: asked.tool, args: asked.input })
						: host.tool(sessionOf(agent))),
				);
			},
			async end(agent) {
				const output = await (await ensure()).taskResult(agent, "the answer");
				return output === "the answer" ? [] : output.slice("the answer\n\n".length).split("\n");
			},
		},
		async command(args) {
			await (await ensure()).timebox(args);
		},
		async prompt(plan = {}) {
			const host = await ensure();
			const tools = plan.tools;
			const run = await host.prompt("do the task", {
				calls: (tools ? tools.length : (plan.toolCalls ?? 0)) + 1,
				tools: 1,
				whileTools: (call) => plan.duringTool?.(call - 1),
				...(tools
					? {
							toolCall: (call: number) => ({
								tool: tools[call - 1]?.tool ?? "bash",
								args: tools[call - 1]?.input ?? {},
							}),
						}
					: {}),
			});
			const refusedCall = run.calls.some((call) => call.refusal !== null);
			const stopped = tools ? run.aborted || refusedCall : run.aborted || run.toolRefusals.length > 0 || refusedCall;
			const notes = notesOf(run.calls[0]?.sent ?? []);
			return {
				stopped,
				context: notes.flatMap((note) => note.split("\n\n")),
				refusals: run.toolRefusals,
				toolsRun: run.toolsRun,
			};
		},
		advance: (ms) => world.time.advance(ms),
		async reopen() {
			const before = await ensure();
			earlier.push(...before.shown);
			opencode = await before.restart({ env });
		},
		notices: () =>
			[...earlier, ...(opencode?.shown ?? [])].map((shown) => ({
				message: shown.message,
				level: levels.includes(shown.level) ? (shown.level as NotifyLevel) : null,
			})),
		onStopRuns: () => [...world.runner.commands],
		dispose: () => {
			if (options.daily) world.dailyDir = mkdtempSync(join(tmpdir(), "timebox-scenario-"));
			removeWorld(world);
		},
	};
}

/** What a scenario needs to know of one hook host: its events by role, how the budget line is typed there. */
interface HookHostScript {
	host: HookHost;
	name: string;
	events: { sessionStart: string; prompt: string; beforeTool: string; beforeModelCall: string };
	/** The budget line as the user types it there. */
	commandLine(args: string): string;
	/** The field that names the prompt an event belongs to; none where the host names no prompt. */
	promptField?: string;
	/** How the host's hooks show its subagents, where they do. */
	subagents?: HookSubagentScript;
}

/** A hook host's subagents: its subagent tool's call, and the events of a subagent's start and end. */
interface HookSubagentScript {
	/** The subagent tool's name and its input for a task of a type. */
	tool: string;
	input(agentType: string, task: string): Record<string, unknown>;
	/** The event of a subagent's end, with its fields; `parentCall` is true where its parent learns it only at its next call. */
	end(agent: string): { event: string; fields: Record<string, unknown>; parentCall: boolean };
}

const HOOK_HOSTS: Readonly<Record<"claude" | "gemini" | "codex", HookHostScript>> = {
	claude: {
		host: claudeCodeHost,
		name: "Claude Code hooks",
		events: {
			sessionStart: "SessionStart",
			prompt: "UserPromptSubmit",
			beforeTool: "PreToolUse",
			beforeModelCall: "PostToolBatch",
		},
		commandLine: (args) => `/timebox ${args}`,
		promptField: "prompt_id",
		subagents: {
			tool: "Agent",
			input: (agentType, task) => ({ description: task, prompt: task, subagent_type: agentType }),
			end: (agent) => ({
				event: "PostToolUse",
				fields: { tool_name: "Agent", tool_input: {}, tool_response: { agentId: agent, content: "the answer" } },
				parentCall: false,
			}),
		},
	},
	gemini: {
		host: geminiCliHost,
		name: "Gemini CLI hooks",
		events: {
			sessionStart: "SessionStart",
			prompt: "BeforeAgent",
			beforeTool: "BeforeTool",
			beforeModelCall: "AfterTool",
		},
		// The extension's `/timebox` command reaches the hooks expanded.
		commandLine: (args) => `TIMEBOX-CMD ${args}`,
	},
	codex: {
		host: codexCliHost,
		name: "Codex CLI hooks",
		events: {
			sessionStart: "SessionStart",
			prompt: "UserPromptSubmit",
			beforeTool: "PreToolUse",
			beforeModelCall: "PostToolUse",
		},
		commandLine: (args) => `timebox ${args}`,
		promptField: "turn_id",
		subagents: {
			tool: "spawn_agent",
			input: (agentType, task) => ({ message: task, agent_type: agentType }),
			end: (agent) => ({
				event: "SubagentStop",
				fields: { agent_id: agent, last_assistant_message: "the answer" },
				parentCall: true,
			}),
		},
	},
};

/** A hook host's hooks, called in process as the host would call the hook script. */
function hookDriver(script: HookHostScript, options: DriverOptions = {}): HostDriver {
	const dataDir = mkdtempSync(join(tmpdir(), "timebox-scenario-"));
	const time = new FakeTime();
	const runner = new RecordingStarter();
	const sessionId = `scenario-session-${++drivers}`;
	const budget = options.daily ? parseDailyBudget(options.daily.text, "user", "TIMEBOX_DAILY") : null;
	// Each hook is a process of its own: a claim's claimant runs only while its hook does.
	let hookProcess = 0;
	if (options.killedAtStop) runner.killNext = () => {};
	const deps: HookDeps = {
		store: new SessionLog(dataDir, sessionId),
		ledger: createFileLedger(ledgerFolder(dataDir, options), {
			clock: time,
			pid: () => hookProcess,
			alive: (pid) => pid === hookProcess,
		}),
		clock: time,
		onStop: runner,
		newBudgetId: sequentialIds(),
		...(options.subagents === undefined
			? {}
			: { subagents: { value: options.subagents, source: "TIMEBOX_SUBAGENTS" } }),
		...(script.host.unnamedPrompts ? { unnamedPrompts: true } : {}),
		...(options.daily && budget && !("warning" in budget)
			? { daily: { ledger: createDailyLedger(options.daily.dir, sessionId, time), budgets: [budget] } }
			: {}),
	};
	const seen: { message: string; level: NotifyLevel | null }[] = [];
	let prompts = 0;
	const hook = async (
		role: keyof HookHostScript["events"] | { event: string },
		fields: Record<string, unknown> = {},
	) => {
		const name = typeof role === "string" ? script.events[role] : role.event;
		hookProcess++;
		const event = script.host.read({ event: name, sessionId, fields });
		const reply = await handleHook(event, deps);
		const output = reply === null ? null : script.host.write(reply, event);
		for (const text of shown(output)) for (const line of text.split("\n")) seen.push({ message: line, level: null });
		return output;
	};
	const named = (promptId: string) => (script.promptField ? { [script.promptField]: promptId } : {});
	/** The run ends at a tool boundary: it is stopped, or its tool is refused (Codex's only way to end a turn). */
	const ends = (output: Record<string, unknown> | null) =>
		output?.continue === false ||
		(output?.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision === "deny" ||
		output?.decision === "deny";
	/**
	 * The tools of a run, each asked for in turn: a refused one goes on to the next model call (the model reads why); the
	 * run ends where the host ends it (`continue: false`), or, on Codex, which cannot end one, where a refusal says the
	 * run is over (its later tools are refused all the same).
	 */
	const toolRun = async (promptId: string, tools: readonly ToolAsk[]) => {
		const refusals: string[] = [];
		let toolsRun = 0;
		let stopped = false;
		for (const asked of tools) {
			const output = await hook("beforeTool", { ...named(promptId), tool_name: asked.tool, tool_input: asked.input });
			if (output?.continue === false) {
				stopped = true;
				break;
			}
			const refusal = refusalOf(output);
			if (refusal === null) toolsRun++;
			else refusals.push(refusal);
			stopped ||= refusal?.endsWith(FINISH_NOW.replace(/\.$/, "")) === true;
			if ((await hook("beforeModelCall", named(promptId)))?.continue === false) {
				stopped = true;
				break;
			}
		}
		return { stopped, refusals, toolsRun };
	};
	/** The latest prompt's id, which a subagent's hooks carry too. */
	const latest = () => named(`prompt-${prompts}`);
	/** The subagents whose first model call (their start event) came. */
	const calling = new Set<string>();
	const types = new Map<string, string>();
	/** A subagent's step, from a hook's answer: what reaches it, a denied tool's reason, or the end of it. */
	const step = (output: Record<string, unknown> | null): SubagentStep => {
		const specific = output?.hookSpecificOutput as
			| { additionalContext?: string; permissionDecisionReason?: string }
			| undefined;
		const refusal =
			specific?.permissionDecisionReason ?? (typeof output?.stopReason === "string" ? output.stopReason : null);
		return {
			context: specific?.additionalContext ? specific.additionalContext.split("\n\n") : [],
			refusal,
			stopped: output?.continue === false || (refusal !== null && /this subagent was stopped/.test(refusal)),
		};
	};
	const subagents = script.subagents;
	const subagentDriver: SubagentDriver | undefined = subagents && {
		async start(agent, agentType, task, parent = null) {
			types.set(agent, agentType);
			const input = subagents.input(agentType, task);
			const fields = { ...latest(), tool_name: subagents.tool, tool_input: input, tool_use_id: `call_${agent}` };
			return step(await hook("beforeTool", parent === null ? fields : { ...fields, agent_id: parent }));
		},
		async call(agent) {
			const own = { ...latest(), agent_id: agent, agent_type: types.get(agent) ?? "" };
			if (calling.has(agent)) return step(await hook("beforeModelCall", own));
			calling.add(agent);
			return step(await hook({ event: "SubagentStart" }, own));
		},
		async tool(agent, asked) {
			const own = {
				...latest(),
				agent_id: agent,
				tool_name: asked?.tool ?? "Bash",
				tool_input: asked?.input ?? {},
				tool_use_id: `tool_${agent}`,
			};
			return step(await hook("beforeTool", own));
		},
		async end(agent) {
			const end = subagents.end(agent);
			const ended = step(await hook({ event: end.event }, { ...latest(), ...end.fields }));
			return end.parentCall ? step(await hook("beforeModelCall", latest())).context : ended.context;
		},
	};
	return {
		name: script.name,
		...(subagentDriver ? { subagents: subagentDriver } : {}),
		async command(args) {
			await hook("prompt", { prompt: script.commandLine(args), ...named(`command-${++prompts}`) });
		},
		async prompt(plan = {}) {
			const promptId = `prompt-${++prompts}`;
			const submitted = await hook("prompt", { prompt: "do the task", ...named(promptId) });
			if (submitted?.decision === "block") return { stopped: true, context: [], refusals: [], toolsRun: 0 };
			const specific = submitted?.hookSpecificOutput as { additionalContext?: string } | undefined;
			const context = specific?.additionalContext ? [specific.additionalContext] : [];
			if (plan.tools) return { context, ...(await toolRun(promptId, plan.tools)) };
			for (let index = 0; index < (plan.toolCalls ?? 0); index++) {
				if (ends(await hook("beforeTool", named(promptId))))
					return { stopped: true, context, refusals: [], toolsRun: 0 };
				plan.duringTool?.(index);
				if (ends(await hook("beforeModelCall", named(promptId))))
					return { stopped: true, context, refusals: [], toolsRun: 0 };
			}
			return { stopped: false, context, refusals: [], toolsRun: 0 };
		},
		advance: (ms) => time.advance(ms),
		async reopen() {
			await hook("sessionStart", { source: "resume" });
		},
		notices: () => [...seen],
		onStopRuns: () => [...runner.commands],
		dispose: () => rmSync(dataDir, { recursive: true, force: true }),
	};
}

/** Claude Code's hooks. */
export const claudeDriver = (options?: DriverOptions) => hookDriver(HOOK_HOSTS.claude, options);
/** Gemini CLI's hooks. */
export const geminiDriver = (options?: DriverOptions) => hookDriver(HOOK_HOSTS.gemini, options);
/** Codex CLI's hooks. */
export const codexDriver = (options?: DriverOptions) => hookDriver(HOOK_HOSTS.codex, options);

/**
 * Claude Code's hooks module (function hooks), in a fake of Claude Code's engine: one process per open. Its subagents
 * are not driven here: Claude Code gives a subagent what it is to read only with a tool's result or in its task, and
 * these scenarios make a subagent's calls back to back; the module's own tests drive them as Claude Code runs them.
 */
export function claudeModuleDriver(options: DriverOptions = {}): HostDriver {
	const state = mkdtempSync(join(tmpdir(), "timebox-scenario-module-"));
	// The module finds the daily ledger and its start marks at $XDG_STATE_HOME/timebox: there, the scenario's folder.
	if (options.daily) symlinkSync(options.daily.dir, join(state, "timebox"));
	const open = async (before?: FakeClaude): Promise<FakeClaude> => {
		const claude = new FakeClaude({}, before);
		claude.$.variables.set("XDG_STATE_HOME", state);
		if (options.daily) claude.$.variables.set("TIMEBOX_DAILY", options.daily.text);
		// The first process is killed as it asks Claude Code to start the command; the next is another process.
		if (options.killedAtStop && !before) claude.$.killedAtOnStop = true;
		if (options.subagents !== undefined) claude.$.variables.set("TIMEBOX_SUBAGENTS", options.subagents);
		claude.$.sessionId = "scenario-session";
		await claude.start();
		// The ledger's claims live in the plugin's store: a store that cannot be written is a ledger that cannot.
		if (options.brokenLedger) claude.$.storeFails = true;
		return claude;
	};
	let claude: FakeClaude | null = null;
	/** The on-stop commands run by the processes before this one. */
	const ranBefore: string[] = [];
	const seen: string[] = [];
	let turns = 0;
	const current = async (): Promise<FakeClaude> => {
		claude ??= await open();
		return claude;
	};
	/** What was shown since the last look: the transcript's lines, after the replies already gathered. */
	const look = (engine: FakeClaude, replies: string[] = []) => {
		seen.push(...replies, ...engine.$.logged.splice(0));
	};
	return {
		name: "Claude Code function hooks",
		async command(args) {
			const engine = await current();
			const reply = await engine.command(args);
			look(engine, reply.split("\n"));
		},
		async prompt(plan = {}) {
			const engine = await current();
			const turn = `turn-${++turns}`;
			const dropped = await engine.prompt("do the task");
			if (dropped !== null) {
				look(engine, dropped.split("\n"));
				return { stopped: true, context: [], refusals: [], toolsRun: 0 };
			}
			const context = [...(engine.promptContexts.at(-1) ?? [])];
			if (plan.tools) {
				const refusals: string[] = [];
				let toolsRun = 0;
				let stopped = false;
				for (const [index, asked] of plan.tools.entries()) {
					stopped = (await engine.step(turn, index, { toolUses: 1 })).usage === null;
					if (stopped) break;
					const ran = await engine.tool(undefined, undefined, {
						tool: asked.tool,
						id: `tool-${index}`,
						input: asked.input,
					});
					if (ran.deny === undefined) toolsRun++;
					else refusals.push(ran.deny);
				}
				stopped ||= (await engine.step(turn, plan.tools.length, {})).usage === null;
				await engine.turnComplete(turn);
				look(engine);
				return { stopped, context, refusals, toolsRun };
			}
			const calls = plan.toolCalls ?? 0;
			let stopped = false;
			for (let index = 0; index <= calls && !stopped; index++) {
				const tools = index < calls ? 1 : 0;
				stopped = (await engine.step(turn, index, { toolUses: tools })).usage === null;
				if (stopped || tools === 0) break;
				const ran = await engine.tool(async () => {
					plan.duringTool?.(index);
					return "ok";
				});
				stopped = ran.deny !== undefined;
			}
			await engine.turnComplete(turn);
			look(engine);
			return { stopped, context, refusals: [], toolsRun: 0 };
		},
		advance(ms) {
			claude?.time.advance(ms);
			if (claude) look(claude);
		},
		async reopen() {
			const before = await current();
			await before.end();
			look(before);
			ranBefore.push(...before.$.onStopRuns);
			claude = await open(before);
			look(claude);
		},
		notices: () => seen.map((message) => ({ message, level: null })),
		onStopRuns: () => [...ranBefore, ...(claude?.$.onStopRuns ?? [])],
		dispose: () => rmSync(state, { recursive: true, force: true }),
	};
}

/** Why a hook answer refuses a tool, as the model reads it (Gemini CLI's `reason`, the others' decision reason). */
function refusalOf(output: Record<string, unknown> | null): string | null {
	const specific = output?.hookSpecificOutput as { permissionDecisionReason?: string } | undefined;
	if (specific?.permissionDecisionReason !== undefined) return specific.permissionDecisionReason;
	return output?.decision === "deny" && typeof output.reason === "string" ? output.reason : null;
}

/** The texts a hook answer shows the user. */
function shown(output: Record<string, unknown> | null): string[] {
	if (!output) return [];
	return [output.reason, output.systemMessage, output.stopReason].filter(
		(text): text is string => typeof text === "string",
	);
}

export const DRIVERS: readonly ((options?: DriverOptions) => HostDriver)[] = [
	memoryDriver,
	fakePiDriver,
	opencodeDriver,
	claudeDriver,
	claudeModuleDriver,
	geminiDriver,
	codexDriver,
];
