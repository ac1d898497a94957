// One line of a session's log (the hook hosts' and opencode's), as it is written: a leaf beside ledger.ts.

import type { IdCounts, IdSet } from "./id-text.ts";
import type { LedgerClaim } from "./ledger.ts";

/**
 * One line of a session's log (the hook hosts' and opencode's): the records, the prompts and usage the history folds,
 * and the lines one process leaves the next. Written as it is here, so that old logs still load.
 */
export type LogLine =
	/**
	 * A budget record (set, extended, paused, turned off), or a subagents' record (their budget, how one stands): the
	 * history reads it as the record it is.
	 */
	| { kind: "active" | "off" | "subagents" | "subagent"; [field: string]: unknown }
	/**
	 * A prompt that ran, counted once by its id, and the working folder the session ran in where the host says (the
	 * project a suggested budget is made for).
	 */
	| { kind: "prompt"; promptId: string; at: number; cwd?: string }
	/** The prompt of that id, kept above, never ran after all (the daily ledger refused it): it counts for nothing. */
	| { kind: "prompt-dropped"; promptId: string; at: number }
	/** Another model call of a prompt's run. */
	| { kind: "call"; promptId: string; at: number }
	/** What one response used, and how far the transcript it came from was read (and its prompt, where kept). */
	| {
			kind: "usage";
			responseId: string;
			tokens: number;
			cost?: number;
			at?: number;
			offset?: number;
			prompt?: TranscriptPrompt;
	  }
	/** How far the transcript was read when nothing new was used. */
	| { kind: "transcript"; offset: number }
	/** The transcript held usage Timebox cannot read (said once per session). */
	| { kind: "transcript-unreadable"; at: number }
	/**
	 * The default budget started none as the session started (it could not be read, or no budget could be suggested),
	 * and the start said why: the session's first prompt does not try it, nor say it, again.
	 */
	| { kind: "default-said"; at: number }
	/** A prompt's run ended. */
	| { kind: "ended"; promptId: string; at: number }
	/**
	 * A tool call asked for under a loop guard, by the main agent (`agent` null) in the run of `promptId`, or by a
	 * subagent (its id for the rules): its key (a hash of its tool and input), which the next hooks count.
	 */
	| { kind: "tool"; promptId: string; agent: string | null; key: string; at: number }
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

/** An answer's prompt tokens, and the byte of its transcript where its record begins. */
export interface TranscriptPrompt {
	input: number;
	from: number;
}

/**
 * Prompts one after another that a log's fold keeps as one (`prompt-run.ts`), as a kept summary reads them back: no
 * line of the log, and none a hook writes. Their ids as one text (each followed by a line break), and when each was
 * sent. Every id in a run differs from every prompt id kept before it.
 */
export interface PromptRun {
	kind: "prompts";
	ids: string;
	at: readonly number[];
}

/** A line a log's fold keeps: a line of the log as it was read, or a run of prompts read back from a kept summary. */
export type KeptLine = LogLine | PromptRun;

/**
 * A session's log, folded (`log-fold.ts`): the lines a session writes most added up, every other line kept as it is
 * (a run of prompts read back from a kept summary, as one).
 */
export interface LogFold {
	/** Every line but those added up, oldest first. */
	kept: KeptLine[];
	/** How many readable lines were folded. */
	lines: number;
	/** The model calls recorded after each prompt's first, by prompt. */
	calls: IdCounts;
	/** The prompts whose run ended. */
	ended: IdSet;
	/** The responses whose usage is kept (a response two hooks counted counts once). */
	responses: IdSet;
	/** How far the transcript was read. */
	offset: number;
	/** The prompt of the newest response whose transcript record says where it begins. */
	usagePrompt: TranscriptPrompt | null;
	/** The newest budget record the history reads (an index into `kept`; -1 for none). */
	recordAt: number;
	/** What each response used after that record, in order (its tokens, then its cost): only these may count. */
	spend: number[];
}
