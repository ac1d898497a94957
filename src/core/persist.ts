// What persists a budget and how it comes back: the records a session keeps, and the restore rule. The core does no
// I/O: a host keeps the records where it likes (custom session entries, a log file) and hands them back here.

import { NUDGE_WARNING_RATIO } from "./constants.ts";
import type { TimeboxRecord } from "./model/budget.ts";
import { type BudgetRecordData, NO_SPEND, type Spend, type TimeboxBudget } from "./model/budget.ts";
import { foldHistory, type HistoryItem } from "./model/history.ts";
import { elapsedMs, safeTurns, worstRatio } from "./model/measure.ts";
import { budgetRecord, offRecord } from "./model/records.ts";
import type { BudgetStore, SessionStore, TranscriptBridge } from "./ports.ts";

export type { TimeboxRecord } from "./model/budget.ts";

/** What restoring found: nothing (no budget, or it was turned off), a budget whose time ran out, or the budget. */
export type RestoreResult =
	| { status: "none"; budget?: undefined }
	| { status: "expired"; budget?: undefined }
	| { status: "restored"; budget: TimeboxBudget };

/**
 * The restore rule, on the records of a session in the order written and its user-message count now (`turns`): the
 * newest usable record decides (an `off` means nothing to restore; damaged records are skipped); a budget whose time ran
 * out is `expired`; any other budget is `restored`, with `softNudgeSent` re-derived from what is used. Turns (like
 * tokens and cost) do not change while a session is closed: a budget with all its turns used is restored, and the next
 * turn's start stops it. Never throws, whatever the records hold.
 * @example restore([{ kind: "active", budget }], budget.startTime + 60_000, 0) // { status: "restored", budget }
 */
export function restore(records: readonly unknown[], now: number, turns: number): RestoreResult {
	const list: readonly unknown[] = Array.isArray(records) ? records : [];
	const { budget } = foldHistory(list.map((record) => ({ kind: "record", record })));
	if (!budget) return { status: "none" };
	return restoreBudget(budget, now, safeTurns(turns) - budget.startTurn, NO_SPEND, false);
}

/**
 * The restore rule on a budget found in a session, with what was used under it: `expired` once its time ran out, else
 * `restored`, active, with `softNudgeSent` true when the warning was claimed (`nudged`) or 80% of any limit is used.
 */
export function restoreBudget(
	budget: TimeboxBudget,
	now: number,
	usedTurns: number,
	spend: Spend,
	nudged: boolean,
): RestoreResult {
	if (budget.timeLimitMs !== null && elapsedMs(budget, now) >= budget.timeLimitMs) return { status: "expired" };
	const softNudgeSent = nudged || worstRatio(budget, now, usedTurns, spend) >= NUDGE_WARNING_RATIO;
	return { status: "restored", budget: { ...budget, softNudgeSent, active: true } };
}

/** A `BudgetStore` whose writes and reads are done when they return, as a host's own session store does them. */
export interface SyncBudgetStore extends BudgetStore {
	appendActive(budget: TimeboxBudget | BudgetRecordData): void;
	appendOff(disabledAt: number, budgetId?: string): void;
	loadRecords(): TimeboxRecord[];
}

/**
 * The spec's `BudgetStore` and `TranscriptBridge` over a host's own session store (the session log of the hook hosts
 * and opencode, Claude Code's hooks module store): a budget set and a budget turned off are appended as the rules write
 * them, the records come back in the order written, and the user's turns are the prompts the store kept.
 * @example budgetStoreOver(log).loadRecords() // [{ kind: "active", budget }, { kind: "off", … }]
 */
export function budgetStoreOver(store: SessionStore): SyncBudgetStore & TranscriptBridge {
	const history = (): HistoryItem[] => store.history();
	return {
		appendActive: (budget) => store.append({ kind: "active", budget: budgetRecord(budget) }),
		// An off record whose budget is not named turns off whichever budget is in force when read back.
		appendOff: (disabledAt, budgetId) => store.append(offRecord(budgetId ?? "", disabledAt)),
		loadRecords: () =>
			history().flatMap((item) => (item.kind === "record" && isBudgetRecord(item.record) ? [item.record] : [])),
		countUserMessages: () => history().filter((item) => item.kind === "prompt").length,
	};
}

/**
 * A host's own session store that is the spec's `BudgetStore` and `TranscriptBridge` too, over what it keeps
 * (`budgetStoreOver`): a store extends it and writes `append` and `history`, and the optional writes it keeps.
 */
export abstract class SpecSessionStore implements SessionStore, SyncBudgetStore, TranscriptBridge {
	private readonly spec = budgetStoreOver(this);

	abstract append(record: TimeboxRecord): void;
	abstract history(): HistoryItem[];

	appendActive(budget: TimeboxBudget | BudgetRecordData): void {
		this.spec.appendActive(budget);
	}

	appendOff(disabledAt: number, budgetId?: string): void {
		this.spec.appendOff(disabledAt, budgetId);
	}

	loadRecords(): TimeboxRecord[] {
		return this.spec.loadRecords();
	}

	countUserMessages(): number {
		return this.spec.countUserMessages();
	}
}

/** A record as read back that sets a budget or turns one off; `restore` checks the rest of its fields. */
function isBudgetRecord(value: unknown): value is Extract<TimeboxRecord, { kind: "active" | "off" }> {
	return (
		typeof value === "object" && value !== null && "kind" in value && (value.kind === "active" || value.kind === "off")
	);
}
