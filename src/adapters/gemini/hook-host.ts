// Gemini CLI as a hook host: its hook events by role, the `/timebox` command of its extension (which reaches the hooks
// as `TIMEBOX-CMD …`), the answer in the fields Gemini CLI reads, and the cap on a request's answer (BeforeModel's
// `llm_request.config.maxOutputTokens`). Its data folder is `~/.gemini/timebox`. Tokens come from the session's file;
// what its hooks cannot see: which prompt an event belongs to (each prompt is named when it is sent), and cost.

import { join } from "node:path";
import { hookJson } from "../hooks/reply-json.ts";
import { type HookEvent, type HookHost, type HookReply, type HookRole, readHookEvent } from "../hooks/roles.ts";
import { readGeminiUsage, transcriptSize } from "./transcript-usage.ts";

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
	BeforeModel: "modelRequest",
	AfterAgent: "runEnd",
};

/** `TIMEBOX-CMD …`, what the extension's `/timebox` command expands to, and `/timebox …` as typed. */
const COMMAND = /^(?:TIMEBOX-CMD|\/timebox)(?:\s+([\s\S]*))?$/;

export const geminiCliHost: HookHost = {
	name: "gemini",
	terms: {
		name: "Gemini CLI",
		command: "/timebox",
		tokens: true,
		cost: false,
		dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment gemini starts in.',
	},
	read: (input) => readHookEvent(input, { roles: ROLES, command: COMMAND, promptId: () => null, transcript: true }),
	/**
	 * A tool is refused with `decision: "deny"` (Gemini CLI has no `permissionDecision`); a stop reads as it is; a capped
	 * request's settings go back whole, with the cap.
	 */
	write: (reply, event) => {
		if (event.role === "modelRequest" && reply.maxOutputTokens !== undefined && reply.refusal === null) {
			return cappedRequest(reply, event, reply.maxOutputTokens);
		}
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
	readUsage: readGeminiUsage,
	transcriptSize,
};

/**
 * BeforeModel's answer with the request's answer capped: Gemini CLI takes `temperature`, `topP` and `topK` from the same
 * object (a setting left out is sent as none), so they go back as they came; a lower limit the request has stays.
 */
function cappedRequest(reply: HookReply, event: HookEvent, cap: number): Record<string, unknown> {
	const config = event.requestConfig ?? {};
	const limit = config.maxOutputTokens;
	const maxOutputTokens = typeof limit === "number" && limit > 0 && limit < cap ? limit : cap;
	const json: Record<string, unknown> = {
		hookSpecificOutput: { hookEventName: event.hostEvent, llm_request: { config: { ...config, maxOutputTokens } } },
	};
	if (reply.notices.length > 0) json.systemMessage = reply.notices.join("\n");
	return json;
}
