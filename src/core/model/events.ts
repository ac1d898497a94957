// What a host and the session rules say to each other: the events a host reports and the effects it carries out. With
// the leaves it names (budget.ts, daily.ts, on-stop.ts, ledger.ts: the ledger's claims and views of a budget's
// outcomes, log-line.ts: a line of a session's log, model-request.ts: a request's size) it imports nothing else of the core, so the ports, the rules and
// the daily budget can all use it without an import cycle.

import type { FoldedHistory, TimeboxRecord } from "./budget.ts";
import type { DailyAdjustment, DailyBudget, DailyLimits, DailyUseAdded } from "./daily.ts";
import type { LedgerClaim, LedgerView } from "./ledger.ts";
import type { LogFold, LogLine, TranscriptPrompt } from "./log-line.ts";
import type { ModelRequest } from "./model-request.ts";
import type { OnStopClaim } from "./on-stop.ts";

export type { DailyAdjustment, DailyUseAdded } from "./daily.ts";
export { type LedgerClaim, type LedgerView, NOTHING_RECORDED } from "./ledger.ts";
export type { LogLine, TranscriptPrompt } from "./log-line.ts";
export type { ModelPrices, ModelRequest } from "./model-request.ts";
export type { OnStopClaim, OnStopIntent } from "./on-stop.ts";

export type NotifyLevel = "info" | "warning" | "error";

/**
 * What became of an on-stop command: it started, another process had started it already (its start mark was taken, so
 * this start ended there), it could not start, or it started and then failed.
 */
export type OnStopOutcome =
	| { kind: "started" }
	| { kind: "alreadyStarted" }
	| { kind: "failed"; problem: string }
	| { kind: "exited"; problem: string };

/** Whether the host can enforce a cost limit: it sees the cost, its model reports none, or it cannot see cost at all. */
export type CostReporting = "reported" | "model reports none" | "host cannot see";

/**
 * How a host treats a budget it loads. `restore` (pi reopening a session): a budget already stopped, or whose time ran
 * out while the session was closed, is not restored (turns, tokens and cost do not change while it is closed, so a
 * budget with them used up is restored and the next turn stops it), and its warning counts as given once 80% is used. `continue` (a host whose
 * every hook reloads, such as Claude Code): the budget is kept as it is and the next event enforces it.
 */
export type LoadMode = "restore" | "continue";

/** What a host reports. `prompt` keys tell prompts apart; null means "the latest prompt". */
export type SessionEvent =
	| {
			type: "load";
			history: FoldedHistory;
			ledger: LedgerView;
			mode: LoadMode;
			announce: boolean;
			/**
			 * A host that loads in the middle of a run (every Claude Code hook) names the prompt being answered; null
			 * means the latest one. When it is the latest prompt of the history, it runs and does not count against itself.
			 */
			runningPrompt?: string | null;
			/**
			 * The budget to set in a session where none was ever set (a default from a flag, the environment or
			 * settings), with where it came from and the id it gets; `unavailable` says why a default there is gives no
			 * budget (a suggested one with too little history).
			 */
			defaultBudget?: { text: string; source: string; newBudgetId: string; unavailable?: string };
			/**
			 * The `onLimit` setting and where it came from: "ask" asks at the limit (stop now, or more time or prompts)
			 * where the host can ask (`canAsk`); "stop", the default, stops.
			 */
			onLimit?: { value: unknown; source: string };
			canAsk?: boolean;
			/** The `awareness` setting ("nudge" or "always") and where it came from. */
			awareness?: { value: unknown; source: string };
			/** The `grace` setting (a time such as "30s") and where it came from. */
			grace?: { value: unknown; source: string };
			/** The model calls the running prompt's run made so far, for a host that loads in the middle of a run. */
			runningSteps?: number;
			/**
			 * The `subagents` setting (a budget's words, or a map of them by agent type with "*" for any) and where it came
			 * from (a settings file, the `TIMEBOX_SUBAGENTS` environment variable). A budget set with the command wins.
			 */
			subagents?: { value: unknown; source: string };
	  }
	| {
			type: "command";
			args: string;
			newBudgetId: string;
			/** Whether the host can ask the user now (an interactive UI); a replacement is then asked first. */
			canAsk?: boolean;
			/** The user said yes to the question this command raised. */
			confirmed?: boolean;
			/** Whether a cost limit can be enforced here; said when a cost limit is set. Default: reported. */
			cost?: CostReporting;
			/** False where the host never says what a model call used; said when a token limit is set. Default: true. */
			tokensSeen?: boolean;
			/** The report of the session's budgets, which the host works out when the command asks for it. */
			report?: string;
			/** The session's user-message count now, where the host can count it: a new budget's `startTurn`. */
			turns?: number;
	  }
	/** The user said no: nothing changes, and the user is told so. */
	| { type: "declined"; message: string }
	/** The answer to the limit question, and the event that reached the limit, to go on with after more room. */
	| { type: "limitAnswer"; answer: "stop" | "time" | "prompts"; reached: SessionEvent }
	/**
	 * A model call is about to start. `step` is which call of its prompt's run it is, as the host counts them (a call the
	 * host sends again, a retry, has the same number); without it every call counts as the next. `startedBy: "extension"`
	 * names the first call of a run that something other than the user started (a pi extension's message): that run is
	 * no prompt and never counts as one, but its calls are steps, its time and usage count and the budget stops it.
	 */
	| {
			type: "modelCall";
			prompt: string | null;
			step?: number;
			startedBy?: "user" | "extension";
			/** The host's id of the subagent making the call; absent for the main agent. */
			agent?: string;
			/**
			 * What the host can tell of the request about to be sent, where it can change the request's largest answer:
			 * the rules then cap that answer to what is left of the tokens and cost, and spend the budget here when not
			 * even a minimal answer would fit (the answer's `maxOutputTokens`).
			 */
			request?: ModelRequest;
	  }
	/**
	 * The request of the latest model call is about to be sent, and the host can tell its size now (not when the call
	 * was announced, where its hooks show a call's request only once it is built): the rules cap its answer, or spend the
	 * budget here when not even a minimal answer would fit. Nothing counts again.
	 */
	| { type: "modelRequest"; request: ModelRequest }
	/** The answer to the question at a prompt's step cap, and the model call that reached it. */
	| {
			type: "stepsAnswer";
			answer: "stop" | "more";
			limit: number;
			/** The steps the run was granted beyond the cap before this question. */
			allowance: number;
			reached: Extract<SessionEvent, { type: "modelCall" }>;
	  }
	/**
	 * A model call answered: what it used, as the host reports it. `responseId` names the response where the session's
	 * store keeps what each response used: the rules keep it (`recordUsage`), with its cost unless `costSeen` is false
	 * (a host that cannot see cost).
	 */
	| { type: "modelResponse"; tokens: number; cost: number; agent?: string; responseId?: string; costSeen?: false }
	/**
	 * A tool is about to run. `call` is the tool and its input where the host shows them (the loop guard compares
	 * them); `earlier` are the keys of the calls its run asked for before it (the subagent's, for a subagent's call),
	 * oldest first, where the host keeps them itself (a hook host, in the session's log): the rules use them instead of
	 * their own memory of the run.
	 */
	| {
			type: "toolCall";
			prompt: string | null;
			agent?: string;
			call?: { readonly tool: string; readonly input: unknown };
			earlier?: readonly string[];
	  }
	/**
	 * A subagent is about to start: `parent` null when the main agent started it, else the id of the subagent that did;
	 * `task` is its task text (the rules keep its first words). The answer may refuse it (the session's budget is
	 * spent), and carries the block with its budget as `context` for its first request, unless `contextAtStart` is false:
	 * a host that cannot put anything into a subagent's first request says so, and its first model call carries it.
	 */
	| {
			type: "agentStart";
			agent: string;
			parent: string | null;
			agentType: string;
			task: string;
			contextAtStart?: boolean;
	  }
	/**
	 * A subagent ended, and its answer went back to its parent. The answer's `context` is the line the parent reads with
	 * the result when the subagent stopped at its budget; empty when it ended within it.
	 */
	| { type: "agentEnd"; agent: string; result?: string }
	/**
	 * The latest prompt, which the rules let run, was refused after all by the daily ledger (a team's store, read ahead,
	 * where another machine took the day's last turn meanwhile): it never ran, so it counts no more, and the session
	 * forgets it.
	 */
	| { type: "promptRefused" }
	| { type: "runEnd" }
	/**
	 * The session's budget was spent where this process cannot see it: a host that runs each subagent as a process of
	 * its own learns it from the process of the session that started it. Every running subagent is stopped with it.
	 */
	| { type: "sessionStop" }
	| { type: "timeCheck" }
	| { type: "onStopReport"; command: string; outcome: OnStopOutcome; recovery?: string };

/** What a host carries out, in order. */
export type Effect =
	| { kind: "notify"; message: string; level: NotifyLevel }
	| { kind: "status"; text: string | undefined }
	| { kind: "append"; record: TimeboxRecord }
	/** Keep this prompt in the session's history: it ran, so it counts (`BudgetStore.appendPrompt`). */
	| { kind: "recordPrompt"; prompt: string }
	/** Forget this prompt kept in the session's history: it never ran after all (`SessionStore.dropPrompt`). */
	| { kind: "dropPrompt"; prompt: string }
	/** Keep what a response used in the session's history (`SessionStore.recordUsage`): it counts after a reload. */
	| { kind: "recordUsage"; usage: RecordedUsage }
	/** Write this line to the session's log (`SessionStore.appendLine`): what a hook leaves the next (run/session-log.ts). */
	| { kind: "logLine"; line: LogLine }
	/** Keep this fold of the session's log as its summary (`SessionStore.keepFold`): a cache the next hooks read on from. */
	| { kind: "keepLogFold"; fold: LogFold }
	/** Add this block to what the model reads in the model call about to start. */
	| { kind: "context"; text: string }
	/** Cap the answer of the model call about to start at this many output tokens (never raise a lower cap it has). */
	| { kind: "capOutput"; maxTokens: number }
	/** End the running run now, and any re-run the host has pending for it. */
	| { kind: "abort" }
	/** Refuse what the event announced (the prompt, the model call, the tool call), telling the model why. */
	| { kind: "refuse"; reason: string }
	/** Claim this outcome in the ledger; only the first claim anywhere carries out `then`. */
	| { kind: "once"; claim: LedgerClaim; then: readonly Effect[] }
	/**
	 * Ask the user: each choice names the event (`answer`) to report when it is chosen; `onTimeout` is reported when nobody
	 * answers within `timeoutMs`: every question times out. Until then the host holds model calls and tools back, but
	 * not its time checks.
	 */
	| {
			kind: "ask";
			question: string;
			choices: readonly { label: string; answer: SessionEvent }[];
			timeoutMs: number;
			onTimeout: SessionEvent;
	  }
	/**
	 * Start the spent budget's on-stop command, detached; its outcome comes back as `onStopReport`. `claim` names the claim
	 * it belongs to: the command is started through a wrapper that takes that claim's start mark first, so that it runs
	 * once however many processes start it. `recovery` (a budget's id): a late start of a command whose stop's process
	 * ended first; once it started, its report takes that budget's `onStopRecovered` claim and tells the user it ran late.
	 */
	| { kind: "startOnStop"; command: string; claim?: OnStopClaim; recovery?: string }
	/** End that subagent now, with no further model request: its budget, or the session's, is spent. */
	| { kind: "stopAgent"; agent: string }
	/**
	 * The session's budget became spent: tell every subagent that runs in a process of its own (pi's), whose rules then
	 * stop it. A host whose subagents run in its own process hears `stopAgent` instead, and has no port for this.
	 */
	| { kind: "stopSubagents" }
	/**
	 * A budget with time to run out was set, extended or resumed (`budgetId`, as its outcomes are claimed): a host with
	 * no process of its own while the agent is idle (the hook hosts) starts a watcher that stops it on time, until it is
	 * spent, off or replaced. A host that keeps timers of its own has no port for this.
	 */
	| { kind: "watchBudget"; budgetId: string }
	/**
	 * Count the new prompt in today's ledger, unless a budget has its `limits` (one per daily budget, null for none) of
	 * prompts already: then carry out `refused` (another session took the last prompt meanwhile). `budgets` are the
	 * daily budgets in force the limits are of (the standings'); the port's own where absent.
	 */
	| {
			kind: "countPrompt";
			limits: readonly (number | null)[];
			refused: readonly Effect[];
			budgets?: readonly DailyBudget[];
	  }
	/** Reserve what the model call about to start may use of today's budgets, until its answer settles it. */
	| { kind: "reserveDaily"; budgets?: readonly DailyBudget[] }
	/** Add what this session used to today's use of its daily budgets. */
	| { kind: "addDailyUse"; use: DailyUseAdded; budgets?: readonly DailyBudget[] }
	/**
	 * Add to today's limits of every daily budget of the session, or turn them off until midnight, and then carry out
	 * `done`; a team's store that does not take it (a member's user) changes nothing after it, and says why.
	 */
	| { kind: "adjustDaily"; adjustment: DailyAdjustment; budgets?: readonly DailyBudget[]; done?: readonly Effect[] }
	/** Set the team's limits in its store (null: remove them), then carry out `done`; else say why not. */
	| { kind: "setTeamLimits"; limits: DailyLimits | null; done: readonly Effect[] }
	/** Record a member's request for more of the team's day in its store, then carry out `done`; else say why not. */
	| { kind: "askTeam"; adjustment: DailyAdjustment; why: string; done: readonly Effect[] };

/** What one response used, kept in the session's history: counted once by its id, however often it is reported. */
export interface RecordedUsage {
	responseId: string;
	used: { tokens: number; cost?: number };
	at: number;
	/** How far the transcript the response was read from was read, for a host that reads usage from one. */
	offset?: number;
	/**
	 * The response's prompt tokens and where its record begins in that transcript, for a host that can bound the next
	 * request's input only from its transcript (Gemini CLI).
	 */
	prompt?: TranscriptPrompt;
}
