// One read of a host's session transcript since the last hook (Claude Code's, Gemini CLI's): from a byte offset up to
// the file's last whole line, each line's usage as the host's format reads it, every response once by its id. What a
// line means is the host's (`LineUsage`); how far a hook reads, and what it skips, is this file's.

import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { IdLookup } from "../../core/index.ts";
import type { ResponseUsage, TranscriptRead } from "./usage.ts";

/** The most of the file one hook reads: a hook never stalls on a huge file, and the next one goes on from there. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** The usage of one line beginning at byte `from`: a response's, null for a line without it, or "unreadable". */
export type LineUsage = (raw: string, from: number) => ResponseUsage | null | "unreadable";

/** A line's JSON object, or null for anything else. */
export function fieldsOf(value: unknown): Record<string, unknown> | null {
	return typeof value === "object" && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;
}

/**
 * Reads the file at `path` from byte `offset` up to its last whole line, and returns each response whose id is not in
 * `seen`, once. A missing or unreadable file reads as nothing new.
 */
export function readTranscriptLines(
	usageOfLine: LineUsage,
	path: string,
	offset: number,
	seen: IdLookup,
): TranscriptRead {
	const nothing: TranscriptRead = { responses: [], offset, unreadable: false };
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch {
		return nothing;
	}
	try {
		const size = statSync(path).size;
		if (size <= offset) return { ...nothing, offset: Math.min(offset, size) };
		const buffer = Buffer.alloc(Math.min(size - offset, MAX_READ_BYTES));
		const read = readSync(fd, buffer, 0, buffer.length, offset);
		const end = buffer.subarray(0, read).lastIndexOf(10);
		// A line longer than one read (a large image, say) is no answer's usage: it is skipped, not waited for forever.
		if (end < 0) return read === MAX_READ_BYTES ? { ...nothing, offset: offset + read } : nothing;
		const found = new Set<string>();
		const responses: ResponseUsage[] = [];
		let unreadable = false;
		let from = offset;
		for (const raw of buffer.subarray(0, end).toString("utf8").split("\n")) {
			const usage = usageOfLine(raw, from);
			from += Buffer.byteLength(raw, "utf8") + 1;
			if (usage === "unreadable") unreadable = true;
			else if (usage && !seen.has(usage.id) && !found.has(usage.id)) {
				found.add(usage.id);
				responses.push(usage);
			}
		}
		return { responses, offset: offset + end + 1, unreadable };
	} catch {
		return nothing;
	} finally {
		closeSync(fd);
	}
}
