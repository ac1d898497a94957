// The tokens Claude Code's model calls used, read from the session transcript (`transcript_path`), which hooks are not
// otherwise told. The transcript's format is not documented: what 2.1.328 writes is one `assistant` line per content
// block, each with the response's `message.id` and its whole `usage`; a response counts once, by its id.

import type { IdLookup } from "../../core/index.ts";
import { fieldsOf, readTranscriptLines } from "../hooks/transcript-read.ts";
import type { ResponseUsage, TranscriptRead } from "../hooks/usage.ts";
import { tokensOf } from "./tokens.ts";

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
export function readTranscriptUsage(path: string, offset: number, seen: IdLookup): TranscriptRead {
	return readTranscriptLines(usageOfLine, path, offset, seen);
}
