// The report as data, for the report page: the figures `/timebox report` prints, folded the same way from the same
// history and ledger, with what a timeline draws of them (when each turn and model call came, the warnings, pauses,
// extensions, the grace period and the stop) and every subagent with its budget and ending. Pure and serialisable.

import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "../constants.ts";
import { describeBudget } from "../format.ts";
import type { SubagentRun, TimeboxBudget } from "../model/budget.ts";
import { foldHistory, type HistoryItem } from "../model/history.ts";
import { safeAmount } from "../model/measure.ts";
import { describeTaskBudget } from "../subagents/describe.ts";
import { subagentReportLine } from "../subagents/status.ts";
import { DEFAULT_TERMS, type HostTerms } from "./host-terms.ts";
import {
	budgetFigures,
	describeEntry,
	endingText,
	foldBudgets,
	type LedgerLookup,
	type ReportedBudget,
	sessionReport,
} from "./report.ts";

/** A budget's limits, null where it has none. */
export interface ReportLimits {
	timeMs: number | null;
	turns: number | null;
	tokens: number | null;
	cost: number | null;
	steps: number | null;
	/** The loop guard: the Nth identical tool call of a run is refused. */
	loop: number | null;
}

/** Which limit a warning or a stop is about. */
export type ReportLimit = "time" | "turns" | "tokens" | "cost";

/** One budget of the session, as the page draws it. */
export interface BudgetData {
	/** `15m and 3 turns`. */
	words: string;
	/** The line `/timebox report` prints for it, without its number. */
	line: string;
	startTime: number;
	/** Until when it counted: its stop, its end, or the report's time while it is in force. */
	until: number;
	limits: ReportLimits;
	used: { timeMs: number; turns: number; tokens: number; cost: number };
	ending: { kind: "active" | "spent" | "off" | "replaced"; text: string };
	extensions: number;
	pausedMs: number;
	/** When it was paused, while it is. */
	pausedAt: number | null;
	graceMs: number | null;
	onStopCommand: string | null;
	/** When each turn was sent, where the host says. */
	turns: number[];
	/** Each model call with a time, with the tokens and cost used under the budget up to it. */
	steps: { at: number; tokens: number; cost: number }[];
	/** The 80% and 95% points of each limit that were reached, and when. */
	warnings: { share: number; limit: ReportLimit; at: number }[];
}

/** One subagent of the session, as a lane under its parent. */
export interface SubagentData {
	id: string;
	/** The subagent that started it, or null for the main agent. */
	parent: string | null;
	agentType: string;
	task: string;
	/** Its budget's words, or null where it had none of its own. */
	budget: string | null;
	limits: ReportLimits | null;
	startedAt: number;
	/** When it ended or was stopped; null while it runs. */
	endedAt: number | null;
	/** When its budget was spent, and by which limit. */
	spent: { at: number; limit: string } | null;
	/** How it ended (`answered`, `concluded`, `stopped`), or null while it runs. */
	ended: string | null;
	steps: number;
	tokens: number;
	cost: number;
	/** The line `/timebox report` prints for it. */
	line: string;
}

/** The report of a session as data, with its text. */
export interface ReportData {
	/** What `/timebox report` prints. */
	text: string;
	now: number;
	/** What the host measures: a figure it cannot measure is left out, never shown as a zero. */
	measured: { tokens: boolean; cost: boolean };
	budgets: BudgetData[];
	subagents: SubagentData[];
}

const SHARES = [NUDGE_WARNING_RATIO, NUDGE_CRITICAL_RATIO];

/**
 * The report of a session's budgets as data: the same fold and figures as `sessionReport`, which gives its text.
 * @example reportData(items, lookup, now).budgets[0]?.used.turns // 3
 */
export function reportData(
	items: readonly HistoryItem[],
	ledger: LedgerLookup,
	now: number,
	terms: HostTerms = DEFAULT_TERMS,
): ReportData {
	const runs = foldHistory(items).subagents ?? [];
	return {
		text: sessionReport(items, ledger, now, terms),
		now,
		measured: { tokens: terms.tokens, cost: terms.cost },
		budgets: foldBudgets(items).map((entry) => budgetData(entry, ledger, now, terms)),
		subagents: runs.map((run) => subagentData(run, subagentReportLine(run, now))),
	};
}

function limitsOf(budget: TimeboxBudget): ReportLimits {
	return {
		timeMs: budget.timeLimitMs,
		turns: budget.turnLimit,
		tokens: budget.tokenLimit ?? null,
		cost: budget.costLimit ?? null,
		steps: budget.stepLimit ?? null,
		loop: budget.loopLimit ?? null,
	};
}

function budgetData(entry: ReportedBudget, ledger: LedgerLookup, now: number, terms: HostTerms): BudgetData {
	const { budget } = entry;
	const view = ledger(budget);
	const figures = budgetFigures(entry, view, now);
	const line = describeEntry(entry, view, now, terms);
	const steps: BudgetData["steps"] = [];
	let tokens = 0;
	let cost = 0;
	for (const usage of entry.usage) {
		if (usage.at === undefined || usage.at > figures.stoppedAt) continue;
		tokens += safeAmount(usage.tokens);
		cost += safeAmount(usage.cost);
		steps.push({ at: usage.at, tokens, cost });
	}
	// The turns the budget counted: a turn it refused, and those after its stop (the chat goes on), are not its own.
	const turns = entry.turns.slice(0, figures.turns).flatMap((turn) => (turn.at === undefined ? [] : [turn.at]));
	const limits = limitsOf(budget);
	return {
		words: describeBudget(budget),
		line,
		startTime: budget.startTime,
		until: figures.until,
		limits,
		used: { timeMs: figures.timeMs, turns: figures.turns, tokens: figures.spend.tokens, cost: figures.spend.cost },
		ending: { kind: figures.ending.kind, text: endingText(figures.ending) },
		extensions: budget.extensions ?? 0,
		pausedMs: budget.pausedMs ?? 0,
		pausedAt: budget.pausedAt ?? null,
		graceMs: budget.graceMs ?? null,
		onStopCommand: budget.onStopCommand,
		turns,
		steps,
		warnings: warningsOf(budget, limits, figures.until, turns, steps),
	};
}

/** When each 80% and 95% point was reached: by the clock, by the turn that reached it, by the call that used it. */
function warningsOf(
	budget: TimeboxBudget,
	limits: ReportLimits,
	until: number,
	turns: readonly number[],
	steps: BudgetData["steps"],
): BudgetData["warnings"] {
	const warnings: BudgetData["warnings"] = [];
	for (const share of SHARES) {
		if (limits.timeMs !== null) {
			const at = budget.startTime + (budget.pausedMs ?? 0) + share * limits.timeMs;
			if (at <= until) warnings.push({ share, limit: "time", at });
		}
		if (limits.turns !== null) {
			const at = turns[Math.ceil(share * limits.turns) - 1];
			if (at !== undefined) warnings.push({ share, limit: "turns", at });
		}
		for (const limit of ["tokens", "cost"] as const) {
			const cap = limits[limit];
			const reached = cap === null ? undefined : steps.find((step) => step[limit] >= share * cap);
			if (reached !== undefined) warnings.push({ share, limit, at: reached.at });
		}
	}
	return warnings.sort((a, b) => a.at - b.at);
}

function subagentData(run: SubagentRun, line: string): SubagentData {
	const budget = run.budget;
	return {
		id: run.id,
		parent: run.parent,
		agentType: run.agentType,
		task: run.task,
		budget: budget === null ? null : describeTaskBudget(budget),
		limits:
			budget === null
				? null
				: {
						timeMs: budget.timeLimitMs,
						turns: null,
						tokens: budget.tokenLimit ?? null,
						cost: budget.costLimit ?? null,
						steps: budget.stepLimit ?? null,
						loop: budget.loopLimit ?? null,
					},
		startedAt: run.startedAt,
		endedAt: run.endedAt,
		spent: run.spent === null ? null : { at: run.spent.at, limit: run.spent.limit },
		ended: run.ended,
		steps: run.steps,
		tokens: run.spend.tokens,
		cost: run.spend.cost,
		line,
	};
}
