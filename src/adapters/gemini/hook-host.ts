// Gemini CLI as a hook host: its hook events by role, the `/timebox` command of its extension (which reaches the hooks
// as `TIMEBOX-CMD …`), and the answer in the fields Gemini CLI reads. Its data folder is `~/.gemini/timebox`. What its
// hooks cannot see: which prompt an event belongs to (each prompt is named when it is sent), tokens and cost.

import { join } from "node:path";
import { hookJson } from "../hooks/reply-json.ts";
import { type HookHost, type HookRole, readHookEvent } from "../hooks/roles.ts";

/**
 * Gemini CLI's events, by role. A tool's result (AfterTool) comes right before the next model call, and it is where
 * Gemini passes context on to the model (BeforeModel drops it), so it plays that call; a response that asks for several
 * tools counts once per tool.
 */
const ROLES: Readonly<Record<string, HookRole>> = {
	SessionStart: "sessionStart",
	BeforeAgent: "prompt",
	BeforeTool: "beforeTool",
	AfterTool: "beforeModelCall",
	AfterAgent: "runEnd",
};

/** `TIMEBOX-CMD …`, what the extension's `/timebox` command expands to, and `/timebox …` as typed. */
const COMMAND = /^(?:TIMEBOX-CMD|\/timebox)(?:\s+([\s\S]*))?$/;

export const geminiCliHost: HookHost = {
	name: "gemini",
	terms: {
		name: "Gemini CLI",
		command: "/timebox",
		tokens: false,
		cost: false,
		dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment gemini starts in.',
	},
	read: (input) => readHookEvent(input, { roles: ROLES, command: COMMAND, promptId: () => null, transcript: false }),
	/** A tool is refused with `decision: "deny"` (Gemini CLI has no `permissionDecision`); a stop reads as it is. */
	write: (reply, event) => {
		const json = hookJson(reply, event);
		const specific = json?.hookSpecificOutput as Record<string, unknown> | undefined;
		if (json === null || specific?.permissionDecision !== "deny") return json;
		delete json.hookSpecificOutput;
		if (json.continue !== false) {
			json.decision = "deny";
			json.reason = specific.permissionDecisionReason;
		}
		return json;
	},
	dataDir: (_env, home) => join(home, ".gemini", "timebox"),
	unnamedPrompts: true,
};
