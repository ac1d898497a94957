// The core data model: a budget, the records that persist it, a session's history folded, and the decision taken on
// it. A leaf: it imports nothing, so every module of the core can use it.

/**
 * A session budget: the seven fields every host shares, then what later versions added, each optional. Either limit
 * may be null (no limit on that dimension); a budget has at least one limit.
 */
export interface TimeboxBudget {
	/** Wall-clock limit in ms, or null for no time limit. */
	timeLimitMs: number | null;
	/** Number of turns (user messages) allowed, or null for no turn limit. */
	turnLimit: number | null;
	/** Epoch ms when the budget was set. */
	startTime: number;
	/** The session's user-message count when the budget was set: the turns after it count against the budget. */
	startTurn: number;
	/** Whether the warning went out (the ledger's claim, mirrored): it goes out once per budget. */
	softNudgeSent: boolean;
	/** False once the budget is spent or turned off. */
	active: boolean;
	/** Shell command to run on the hard stop, or null. */
	onStopCommand: string | null;
	/**
	 * Names this budget wherever it goes (reloads, forks, clones, other processes); never reused. A budget without one
	 * (a first-version record) is named by its start time.
	 */
	id?: string;
	/** Tokens the model may use (input, output, cache read and write), absent for no token limit. */
	tokenLimit?: number;
	/** US dollars the model may cost, as the host reports usage cost; absent for no cost limit. */
	costLimit?: number;
	/** Model calls each turn's run may make (`steps:25`); absent for no cap. A cap ends a run, never the budget. */
	stepLimit?: number;
	/**
	 * The loop guard (`loop:3`): the Nth identical tool call of a run is refused, and asking for it once more stops the
	 * run; absent for no guard. Like the step cap, it ends a run, never the budget.
	 */
	loopLimit?: number;
	/** Time spent paused before the current pause, in ms; absent for none. */
	pausedMs?: number;
	/** Epoch ms when the current pause began; absent while running. */
	pausedAt?: number;
	/** How many times the budget was extended; absent for none. A stop and a warning can come once per extension. */
	extensions?: number;
	/** "always": every model call carries a line with what is left, not only from 80%. Absent: the session's setting. */
	awareness?: Awareness;
	/** The time the model gets to write its final answer when the budget runs out mid-run; absent: the session's setting. */
	graceMs?: number;
}

/**
 * The fields of a budget that tell how it stands rather than what it is: the turn count at set, the warning sent and
 * whether it is in force. A record does not write them: they change after it is written, and reading them back takes
 * them from the session (its turns) and the ledger (the warning, the stop, the off).
 */
export type StandingField = "startTurn" | "softNudgeSent" | "active";

/** A budget as the user set it, without how it stands: what a record holds and a command sets. */
export type BudgetTerms = Omit<TimeboxBudget, StandingField>;

/** How a budget stands when it is set: `startTurn` turns before it, no warning sent, in force. */
export function freshBudget(terms: BudgetTerms, startTurn = 0): TimeboxBudget {
	return { ...terms, startTurn, softNudgeSent: false, active: true };
}

/** What the model is told of its budget: the warning block from 80% (`nudge`), or also a line on every call (`always`). */
export type Awareness = "nudge" | "always";

/** The limits a user asks for with `/timebox`, and how the model is to be treated under them. */
export interface BudgetLimits {
	timeLimitMs: number | null;
	turnLimit: number | null;
	tokenLimit?: number;
	costLimit?: number;
	stepLimit?: number;
	loopLimit?: number;
	onStopCommand: string | null;
	awareness?: Awareness;
	graceMs?: number;
}

/** What the model used under a budget: tokens and US dollars, as the host reports each response's usage. */
export interface Spend {
	tokens: number;
	cost: number;
}

/** Nothing used. */
export const NO_SPEND: Spend = { tokens: 0, cost: 0 };

/** A limit of a budget: the one that ran out names a stop. */
export type LimitKind = "time" | "turns" | "tokens" | "cost";

/** What a budget's hard stop found: the figures the user is shown then and on every later look. */
export interface SpentSummary {
	usedTurns: number;
	elapsedMs: number;
	/** True when the time limit ran out, false when the prompts were used up. */
	timeRanOut: boolean;
	/** The limit that ran out, when it is tokens or cost (`timeRanOut` tells time from turns). */
	limit?: "tokens" | "cost";
	/** That limit was not reached: what was left of it could not hold the next model call's input and a minimal answer. */
	noRoom?: true;
	/** Tokens and cost used by then, for a budget that limits them. */
	tokens?: number;
	cost?: number;
	/** Epoch ms until which the run that met the limit may wrap up (a grace period); absent for a plain stop. */
	wrapUpUntil?: number;
	/**
	 * The stop ended a prompt that was running and counted: the budget used it, though `usedTurns` leaves it out, as the
	 * user reads the turns (the prompt being answered never counts against itself). An extension counts it.
	 */
	promptCounted?: true;
}

/**
 * What to do about a budget right now. A stop carries the turns used, the time elapsed and the on-stop command to run,
 * and beside them the summary the user is shown (which limit ran out, tokens and cost).
 */
export type Decision =
	| { kind: "ok" }
	| { kind: "nudge"; urgency: NudgeUrgency; detail: string }
	| { kind: "stop"; usedTurns: number; elapsedMs: number; onStopCommand: string | null; summary: SpentSummary };

export type NudgeUrgency = "warning" | "critical";

/** A budget as written: its terms (with its id) and the record version. How it stands is never written. */
export type BudgetRecordData = BudgetTerms & {
	id: string;
	version: number;
	/** Prompts used before this record, when it writes an existing budget again (a pause, a resume, an extension). */
	turnsBefore?: number;
	/** Tokens and cost used before this record, likewise. */
	tokensBefore?: number;
	costBefore?: number;
};

/**
 * What a session keeps, in order: a budget that starts (the whole budget, or its record as written since it has an
 * id), the budget turned off (naming it, since it has an id), and the subagents' budgets and runs.
 */
export type TimeboxRecord =
	| { kind: "active"; budget: TimeboxBudget | BudgetRecordData }
	| { kind: "off"; disabledAt: number; version?: number; budgetId?: string }
	/** The subagent budget set by `/timebox subagents` (its words by agent type, "*" for any), or null: turned off. */
	| { kind: "subagents"; version: number; budgets: Readonly<Record<string, string>> | null; at: number }
	/** How a subagent stands, written at each change: the newest record of an id is how it stands. */
	| { kind: "subagent"; version: number; agent: SubagentRun };

/** A subagent's budget for its task: time, model calls, tokens, cost (at least one). */
export interface TaskBudget {
	readonly timeLimitMs: number | null;
	readonly stepLimit?: number;
	readonly tokenLimit?: number;
	readonly costLimit?: number;
	/** The loop guard of its task: its Nth identical tool call is refused, and asking once more concludes it. */
	readonly loopLimit?: number;
}

/**
 * What ended a subagent's budget: one of its own limits (`loop`: it asked for the same call once more after its loop
 * guard refused it), the session's budget, or the stop of its parent.
 */
export type TaskLimit = "time" | "steps" | "tokens" | "cost" | "loop" | "session" | "parent";

/** How a subagent ended: within its budget, concluding at it, or stopped. */
export type AgentEnding = "answered" | "concluded" | "stopped";

/** A subagent and how it stands: its budget, what it used, and where its conclusion is. */
export interface SubagentRun {
	/** The host's id of the subagent. */
	readonly id: string;
	/** The subagent that started it, or null for the main agent. */
	readonly parent: string | null;
	readonly agentType: string;
	/** The first words of its task. */
	readonly task: string;
	/** Its budget, or null where no subagent budget is set: it is then only counted. */
	readonly budget: TaskBudget | null;
	/** Epoch ms when it started. */
	readonly startedAt: number;
	/** Model calls it made. */
	readonly steps: number;
	/** Tokens and cost its model calls used, with those of its own subagents. */
	readonly spend: Spend;
	/** Whether the user was warned that it used 80% of its budget. */
	readonly warned: boolean;
	/** Whether it was given the block with its budget. */
	readonly told: boolean;
	/** The limit that spent its budget, and when; null while within it. */
	readonly spent: { readonly limit: TaskLimit; readonly at: number } | null;
	/**
	 * Its conclusion once the budget is spent: until when it may write its answer, the model calls it made since, and at
	 * which of those a tool was first refused (null: none yet).
	 */
	readonly wrapUp: { readonly until: number; readonly calls: number; readonly refusedAt: number | null } | null;
	/** How it ended; "stopped" is set when it is stopped, before the host reports its end. Null while it runs. */
	readonly ended: AgentEnding | null;
	/** Whether its end was reported (it is gone); false while it runs or waits to be ended. */
	readonly closed: boolean;
	/** Epoch ms when it ended or was stopped; null while it runs. */
	readonly endedAt: number | null;
}

/** A session's history, folded. */
export interface FoldedHistory {
	/** The budget in force: the newest usable record, unless that record turned the budget off. */
	budget: TimeboxBudget | null;
	/** Distinct prompts sent after that budget's record. */
	usedTurns: number;
	/** Tokens and cost used after that budget's record (and before it, for a budget written again). */
	spend: Spend;
	/** The latest prompt in the history, or null. */
	lastPrompt: string | null;
	/** Whether the latest prompt is among `usedTurns` (it was sent after the budget was set). */
	lastPromptCounted: boolean;
	/** Whether the very newest record had to be skipped as unreadable. */
	newestUnusable: boolean;
	/** Whether the history holds any budget record at all: a session where no budget was ever set is new to Timebox. */
	hasRecords: boolean;
	/** The newest subagent budget the history set (null: turned off), or undefined where none was ever set. */
	subagentBudgets?: Readonly<Record<string, string>> | null;
	/** Every subagent of the history as it stands in its newest record, oldest first; absent for none. */
	subagents?: readonly SubagentRun[];
}
