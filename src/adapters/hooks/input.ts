// Reads and checks the JSON a hook host gives a hook on stdin: an object with the event's name and a plain session id.
// Anything malformed is refused with a reason; the host file reads the rest.

import type { HookFields } from "./roles.ts";

/** A session id becomes a file name, so only plain characters are accepted. */
const SESSION_ID = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * Parses a hook's stdin, or says why it cannot be used. A status line's stdin has no event name: pass the name to use
 * instead as `event`.
 */
export function parseHookInput(text: string, event?: string): HookFields | { error: string } {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { error: "stdin is not JSON" };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { error: "stdin is not a JSON object" };
	const fields = value as Record<string, unknown>;
	const { hook_event_name: named = event, session_id: sessionId } = fields;
	if (typeof named !== "string" || named.length === 0) return { error: "hook_event_name is missing" };
	if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId) || sessionId.startsWith(".")) {
		return { error: "session_id is missing or not a plain id" };
	}
	return { event: named, sessionId, fields };
}
