// The tokens Gemini CLI's model calls used, read from the session's file (`transcript_path`), which its hooks are not
// otherwise told in full. Gemini CLI 0.61.0 writes one JSON line per message and writes a message again whenever it
// changes: an answer (`type: "gemini"`) gets its `tokens` (`input`, `output`, `cached`, `thoughts`, `tool`, `total`)
// once its stream ends. An answer counts once, by its id, with its prompt tokens and the byte its line begins at, from
// which the next request's input is bounded.

import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { ResponseUsage, TranscriptRead } from "../hooks/usage.ts";

/** The most of the file one hook reads: a hook never stalls on a huge file, and the next one goes on from there. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

function fieldsOf(value: unknown): Record<string, unknown> | null {
	return typeof value === "object" && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** The usage of one line beginning at byte `from`: an answer's, null for a line without it, or "unreadable". */
function usageOfLine(raw: string, from: number): ResponseUsage | null | "unreadable" {
	let line: Record<string, unknown> | null;
	try {
		line = fieldsOf(JSON.parse(raw));
	} catch {
		return null;
	}
	if (line?.type !== "gemini" || line.tokens === undefined) return null;
	const tokens = fieldsOf(line.tokens);
	if (typeof line.id !== "string" || tokens === null || typeof tokens.input !== "number") return "unreadable";
	const parts = count(tokens.input) + count(tokens.output) + count(tokens.thoughts) + count(tokens.tool);
	return { id: line.id, tokens: count(tokens.total) || parts, prompt: { input: count(tokens.input), from } };
}

/**
 * Reads the file at `path` from byte `offset` up to its last whole line, and returns each answer whose id is not in
 * `seen`, once. A missing or unreadable file reads as nothing new.
 */
export function readGeminiUsage(path: string, offset: number, seen: ReadonlySet<string>): TranscriptRead {
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
		// A line longer than one read is no answer's usage: it is skipped, not waited for forever.
		if (end < 0) return read === MAX_READ_BYTES ? { ...nothing, offset: offset + read } : nothing;
		const found = new Set(seen);
		const responses: ResponseUsage[] = [];
		let unreadable = false;
		let from = offset;
		for (const raw of buffer.subarray(0, end).toString("utf8").split("\n")) {
			const usage = usageOfLine(raw, from);
			from += Buffer.byteLength(raw, "utf8") + 1;
			if (usage === "unreadable") unreadable = true;
			else if (usage && !found.has(usage.id)) {
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

/** The size of the session's file now, or null where it cannot be read. */
export function transcriptSize(path: string): number | null {
	try {
		return statSync(path).size;
	} catch {
		return null;
	}
}
