// A hook's session log, folded as it is read (the core's `LogFold`): read once per hook, from the kept summary of the
// log's start where it holds (`log-summary.ts`), and kept folded as the hook writes. The lines a session writes most
// (another model call, what a response used, a run's end, how far a transcript was read) are answered from the fold,
// so `lines()` holds the others only: the rules' readings of the log (the core's `sessionLog`) read no kind of those.

import { join } from "node:path";
import {
	type Clock,
	type FoldedHistory,
	foldHistory,
	foldLine,
	type HistoryItem,
	historyOfFold,
	type IdLookup,
	type KeptLine,
	type LogFold,
	type LogLine,
	type LogRead,
	stepOfFold,
	type TranscriptPrompt,
} from "../../core/index.ts";
import { type AppendFiles, nodeAppendFiles } from "./append-line.ts";
import { historyOf } from "./log-lines.ts";
import { type LogFiles, nodeLogFiles, type ReadEnd, readLog, SUMMARY_SUFFIX, summaryText } from "./log-summary.ts";
import { systemClock } from "./node-time.ts";
import { SessionLog } from "./session-log.ts";

/** A session's log as a hook reads it: folded once, from its kept summary where that holds. */
export class FoldedSessionLog extends SessionLog {
	private readonly summary: string;
	/** The fold now: as read, with what this log wrote since. */
	private fold: LogFold | null = null;
	/** Where the read ended, and its fold as it was then (a summary to keep). */
	private end: ReadEnd | null = null;
	/** Whether the log was not there when it was last read. */
	private absentAtRead = false;

	constructor(
		dataDir: string,
		sessionId: string,
		clock: Clock = systemClock,
		files: AppendFiles = nodeAppendFiles,
		private readonly reads: LogFiles = nodeLogFiles,
	) {
		super(dataDir, sessionId, clock, true, files);
		this.summary = join(this.folder, `${sessionId}${SUMMARY_SUFFIX}`);
	}

	/** Every readable line of the log but the kinds the fold adds up (calls, usage, runs' ends, transcript reads). */
	override lines(): KeptLine[] {
		return this.current().kept;
	}

	override stepOf(promptId: string): number {
		return stepOfFold(this.current(), promptId);
	}

	override transcriptProgress(): { offset: number; seen: IdLookup } {
		const fold = this.current();
		return { offset: fold.offset, seen: fold.responses };
	}

	override latestPrompt(): TranscriptPrompt | null {
		return this.current().usagePrompt;
	}

	/** The whole log as history, read again (a report's: what each response used, and when). */
	override history(): HistoryItem[] {
		return historyOf(this.readFile());
	}

	override foldedHistory(): FoldedHistory {
		return foldHistory(historyOfFold(this.current()));
	}

	override missing(): boolean {
		this.current();
		return this.absentAtRead;
	}

	override runEnded(promptId: string): boolean {
		return this.current().ended.has(promptId);
	}

	override empty(): boolean {
		return this.current().lines === 0;
	}

	/**
	 * What the read of the log (made now, if it was not) read past its kept summary; null where there is no log, or
	 * once this log wrote a line (the fold is no summary of the file's first lines then).
	 */
	override foldRead(): LogRead | null {
		this.current();
		return this.end === null ? null : { fold: this.end.fold, bytes: this.end.bytes };
	}

	override reread(): void {
		this.fold = null;
		this.end = null;
	}

	override appendLine(line: LogLine): void {
		super.appendLine(line);
		if (this.fold === null) return;
		// The fold as read is a summary of the log up to where the read ended no more: it is kept before any write, or not.
		this.end = null;
		// Kept as it reads back: a line is stored as its JSON.
		foldLine(this.fold, JSON.parse(JSON.stringify(line)) as LogLine);
	}

	/**
	 * Keeps the fold this log read as the summary of the log up to where the read ended (the rules say when). Only a
	 * cache: one that cannot be written is left for a later hook, and the log is read as before.
	 */
	override keepFold(fold: LogFold): void {
		const end = this.end;
		if (end === null || fold !== end.fold) return;
		try {
			this.reads.replace(this.summary, summaryText(end));
		} catch {
			// Not kept: the next hooks read the log from the last summary kept, or whole.
		}
	}

	private current(): LogFold {
		if (this.fold !== null) return this.fold;
		const read = readLog(this.reads, this.file, this.summary);
		this.end = read.end;
		this.fold = read.fold;
		this.absentAtRead = read.missing === true;
		return read.fold;
	}
}
