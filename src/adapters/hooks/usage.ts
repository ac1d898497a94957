// What the model calls used, for a host whose hooks can read it from the session's transcript (Claude Code): read since
// the last hook, counted once per response into the session's log and today's use, and a format Timebox cannot read
// said once per session.

import { type DailyPort, TRANSCRIPT_UNREADABLE } from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";

/** One response's usage, as read from the transcript. */
export interface ResponseUsage {
	id: string;
	tokens: number;
}

/** What one read of the transcript found, and where the next read starts. */
export interface TranscriptRead {
	responses: ResponseUsage[];
	/** The byte offset after the last whole line read. */
	offset: number;
	/** Whether a line held no usage Timebox can read: the format may have changed. */
	unreadable: boolean;
}

/** Reads the responses after `offset` that are not among `seen`. */
export type UsageReader = (path: string, offset: number, seen: ReadonlySet<string>) => TranscriptRead;

/**
 * Counts what the model calls used since the last hook into the session's log (and today's use). Returns the warning
 * to show when the transcript could not be read (once per session), else null.
 */
export function countUsage(
	read: UsageReader,
	transcriptPath: string,
	store: SessionLog,
	daily: DailyPort | undefined,
	now: number,
): string | null {
	const progress = store.transcriptProgress();
	const found = read(transcriptPath, progress.offset, progress.seen);
	for (const response of found.responses)
		store.appendUsage(response.id, { tokens: response.tokens }, now, found.offset);
	const tokens = found.responses.reduce((sum, response) => sum + response.tokens, 0);
	if (tokens > 0 && daily) daily.ledger.addUse(daily.budgets, { tokens });
	if (found.responses.length === 0 && found.offset > progress.offset) store.appendTranscriptOffset(found.offset);
	if (!found.unreadable || store.lines().some((line) => line.kind === "transcript-unreadable")) return null;
	store.appendLine({ kind: "transcript-unreadable", at: now });
	return TRANSCRIPT_UNREADABLE;
}
