// Reads and checks the JSON a hook host (Claude Code, Gemini CLI, Codex CLI) gives a hook on stdin; anything malformed is refused with a reason.

/** What Timebox uses of a hook's input. */
export interface HookInput {
	event: string;
	sessionId: string;
	promptId: string | null;
	prompt: string | null;
	/** SessionStart only: startup, resume, clear, compact or fork. */
	source: string | null;
	/** The session transcript, where the model calls' usage is read; null when not given. */
	transcriptPath?: string | null;
}

/** A session id becomes a file name, so only plain characters are accepted. */
const SESSION_ID = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * Parses a hook's stdin, or says why it cannot be used. A status line's stdin has no event name: pass the name to use
 * instead as `event`.
 */
export function parseHookInput(text: string, event?: string): HookInput | { error: string } {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { error: "stdin is not JSON" };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { error: "stdin is not a JSON object" };
	const fields = value as Record<string, unknown>;
	const {
		hook_event_name: named = event,
		session_id: sessionId,
		prompt_id: claudePromptId,
		turn_id: codexTurnId,
		prompt,
		source,
		transcript_path: transcriptPath,
	} = fields;
	// Codex CLI names the prompt a hook belongs to `turn_id`.
	const promptId = claudePromptId ?? codexTurnId;
	if (typeof named !== "string" || named.length === 0) return { error: "hook_event_name is missing" };
	if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId) || sessionId.startsWith(".")) {
		return { error: "session_id is missing or not a plain id" };
	}
	return {
		event: named,
		sessionId,
		promptId: typeof promptId === "string" && promptId.length > 0 ? promptId : null,
		prompt: typeof prompt === "string" ? prompt : null,
		source: typeof source === "string" ? source : null,
		transcriptPath: typeof transcriptPath === "string" && transcriptPath.length > 0 ? transcriptPath : null,
	};
}
