// A session's log folded line by line, so that a hook answers from what the lines add up to instead of the lines
// themselves, and a fold of the log's first lines can be kept (as JSON) and read on from where it ends. The lines a
// session writes most (another model call, what a response used, a run's end, how far a transcript was read) are
// added up; every other line is kept as it is, in order, so that the rules' readings of the log (run/session-log.ts)
// read the kept lines as they read the whole log. A leaf beside log-line.ts.

import { type HistoryItem, isSubagentRecord, type SpendItem } from "./history.ts";
import { IdCounts, type IdCountsJson, IdSet, type IdSetJson } from "./id-text.ts";
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
		calls: new IdCounts(),
		ended: new IdSet(),
		responses: new IdSet(),
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
		calls: fold.calls.copy(),
		ended: fold.ended.copy(),
		responses: fold.responses.copy(),
		spend: fold.spend.slice(),
	};
}

/**
 * The history the rules fold (`foldHistory`), as the log's own would read: the records and prompts in order (a prompt
 * by its key alone: the fold reads no time of it), and after the newest budget record what each response used since
 * (the only usage that can count), as one item.
 */
export function historyOfFold(fold: LogFold): (HistoryItem | SpendItem)[] {
	const items: (HistoryItem | SpendItem)[] = [];
	for (let index = 0; index < fold.kept.length; index++) {
		const line = fold.kept[index] as LogLine;
		if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId });
		else if (line.kind === "prompt-dropped") dropPromptItem(items, line.promptId);
		else if (isRecordLine(line)) items.push({ kind: "record", record: line });
		if (index === fold.recordAt && fold.spend.length > 0) items.push({ kind: "spend", amounts: fold.spend });
	}
	return items;
}

/**
 * Takes the newest prompt of `promptId` out of a history being read from a log: the log says (`prompt-dropped`) that it
 * never ran after all, so it counts for nothing.
 */
export function dropPromptItem(items: (HistoryItem | SpendItem)[], promptId: string): void {
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
 * no working folder as its id and time, the ids of the calls, the runs' ends and the responses as one text each.
 */
export interface LogFoldJson {
	kept: (LogLine | [string, number])[];
	lines: number;
	calls: IdCountsJson;
	ended: IdSetJson;
	responses: IdSetJson;
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
		calls: fold.calls.toJSON(),
		ended: fold.ended.toJSON(),
		responses: fold.responses.toJSON(),
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
	const { lines, offset, usagePrompt, recordAt, spend } = json;
	const kept = keptLines(json.kept);
	if (kept === null || !count(lines) || !count(offset) || !count(recordAt)) return null;
	if (recordAt < -1 || recordAt >= kept.length || !Number.isInteger(recordAt)) return null;
	if (!list(spend) || spend.length % 2 !== 0 || !spend.every(count)) return null;
	if (usagePrompt !== null && !isPrompt(usagePrompt)) return null;
	const calls = IdCounts.fromJSON(json.calls);
	const ended = IdSet.fromJSON(json.ended);
	const responses = IdSet.fromJSON(json.responses);
	if (calls === null || ended === null || responses === null) return null;
	return {
		kept,
		lines,
		calls,
		ended,
		responses,
		offset,
		usagePrompt: usagePrompt as TranscriptPrompt | null,
		recordAt,
		spend,
	};
}

/** The kept lines of a fold's JSON, or null where one is not a line the fold keeps. */
function keptLines(value: unknown): LogLine[] | null {
	if (!list(value)) return null;
	// Made at its length, and a pair read by index (destructured, it takes an iterator and its results): a hook reads
	// this once, before the JIT has warmed up, and a fresh process pays for every object it makes.
	const lines = new Array<LogLine>(value.length);
	for (let index = 0; index < value.length; index++) {
		const item = value[index];
		if (list(item)) {
			const promptId = item[0];
			const at = item[1];
			if (item.length !== 2 || !text(promptId) || !count(at)) return null;
			lines[index] = { kind: "prompt", promptId, at };
		} else if (isLine(item)) lines[index] = item as LogLine;
		else return null;
	}
	return lines;
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
