// SessionStore for the hosts whose sessions keep no Timebox records of their own (the hook hosts, opencode): one
// append-only JSONL file per session under Timebox's data folder, safe to append from parallel processes. It holds the
// budget records, the prompts counted and what the model calls used.

import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
	type Clock,
	type FoldedHistory,
	foldHistory,
	type HistoryItem,
	type IdLookup,
	type KeptLine,
	type LogFold,
	type LogRead,
	type RecordedUsage,
	type SessionStore,
	SpecSessionStore,
	type TimeboxRecord,
	type TranscriptPrompt,
} from "../../core/index.ts";
import { type AppendFiles, appendLine, named, nodeAppendFiles } from "./append-line.ts";
import { eachLogLine, historyOf, type LogLine } from "./log-lines.ts";
import { systemClock } from "./node-time.ts";

/**
 * A session's log: budget records (`active`, `off`), the prompts counted (`prompt`) and what responses used
 * (`usage`, with how far the transcript was read), one JSON object a line.
 */
export class SessionLog extends SpecSessionStore {
	protected readonly folder: string;
	protected readonly file: string;
	/** The lines as read once, with those written since, where the log is read once (one hook's life). */
	private read: LogLine[] | null = null;

	/** The working folder the session runs in, kept with each prompt where the host says it (`setCwd`). */
	private cwd: string | null = null;
	/** Whether the file was not there (nor, maybe, its folder) when it was last read. */
	private absent = false;

	/**
	 * `readOnce`: the file is read at the first look and kept, with what this log writes added (a hook is one short
	 * process: it folds its session once); else every look reads the file again.
	 */
	constructor(
		dataDir: string,
		sessionId: string,
		private readonly clock: Clock = systemClock,
		private readonly readOnce = false,
		protected readonly files: AppendFiles = nodeAppendFiles,
	) {
		super();
		this.folder = join(dataDir, "sessions");
		this.file = join(this.folder, `${sessionId}.jsonl`);
	}

	append(record: TimeboxRecord): void {
		this.appendLine({ ...record });
	}

	/**
	 * The working folder the session runs in, as the host says: each prompt's line keeps it, so that the sessions of a
	 * project can be found (a suggested budget is made of them). Nothing for an empty folder.
	 */
	setCwd(cwd: string | null): this {
		this.cwd = cwd === null || cwd.length === 0 ? null : cwd;
		return this;
	}

	/** The working folder the session ran in: the first one a prompt's line kept, or null. */
	project(): string | null {
		const lines = this.lines();
		for (let index = 0; index < lines.length; index++) {
			const line = lines[index] as LogLine;
			if (line.kind === "prompt" && line.cwd !== undefined) return line.cwd;
		}
		return null;
	}

	/** Records a prompt that ran (the rules say which), at `at` or now. */
	appendPrompt(promptId: string, at = this.clock.now()): void {
		this.appendLine(
			this.cwd === null ? { kind: "prompt", promptId, at } : { kind: "prompt", promptId, at, cwd: this.cwd },
		);
	}

	/** Records that a prompt it kept never ran after all (the rules say which): it counts for nothing from then on. */
	dropPrompt(promptId: string, at = this.clock.now()): void {
		this.appendLine({ kind: "prompt-dropped", promptId, at });
	}

	/** Which model call of its run the prompt is at: the first, plus one for each call recorded after it. */
	stepOf(promptId: string): number {
		let step = 1;
		for (const line of this.lines()) if (line.kind === "call" && line.promptId === promptId) step++;
		return step;
	}

	/**
	 * Records what a response used, and how far the transcript it was read from was read (none for a host that reports
	 * usage itself).
	 */
	appendUsage(
		responseId: string,
		used: { tokens: number; cost?: number },
		at: number,
		offset?: number,
		prompt?: TranscriptPrompt,
	): void {
		this.appendLine({
			kind: "usage",
			responseId,
			...used,
			at,
			...(offset === undefined ? {} : { offset }),
			...(prompt === undefined ? {} : { prompt }),
		});
	}

	/** Keeps what a response used, as the rules say (`recordUsage`). */
	recordUsage(usage: RecordedUsage): void {
		this.appendUsage(usage.responseId, usage.used, usage.at, usage.offset, usage.prompt);
	}

	/** The prompt of the latest response whose transcript record says where it begins, or null. */
	latestPrompt(): TranscriptPrompt | null {
		const lines = this.lines();
		for (let at = lines.length - 1; at >= 0; at--) {
			const line = lines[at];
			if (line?.kind === "usage" && line.prompt !== undefined) return line.prompt;
		}
		return null;
	}

	/** How far the transcript was read, and the responses already counted. */
	transcriptProgress(): { offset: number; seen: IdLookup } {
		let offset = 0;
		const seen = new Set<string>();
		for (const line of this.lines()) {
			if (line.kind === "usage") seen.add(line.responseId);
			const read = line.kind === "usage" || line.kind === "transcript" ? line.offset : undefined;
			if (read !== undefined) offset = Math.max(offset, read);
		}
		return { offset, seen };
	}

	/**
	 * The log as history: budget records, prompts and what responses used, oldest first. A response two hooks counted at
	 * once counts once.
	 */
	history(): HistoryItem[] {
		return historyOf(this.wholeLines());
	}

	/** The history as the rules fold it. */
	foldedHistory(): FoldedHistory {
		return foldHistory(this.history());
	}

	/** Whether the run of `promptId` ended. */
	runEnded(promptId: string): boolean {
		return this.lines().some((line) => line.kind === "ended" && line.promptId === promptId);
	}

	/** Whether the log holds no readable line. */
	empty(): boolean {
		return this.lines().length === 0;
	}

	/** What a read of the log read past a kept summary of it: nothing, as this log keeps none (`FoldedSessionLog` does). */
	foldRead(): LogRead | null {
		return null;
	}

	/** Keeps a fold of the log as its summary: nothing here, as this log keeps none. */
	keepFold(_fold: LogFold): void {}

	/**
	 * Every readable line of the log, oldest first; a torn or hand-edited line is skipped. A log read from a kept summary
	 * (`FoldedSessionLog`) may hold runs of prompts as one (the core's `KeptLine`).
	 */
	lines(): KeptLine[] {
		return this.wholeLines();
	}

	/** Every readable line of the log, oldest first, as read whole. */
	protected wholeLines(): LogLine[] {
		if (!this.readOnce) return this.readFile();
		this.read ??= this.readFile();
		return this.read;
	}

	/** Reads the file again at the next look (a watcher looks every second at what other processes wrote). */
	reread(): void {
		this.read = null;
	}

	/** Whether the log was not there (nor, maybe, its folder) when it was last read: read as empty. */
	missing(): boolean {
		return this.absent;
	}

	protected readFile(): LogLine[] {
		let text: string;
		this.absent = false;
		try {
			text = readFileSync(this.file, "utf8");
		} catch (error) {
			// No log yet (nor a folder it could be in) is an empty one; a log that is there and cannot be read (a folder in
			// its place, no permission) is an error, which names the file: read as empty, a spent budget would be spent no more.
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOENT" || code === "ENOTDIR") {
				this.absent = true;
				return [];
			}
			throw named(this.file, error);
		}
		const lines: LogLine[] = [];
		eachLogLine(text, (line) => lines.push(line));
		return lines;
	}

	/**
	 * Appends one line; a single small append is written whole even when hooks run in parallel, and a line torn by a
	 * process killed mid-write stays apart from it (`append-line.ts`).
	 */
	appendLine(line: LogLine): void {
		mkdirSync(this.folder, { recursive: true });
		appendLine(this.file, `${JSON.stringify(line)}\n`, this.files);
		// Kept as it reads back: a line is stored as its JSON.
		this.read?.push(JSON.parse(JSON.stringify(line)) as LogLine);
	}
}

/**
 * The log as the store of an in-process host's rules (opencode): a prompt or a response's usage the log cannot keep is
 * told (`told`; the live session tells each problem once) and never stops the rules: the budget is enforced all the
 * same, only a restart would not know what went unrecorded. A record it cannot keep is the failure of its event.
 */
export function toldStore(log: SessionLog, told: (error: unknown) => void): SessionStore {
	const kept = (write: () => void): void => {
		try {
			write();
		} catch (error) {
			told(error);
		}
	};
	return {
		append: (record) => log.append(record),
		appendPrompt: (key) => kept(() => log.appendPrompt(key)),
		recordUsage: (usage) => kept(() => log.recordUsage(usage)),
		history: () => log.history(),
	};
}
