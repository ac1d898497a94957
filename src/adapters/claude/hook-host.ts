// Claude Code as a hook host: its hook events by role, `/timebox` as typed (and the plugin's namespaced
// `/timebox:timebox`), the answer in Claude Code's hook JSON, the usage it writes to the session transcript, and its
// status line. Its data folder is the plugin's (`CLAUDE_PLUGIN_DATA`). What its hooks cannot see: what a session costs.

import { join } from "node:path";
import { hookJson } from "../hooks/reply-json.ts";
import { type HookHost, type HookRole, readHookEvent, textField } from "../hooks/roles.ts";
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
};

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
