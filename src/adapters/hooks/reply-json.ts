// The hook JSON the three hook hosts share (they all read Claude Code's hook schema, each with its own turns): what
// the user is told (`systemMessage`), a blocked prompt (`decision: "block"`), the end of the run (`continue: false`),
// a denied tool and the context for the model (`hookSpecificOutput`). Each host file starts from it.

import { type HookEvent, type HookReply, shownText } from "./roles.ts";

/** A reply in the shared hook JSON, or null for one that says nothing. */
export function hookJson(reply: HookReply, event: HookEvent): Record<string, unknown> | null {
	if (event.role === "prompt" && (reply.answered || reply.refusal !== null)) {
		return { decision: "block", reason: shownText(reply) };
	}
	const json: Record<string, unknown> = {};
	if (reply.refusal !== null && reply.stop) {
		json.continue = false;
		json.stopReason = shownText(reply);
	} else if (reply.notices.length > 0) json.systemMessage = reply.notices.join("\n");
	if (reply.refusal !== null && event.role === "beforeTool") {
		json.hookSpecificOutput = {
			hookEventName: event.hostEvent,
			permissionDecision: "deny",
			permissionDecisionReason: reply.refusal,
		};
	} else if (reply.refusal === null && reply.context.length > 0) {
		json.hookSpecificOutput = { hookEventName: event.hostEvent, additionalContext: reply.context.join("\n\n") };
	}
	return Object.keys(json).length > 0 ? json : null;
}
