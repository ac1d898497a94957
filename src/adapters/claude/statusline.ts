// The `timebox statusline` command for Claude Code's statusLine setting: prints the session's budget, optionally after
// the output of the status line command the user already has.

import { formatStatus } from "../../core/format.ts";
import { turnsUsedSince } from "../../core/persist.ts";
import { readSessionState } from "./session-state.ts";

/**
 * The status text of a session, or "" without a budget. Claude Code does not tell a status line whether a prompt is
 * being answered, so every prompt counted so far counts here, the one running included.
 */
export function statusLineText(lines: readonly unknown[], now: number): string {
	const state = readSessionState(lines);
	if (!state.budget) return "";
	return formatStatus(state.budget, now, turnsUsedSince(state.budget, state.promptIds.length));
}

/** Joins the user's own status line and Timebox's, leaving out whichever is empty. */
export function joinStatusLines(theirs: string, ours: string): string {
	return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}
