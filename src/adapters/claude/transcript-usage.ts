// The tokens Claude Code's model calls used, read from the session transcript (`transcript_path`), which hooks are not
// otherwise told. The transcript's format is not documented: what 2.1.328 writes is one `assistant` line per content
// block, each with the response's `message.id` and its whole `usage`; a response counts once, by its id.

import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { ResponseUsage, TranscriptRead } from "../hooks/usage.ts";
import { tokensOf } from "./tokens.ts";

/** The most of the transcript one hook reads: a hook never stalls on a huge file, and the next one goes on from there. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

function fieldsOf(value: unknown): Record<string, unknown> | null {
	return typeof value === "object" && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;
}

/** The usage of one transcript line: a response's, null for a line that is not an answer, or "unreadable". */
function usageOfLine(raw: string): ResponseUsage | null | "unreadable" {
	let line: Record<string, unknown> | null;
	try {
		line = fieldsOf(JSON.parse(raw));
	} catch {
		return null;
	}
	if (line?.type !== "assistant") return null;
	const message = fieldsOf(line.message);
	const usage = fieldsOf(message?.usage);
	if (typeof message?.id !== "string" || !usage || typeof usage.input_tokens !== "number") return "unreadable";
	return { id: message.id, tokens: tokensOf(usage) };
}

/**
 * Reads the transcript at `path` from byte `offset` up to its last whole line, and returns each response whose id is not
 * in `seen`, once. A missing or unreadable file reads as nothing new.
 */
export function readTranscriptUsage(path: string, offset: number, seen: ReadonlySet<string>): TranscriptRead {
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
		const text = buffer.subarray(0, read).toString("utf8");
		const end = text.lastIndexOf("\n");
		// A line longer than one read (a large image, say) is no answer's usage: it is skipped, not waited for forever.
		if (end < 0) return read === MAX_READ_BYTES ? { ...nothing, offset: offset + read } : nothing;
		const found = new Set(seen);
		const responses: ResponseUsage[] = [];
		let unreadable = false;
		for (const raw of text.slice(0, end).split("\n")) {
			const usage = usageOfLine(raw);
			if (usage === "unreadable") unreadable = true;
			else if (usage && !found.has(usage.id)) {
				found.add(usage.id);
				responses.push(usage);
			}
		}
		return { responses, offset: offset + Buffer.byteLength(text.slice(0, end + 1), "utf8"), unreadable };
	} catch {
		return nothing;
	} finally {
		closeSync(fd);
	}
}
