// What a /timebox command does to a session's budget, as data: the change to make and the reply to show. The session
// rules carry the plan out as effects that every host executes.

import { MAX_COST_LIMIT, MAX_TIME_LIMIT_MS, MAX_TOKEN_LIMIT, MAX_TURN_LIMIT } from "../constants.ts";
import { describeBudget, formatStatus } from "../format.ts";
import { type BudgetLimits, freshBudget, type Spend, type SpentSummary, type TimeboxBudget } from "../model/budget.ts";
import type { CostReporting, NotifyLevel } from "../model/events.ts";
import { elapsedMs } from "../model/measure.ts";
import { budgetIdOf } from "../model/records.ts";
import { NO_SUBAGENT_BUDGET } from "../subagents/messages.ts";
import {
	ALREADY_PAUSED,
	activeStatusMessage,
	budgetSetMessage,
	COST_NOT_REPORTED,
	COST_NOT_SEEN,
	EXTENSION_TOO_LARGE,
	extendedMessage,
	invalidMessage,
	NO_ACTIVE_TIMEBOX,
	NO_DAILY_BUDGET,
	NO_REPORT,
	NO_TEAM,
	NOT_PAUSED,
	NOTHING_TO_EXTEND,
	noBudgetStatusMessage,
	pausedMessage,
	resumedMessage,
	SPENT_CANNOT_PAUSE,
	spentStatusMessage,
	spentUsage,
	TIMEBOX_OFF,
	TOKENS_NOT_SEEN,
} from "../text/messages.ts";
import { NO_REPORT_PAGE } from "../text/report-page.ts";
import { NO_SUGGESTION } from "../text/suggestion.ts";
import type { TimeboxCommand } from "./command.ts";

export type { CostReporting } from "../model/events.ts";

/** What the user is told. */
export interface Reply {
	message: string;
	level: NotifyLevel;
}

/** The session as a command sees it. */
export interface BudgetView {
	/** The budget in force, active or spent, or null. */
	budget: TimeboxBudget | null;
	/** What the hard stop found, once the budget is spent. */
	spent: SpentSummary | null;
	/** Prompts used of the budget, not counting one being answered. */
	usedTurns: number;
	now: number;
	/** The id a new budget gets. */
	newBudgetId: string;
	/** The session's user-message count, where the host counts it: a new budget's `startTurn` (0 elsewhere). */
	turns?: number;
	/** Tokens and cost used under the budget so far. */
	spend: Spend;
	/** Whether a cost limit can be enforced here, and if not, why (the host's model or the host reports no cost). */
	cost?: CostReporting;
	/** Whether a token limit can be enforced here: false where the host never says what a model call used. */
	tokensSeen?: boolean;
	/** The report of this session's budgets, worked out by the host when the command asks for it. */
	report?: string;
	/** The lines `/timebox status` adds for the running subagents; none when no subagent runs. */
	subagents?: readonly string[];
}

/**
 * The change a command asks for: none, a new budget, off, or the same budget changed (extended, paused, resumed; an
 * extension makes a spent budget active again).
 */
export type CommandPlan =
	| { change: "none"; reply: Reply }
	| { change: "set"; budget: TimeboxBudget; reply: Reply }
	| { change: "update"; budget: TimeboxBudget; reactivate: boolean; reply: Reply }
	/** Off: `write` is false for a spent budget, which is no longer active: it is let go, and nothing is written. */
	| { change: "off"; budgetId: string; disabledAt: number; write: boolean; reply: Reply };

/** Plans a parsed `/timebox` command against the session's budget. Pure: the session rules carry the change out. */
export function planCommand(command: TimeboxCommand, view: BudgetView): CommandPlan {
	switch (command.kind) {
		case "invalid":
			return { change: "none", reply: { message: invalidMessage(command.reason), level: "warning" } };
		case "status":
			return { change: "none", reply: { message: statusMessage(view), level: "info" } };
		case "off":
			if (!view.budget) return { change: "none", reply: { message: NO_ACTIVE_TIMEBOX, level: "info" } };
			return {
				change: "off",
				budgetId: budgetIdOf(view.budget),
				disabledAt: view.now,
				write: view.spent === null,
				reply: { message: TIMEBOX_OFF, level: "info" },
			};
		case "set": {
			const terms = {
				id: view.newBudgetId,
				timeLimitMs: command.timeLimitMs,
				turnLimit: command.turnLimit,
				startTime: view.now,
				onStopCommand: command.onStopCommand,
				...spendLimits(command),
				...treatment(command),
			};
			const budget = freshBudget(terms, view.turns ?? 0);
			const replacedActive = view.budget !== null && view.spent === null;
			const costNote = command.costLimit === undefined ? [] : costNotes(view.cost ?? "reported");
			const tokensNote = command.tokenLimit !== undefined && view.tokensSeen === false ? [TOKENS_NOT_SEEN] : [];
			const notes = [...(command.notes ?? []), ...costNote, ...tokensNote];
			const message = budgetSetMessage(command, replacedActive, notes);
			return { change: "set", budget, reply: { message, level: "info" } };
		}
		case "extend":
			return planExtension(command, view);
		case "pause":
			return planPause(view);
		case "resume":
			return planResume(view);
		case "report":
			return { change: "none", reply: { message: view.report ?? NO_REPORT, level: "info" } };
		case "reportPage":
			// The page is a file: the host writes it and answers before this.
			return { change: "none", reply: { message: NO_REPORT_PAGE, level: "info" } };
		case "suggest":
			// The suggestion is made of the project's past sessions: the host reads them and answers before this.
			return { change: "none", reply: { message: NO_SUGGESTION, level: "info" } };
		case "today":
			// The daily budgets live outside the session: a host with a daily ledger answers `today` before this.
			return { change: "none", reply: { message: NO_DAILY_BUDGET, level: "info" } };
		case "team":
			// So does a team's store, answered by the host's daily ledger before this.
			return { change: "none", reply: { message: NO_TEAM, level: "info" } };
		case "subagents":
			// The subagent budget is the subagent rules' to change: the session's budget is left as it is.
			return { change: "none", reply: { message: NO_SUBAGENT_BUDGET, level: "info" } };
	}
}

/** Why a cost limit cannot be enforced here, said when it is set. */
function costNotes(cost: CostReporting): string[] {
	switch (cost) {
		case "reported":
			return [];
		case "model reports none":
			return [COST_NOT_REPORTED];
		case "host cannot see":
			return [COST_NOT_SEEN];
	}
}

/** The token, cost and step limits and the loop guard a budget's words asked for. */
export function spendLimits(
	limits: BudgetLimits,
): Pick<TimeboxBudget, "tokenLimit" | "costLimit" | "stepLimit" | "loopLimit"> {
	return {
		...(limits.tokenLimit === undefined ? {} : { tokenLimit: limits.tokenLimit }),
		...(limits.costLimit === undefined ? {} : { costLimit: limits.costLimit }),
		...(limits.stepLimit === undefined ? {} : { stepLimit: limits.stepLimit }),
		...(limits.loopLimit === undefined ? {} : { loopLimit: limits.loopLimit }),
	};
}

const info = (message: string): Reply => ({ message, level: "info" });

/** How the model is treated under a budget, as its words asked (`aware`, `grace:30s`). */
export function treatment(limits: BudgetLimits): Pick<TimeboxBudget, "awareness" | "graceMs"> {
	return {
		...(limits.awareness === undefined ? {} : { awareness: limits.awareness }),
		...(limits.graceMs === undefined ? {} : { graceMs: limits.graceMs }),
	};
}

/** More time and/or prompts for the budget in force, counted from its limits (or from what is used, for a dimension it had no limit on). */
function planExtension(command: Extract<TimeboxCommand, { kind: "extend" }>, view: BudgetView): CommandPlan {
	const budget = view.budget;
	if (!budget) return { change: "none", reply: info(NOTHING_TO_EXTEND) };
	const timeLimitMs =
		command.addTimeMs === null
			? budget.timeLimitMs
			: (budget.timeLimitMs ?? elapsedMs(budget, view.now)) + command.addTimeMs;
	const turnLimit =
		command.addTurns === null ? budget.turnLimit : (budget.turnLimit ?? view.usedTurns) + command.addTurns;
	const spend = view.spend;
	const tokenLimit =
		command.addTokens === undefined ? budget.tokenLimit : (budget.tokenLimit ?? spend.tokens) + command.addTokens;
	const costLimit =
		command.addCost === undefined ? budget.costLimit : (budget.costLimit ?? spend.cost) + command.addCost;
	if (
		(timeLimitMs ?? 0) > MAX_TIME_LIMIT_MS ||
		(turnLimit ?? 0) > MAX_TURN_LIMIT ||
		(tokenLimit ?? 0) > MAX_TOKEN_LIMIT ||
		(costLimit ?? 0) > MAX_COST_LIMIT
	) {
		return { change: "none", reply: { message: EXTENSION_TOO_LARGE, level: "warning" } };
	}
	const added = describeBudget({
		timeLimitMs: command.addTimeMs,
		turnLimit: command.addTurns,
		...(command.addTokens === undefined ? {} : { tokenLimit: command.addTokens }),
		...(command.addCost === undefined ? {} : { costLimit: command.addCost }),
		onStopCommand: null,
	});
	const extended: TimeboxBudget = {
		...budget,
		timeLimitMs,
		turnLimit,
		...(tokenLimit === undefined ? {} : { tokenLimit }),
		...(costLimit === undefined ? {} : { costLimit }),
		extensions: (budget.extensions ?? 0) + 1,
	};
	const status = formatStatus(extended, view.now, view.usedTurns, spend);
	return {
		change: "update",
		budget: extended,
		reactivate: view.spent !== null,
		reply: info(extendedMessage(added, status, command.notes)),
	};
}

function planPause(view: BudgetView): CommandPlan {
	const budget = view.budget;
	if (!budget) return { change: "none", reply: info(NO_ACTIVE_TIMEBOX) };
	if (view.spent) return { change: "none", reply: info(SPENT_CANNOT_PAUSE) };
	if (budget.pausedAt !== undefined) return { change: "none", reply: info(ALREADY_PAUSED) };
	const paused = { ...budget, pausedAt: view.now };
	const status = formatStatus(paused, view.now, view.usedTurns, view.spend);
	return { change: "update", budget: paused, reactivate: false, reply: info(pausedMessage(status)) };
}

function planResume(view: BudgetView): CommandPlan {
	const budget = view.budget;
	if (!budget) return { change: "none", reply: info(NO_ACTIVE_TIMEBOX) };
	if (budget.pausedAt === undefined) return { change: "none", reply: info(NOT_PAUSED) };
	const { pausedAt, ...running } = budget;
	const pausedMs = (budget.pausedMs ?? 0) + Math.max(0, view.now - pausedAt);
	const resumed = pausedMs > 0 ? { ...running, pausedMs } : running;
	const status = formatStatus(resumed, view.now, view.usedTurns, view.spend);
	return { change: "update", budget: resumed, reactivate: false, reply: info(resumedMessage(status)) };
}

function statusMessage(view: BudgetView): string {
	const subagents = view.subagents ?? [];
	const session = sessionStatusMessage(view);
	return subagents.length === 0 ? session : [session, ...subagents].join("\n");
}

function sessionStatusMessage(view: BudgetView): string {
	if (!view.budget) return noBudgetStatusMessage();
	if (view.spent)
		return spentStatusMessage(view.spent.usedTurns, view.spent.elapsedMs, spentUsage(view.spent, view.budget));
	return activeStatusMessage(
		formatStatus(view.budget, view.now, view.usedTurns, view.spend),
		view.budget.onStopCommand,
	);
}
