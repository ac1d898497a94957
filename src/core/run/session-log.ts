// What a host whose every event is a process of its own (the hook hosts) leaves the next in the session's log, decided
// here as effects the one executor carries out: another model call of a prompt's run, the end of a run, a claim the
// ledger could not take, the session's part in the daily budgets, what a transcript said was used, the tool calls a
// loop guard counts, and the log's three queues (`log-queues.ts`). Each reading is of the lines as read; each write is
// a `logLine` or `recordUsage` effect.

import { LOG_FOLD_KEEP_BYTES } from "../constants.ts";
import { callKey, type ToolCallSeen } from "../loop/calls.ts";
import type { Effect, LedgerClaim, LogLine, TranscriptPrompt } from "../model/events.ts";
import type { KeptLine, LogFold } from "../model/log-line.ts";
import { idsNewestFirst, runAt, runHas } from "../model/prompt-run.ts";
import { counting, type SessionState } from "../session/state.ts";
import { TRANSCRIPT_UNREADABLE } from "../text/notices.ts";
import { linesOfKind, type Taken, write } from "./kept-lines.ts";
import { type DailyPart, NO_DAILY_PART } from "./runtime.ts";

export { linesOfKind, type Taken } from "./kept-lines.ts";
export * from "./log-queues.ts";

/**
 * Another model call of the prompt's run (`promptKey`, the latest prompt's), counted while a budget stands, so that the
 * next hook knows which step it is at.
 */
export function nextCallLines(state: SessionState, promptKey: string | null, now: number): Effect[] {
	return promptKey !== null && state.standing ? [write({ kind: "call", promptId: promptKey, at: now })] : [];
}

/** What a reader of the log read: the fold of its whole lines, and how many bytes it read past the kept summary. */
export interface LogRead {
	fold: LogFold;
	bytes: number;
}

/**
 * The summary of the log to keep, where a reader read enough past the kept one (or there was none): its next readers
 * read on from where this read ended. Nothing for a log read from a recent summary (or not read at all).
 */
export function keepFold(read: LogRead | null): Effect[] {
	return read !== null && read.bytes >= LOG_FOLD_KEEP_BYTES ? [{ kind: "keepLogFold", fold: read.fold }] : [];
}

/**
 * The latest prompt the log kept that ran (what a host that names no prompt takes a later event's prompt to be): a
 * prompt a later line says never ran after all is passed over; null for none.
 */
export function latestPrompt(lines: readonly KeptLine[]): string | null {
	const dropped: string[] = [];
	for (let index = lines.length - 1; index >= 0; index--) {
		const line = lines[index];
		if (line?.kind === "prompt-dropped") dropped.push(line.promptId);
		else if (line?.kind === "prompt") {
			const at = dropped.indexOf(line.promptId);
			if (at < 0) return line.promptId;
			dropped.splice(at, 1);
		} else if (line?.kind === "prompts") {
			for (const id of idsNewestFirst(line.ids)) {
				const at = dropped.indexOf(id);
				if (at < 0) return id;
				dropped.splice(at, 1);
			}
		}
	}
	return null;
}

/**
 * A tool call of the main agent (`agent` null) in the run of `promptId`, or of a subagent (its id for the rules), under
 * a loop guard: the keys of the calls it asked for before in its run, read back from the newest line to the run's
 * start and no further (the run's prompt, or the subagent's call of the subagent tool), and the line that keeps this
 * one for the next hooks. Without a guard for it (or a run to name), nothing: the value is undefined.
 */
export function loopCalls(
	lines: readonly KeptLine[],
	state: SessionState,
	promptId: string | null,
	agent: string | null,
	call: ToolCallSeen,
	now: number,
): Taken<readonly string[] | undefined> {
	const guarded =
		agent === null
			? counting(state)?.budget.loopLimit !== undefined
			: state.subagents.runs[agent]?.budget?.loopLimit !== undefined;
	if (!guarded || promptId === null) return { value: undefined, effects: [] };
	const earlier: string[] = [];
	for (let index = lines.length - 1; index >= 0; index--) {
		const line = lines[index] as KeptLine;
		if (line.kind === "tool" && line.agent === agent && (agent !== null || line.promptId === promptId)) {
			earlier.push(line.key);
		} else if (line.kind === "prompt" && line.promptId === promptId) break;
		else if (line.kind === "prompts" && runHas(line, promptId)) break;
		else if (line.kind === "spawn" && agent !== null && line.id === agent) break;
	}
	earlier.reverse();
	return { value: earlier, effects: [write({ kind: "tool", promptId, agent, key: callKey(call), at: now })] };
}

/** The run of a named prompt ended. */
export function runEndedLines(promptId: string | null, now: number): Effect[] {
	return promptId === null ? [] : [write({ kind: "ended", promptId, at: now })];
}

/**
 * A claim the ledger could not take is kept in the log instead, so that the session never claims it twice: the lines
 * that keep it, or null where the log kept it already (then the claim is not won again).
 */
export function claimKept(claim: LedgerClaim, lines: readonly KeptLine[], now: number): Effect[] | null {
	const kept = lines.some(
		(line) => line.kind === "claim" && line.claim.kind === claim.kind && line.claim.budgetId === claim.budgetId,
	);
	return kept ? null : [write({ kind: "claim", claim, at: now })];
}

/** The session's daily part for a hook of `promptId`, from the log. */
export function dailyPartOf(lines: readonly KeptLine[], promptId: string): DailyPart {
	// Its time counts from its start, or from its stop by the daily budgets, where the time until then was counted.
	const stop = lines.findLast(
		(line): line is Extract<KeptLine, { kind: "daily-stopped" }> =>
			line.kind === "daily-stopped" && line.promptId === promptId,
	);
	const startedAt = stop?.at ?? sentAt(lines, promptId);
	// A run ended, or a prompt that never ran after all: no run of it goes on.
	const ended = lines.some(
		(line) => (line.kind === "daily-ended" || line.kind === "prompt-dropped") && line.promptId === promptId,
	);
	return {
		...NO_DAILY_PART,
		session: {
			given: linesOfKind(lines, "daily-warned").map((line) => line.level),
			runStartedAt: !ended && startedAt !== undefined ? startedAt : null,
			stopped: stop !== undefined,
		},
	};
}

/** When the first prompt of `promptId` the lines keep was sent, or undefined for none. */
function sentAt(lines: readonly KeptLine[], promptId: string): number | undefined {
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] as KeptLine;
		if (line.kind === "prompt" && line.promptId === promptId) return line.at;
		const at = line.kind === "prompts" ? runAt(line, promptId) : undefined;
		if (at !== undefined) return at;
	}
	return undefined;
}

/** What changed in the daily part during the hook, to keep: new warnings, a stop, the end of the run. */
export function dailyPartLines(promptId: string, before: DailyPart, after: DailyPart, now: number): Effect[] {
	const lines: LogLine[] = [];
	for (const level of after.session.given) {
		if (!before.session.given.includes(level)) lines.push({ kind: "daily-warned", level, at: now });
	}
	if (after.session.stopped && !before.session.stopped) {
		// At the stop, up to which the run's time was counted.
		lines.push({ kind: "daily-stopped", promptId, at: after.session.runStartedAt ?? now });
	}
	if (before.session.runStartedAt !== null && after.session.runStartedAt === null) {
		lines.push({ kind: "daily-ended", promptId, at: now });
	}
	return lines.map(write);
}

/** What one read of a transcript found since the last (the responses not counted yet), and where the read ended. */
export interface TranscriptFound {
	responses: readonly { id: string; tokens: number; prompt?: TranscriptPrompt }[];
	offset: number;
	unreadable: boolean;
}

/**
 * What a read of the transcript from `readFrom` found: each response kept with how far the transcript was read, its
 * tokens added to today's use, how far it was read where nothing new was used, and a format Timebox cannot read said
 * once per session (the notice, else null).
 */
export function transcriptUsage(
	found: TranscriptFound,
	readFrom: number,
	lines: readonly KeptLine[],
	now: number,
): { effects: Effect[]; notice: string | null } {
	const effects: Effect[] = found.responses.map((response) => ({
		kind: "recordUsage",
		usage: {
			responseId: response.id,
			used: { tokens: response.tokens },
			at: now,
			offset: found.offset,
			...(response.prompt === undefined ? {} : { prompt: response.prompt }),
		},
	}));
	const tokens = found.responses.reduce((sum, response) => sum + response.tokens, 0);
	if (tokens > 0) effects.push({ kind: "addDailyUse", use: { tokens } });
	if (found.responses.length === 0 && found.offset > readFrom) {
		effects.push(write({ kind: "transcript", offset: found.offset }));
	}
	if (!found.unreadable || lines.some((line) => line.kind === "transcript-unreadable"))
		return { effects, notice: null };
	effects.push(write({ kind: "transcript-unreadable", at: now }));
	return { effects, notice: TRANSCRIPT_UNREADABLE };
}
