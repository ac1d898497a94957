// Which prompt a pi model call answers, from the messages it will send: a new prompt, a run an extension started, or the
// latest one again (a tool loop, a steering message, or pi's own re-run after a provider error or an overflow compaction).

/** The part of pi's agent message this file reads. */
export interface MessageLike {
	role: string;
	timestamp?: unknown;
	content?: unknown;
	stopReason?: unknown;
}

/** The characters of a message's text shown in its key (the hash covers the rest). */
const KEY_TEXT_CHARS = 32;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part: unknown) =>
			typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
				? (part as { text: string }).text
				: "",
		)
		.join("");
}

/** FNV-1a over the UTF-16 code units of `text`, as 8 hex digits: two texts that differ anywhere differ here too. */
function textHash(text: string): string {
	let hash = FNV_OFFSET;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, FNV_PRIME) >>> 0;
	}
	return hash.toString(16).padStart(8, "0");
}

/**
 * Names a user message: its timestamp and its whole text (length, hash and a readable start). pi keeps both when it
 * re-runs a prompt or reloads a session.
 * @example promptKey({ role: "user", timestamp: 1700000000000, content: "fix the bug" }) // "1700000000000:11:<hash>:fix the bug"
 */
export function promptKey(message: MessageLike): string {
	const text = textOf(message.content);
	return `${String(message.timestamp)}:${text.length}:${textHash(text)}:${text.slice(0, KEY_TEXT_CHARS)}`;
}

/**
 * The prompt a model call answers, or null for the latest prompt. The newest user message at the end of the call's
 * messages (past any extension messages) is a prompt unless the user messages there follow a tool result: a message
 * delivered between tool calls steers the running prompt; one delivered after an answer (a follow-up) is a prompt.
 */
export function promptOfCall(messages: readonly MessageLike[]): string | null {
	let newestUser: MessageLike | null = null;
	let index = messages.length - 1;
	for (; index >= 0; index--) {
		const message = messages[index];
		if (message?.role === "user") newestUser ??= message;
		else if (message?.role === "assistant" || message?.role === "toolResult") break;
	}
	if (!newestUser) return null;
	if (messages[index]?.role === "toolResult") return null;
	return promptKey(newestUser);
}

/**
 * The run an extension started (pi's `sendMessage(…, { triggerTurn: true })`), named by the custom message that started
 * it, when this model call is its first; null for any other call. Such a call ends with custom messages and no user
 * message since the last answer (a custom message after a tool result steers the running run instead).
 * @example extensionRunOfCall([user, assistant, { role: "custom", timestamp: 1, content: "check the build" }]) // "extension:1:15:<hash>:check the build"
 */
export function extensionRunOfCall(messages: readonly MessageLike[]): string | null {
	let newestCustom: MessageLike | null = null;
	let index = messages.length - 1;
	for (; index >= 0; index--) {
		const message = messages[index];
		if (message?.role === "user") return null;
		if (message?.role === "custom") newestCustom ??= message;
		else if (message?.role === "assistant" || message?.role === "toolResult") break;
	}
	if (!newestCustom || messages[index]?.role === "toolResult") return null;
	return `extension:${promptKey(newestCustom)}`;
}

/**
 * Which model call of its prompt's run a call is, from the messages it will send: one more than the answers since the
 * prompt (a steering message does not start a new run; a follow-up does). A call pi sends again after a provider
 * error has the same number, since pi drops the failed answer before it retries.
 * @example stepOfCall([user, assistantWithTool, toolResult]) // 2
 */
export function stepOfCall(messages: readonly MessageLike[]): number {
	let answers = 0;
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message?.role === "assistant") {
			if (message.stopReason !== "error") answers++;
			continue;
		}
		if (message?.role !== "user" && message?.role !== "custom") continue;
		const before = messages[index - 1];
		// A user or extension message right after a tool result steers the running run; any other one is where the run
		// began (an extension's message beside a prompt is where it began too: no answer lies between them).
		if (before?.role !== "toolResult") break;
	}
	return answers + 1;
}
