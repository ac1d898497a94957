// The `timebox statusline` command's joining: Timebox's status after the output of the status line command the user
// already has.

/** Joins the user's own status line and Timebox's, leaving out whichever is empty. */
export function joinStatusLines(theirs: string, ours: string): string {
	return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}
