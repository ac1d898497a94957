// Gemini CLI onto the hook-host adapter: its hook events as the roles the adapter knows (a prompt, a model call, a tool
// call, the end of a run), and the adapter's answers in the fields Gemini CLI reads. Nothing else differs.

import type { HookInput } from "../claude/hook-input.ts";
import { forHostEvent, type HookOutput } from "../claude/hooks.ts";

/**
 * Gemini CLI's events, by the role they play. A tool's result (AfterTool) comes right before the next model call, and
 * it is where Gemini passes context on to the model (BeforeModel drops it), so it plays that call; a response that asks
 * for several tools counts once per tool.
 */
const ROLES: Readonly<Record<string, string>> = {
	BeforeAgent: "UserPromptSubmit",
	AfterTool: "PostToolBatch",
	BeforeTool: "PreToolUse",
	AfterAgent: "Stop",
};

/** A Gemini CLI hook's input in the roles of the adapter. Gemini names no prompt: the adapter names each one. */
export function fromGemini(input: HookInput): HookInput {
	return { ...input, event: ROLES[input.event] ?? input.event, promptId: null };
}

/**
 * The adapter's answer as Gemini CLI reads it: context goes with the Gemini event's own name, and a tool is refused
 * with `decision: "deny"` (Gemini CLI has no `permissionDecision`); a stop (`continue: false`) and a blocked prompt
 * read the same.
 */
export function toGemini(output: HookOutput, event: string): HookOutput {
	if (output === null) return null;
	const { specific, answer } = forHostEvent(output, event);
	if (specific.permissionDecision === "deny" && answer.continue !== false) {
		answer.decision = "deny";
		answer.reason = specific.permissionDecisionReason;
	}
	return answer;
}
