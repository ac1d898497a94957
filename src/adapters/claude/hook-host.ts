// Claude Code as a hook host: its hook events by role, `/timebox` as typed (and the plugin's namespaced
// `/timebox:timebox`), the answer in Claude Code's hook JSON, the usage it writes to the session transcript, and its
// status line. Its data folder is the plugin's (`CLAUDE_PLUGIN_DATA`). What its hooks cannot see: what a session costs.

import { join } from "node:path";
import { hookJson } from "../hooks/reply-json.ts";
import { type HookHost, type HookRole, readHookEvent, textField } from "../hooks/roles.ts";
import { findDataDir, setupStatusLine } from "./setup.ts";
import { readTranscriptUsage } from "./transcript-usage.ts";

/** Claude Code's hook events, by role. PostToolBatch comes right before the next model call of the prompt's run. */
const ROLES: Readonly<Record<string, HookRole>> = {
	SessionStart: "sessionStart",
	UserPromptSubmit: "prompt",
	PreToolUse: "beforeTool",
	PostToolBatch: "beforeModelCall",
	Stop: "runEnd",
};

/** `/timebox …`, and `/timebox:timebox …` as Claude Code namespaces a plugin's command. */
const COMMAND = /^\/timebox(?::timebox)?(?:\s+([\s\S]*))?$/;

export const claudeCodeHost: HookHost = {
	name: "claude",
	terms: {
		name: "Claude Code",
		command: "/timebox",
		tokens: true,
		cost: false,
		dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" under "env" in ~/.claude/settings.json.',
	},
	read: (input) =>
		readHookEvent(input, {
			roles: ROLES,
			command: COMMAND,
			promptId: (fields) => textField(fields, "prompt_id"),
			transcript: true,
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
