// The tokens Gemini CLI's model calls used, read from the session's file (`transcript_path`), which its hooks are not
// otherwise told in full. Gemini CLI 0.61.0 writes one JSON line per message and writes a message again whenever it
// changes: an answer (`type: "gemini"`) gets its `tokens` (`input`, `output`, `cached`, `thoughts`, `tool`, `total`)
// once its stream ends. An answer counts once, by its id, with its prompt tokens and the byte its line begins at, from
// which the next request's input is bounded.

import { statSync } from "node:fs";
import type { IdLookup } from "../../core/index.ts";
import { fieldsOf, readTranscriptLines } from "../hooks/transcript-read.ts";
import type { ResponseUsage, TranscriptRead } from "../hooks/usage.ts";

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
export function readGeminiUsage(path: string, offset: number, seen: IdLookup): TranscriptRead {
	return readTranscriptLines(usageOfLine, path, offset, seen);
}

/** The size of the session's file now, or null where it cannot be read. */
export function transcriptSize(path: string): number | null {
	try {
		return statSync(path).size;
	} catch {
		return null;
	}
}
