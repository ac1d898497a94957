// Appending a line to a JSONL file so that a torn line never swallows the next: a process killed mid-write leaves a
// line with no newline at the end of the file, and a line appended after it would join it (both lost to the reader).
// So the last byte is looked at first, and a newline is put before the new line when it is missing: the torn line
// stays a line of its own, which readers skip, and every line after it reads whole. One open, one stat, a one-byte
// read and one write (O_APPEND: parallel appenders never interleave a small line). Claude Code's hooks module keeps the
// same rule in `sh` (function-hooks/daily.ts); one table of cases runs on both (tests/support/torn-lines.ts).

import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";

/** The calls an append makes, Node's by default; a test hands in one that fails where it is told to. */
export interface AppendFiles {
	openAppend(path: string): number;
	size(fd: number): number;
	/** The byte at `position`, as a one-character string. */
	byteAt(fd: number, position: number): string;
	write(fd: number, text: string): void;
	close(fd: number): void;
}

export const nodeAppendFiles: AppendFiles = {
	openAppend: (path) => openSync(path, "a+"),
	size: (fd) => fstatSync(fd).size,
	byteAt(fd, position) {
		const byte = Buffer.alloc(1);
		readSync(fd, byte, 0, 1, position);
		return byte.toString("latin1");
	},
	write: (fd, text) => {
		writeSync(fd, text);
	},
	close: (fd) => closeSync(fd),
};

/** Appends `line` (ending in a newline) to `path`, made when missing: the file's size before and after. */
export function appendLine(
	path: string,
	line: string,
	files: AppendFiles = nodeAppendFiles,
): { before: number; after: number } {
	let fd: number;
	try {
		fd = files.openAppend(path);
	} catch (error) {
		throw named(path, error);
	}
	try {
		const before = files.size(fd);
		const torn = before > 0 && files.byteAt(fd, before - 1) !== "\n";
		files.write(fd, torn ? `\n${line}` : line);
		return { before, after: files.size(fd) };
	} catch (error) {
		throw named(path, error);
	} finally {
		files.close(fd);
	}
}

/**
 * A write that failed, naming the file (Node names none for a failed write: a full disk said nothing of where). What
 * Node's file calls throw is an Error with a code, always.
 */
export function named(path: string, error: unknown): Error {
	const failed = error as NodeJS.ErrnoException;
	if (failed.message.includes(path)) return failed;
	return Object.assign(new Error(`${failed.message} (${path})`), { code: failed.code });
}
