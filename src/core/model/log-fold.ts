// A session's log folded line by line, so that a hook answers from what the lines add up to instead of the lines
// themselves, and a fold of the log's first lines can be kept (as JSON) and read on from where it ends. The lines a
// session writes most (another model call, what a response used, a run's end, how far a transcript was read) are
// added up; every other line is kept as it is, in order, so that the rules' readings of the log (run/session-log.ts)
// read the kept lines as they read the whole log. A leaf beside log-line.ts.

import { type FoldItem, isSubagentRecord } from "./history.ts";
import { IdCounts, type IdCountsJson, IdSet, type IdSetJson, idCount, idIndex } from "./id-text.ts";
import type { KeptLine, LogFold, LogLine, PromptRun, TranscriptPrompt } from "./log-line.ts";

export type { LogFold } from "./log-line.ts";

import { compactKept, type KeptJson, withoutIdAt } from "./prompt-run.ts";
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

function isRecordLine(line: KeptLine): boolean {
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
export function historyOfFold(fold: LogFold): FoldItem[] {
	const items: FoldItem[] = [];
	for (let index = 0; index < fold.kept.length; index++) {
		const line = fold.kept[index] as KeptLine;
		if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId });
		else if (line.kind === "prompts") items.push({ kind: "prompts", keys: line.ids, count: line.at.length });
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
export function dropPromptItem(items: FoldItem[], promptId: string): void {
	for (let index = items.length - 1; index >= 0; index--) {
		const item = items[index];
		if (item?.kind === "prompt" && item.key === promptId) {
			items.splice(index, 1);
			return;
		}
		const at = item?.kind === "prompts" ? idIndex(item.keys, promptId) : -1;
		if (item?.kind === "prompts" && at >= 0) {
			if (item.count === 1) items.splice(index, 1);
			else items[index] = { kind: "prompts", keys: withoutIdAt(item.keys, at, promptId), count: item.count - 1 };
			return;
		}
	}
}

/** Which model call of its run a prompt is at: the first, plus one for each call recorded after it. */
export function stepOfFold(fold: LogFold, promptId: string): number {
	return 1 + (fold.calls.get(promptId) ?? 0);
}

/**
 * The fold as JSON: what a kept summary of the log holds, compact (a hook reads it whole): prompts one after another
 * with no working folder as a run (`prompt-run.ts`), a prompt alone as its id and time, the ids of the calls, the runs'
 * ends and the responses as one text each.
 */
export interface LogFoldJson {
	kept: KeptJson[];
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
	const { kept, recordAt } = compactKept(fold.kept, fold.recordAt);
	return {
		kept,
		lines: fold.lines,
		calls: fold.calls.toJSON(),
		ended: fold.ended.toJSON(),
		responses: fold.responses.toJSON(),
		offset: fold.offset,
		usagePrompt: fold.usagePrompt,
		recordAt,
		spend: fold.spend,
	};
}

const count = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const text = (value: unknown): value is string => typeof value === "string";
const list = (value: unknown): value is unknown[] => Array.isArray(value);

/**
 * A fold from its JSON value, or null for anything that is not one this version wrote. `readLine` reads each kept line
 * as the log's own reader reads a line of the log (a line it would skip makes the whole value none), so that a damaged
 * summary never hands the readings a line the log could not hold; without it, a kept line need only be an object of a
 * kind the fold keeps.
 */
export function restoreLogFold(
	value: unknown,
	readLine?: (fields: Record<string, unknown>) => LogLine | null,
): LogFold | null {
	if (typeof value !== "object" || value === null) return null;
	const json = value as Partial<Record<keyof LogFoldJson, unknown>>;
	const { lines, offset, usagePrompt, recordAt, spend } = json;
	const kept = keptLines(json.kept, readLine);
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
function keptLines(value: unknown, readLine?: (fields: Record<string, unknown>) => LogLine | null): KeptLine[] | null {
	if (!list(value)) return null;
	// Made at its length, and a pair read by index (destructured, it takes an iterator and its results): a hook reads
	// this once, before the JIT has warmed up, and a fresh process pays for every object it makes.
	const lines = new Array<KeptLine>(value.length);
	for (let index = 0; index < value.length; index++) {
		const item = value[index];
		if (list(item)) {
			const promptId = item[0];
			const at = item[1];
			if (item.length !== 2 || !text(promptId) || !count(at)) return null;
			lines[index] = { kind: "prompt", promptId, at };
		} else if (isRun(item)) lines[index] = item;
		else if (!isLine(item)) return null;
		else {
			const line = readLine ? readLine(item as Record<string, unknown>) : (item as LogLine);
			if (line === null || ADDED_UP.has(line.kind)) return null;
			lines[index] = line;
		}
	}
	return lines;
}

/** A run of prompts as a summary keeps it: two or more ids, each ending a line, and as many times. */
function isRun(value: unknown): value is PromptRun {
	if (typeof value !== "object" || value === null) return false;
	const { kind, ids, at } = value as Partial<Record<keyof PromptRun, unknown>>;
	if (kind !== "prompts") return false;
	if (!text(ids) || !ids.endsWith("\n") || !list(at) || at.length < 2 || !at.every(count)) return false;
	return idCount(ids) === at.length;
}

/** A kept line: an object of a kind the fold keeps. */
function isLine(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const kind = (value as { kind?: unknown }).kind;
	return text(kind) && !ADDED_UP.has(kind) && kind !== "prompts";
}

function isPrompt(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const { input, from } = value as Partial<TranscriptPrompt>;
	return count(input) && count(from);
}
