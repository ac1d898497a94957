// The kept summary of a hook host's session log: the log's fold (the core's `LogFold`) up to a byte offset, in
// `<data>/sessions/<id>.fold.json`, so that a hook reads only the lines after it. Only a cache: a summary is read only
// while it still holds for the log (its version, the offset within the log and at the end of a line, the log's first
// bytes and those just before the offset unchanged, the same file, its own text whole and a fold this version reads),
// and on any doubt the whole log is read as before. It is written to a new file renamed over the old (a reader sees the old or the new whole); two
// hooks that write one at once both write a true summary of the log's start, and either may stay.

import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import {
	copyLogFold,
	emptyLogFold,
	foldLine,
	LOG_FOLD_CHECK_BYTES,
	LOG_FOLD_VERSION,
	type LogFold,
	restoreLogFold,
	serialiseLogFold,
} from "../../core/index.ts";
import { named } from "./append-line.ts";
import { eachLogLine, readLogLine } from "./log-lines.ts";

/** What the summary's file ends with, after the session's id. */
export const SUMMARY_SUFFIX = ".fold.json";

/** The file calls a log's read and its summary make, Node's by default; a test hands in one that counts or fails. */
export interface LogFiles {
	/** Opens the log to read; null where there is none (nor a folder it could be in). */
	open(path: string): number | null;
	/** The open log's size and file (its inode). */
	stat(fd: number): { size: number; ino: number };
	/** `length` bytes of the open log from `position` (fewer at its end). */
	read(fd: number, length: number, position: number): Buffer;
	close(fd: number): void;
	/** The summary's text; null where there is none or it cannot be read. */
	readText(path: string): string | null;
	/** Writes `text` as the file at `path`, whole or not at all (a new file renamed over it). */
	replace(path: string, text: string): void;
}

export const nodeLogFiles: LogFiles = {
	open(path) {
		try {
			return openSync(path, "r");
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOENT" || code === "ENOTDIR") return null;
			throw error;
		}
	},
	stat(fd) {
		const stats = fstatSync(fd);
		return { size: stats.size, ino: stats.ino };
	},
	read(fd, length, position) {
		const buffer = Buffer.alloc(length);
		let done = 0;
		while (done < length) {
			const got = readSync(fd, buffer, done, length - done, position + done);
			if (got === 0) break;
			done += got;
		}
		return buffer.subarray(0, done);
	},
	close: (fd) => closeSync(fd),
	readText(path) {
		try {
			return readFileSync(path, "utf8");
		} catch {
			return null;
		}
	},
	replace(path, text) {
		const draft = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
		try {
			writeFileSync(draft, text, { flag: "wx" });
			renameSync(draft, path);
		} catch (error) {
			rmSync(draft, { force: true });
			throw error;
		}
	},
};

/** Where a read of the log ended, with what a summary kept there checks. */
export interface ReadEnd {
	/** The fold of the log's whole lines up to `offset` (never changed after: a writer copies it first). */
	fold: LogFold;
	/** The byte after the last whole line read. */
	offset: number;
	/** How many bytes were read past the kept summary (all of them without one). */
	bytes: number;
	ino: number;
	/** The log's first bytes, and those just before `offset`. */
	head: Buffer;
	back: Buffer;
}

/** A log as read: its fold now (a torn last line included, as a whole read has it), and where the whole lines end. */
export interface LogAsRead {
	fold: LogFold;
	end: ReadEnd | null;
	/** The log was not there (nor, maybe, its folder): read as empty. */
	missing?: true;
}

/** The summary's first line: what it checks of the log, and the length of its fold's text (the line after it). */
interface Header {
	version: number;
	offset: number;
	ino: number;
	head: string;
	back: string;
	length: number;
}

/** Reads the log at `path`: from its kept summary at `summaryPath` where that holds, else whole. */
export function readLog(files: LogFiles, path: string, summaryPath: string): LogAsRead {
	let fd: number | null;
	try {
		fd = files.open(path);
	} catch (error) {
		throw named(path, error);
	}
	if (fd === null) return { fold: emptyLogFold(), end: null, missing: true };
	try {
		const { size, ino } = files.stat(fd);
		const kept = keptSummary(files, fd, summaryPath, size, ino);
		const start = kept?.offset ?? 0;
		// The bytes a summary at the end of this read checks just before its offset are read with the rest.
		const from = Math.max(0, start - LOG_FOLD_CHECK_BYTES);
		const bytes = files.read(fd, size - from, from);
		const fold = kept?.fold ?? emptyLogFold();
		const whole = bytes.lastIndexOf(0x0a) + 1;
		eachLogLine(bytes.subarray(start - from, Math.max(whole, start - from)).toString("utf8"), (line) =>
			foldLine(fold, line),
		);
		const offset = Math.max(from + whole, start);
		// The log's first bytes: those the kept summary checked where they are all there are to check, else read now.
		const head =
			kept?.head.length === LOG_FOLD_CHECK_BYTES
				? kept.head
				: bytes.subarray(0, Math.min(LOG_FOLD_CHECK_BYTES, offset));
		const back = bytes.subarray(Math.max(0, offset - LOG_FOLD_CHECK_BYTES) - from, offset - from);
		const end: ReadEnd = { fold, offset, bytes: offset - start, ino, head: Buffer.from(head), back: Buffer.from(back) };
		// A last line with no newline yet (torn, or still being written) is read as a whole read reads it, and never kept.
		const torn = bytes.subarray(offset - from).toString("utf8");
		if (torn.length === 0) return { fold, end };
		const withTorn = copyLogFold(fold);
		eachLogLine(torn, (line) => foldLine(withTorn, line));
		return { fold: withTorn, end };
	} catch (error) {
		throw named(path, error);
	} finally {
		files.close(fd);
	}
}

/** The kept summary, where it holds for the log (open at `fd`, `size` bytes, inode `ino`); null on any doubt. */
function keptSummary(
	files: LogFiles,
	fd: number,
	summaryPath: string,
	size: number,
	ino: number,
): { fold: LogFold; offset: number; head: Buffer } | null {
	const text = files.readText(summaryPath);
	if (text === null) return null;
	const split = text.indexOf("\n");
	const header = headerOf(text.slice(0, split));
	if (header === null || header.version !== LOG_FOLD_VERSION || header.ino !== ino) return null;
	const { offset } = header;
	if (!Number.isInteger(offset) || offset <= 0 || offset > size) return null;
	const body = text.slice(split + 1);
	if (split < 0 || body.length !== header.length) return null;
	const head = files.read(fd, Math.min(LOG_FOLD_CHECK_BYTES, offset), 0);
	const backFrom = Math.max(0, offset - LOG_FOLD_CHECK_BYTES);
	const back = files.read(fd, offset - backFrom, backFrom);
	// The summary ends at the end of a line, and the log's bytes it checks are still the same.
	if (back.at(-1) !== 0x0a || !head.equals(Buffer.from(header.head, "base64"))) return null;
	if (!back.equals(Buffer.from(header.back, "base64"))) return null;
	let fold: LogFold | null;
	try {
		fold = restoreLogFold(JSON.parse(body), readLogLine);
	} catch {
		return null;
	}
	return fold === null ? null : { fold, offset, head };
}

function headerOf(line: string): Header | null {
	try {
		const value: unknown = JSON.parse(line);
		if (typeof value !== "object" || value === null) return null;
		const { version, offset, ino, head, back, length } = value as Partial<Header>;
		const numbers = [version, offset, ino, length].every((field) => typeof field === "number");
		return numbers && typeof head === "string" && typeof back === "string" ? (value as Header) : null;
	} catch {
		return null;
	}
}

/** The summary of the log that a read ended at, as its file's text. */
export function summaryText(end: ReadEnd): string {
	const body = JSON.stringify(serialiseLogFold(end.fold));
	const header: Header = {
		version: LOG_FOLD_VERSION,
		offset: end.offset,
		ino: end.ino,
		head: end.head.toString("base64"),
		back: end.back.toString("base64"),
		length: body.length,
	};
	return `${JSON.stringify(header)}\n${body}`;
}
