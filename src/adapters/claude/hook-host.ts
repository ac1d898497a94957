// Claude Code as a hook host: its hook events by role, `/timebox` as typed (and the plugin's namespaced
// `/timebox:timebox`), the answer in Claude Code's hook JSON, the usage it writes to the session transcript, and its
// status line. Its data folder is the plugin's (`CLAUDE_PLUGIN_DATA`). What its hooks cannot see: what a session costs.
// Its subagents: the Agent tool starts one (PreToolUse names its task), SubagentStart opens its first request, its own
// hooks carry its `agent_id`, and the Agent tool's PostToolUse is where its parent reads its result.

import { join } from "node:path";
import { hookJson } from "../hooks/reply-json.ts";
import { type HookHost, type HookRole, readHookEvent, type SubagentDialect, textField } from "../hooks/roles.ts";
import { findDataDir, setupStatusLine } from "./setup.ts";
import { claudeCodeTerms } from "./terms.ts";
import { readTranscriptUsage } from "./transcript-usage.ts";

/** Claude Code's hook events, by role. PostToolBatch comes right before the next model call of the prompt's run. */
const ROLES: Readonly<Record<string, HookRole>> = {
	SessionStart: "sessionStart",
	UserPromptSubmit: "prompt",
	PreToolUse: "beforeTool",
	PostToolBatch: "beforeModelCall",
	Stop: "runEnd",
	SubagentStart: "agentStart",
	PostToolUse: "agentEnd",
};

/** The tool that starts a subagent: `Agent` in the API (older versions, and the stream's tool list, say `Task`). */
const AGENT_TOOLS = new Set(["Agent", "Task"]);

/** Claude Code's subagents: the Agent tool's description (else its prompt) is the task; its result names the agent. */
export const CLAUDE_SUBAGENTS: SubagentDialect = {
	spawn: (tool, input) => {
		if (!AGENT_TOOLS.has(tool)) return null;
		const task = textField(input, "description") ?? textField(input, "prompt") ?? "";
		return { agentType: textField(input, "subagent_type") ?? "general-purpose", task };
	},
	// The Agent tool's PostToolUse: its result names the subagent (`agentId`) and holds its answer.
	ended: (fields) => {
		const response = fields.tool_response;
		if (!AGENT_TOOLS.has(textField(fields, "tool_name") ?? "") || typeof response !== "object" || response === null) {
			return null;
		}
		// The hook's JSON as Claude Code sends it: an object whose fields are read one by one.
		const result = response as Readonly<Record<string, unknown>>;
		const agent = textField(result, "agentId");
		if (agent === null) return null;
		// What the subagent used is in a transcript of its own, which the hooks do not read: its result sums it up.
		const tokens = result.totalTokens;
		return typeof tokens === "number" && tokens > 0
			? { agent, result: resultText(result.content), tokens }
			: { agent, result: resultText(result.content) };
	},
	endReachesParent: true,
};

/** The text of an Agent result's content: a string, or the text blocks of a list. */
function resultText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((block: unknown) =>
			typeof block === "object" && block !== null && "text" in block && typeof block.text === "string"
				? block.text
				: "",
		)
		.join("\n");
}

/** `/timebox …`, and `/timebox:timebox …` as Claude Code namespaces a plugin's command. */
const COMMAND = /^\/timebox(?::timebox)?(?:\s+([\s\S]*))?$/;

export const claudeCodeHost: HookHost = {
	name: "claude",
	terms: claudeCodeTerms("classic hooks"),
	read: (input) =>
		readHookEvent(input, {
			roles: ROLES,
			command: COMMAND,
			promptId: (fields) => textField(fields, "prompt_id"),
			transcript: true,
			subagents: CLAUDE_SUBAGENTS,
		}),
	write: hookJson,
	dataDir: () => null,
	readUsage: readTranscriptUsage,
	statusLine: {
		settings: (home) => join(home, ".claude", "settings.json"),
		setup: setupStatusLine,
		script: (env) => (env.CLAUDE_PLUGIN_ROOT ? join(env.CLAUDE_PLUGIN_ROOT, "bin", "timebox.mjs") : null),
		findDataDir,
	},
};
