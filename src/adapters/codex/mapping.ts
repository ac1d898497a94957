// Codex CLI onto the hook-host adapter: its hook events as the roles the adapter knows, the budget line in the form
// Codex's TUI lets through, and the adapter's answers in the fields Codex's strict hook schema accepts.

import { WRAP_UP_REFUSAL } from "../../core/index.ts";
import type { HookInput } from "../claude/hook-input.ts";
import { forHostEvent, type HookOutput } from "../claude/hooks.ts";

/**
 * Codex CLI's events, by the role they play. Codex has no hook before a later model call; the result of a tool call
 * comes right before it, so PostToolUse plays that role (a response that asks for several tools counts once per tool).
 */
const ROLES: Readonly<Record<string, string>> = { PostToolUse: "PostToolBatch" };

/** The budget line as Codex's TUI lets it through: it rejects unknown `/` commands, so `timebox 15m` is typed there. */
const TUI_COMMAND = /^timebox(?=\s|$)/;

/** A Codex CLI hook's input in the roles of the adapter; a `timebox …` line is read as `/timebox …`. */
export function fromCodex(input: HookInput): HookInput {
	const prompt =
		input.prompt !== null && TUI_COMMAND.test(input.prompt.trim()) ? `/${input.prompt.trim()}` : input.prompt;
	return { ...input, event: ROLES[input.event] ?? input.event, prompt };
}

/**
 * The adapter's answer as Codex CLI reads it. No Codex hook can end a running turn: before a tool, `continue: false`
 * fails the hook and the tool runs, so a stop becomes a refusal of that tool, and so does every later tool of the turn,
 * with the reason and what the model is to do now. Codex ends the reason with a full stop of its own. Context goes
 * under the Codex event's own name.
 */
export function toCodex(output: HookOutput, event: string): HookOutput {
	if (output === null) return null;
	const { specific, answer } = forHostEvent(output, event);
	if (event === "PreToolUse" && (specific.permissionDecision === "deny" || answer.continue === false)) {
		const why = String(specific.permissionDecisionReason ?? answer.stopReason);
		const reason = (why.includes(WRAP_UP_REFUSAL) ? why : `${why} ${WRAP_UP_REFUSAL}`).replace(/\.$/, "");
		// The stop's text is the user's (the stop and how the on-stop command went): it is shown, not dropped.
		if (typeof answer.stopReason === "string") {
			answer.systemMessage = [answer.systemMessage, answer.stopReason]
				.filter((text) => typeof text === "string")
				.join("\n");
		}
		delete answer.continue;
		delete answer.stopReason;
		answer.hookSpecificOutput = { hookEventName: event, permissionDecision: "deny", permissionDecisionReason: reason };
	}
	return answer;
}
