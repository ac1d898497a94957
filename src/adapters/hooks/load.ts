// A hook's session, folded from the session's log and the ledger: each hook is a new process, so every hook loads the
// state afresh, and names the prompt whose run it belongs to. Logs of the first version still load.

import {
	type BudgetLedger,
	EMPTY_SESSION,
	LEGACY_ID_PREFIX,
	type LedgerClaim,
	type LedgerView,
	type LogLine,
	NOTHING_RECORDED,
	outcomeId,
	readLedger,
	type SessionEvent,
	type SessionState,
	type SettingSource,
	sessionLog,
	type TimeboxBudget,
	transition,
} from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";

/** Where a hook's session is kept. */
export interface SessionFiles {
	store: SessionLog;
	ledger: BudgetLedger;
}

/** Where a hook's session is kept, and the settings every load reads. */
export interface SessionSources extends SessionFiles {
	/** The subagent budget from `TIMEBOX_SUBAGENTS`; a budget set with `/timebox subagents` wins over it. */
	subagents?: SettingSource;
}

/** How a hook loads its session. */
export interface LoadOptions {
	/** Say what was restored, or that the newest record is damaged (a resumed session). */
	announce?: boolean;
	/** A default budget for a session where none was ever set, and the id it gets. */
	defaultBudget?: { text: string; source: string; newBudgetId: string };
	/**
	 * The prompt the hook belongs to (null: the latest prompt). When it is the latest prompt of the log, it is the one
	 * being answered: a tool call or a message typed mid-turn is part of its run, and it does not count against itself.
	 */
	running?: string | null;
}

type LoadEvent = Extract<SessionEvent, { type: "load" }>;

/** The load event of a hook's session. */
export function loadEvent(files: SessionSources, options: LoadOptions = {}): LoadEvent {
	const history = files.store.foldedHistory();
	const ledger = history.budget ? ledgerView(history.budget, files) : NOTHING_RECORDED;
	const event: LoadEvent = { type: "load", history, ledger, mode: "continue", announce: options.announce === true };
	const running = options.running === null ? history.lastPrompt : options.running;
	if (typeof running === "string") event.runningSteps = files.store.stepOf(running);
	if (options.defaultBudget) event.defaultBudget = options.defaultBudget;
	if (files.subagents) event.subagents = files.subagents;
	// Each hook is a new process: it tells the rules which prompt's run it belongs to.
	return options.running === undefined ? event : { ...event, runningPrompt: options.running };
}

/** The session's state from its log and the ledger, as the rules see it now (nothing is carried out). */
export function loadState(files: SessionSources, now: number, options: LoadOptions = {}): SessionState {
	return transition(EMPTY_SESSION, loadEvent(files, options), now).state;
}

/**
 * What the ledger holds about a budget. Logs from the first version marked a budget spent or warned with `spent` and
 * `nudged` lines keyed by its start time; they still count.
 */
export function ledgerView(budget: TimeboxBudget, files: SessionFiles): LedgerView {
	const view = withLoggedClaims(readLedger(files.ledger, budget), budget, files.store);
	if (budget.id !== undefined && !budget.id.startsWith(LEGACY_ID_PREFIX)) return view;
	const legacy = files.store
		.lines()
		.filter(
			(line): line is Extract<LogLine, { kind: "spent" | "nudged" }> =>
				(line.kind === "spent" || line.kind === "nudged") && line.budgetStart === budget.startTime,
		);
	const spent = legacy.find((line) => line.kind === "spent");
	return {
		...view,
		nudged: view.nudged || legacy.some((line) => line.kind === "nudged"),
		spent:
			view.spent ??
			(spent
				? { usedTurns: spent.usedTurns, elapsedMs: spent.elapsedMs, timeRanOut: false, prompt: spent.promptId }
				: null),
	};
}

/** The claims the session's log kept because the ledger could not be written. */
export function loggedClaims(store: SessionLog): LedgerClaim[] {
	return sessionLog.linesOfKind(store.lines(), "claim").map((line) => line.claim);
}

/** What the ledger holds about a budget, with the claims the session's log kept when the ledger could not be written. */
function withLoggedClaims(view: LedgerView, budget: TimeboxBudget, store: SessionLog): LedgerView {
	const logged = loggedClaims(store);
	if (logged.length === 0) return view;
	const outcome = outcomeId(budget);
	const spent = logged.find(
		(claim): claim is Extract<LedgerClaim, { kind: "spent" }> => claim.kind === "spent" && claim.budgetId === outcome,
	);
	const recovered = logged.some((claim) => claim.kind === "onStopRecovered" && claim.budgetId === outcome);
	return {
		...view,
		spent: view.spent ?? (spent ? { ...spent.summary, prompt: spent.prompt } : null),
		off: view.off || logged.some((claim) => claim.kind === "off" && claim.budgetId === budget.id),
		nudged: view.nudged || logged.some((claim) => claim.kind === "nudged" && claim.budgetId === outcome),
		...(view.onStop && recovered ? { onStop: { ...view.onStop, recovered } } : {}),
	};
}
