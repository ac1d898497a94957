// `/timebox report`: the budgets of a session, current and earlier, with what each used and how it ended, and every
// subagent of the session with its budget, use and ending, folded from the session's history and the ledger. Pure:
// the host hands in the history, the ledger and the time.

import { describeBudget, formatCost, formatTokens, pluralTurns } from "../format.ts";
import type { Spend, TimeboxBudget } from "../model/budget.ts";
import type { LedgerView } from "../model/events.ts";
import { foldHistory, type HistoryItem } from "../model/history.ts";
import { elapsedMs, safeAmount } from "../model/measure.ts";
import { parseRecord } from "../model/records.ts";
import { formatTime } from "../parse.ts";
import { subagentReportLines } from "../subagents/status.ts";
import { DEFAULT_TERMS, type HostTerms, unmeasuredNote } from "./host-terms.ts";

/** How a budget of the report ended, or that it is still in force. */
export type Ending =
	| { kind: "active" }
	| { kind: "spent"; why: string }
	| { kind: "off"; at: number }
	| { kind: "replaced"; at: number };

/** One budget of the session, as the report shows it. */
export interface ReportedBudget {
	/** The budget as last written (extensions and pauses included). */
	budget: TimeboxBudget;
	prompts: Set<string>;
	/** When each prompt was sent, where the host says, in the order they came. */
	turns: { key: string; at: number | undefined }[];
	/** What each model call used while the budget was in force, with when it was answered where the host says. */
	usage: { tokens: number; cost: number; at: number | undefined }[];
	ending: Ending;
}

/** What the ledger says of a budget, by the ledger name of its outcomes. */
export type LedgerLookup = (budget: TimeboxBudget) => LedgerView;

/**
 * The report of a session's budgets, oldest first, or a line saying there were none. What the host cannot measure
 * (`terms`) is left out of each budget's use and said once, never shown as a zero.
 * @example sessionReport(items, lookup, now) // "Timebox report: 1 budget in this session.\n1. 15m and 3 turns, set 4m 0s ago: …"
 */
export function sessionReport(
	items: readonly HistoryItem[],
	ledger: LedgerLookup,
	now: number,
	terms: HostTerms = DEFAULT_TERMS,
): string {
	const budgets = foldBudgets(items);
	const subagents = subagentReportLines(foldHistory(items).subagents ?? [], now);
	if (budgets.length === 0) return ["Timebox report: no budget was set in this session.", ...subagents].join("\n");
	const lines = budgets.map(
		(entry, index) => `${index + 1}. ${describeEntry(entry, ledger(entry.budget), now, terms)}`,
	);
	const count = budgets.length === 1 ? "1 budget" : `${budgets.length} budgets`;
	const note = unmeasuredNote(terms);
	return [`Timebox report: ${count} in this session.`, ...lines, ...subagents, ...(note === null ? [] : [note])].join(
		"\n",
	);
}

/** Every budget the history set, with the prompts and usage that came while each was in force and not paused. */
export function foldBudgets(items: readonly HistoryItem[]): ReportedBudget[] {
	const budgets: ReportedBudget[] = [];
	let current: ReportedBudget | null = null;
	for (const item of items) {
		if (item.kind === "record") {
			const record = parseRecord(item.record);
			if (record?.kind === "active") {
				if (current && current.budget.id === record.budget.id) {
					current.budget = record.budget;
					takeUpAgain(current, record.turnsBefore);
					continue;
				}
				if (current) current.ending = { kind: "replaced", at: record.budget.startTime };
				current = { budget: record.budget, prompts: new Set(), turns: [], usage: [], ending: { kind: "active" } };
				budgets.push(current);
			} else if (record?.kind === "off" && current) {
				current.ending = { kind: "off", at: record.disabledAt };
				current = null;
			}
			continue;
		}
		if (!current || current.budget.pausedAt !== undefined) continue;
		if (item.kind === "prompt") {
			if (!current.prompts.has(item.key)) current.turns.push({ key: item.key, at: item.at });
			current.prompts.add(item.key);
		} else current.usage.push({ tokens: item.tokens, cost: item.cost, at: item.at });
	}
	return budgets;
}

/**
 * A budget written again with `counted` prompts used before: a pause, a resume, or an extension, which may come after
 * the budget stopped. Then the prompts it did not count (the one it refused, those the chat went on with meanwhile)
 * and what the model used from the first of them on are not the budget's, as they were not the session's count.
 */
function takeUpAgain(entry: ReportedBudget, counted: number): void {
	if (counted >= entry.turns.length) return;
	const stop = entry.turns[counted]?.at;
	entry.turns = entry.turns.slice(0, counted);
	entry.prompts = new Set(entry.turns.map((turn) => turn.key));
	if (stop !== undefined) entry.usage = entry.usage.filter((usage) => usage.at === undefined || usage.at < stop);
}

/** What a budget of the report used and how it ended: the figures its line says and the page draws. */
export interface BudgetFigures {
	ending: Ending;
	/** Until when the budget counted: its end, or now while it is in force. */
	until: number;
	timeMs: number;
	turns: number;
	spend: Spend;
	/** When a spent budget stopped; what came after it is not the budget's. Infinity while it was not spent. */
	stoppedAt: number;
}

/** The figures of one budget of the report. */
export function budgetFigures(entry: ReportedBudget, ledger: LedgerView, now: number): BudgetFigures {
	const { budget } = entry;
	const spent = ledger.spent;
	const ending: Ending = spent ? { kind: "spent", why: spentWhy(spent) } : entry.ending;
	const until = ending.kind === "off" || ending.kind === "replaced" ? ending.at : now;
	// After a stop the chat goes on without a budget: what it uses then is not the spent budget's.
	const stoppedAt = spent ? budget.startTime + (budget.pausedMs ?? 0) + spent.elapsedMs : Number.POSITIVE_INFINITY;
	return {
		ending,
		until: spent ? stoppedAt : until,
		timeMs: spent ? spent.elapsedMs : elapsedMs(budget, until),
		turns: spent ? spent.usedTurns : entry.prompts.size,
		spend: sumUsage(entry.usage.filter((usage) => usage.at === undefined || usage.at <= stoppedAt)),
		stoppedAt,
	};
}

/** `15m and 3 turns, set 12m 0s ago: used 12m 0s, 3 turns, 150k tokens, $1.23. Spent: the time ran out.` */
export function describeEntry(entry: ReportedBudget, ledger: LedgerView, now: number, terms: HostTerms): string {
	const { budget } = entry;
	const figures = budgetFigures(entry, ledger, now);
	const extended = budget.extensions
		? `, extended ${budget.extensions === 1 ? "once" : `${budget.extensions} times`}`
		: "";
	const used = [
		formatTime(figures.timeMs),
		pluralTurns(figures.turns),
		...(terms.tokens ? [`${formatTokens(figures.spend.tokens)} tokens`] : []),
		...(terms.cost ? [formatCost(figures.spend.cost)] : []),
	];
	const set = `${describeBudget(budget)}, set ${formatTime(Math.max(0, now - budget.startTime))} ago${extended}`;
	return `${set}: used ${used.join(", ")}. ${endingText(figures.ending)}`;
}

function sumUsage(usage: readonly { tokens: number; cost: number }[]): Spend {
	return usage.reduce(
		(sum, one) => ({ tokens: sum.tokens + safeAmount(one.tokens), cost: sum.cost + safeAmount(one.cost) }),
		{ tokens: 0, cost: 0 },
	);
}

function spentWhy(spent: NonNullable<LedgerView["spent"]>): string {
	if (spent.timeRanOut) return "the time ran out";
	if (spent.noRoom)
		return `too little of the ${spent.limit === "cost" ? "cost" : "tokens"} was left for the next model call`;
	if (spent.limit === "tokens") return "the tokens were used up";
	if (spent.limit === "cost") return "the cost limit was reached";
	return "the prompts were used up";
}

/** `Spent: the time ran out.`, `Still active.`: how a budget of the report ended. */
export function endingText(ending: Ending): string {
	switch (ending.kind) {
		case "active":
			return "Still active.";
		case "spent":
			return `Spent: ${ending.why}.`;
		case "off":
			return "Turned off.";
		case "replaced":
			return "Replaced by a new budget.";
	}
}
