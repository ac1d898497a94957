// The lines of a session's log, as a typed union: what each kind holds, and the reading of one line as it was written
// (by this version or an earlier one), so that a torn, hand-edited or unknown line is skipped, never misread.

import type { LedgerClaim } from "../../core/index.ts";

/** One line of a session's log. */
export type LogLine =
	/**
	 * A budget record (set, extended, paused, turned off), or a subagents' record (their budget, how one stands): the
	 * history reads it as the record it is.
	 */
	| { kind: "active" | "off" | "subagents" | "subagent"; [field: string]: unknown }
	/** A prompt that ran, counted once by its id. */
	| { kind: "prompt"; promptId: string; at: number }
	/** Another model call of a prompt's run. */
	| { kind: "call"; promptId: string; at: number }
	/** What one response used, and how far the transcript it came from was read. */
	| { kind: "usage"; responseId: string; tokens: number; cost?: number; at?: number; offset?: number }
	/** How far the transcript was read when nothing new was used. */
	| { kind: "transcript"; offset: number }
	/** The transcript held usage Timebox cannot read (said once per session). */
	| { kind: "transcript-unreadable"; at: number }
	/** A prompt's run ended. */
	| { kind: "ended"; promptId: string; at: number }
	/** What a watcher told nobody (the user was idle), and the next prompts that showed it. */
	| { kind: "untold"; notices: string[]; at: number }
	| { kind: "told"; at: number }
	/** The session's part in the daily budgets: a warning given, a run stopped, a run whose time was added. */
	| { kind: "daily-warned"; level: string; at: number }
	| { kind: "daily-stopped"; promptId: string; at: number }
	| { kind: "daily-ended"; promptId: string; at: number }
	/** An outcome the ledger could not record, kept here so that the session never claims it twice. */
	| { kind: "claim"; claim: LedgerClaim; at: number }
	/** The first version's marks of a budget spent or warned, keyed by the budget's start. */
	| { kind: "spent"; budgetStart: number; usedTurns: number; elapsedMs: number; promptId: string | null }
	| { kind: "nudged"; budgetStart: number }
	/**
	 * A call of the host's subagent tool, by the main agent (`agent` null) or a subagent: the task it gives, which the
	 * subagent's start, where the host does not repeat it, takes up by the call's place among these lines; `id` is the
	 * call's, the subagent's id for the rules (null where the host names no call: the subagent's own id is used).
	 */
	| { kind: "spawn"; id: string | null; agent: string | null; agentType: string; task: string; at: number }
	/** The subagent that took up the spawn line at `index` (counted among the spawn lines). */
	| { kind: "spawn-taken"; index: number; agent: string; at: number }
	/** A subagent whose start the rules refused (its host could not): whatever it does next is refused with `reason`. */
	| { kind: "spawn-refused"; agent: string; reason: string; at: number }
	/**
	 * What an agent (`to`: a subagent's id, or null for the main agent) is to read with its next model call: the line
	 * that a subagent it started stopped, where its host could not put it into the subagent's result; and that it read it.
	 */
	| { kind: "owed"; to: string | null; lines: string[]; at: number }
	| { kind: "paid"; to: string | null; at: number };

type Fields = Record<string, unknown>;

const text = (value: unknown): value is string => typeof value === "string";
const count = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

const PROMPT_KINDS = new Set(["prompt", "call", "ended", "daily-stopped", "daily-ended"]);

/** A line of the log as the typed line it is, or null for one that is not (torn, hand-edited, from elsewhere). */
export function readLogLine(fields: Fields): LogLine | null {
	const kind = fields.kind;
	if (kind === "active" || kind === "off" || kind === "subagents" || kind === "subagent") return { ...fields, kind };
	if (PROMPT_KINDS.has(String(kind))) {
		return text(fields.promptId) ? ({ kind, promptId: fields.promptId, at: atOf(fields) } as LogLine) : null;
	}
	switch (kind) {
		case "usage":
			return text(fields.responseId) ? usageLine(fields, fields.responseId) : null;
		case "transcript":
			return count(fields.offset) ? { kind, offset: fields.offset } : null;
		case "transcript-unreadable":
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
		default:
			return null;
	}
}

function atOf(fields: Fields): number {
	return count(fields.at) ? fields.at : 0;
}

function usageLine(fields: Fields, responseId: string): LogLine {
	return {
		kind: "usage",
		responseId,
		tokens: count(fields.tokens) ? fields.tokens : 0,
		...(count(fields.cost) ? { cost: fields.cost } : {}),
		...(count(fields.at) ? { at: fields.at } : {}),
		...(count(fields.offset) ? { offset: fields.offset } : {}),
	};
}

function claimLine(fields: Fields): LogLine | null {
	const claim = fields.claim;
	if (typeof claim !== "object" || claim === null) return null;
	const { kind, budgetId } = claim as Fields;
	if (!text(budgetId) || !["spent", "off", "nudged", "ended"].includes(String(kind))) return null;
	// Written by this version from a claim the rules made: read back as that claim.
	return { kind: "claim", claim: claim as LedgerClaim, at: atOf(fields) };
}
