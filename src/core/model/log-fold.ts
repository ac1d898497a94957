// A session's log folded line by line, so that a hook answers from what the lines add up to instead of the lines
// themselves, and a fold of the log's first lines can be kept (as JSON) and read on from where it ends. The lines a
// session writes most (another model call, what a response used, a run's end, how far a transcript was read) are
// added up; every other line is kept as it is, in order, so that the rules' readings of the log (run/session-log.ts)
// read the kept lines as they read the whole log. A leaf beside log-line.ts.

import { type HistoryItem, isSubagentRecord } from "./history.ts";
import type { LogFold, LogLine, TranscriptPrompt } from "./log-line.ts";

export type { LogFold } from "./log-line.ts";

import { parseRecord } from "./records.ts";

/** The kinds of line a fold adds up instead of keeping. */
const ADDED_UP: ReadonlySet<string> = new Set(["call", "usage", "ended", "transcript"]);

/** The fold of an empty log. */
export function emptyLogFold(): LogFold {
	return {
		kept: [],
		lines: 0,
		calls: new Map(),
		ended: new Set(),
		responses: new Set(),
		offset: 0,
		usagePrompt: null,
		recordAt: -1,
		spend: [],
	};
}

/** Adds one line (read back or written) to the fold. */
export function foldLine(fold: LogFold, line: LogLine): void {
	fold.lines++;
	switch (line.kind) {
		case "call":
			fold.calls.set(line.promptId, (fold.calls.get(line.promptId) ?? 0) + 1);
			return;
		case "ended":
			fold.ended.add(line.promptId);
			return;
		case "transcript":
			fold.offset = Math.max(fold.offset, line.offset);
			return;
		case "usage":
			if (line.offset !== undefined) fold.offset = Math.max(fold.offset, line.offset);
			if (line.prompt !== undefined) fold.usagePrompt = line.prompt;
			if (fold.responses.has(line.responseId)) return;
			fold.responses.add(line.responseId);
			// Usage before the newest budget record never counts, whatever comes after it.
			if (fold.recordAt >= 0) fold.spend.push(line.tokens, line.cost ?? 0);
			return;
		default:
			fold.kept.push(line);
			if (isRecordLine(line) && !isSubagentRecord(line) && parseRecord(line) !== null) {
				fold.recordAt = fold.kept.length - 1;
				fold.spend = [];
			}
	}
}

function isRecordLine(line: LogLine): boolean {
	return line.kind === "active" || line.kind === "off" || line.kind === "subagents" || line.kind === "subagent";
}

/** A copy of a fold that the original's later lines leave alone. */
export function copyLogFold(fold: LogFold): LogFold {
	return {
		...fold,
		kept: fold.kept.slice(),
		calls: new Map(fold.calls),
		ended: new Set(fold.ended),
		responses: new Set(fold.responses),
		spend: fold.spend.slice(),
	};
}

/**
 * The history the rules fold (`foldHistory`), as the log's own would read: the records and prompts in order, and after
 * the newest budget record what each response used since (the only usage that can count).
 */
export function historyOfFold(fold: LogFold): HistoryItem[] {
	const items: HistoryItem[] = [];
	for (let index = 0; index < fold.kept.length; index++) {
		const line = fold.kept[index] as LogLine;
		if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId, at: line.at });
		else if (line.kind === "prompt-dropped") dropPromptItem(items, line.promptId);
		else if (isRecordLine(line)) items.push({ kind: "record", record: line });
		if (index === fold.recordAt) {
			const spend = fold.spend;
			for (let at = 0; at < spend.length; at += 2) {
				items.push({ kind: "usage", tokens: spend[at] as number, cost: spend[at + 1] as number });
			}
		}
	}
	return items;
}

/**
 * Takes the newest prompt of `promptId` out of a history being read from a log: the log says (`prompt-dropped`) that it
 * never ran after all, so it counts for nothing.
 */
export function dropPromptItem(items: HistoryItem[], promptId: string): void {
	for (let index = items.length - 1; index >= 0; index--) {
		const item = items[index];
		if (item?.kind === "prompt" && item.key === promptId) {
			items.splice(index, 1);
			return;
		}
	}
}

/** Which model call of its run a prompt is at: the first, plus one for each call recorded after it. */
export function stepOfFold(fold: LogFold, promptId: string): number {
	return 1 + (fold.calls.get(promptId) ?? 0);
}

/**
 * The fold as JSON: what a kept summary of the log holds, compact (a hook reads it whole): a prompt's line that keeps
 * no working folder as its id and time, the calls as ids and counts in turn.
 */
export interface LogFoldJson {
	kept: (LogLine | [string, number])[];
	lines: number;
	calls: (string | number)[];
	ended: string[];
	responses: string[];
	offset: number;
	usagePrompt: TranscriptPrompt | null;
	recordAt: number;
	spend: number[];
}

/** The fold as a JSON value, which `restoreLogFold` reads back as the same fold. */
export function serialiseLogFold(fold: LogFold): LogFoldJson {
	return {
		kept: fold.kept.map((line) => (line.kind === "prompt" && line.cwd === undefined ? [line.promptId, line.at] : line)),
		lines: fold.lines,
		calls: [...fold.calls].flat(),
		ended: [...fold.ended],
		responses: [...fold.responses],
		offset: fold.offset,
		usagePrompt: fold.usagePrompt,
		recordAt: fold.recordAt,
		spend: fold.spend,
	};
}

const count = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const text = (value: unknown): value is string => typeof value === "string";
const list = (value: unknown): value is unknown[] => Array.isArray(value);

/** A fold from its JSON value, or null for anything that is not one this version wrote. */
export function restoreLogFold(value: unknown): LogFold | null {
	if (typeof value !== "object" || value === null) return null;
	const json = value as Partial<Record<keyof LogFoldJson, unknown>>;
	const { lines, calls, ended, responses, offset, usagePrompt, recordAt, spend } = json;
	const kept = keptLines(json.kept);
	if (kept === null || !count(lines) || !count(offset) || !count(recordAt)) return null;
	if (recordAt < -1 || recordAt >= kept.length || !Number.isInteger(recordAt)) return null;
	if (!list(ended) || !ended.every(text) || !list(responses) || !responses.every(text)) return null;
	if (!list(spend) || spend.length % 2 !== 0 || !spend.every(count)) return null;
	if (usagePrompt !== null && !isPrompt(usagePrompt)) return null;
	const callCounts = callsOf(calls);
	if (callCounts === null) return null;
	return {
		kept,
		lines,
		calls: callCounts,
		ended: new Set(ended),
		responses: new Set(responses),
		offset,
		usagePrompt: usagePrompt as TranscriptPrompt | null,
		recordAt,
		spend,
	};
}

/** The kept lines of a fold's JSON, or null where one is not a line the fold keeps. */
function keptLines(value: unknown): LogLine[] | null {
	if (!list(value)) return null;
	const lines: LogLine[] = [];
	for (let index = 0; index < value.length; index++) {
		const item = value[index];
		if (list(item)) {
			const [promptId, at] = item;
			if (item.length !== 2 || !text(promptId) || !count(at)) return null;
			lines.push({ kind: "prompt", promptId, at });
		} else if (isLine(item)) lines.push(item as LogLine);
		else return null;
	}
	return lines;
}

/** The calls of a fold's JSON (ids and counts in turn), or null. */
function callsOf(value: unknown): Map<string, number> | null {
	if (!list(value) || value.length % 2 !== 0) return null;
	const calls = new Map<string, number>();
	for (let index = 0; index < value.length; index += 2) {
		const id = value[index];
		const made = value[index + 1];
		if (!text(id) || !count(made)) return null;
		calls.set(id, made);
	}
	return calls;
}

/** A kept line: an object of a kind the fold keeps. */
function isLine(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const kind = (value as { kind?: unknown }).kind;
	return text(kind) && !ADDED_UP.has(kind);
}

function isPrompt(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const { input, from } = value as Partial<TranscriptPrompt>;
	return count(input) && count(from);
}
