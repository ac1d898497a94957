// The context answer on pi: what the model is to read of its budget, as one message after the call's messages. It is
// sent with that call only: pi never writes it into the session, and the cached prefix of the request stays the same.

import type { ContextEvent } from "@mariozechner/pi-coding-agent";

/** The custom message type of the budget note; pi sends a custom message to the model as a user message. */
export const BUDGET_NOTE_TYPE = "timebox";

type AgentMessage = ContextEvent["messages"][number];

/**
 * The call's messages with the budget note after them, or nothing to change when there is nothing to say. pi hands each
 * `context` handler its own copy of the messages, so the note is added to that copy in place, at no cost per message.
 */
export function withBudgetNote(
	messages: AgentMessage[],
	blocks: readonly string[],
	now: number,
): { messages: AgentMessage[] } | undefined {
	if (blocks.length === 0) return undefined;
	messages.push({
		role: "custom",
		customType: BUDGET_NOTE_TYPE,
		content: blocks.join("\n\n"),
		display: false,
		timestamp: now,
	});
	return { messages };
}
