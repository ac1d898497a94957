// The part of Claude Code's function-hooks API (its hooks module's `$`, events and answers) that Timebox uses, declared
// after the declarations of Claude Code 2.1.328, and the engine port made of a hook's `$`. Claude Code checks a module's
// source before it loads it: `$` is only ever spelled `$.noun.method(...)`, never passed on or kept, and a variable is
// named by a literal. So `engineOf` is the one place that reads `$`, each method a call spelled out.

/** A timer of `$.clock`: `cancel()` before it fires stops it. */
export interface EngineTimer {
	cancel(): void;
}

/** `$`, the engine's interface a hook is handed: only what Timebox calls. */
export interface Dollar extends Omit<Engine, "env"> {
	env: {
		get(name: string): Promise<string | undefined>;
		set(name: string, value: string | undefined): Promise<unknown>;
	};
}

/** What Timebox asks of the engine: `$`'s calls, and the variables it reads and sets by name. */
export interface Engine {
	session: {
		/** The session's id, the same across `--continue` and `--resume`. */
		id(): Promise<string>;
		/** What the session cost so far, as the status line has it (an estimate). */
		usage(): Promise<{ cost: { usd: number } }>;
	};
	turn: {
		/** Ends the main loop's running turn, its running tools stopped. */
		abort(input: { turnId: string }): Promise<void>;
	};
	ui: {
		/** The plugin's one status line under the prompt; undefined clears it. */
		status(text: string | undefined): void;
		/** A dim line in the transcript, never sent to the model. */
		log(text: string): void;
	};
	store: {
		get(key: string): Promise<unknown>;
		set(key: string, value: unknown): Promise<void>;
		delete(key: string): Promise<void>;
	};
	clock: {
		after(ms: number, fn: () => void): EngineTimer;
		every(ms: number, fn: () => void): EngineTimer;
	};
	process: {
		/** Runs a command by its argument vector (no shell) and resolves once it exits. */
		run(argv: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>;
	};
	fs: {
		/** The text of `length` bytes of a file from `offset`; rejects when it is missing. */
		read(path: string, options: { offset: number; length: number }): Promise<string>;
		/** A folder's entries: each one's name and, for a file, its size in bytes; rejects when it is missing. */
		list(path: string): Promise<readonly { name: string; size: number }[]>;
	};
	env: {
		/** TIMEBOX_DEFAULT: the budget of a session where none was set. */
		defaultBudget(): Promise<string | undefined>;
		/** TIMEBOX_DAILY: the daily budget every session of the user shares. */
		dailyBudget(): Promise<string | undefined>;
		/** TIMEBOX_SUBAGENTS: the budget every subagent gets. */
		subagentBudget(): Promise<string | undefined>;
		/** TIMEBOX_DAILY_STORE and TIMEBOX_TEAM: the team's store and name, when the daily budget is a team's. */
		dailyStore(): Promise<string | undefined>;
		team(): Promise<string | undefined>;
		/** TIMEBOX_TEAM_TZ: the time zone whose midnight starts the team's day. */
		teamZone(): Promise<string | undefined>;
		/** TIMEBOX_DAILY_STORE_FAILURE: `closed` refuses new turns while the team's store cannot be reached. */
		dailyStoreFailure(): Promise<string | undefined>;
		/** HOME and XDG_STATE_HOME: where the daily ledger every host shares lives. */
		home(): Promise<string | undefined>;
		stateHome(): Promise<string | undefined>;
		/** Sets TIMEBOX_MODULE_LOADED=1 for the classic hooks Claude Code starts after this: they stand down. */
		markModuleLoaded(): Promise<unknown>;
	};
}

/** The engine port of a hook's `$`. */
export function engineOf($: Dollar): Engine {
	return {
		session: { id: () => $.session.id(), usage: () => $.session.usage() },
		turn: { abort: (input) => $.turn.abort(input) },
		ui: {
			status: (text) => $.ui.status(text),
			log: (text) => $.ui.log(text),
		},
		store: {
			get: (key) => $.store.get(key),
			set: (key, value) => $.store.set(key, value),
			delete: (key) => $.store.delete(key),
		},
		clock: { after: (ms, fn) => $.clock.after(ms, fn), every: (ms, fn) => $.clock.every(ms, fn) },
		process: { run: (argv) => $.process.run(argv) },
		fs: {
			read: (path, options) => $.fs.read(path, options),
			list: (path) => $.fs.list(path),
		},
		env: {
			defaultBudget: () => $.env.get("TIMEBOX_DEFAULT"),
			dailyBudget: () => $.env.get("TIMEBOX_DAILY"),
			subagentBudget: () => $.env.get("TIMEBOX_SUBAGENTS"),
			dailyStore: () => $.env.get("TIMEBOX_DAILY_STORE"),
			team: () => $.env.get("TIMEBOX_TEAM"),
			teamZone: () => $.env.get("TIMEBOX_TEAM_TZ"),
			dailyStoreFailure: () => $.env.get("TIMEBOX_DAILY_STORE_FAILURE"),
			home: () => $.env.get("HOME"),
			stateHome: () => $.env.get("XDG_STATE_HOME"),
			markModuleLoaded: () => $.env.set("TIMEBOX_MODULE_LOADED", "1"),
		},
	};
}

/** `session.start`: once per process, before the first prompt. */
export interface SessionStartEvent {
	cwd: string;
	isInteractive: boolean;
}

/** `session.end`: the session ends (exit, `/clear`, a resume, a `-p` run done). */
export interface SessionEndEvent {
	reason: string;
}

/** `command.run`: a slash command, without its slash, and what was typed after it. */
export interface CommandRunEvent {
	command: string;
	args: string;
}

/** What a `command.run` hook answers: its text, shown to the person alone, and no model request. */
export interface CommandRunAnswer {
	text: string;
	isTextDisplayOnly: true;
}

/** `prompt.submit`: a prompt as typed, before any request. */
export interface PromptSubmitEvent {
	text: string;
	/** Set when the submission runs a slash command. */
	command?: unknown;
	/** A prompt the person does not see as typed (the engine's, a plugin's). */
	isMeta?: true;
	/** What the model reads beside the prompt. */
	context?: readonly string[];
	/** The turn running when the prompt was submitted: it is delivered into that turn. */
	turnId?: string;
}

/** What a `prompt.submit` hook answers: the prompt, with context added, or its refusal. */
export type PromptSubmitAnswer = { text: string; context?: readonly string[] } | { drop: string };

/** The token counts of one response. */
export interface StepUsage {
	input_tokens: number;
	output_tokens: number;
	cache_read_input_tokens: number;
	cache_creation_input_tokens: number;
}

/** `turn.step`: a model request about to be sent, main's or a subagent's (`agentId`). */
export interface TurnStepEvent {
	turnId: string;
	/** The step's position in its turn, from 0. */
	index: number;
	agentId?: string;
}

/** What a `turn.step` resolves to: the response, or the hook's own answer in place of a request. */
export interface TurnStepAnswer {
	turnId: string;
	index: number;
	answer: string;
	toolUses: readonly unknown[];
	stopReason: string | null;
	usage: StepUsage | null;
}

/**
 * `tool.call`: a tool about to run, in the main loop or a subagent's. The fields of the tool's input come with the
 * event's own (`tool`, `tool_use_id`, `agentId`, `requestMeta`), at its top level (`{ command, tool: "Bash", … }`).
 */
export interface ToolCallEvent {
	tool: string;
	tool_use_id: string;
	agentId?: string;
	[field: string]: unknown;
}

/** What a `tool.call` resolves to: the tool's result (with context for the model after it), or its refusal. */
export type ToolCallAnswer = { deny: string } | { result: unknown; context?: readonly string[]; deny?: undefined };

/** `turn.complete`: a turn ended, main's or a subagent's (whose answer goes back to its parent). */
export interface TurnCompleteEvent {
	turnId: string;
	agentId?: string;
	answer?: string;
}

/** `agent.spawn`: the Agent tool (or a command's fork) is about to start a subagent. */
export interface AgentSpawnEvent {
	/** The Agent tool call this spawn belongs to; empty for a fork no tool call starts. */
	tool_use_id: string;
	/** The subagent's task; a rewrite is the prompt it runs with. */
	prompt: string;
	description: string;
	subagentType: string;
	/** The loop the spawn happens in; absent from the main loop. */
	parentAgentId?: string;
}

/** What an `agent.spawn` resolves to: the started subagent's id, or the spawn's refusal. */
export type AgentSpawnAnswer = { model: string; agentId?: string; deny?: undefined } | { deny: string };

/** `next(e)` of a plain event: the rest of the chain. */
export type Next<E, R> = (event: E) => Promise<R>;

/** `next(e)` of `turn.step`, a streaming event: the response's pieces, then the response. */
export type StepNext = (event: TurnStepEvent) => AsyncGenerator<unknown, TurnStepAnswer, undefined>;

/** A hook's registration: its `.catch` answers when the hook throws or runs out of time. */
export interface Registration {
	catch(handler: (...args: never[]) => unknown): void;
}

/** The `on` a hooks module's `register` is handed. */
export type On = (event: string, ...rest: unknown[]) => Registration;
