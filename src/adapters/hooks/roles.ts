// What every hook host shares, in the hook adapter's own words: the roles a hook event plays, the neutral reply the
// adapter gives, and what a host file says of its host (how events map, how a reply is written, where data lives,
// what it cannot see). Host files implement `HookHost`; nothing here names a host.

import type { HostTerms } from "../../core/index.ts";
import type { UsageReader } from "./usage.ts";

/** The part a host's hook event plays in a session. */
export type HookRole =
	/** The session opened (started, resumed, cleared, compacted). */
	| "sessionStart"
	/** The user sent a prompt (or a `/timebox` line). */
	| "prompt"
	/** A tool is about to run. */
	| "beforeTool"
	/** A model call of the running prompt is about to start (after a tool's result). */
	| "beforeModelCall"
	/** The request of the latest model call is about to be sent, and may be changed (its answer capped). */
	| "modelRequest"
	/** The run ended. */
	| "runEnd"
	/** A subagent is about to make its first model call (its id and type come with the event). */
	| "agentStart"
	/** A subagent may have ended (its result goes back to its parent): the event names it, or it plays no part. */
	| "agentEnd";

/** What a call of the host's subagent tool asks for: the subagent's type and its task. */
export interface SpawnRequest {
	agentType: string;
	task: string;
}

/** The subagent a result of the host's subagent tool names, its answer, and the tokens it used where the host says. */
export interface SpawnResult {
	agent: string;
	result: string;
	tokens?: number;
}

/** How a host's hooks show its subagents, where they tell them apart from the main agent. */
export interface SubagentDialect {
	/** What a call of `tool` with `input` asks a subagent to do, or null where the tool starts none. */
	spawn(tool: string, input: Readonly<Record<string, unknown>>): SpawnRequest | null;
	/** The subagent whose end an agentEnd event reports (with its answer), or null where it reports none. */
	ended(fields: Readonly<Record<string, unknown>>): SpawnResult | null;
	/**
	 * Whether what the agentEnd event's reply adds reaches the parent's next request (the subagent tool's result, as on
	 * Claude Code); where it does not, the line that a subagent stopped goes with its parent's next model call.
	 */
	endReachesParent: boolean;
}

/** The size of a session's transcript now, or null where it cannot be read. */
export type TranscriptSize = (path: string) => number | null;

/** A hook event as the adapter reads it. */
export interface HookEvent {
	/** The role the event plays, or null for an event Timebox does not use. */
	role: HookRole | null;
	/** The host's own name of the event, for the host's answer. */
	hostEvent: string;
	sessionId: string;
	/** The prompt the event belongs to, as the host names it; null where it names none. */
	promptId: string | null;
	/** What the user typed (prompt events). */
	prompt: string | null;
	/** The words after `/timebox` when the prompt is a Timebox command, in any form the host lets through; else null. */
	command: string | null;
	/** sessionStart only: startup, resume, clear, compact or fork. */
	source: string | null;
	/** The session transcript, where a host that writes usage there lets Timebox read it; null when not given. */
	transcriptPath: string | null;
	/** The subagent the event belongs to (the host's id), or null: the main agent, or a host that cannot tell. */
	agent: string | null;
	/** agentStart: the subagent's type, as the host names it; else null. */
	agentType: string | null;
	/** beforeTool of the tool that starts subagents: what the subagent is asked to do; else null. */
	spawn: SpawnRequest | null;
	/** The id of the tool call the event is about (`tool_use_id`), or null. */
	toolUseId: string | null;
	/** beforeTool: the tool and its input (`tool_name`, `tool_input`), which the loop guard compares; else null. */
	call: { tool: string; input: unknown } | null;
	/** agentEnd: the subagent that ended, its answer, and whether the reply reaches its parent; else null. */
	ended: (SpawnResult & { reachesParent: boolean }) | null;
	/** modelRequest: the request's generation settings as the host shows them (`llm_request.config`); else null. */
	requestConfig: Readonly<Record<string, unknown>> | null;
}

/** The adapter's answer to one hook event, before a host writes it in its own JSON. */
export interface HookReply {
	/** What the user is told, in order. */
	notices: string[];
	/** What the model reads in its next request. */
	context: string[];
	/**
	 * Why the event is refused: a prompt is blocked (the user reads `notices`), a tool denied (the model reads this).
	 * Null lets it through.
	 */
	refusal: string | null;
	/** The run ends here. */
	stop: boolean;
	/** The prompt was a `/timebox` line, answered by Timebox: it never reaches the model. */
	answered: boolean;
	/** The subagents to end now, with no further model request; absent when none is. */
	stoppedAgents?: string[];
	/** The most output tokens the request about to be sent may answer with; absent: no cap. */
	maxOutputTokens?: number;
}

/** A reply that says nothing. */
export function silentReply(): HookReply {
	return { notices: [], context: [], refusal: null, stop: false, answered: false };
}

/** A hook's stdin: the event's name, the session's id, and every other field as the host sent it. */
export interface HookFields {
	event: string;
	sessionId: string;
	fields: Readonly<Record<string, unknown>>;
}

/** One hook host: how its events map to roles, how a reply is written in its JSON, where its data lives. */
export interface HookHost {
	/** The name `timebox hook --host <name>` takes. */
	name: string;
	/** How its users type the command, what it measures, where its daily budget is set. */
	terms: HostTerms;
	/** The hook's stdin as a neutral event. */
	read(input: HookFields): HookEvent;
	/** The reply in the JSON the host reads, or null to print nothing. */
	write(reply: HookReply, event: HookEvent): Record<string, unknown> | null;
	/** The data folder when the host does not name one (a plugin that gets `CLAUDE_PLUGIN_DATA` needs none). */
	dataDir(env: NodeJS.ProcessEnv, home: string): string | null;
	/** True where the host names no prompt: each prompt gets an id of its own when it is submitted. */
	unnamedPrompts?: boolean;
	/** Reads what the model calls used from the transcript; absent where the host's hooks see no usage. */
	readUsage?: UsageReader;
	/** The transcript's size now, where a hook may change a request (`modelRequest`) and bounds its input from it. */
	transcriptSize?: TranscriptSize;
	/** The host's status line, where it has one that runs a command. */
	statusLine?: StatusLineHost;
}

/** A host's status line: where it is set up, and where a status line finds a session's data. */
export interface StatusLineHost {
	/** The user's settings file, where the status line command is set up. */
	settings(home: string): string;
	/** Sets the status line up in `settings` to run `script`, and says what was done. */
	setup(settings: string, script: string): string;
	/** The plugin's script, where the host says where it runs from; else null. */
	script(env: NodeJS.ProcessEnv): string | null;
	/** The data folder that holds a session's log (a status line is not told it), or null. */
	findDataDir(home: string, sessionId: string): string | null;
}

/** What sets a host's stdin apart: its events by role, the forms of its command, and which prompt an event names. */
export interface HookDialect {
	roles: Readonly<Record<string, HookRole>>;
	/** The command line in the forms the host lets through; its group 1 is the words after the command. */
	command: RegExp;
	/** The prompt an event belongs to, or null where the host names none. */
	promptId(fields: Readonly<Record<string, unknown>>): string | null;
	/** Whether the host writes usage to a transcript Timebox reads (`transcript_path`). */
	transcript: boolean;
	/** Its subagents, where its hooks name them (`agent_id`, `agent_type`); absent where they cannot be told apart. */
	subagents?: SubagentDialect;
}

/** A hook's stdin as a neutral event, in a host's dialect. */
export function readHookEvent({ event, sessionId, fields }: HookFields, dialect: HookDialect): HookEvent {
	const prompt = typeof fields.prompt === "string" ? fields.prompt : null;
	const subagents = dialect.subagents;
	const tool = textField(fields, "tool_name");
	const input = fields.tool_input;
	return {
		role: dialect.roles[event] ?? null,
		hostEvent: event,
		sessionId,
		promptId: dialect.promptId(fields),
		prompt,
		command: commandWords(prompt, dialect.command),
		source: textField(fields, "source"),
		transcriptPath: dialect.transcript ? textField(fields, "transcript_path") : null,
		agent: subagents ? textField(fields, "agent_id") : null,
		agentType: subagents ? textField(fields, "agent_type") : null,
		spawn:
			subagents && tool !== null && typeof input === "object" && input !== null
				? subagents.spawn(tool, input as Readonly<Record<string, unknown>>)
				: null,
		toolUseId: textField(fields, "tool_use_id"),
		call: tool !== null && dialect.roles[event] === "beforeTool" ? { tool, input: input ?? null } : null,
		ended: subagents && dialect.roles[event] === "agentEnd" ? endedOf(subagents, fields) : null,
		requestConfig: dialect.roles[event] === "modelRequest" ? configOf(fields.llm_request) : null,
	};
}

/** The generation settings of a request as a hook is shown it, or none. */
function configOf(request: unknown): Readonly<Record<string, unknown>> | null {
	const config = typeof request === "object" && request !== null ? (request as { config?: unknown }).config : null;
	return typeof config === "object" && config !== null && !Array.isArray(config)
		? (config as Readonly<Record<string, unknown>>)
		: null;
}

/** The subagent an agentEnd event reports, and whether the reply reaches its parent. */
function endedOf(
	subagents: SubagentDialect,
	fields: Readonly<Record<string, unknown>>,
): (SpawnResult & { reachesParent: boolean }) | null {
	const ended = subagents.ended(fields);
	return ended === null ? null : { ...ended, reachesParent: subagents.endReachesParent };
}

/** Reads a string field, or null. */
export function textField(fields: Readonly<Record<string, unknown>>, key: string): string | null {
	const value = fields[key];
	return typeof value === "string" && value.length > 0 ? value : null;
}

/** What the user reads of a refused prompt or a stopped run: the notices, or else the reason. */
export function shownText(reply: HookReply): string {
	return reply.notices.length > 0 ? reply.notices.join("\n") : (reply.refusal ?? "");
}

/** The words after the command when `prompt` is a Timebox command in one of the `forms` a host lets through; else null. */
export function commandWords(prompt: string | null, forms: RegExp): string | null {
	if (prompt === null) return null;
	const match = forms.exec(prompt.trim());
	return match ? (match[1] ?? "") : null;
}
