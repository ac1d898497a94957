// What a session has been told by its daily ledger, where the session outlives its processes (a hook host's): each
// problem is said once per session, not once per process. The port's file is session-told.ts; this side is free of
// Node's modules, as Claude Code's hooks module needs of what it imports.

import type { Failure } from "./outage.ts";

/** What a session's daily ledger has said, and why its team's store is left alone, across the session's processes. */
export interface SessionTold {
	/** Whether `text` was said to the session before. */
	said(text: string): boolean;
	/** Whether `text` is new to the session: true the first time, when it is kept as said; false after. */
	first(text: string): boolean;
	/** Why the team's store failed and until when it is left alone, as the session's last process left it. */
	failed(): Failure | null;
	/** Keeps why the team's store failed (null: it answered) for the session's next process. */
	keepFailed(failed: Failure | null): void;
}

/** `problem`'s next problem that is new to the session (`told`; every problem where there is none), or null. */
export function firstTold(problem: () => string | null, told: SessionTold | undefined): string | null {
	let text = problem();
	while (text !== null && told !== undefined && !told.first(text)) text = problem();
	return text;
}
