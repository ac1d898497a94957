// What the model calls used, for a host whose hooks can read it from the session's transcript (Claude Code, Gemini
// CLI): read since the last hook; the core's rules count it once per response into the session's log and today's use,
// and say a format Timebox cannot read once per session.

import { type Effect, type IdLookup, sessionLog, type TranscriptPrompt } from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";

/** One response's usage, as read from the transcript, and its prompt where the host's transcript bounds the next one. */
export interface ResponseUsage {
	id: string;
	tokens: number;
	prompt?: TranscriptPrompt;
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
export type UsageReader = (path: string, offset: number, seen: IdLookup) => TranscriptRead;

/**
 * What the model calls used since the last hook, as the rules keep it: each response in the session's log, its tokens
 * in today's use (the effects), and the warning to show when the transcript could not be read (once per session).
 */
export function countUsage(
	read: UsageReader,
	transcriptPath: string,
	store: SessionLog,
	now: number,
): { effects: Effect[]; notice: string | null } {
	const progress = store.transcriptProgress();
	const found = read(transcriptPath, progress.offset, progress.seen);
	return sessionLog.transcriptUsage(found, progress.offset, store.lines(), now);
}
