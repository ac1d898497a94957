// The reading of a session's log as it was written (by this version or an earlier one; the typed union of the lines is
// the core's, `LogLine`): each line, so that a torn, hand-edited or unknown line is skipped, never misread; and the
// lines as the history the rules fold.

import {
	dropPromptItem,
	type HistoryItem,
	type LedgerClaim,
	type LogLine,
	type TranscriptPrompt,
} from "../../core/index.ts";

export type { LogLine } from "../../core/index.ts";

type Fields = Record<string, unknown>;

const text = (value: unknown): value is string => typeof value === "string";
const count = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

const PROMPT_KINDS = new Set(["call", "ended", "daily-stopped", "daily-ended", "prompt-dropped"]);

/**
 * A line of the log as the typed line it is, or null for one that is not (torn, hand-edited, from elsewhere). A line of
 * the kinds a session writes most (a prompt, another model call, a run's end, what a response used), read back whole
 * as it was written, is taken as it is: a hook reads every line of its session's log, before the JIT has warmed up.
 */
export function readLogLine(fields: Fields): LogLine | null {
	const kind = fields.kind;
	if (kind === "active" || kind === "off" || kind === "subagents" || kind === "subagent") return { ...fields, kind };
	if (kind === "prompt") {
		if (!text(fields.promptId)) return null;
		const line: LogLine = { kind: "prompt", promptId: fields.promptId, at: atOf(fields) };
		return text(fields.cwd) ? { ...line, cwd: fields.cwd } : line;
	}
	if (PROMPT_KINDS.has(String(kind))) {
		if (!text(fields.promptId)) return null;
		// As written: taken as it is (a line of the log is never changed once read).
		if (count(fields.at)) return fields as LogLine;
		return { kind, promptId: fields.promptId, at: 0 } as LogLine;
	}
	switch (kind) {
		case "usage":
			if (!text(fields.responseId)) return null;
			return usageAsWritten(fields) ? (fields as LogLine) : usageLine(fields, fields.responseId);
		case "transcript":
			return count(fields.offset) ? { kind, offset: fields.offset } : null;
		case "transcript-unreadable":
		case "default-said":
		case "told":
			return { kind, at: atOf(fields) };
		case "untold":
			return { kind, notices: Array.isArray(fields.notices) ? fields.notices.map(String) : [], at: atOf(fields) };
		case "daily-warned":
			return text(fields.level) ? { kind, level: fields.level, at: atOf(fields) } : null;
		case "claim":
			return claimLine(fields);
		case "spent":
			return count(fields.budgetStart)
				? {
						kind,
						budgetStart: fields.budgetStart,
						usedTurns: count(fields.usedTurns) ? fields.usedTurns : 0,
						elapsedMs: count(fields.elapsedMs) ? fields.elapsedMs : 0,
						promptId: text(fields.promptId) ? fields.promptId : null,
					}
				: null;
		case "nudged":
			return count(fields.budgetStart) ? { kind, budgetStart: fields.budgetStart } : null;
		case "spawn":
			return text(fields.agentType) && text(fields.task)
				? {
						kind,
						id: text(fields.id) ? fields.id : null,
						agent: text(fields.agent) ? fields.agent : null,
						agentType: fields.agentType,
						task: fields.task,
						at: atOf(fields),
					}
				: null;
		case "spawn-taken":
			return count(fields.index) && text(fields.agent)
				? { kind, index: fields.index, agent: fields.agent, at: atOf(fields) }
				: null;
		case "spawn-refused":
			return text(fields.agent) && text(fields.reason)
				? { kind, agent: fields.agent, reason: fields.reason, at: atOf(fields) }
				: null;
		case "owed":
			return Array.isArray(fields.lines)
				? { kind, to: text(fields.to) ? fields.to : null, lines: fields.lines.map(String), at: atOf(fields) }
				: null;
		case "paid":
			return { kind, to: text(fields.to) ? fields.to : null, at: atOf(fields) };
		case "tool":
			return text(fields.promptId) && text(fields.key) && (fields.agent === null || text(fields.agent))
				? { kind, promptId: fields.promptId, agent: fields.agent, key: fields.key, at: atOf(fields) }
				: null;
		default:
			return null;
	}
}

function atOf(fields: Fields): number {
	return count(fields.at) ? fields.at : 0;
}

/** Whether a usage line holds its counts as written: every field there is a number, its prompt whole where kept. */
function usageAsWritten(fields: Fields): boolean {
	const { tokens, cost, at, offset, prompt } = fields;
	return (
		count(tokens) &&
		(cost === undefined || count(cost)) &&
		(at === undefined || count(at)) &&
		(offset === undefined || count(offset)) &&
		(prompt === undefined || promptOf(prompt).prompt !== undefined)
	);
}

function usageLine(fields: Fields, responseId: string): LogLine {
	return {
		kind: "usage",
		responseId,
		tokens: count(fields.tokens) ? fields.tokens : 0,
		...(count(fields.cost) ? { cost: fields.cost } : {}),
		...(count(fields.at) ? { at: fields.at } : {}),
		...(count(fields.offset) ? { offset: fields.offset } : {}),
		...promptOf(fields.prompt),
	};
}

/** A response's prompt and where its transcript record begins, where the line keeps them whole. */
function promptOf(prompt: unknown): { prompt?: TranscriptPrompt } {
	if (typeof prompt !== "object" || prompt === null) return {};
	const { input, from } = prompt as Fields;
	return count(input) && count(from) ? { prompt: { input, from } } : {};
}

function claimLine(fields: Fields): LogLine | null {
	const claim = fields.claim;
	if (typeof claim !== "object" || claim === null) return null;
	const { kind, budgetId } = claim as Fields;
	if (!text(budgetId) || !["spent", "off", "nudged", "ended", "onStopRecovered"].includes(String(kind))) return null;
	// Written by this version from a claim the rules made: read back as that claim.
	return { kind: "claim", claim: claim as LedgerClaim, at: atOf(fields) };
}

function isFields(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The log's lines as history: budget records, prompts and what responses used, oldest first. A response two hooks
 * counted at once counts once.
 */
export function historyOf(lines: readonly LogLine[]): HistoryItem[] {
	const items: HistoryItem[] = [];
	const counted = new Set<string>();
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] as LogLine;
		if (line.kind === "prompt") items.push({ kind: "prompt", key: line.promptId, at: line.at });
		else if (line.kind === "prompt-dropped") dropPromptItem(items, line.promptId);
		else if (line.kind === "active" || line.kind === "off" || line.kind === "subagents" || line.kind === "subagent")
			items.push({ kind: "record", record: line });
		else if (line.kind === "usage" && !counted.has(line.responseId)) {
			counted.add(line.responseId);
			const { tokens, cost = 0 } = line;
			items.push({ kind: "usage", tokens, cost, ...(line.at === undefined ? {} : { at: line.at }) });
		}
	}
	return items;
}

/** Each readable line of a log's text, oldest first; a torn or hand-edited line is skipped. */
export function eachLogLine(text: string, add: (line: LogLine) => void): void {
	const raws = text.split("\n");
	// An indexed loop: a hook reads every line of its log once, before the JIT has warmed up.
	for (let index = 0; index < raws.length; index++) {
		const raw = raws[index] as string;
		// An empty line is skipped; one of spaces fails to parse, and is skipped too.
		if (raw.length === 0) continue;
		try {
			const value: unknown = JSON.parse(raw);
			const line = isFields(value) ? readLogLine(value) : null;
			if (line !== null) add(line);
		} catch {
			// A torn or hand-edited line: skipped.
		}
	}
}
