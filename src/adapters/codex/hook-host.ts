// Codex CLI as a hook host: its hook events by role, the budget line as Codex's TUI lets it through (`timebox 15m`,
// without the slash), and the answer in the fields Codex's strict hook schema accepts. Its data folder is
// `$CODEX_HOME/timebox`. What its hooks cannot do: end a running turn (a stop refuses every later tool instead), or
// see tokens and cost. Its subagents (`spawn_agent`): SubagentStart opens a subagent's first request, its own hooks
// carry its `agent_id`, and SubagentStop is its end; its parent reads its answer in a later request, not in a tool's
// result, so the line that it stopped goes with its parent's next model call.

import { join } from "node:path";
import { FINISH_NOW, WRAP_UP_REFUSAL } from "../../core/index.ts";
import { hookJson } from "../hooks/reply-json.ts";
import { type HookHost, type HookRole, readHookEvent, type SubagentDialect, textField } from "../hooks/roles.ts";

/**
 * Codex CLI's events, by role. Codex has no hook before a later model call; the result of a tool call comes right
 * before it, so PostToolUse plays that call (a response that asks for several tools counts once per tool).
 */
const ROLES: Readonly<Record<string, HookRole>> = {
	SessionStart: "sessionStart",
	UserPromptSubmit: "prompt",
	PreToolUse: "beforeTool",
	PostToolUse: "beforeModelCall",
	Stop: "runEnd",
	SubagentStart: "agentStart",
	SubagentStop: "agentEnd",
};

/** Codex's subagents: `spawn_agent` gives the task (its message, else its name); SubagentStop names the one that ended. */
export const CODEX_SUBAGENTS: SubagentDialect = {
	spawn: (tool, input) =>
		tool === "spawn_agent"
			? {
					agentType: textField(input, "agent_type") ?? "default",
					task: textField(input, "message") ?? textField(input, "task_name") ?? "",
				}
			: null,
	ended: (fields) => {
		const agent = textField(fields, "agent_id");
		return agent === null ? null : { agent, result: textField(fields, "last_assistant_message") ?? "" };
	},
	endReachesParent: false,
};

/** `timebox …` as Codex's TUI lets it through (it rejects unknown `/` commands), and `/timebox …`. */
const COMMAND = /^\/?timebox(?:\s+([\s\S]*))?$/;

export const codexCliHost: HookHost = {
	name: "codex",
	terms: {
		name: "Codex",
		command: "timebox",
		tokens: false,
		cost: false,
		dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment codex starts in.',
	},
	read: (input) =>
		readHookEvent(input, {
			roles: ROLES,
			command: COMMAND,
			// Codex names the prompt a hook belongs to `turn_id`.
			promptId: (fields) => textField(fields, "turn_id") ?? textField(fields, "prompt_id"),
			transcript: false,
			subagents: CODEX_SUBAGENTS,
		}),
	/**
	 * No Codex hook can end a running turn: before a tool, `continue: false` fails the hook and the tool runs, so a stop
	 * becomes a refusal of that tool, and so does every later tool of the turn, with the reason and what the model is to
	 * do now (unless the reason says it already). A refusal that stops nothing reads as it is. Codex ends the reason with
	 * a full stop of its own. The stop's text is the user's: it is shown.
	 */
	write: (reply, event) => {
		const json = hookJson(reply, event);
		if (json === null || event.role !== "beforeTool" || reply.refusal === null) return json;
		const told = !reply.stop || reply.refusal.endsWith(FINISH_NOW);
		const reason = (told ? reply.refusal : `${reply.refusal} ${WRAP_UP_REFUSAL}`).replace(/\.$/, "");
		if (typeof json.stopReason === "string") {
			json.systemMessage = [json.systemMessage, json.stopReason].filter((text) => typeof text === "string").join("\n");
		}
		delete json.continue;
		delete json.stopReason;
		json.hookSpecificOutput = {
			hookEventName: event.hostEvent,
			permissionDecision: "deny",
			permissionDecisionReason: reason,
		};
		return json;
	},
	dataDir: (env, home) => join(env.CODEX_HOME ?? join(home, ".codex"), "timebox"),
};
