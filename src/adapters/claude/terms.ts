// Claude Code in its users' words, for both ways Timebox runs there: the function hooks inside Claude Code's process
// and the classic command hooks. What each can measure differs: the classic hooks never see what a session costs.

import type { HostTerms } from "../../core/index.ts";

/** Which of the two runs: named by `/timebox status`. */
export type ClaudeCodeMode = "function hooks" | "classic hooks";

/** Claude Code's terms when Timebox runs on `mode`. */
export function claudeCodeTerms(mode: ClaudeCodeMode): HostTerms {
	return {
		name: "Claude Code",
		command: "/timebox",
		tokens: true,
		// The function hooks read the session's cost after each model call; the classic hooks are told nothing of it.
		cost: mode === "function hooks",
		dailySetting: 'Set TIMEBOX_DAILY="3h turns:60 cost:10" under "env" in ~/.claude/settings.json.',
		mode,
	};
}
