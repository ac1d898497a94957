// What a /timebox command does to a session's budget, as data: the change to make and the reply to show. The session
// rules carry the plan out as effects that every host executes.

import type { SpentSummary, TimeboxBudget } from "./budget.ts";
import { formatStatus } from "./format.ts";
import {
	activeStatusMessage,
	budgetSetMessage,
	invalidMessage,
	NO_ACTIVE_TIMEBOX,
	noBudgetStatusMessage,
	spentStatusMessage,
	TIMEBOX_OFF,
} from "./messages.ts";
import type { TimeboxCommand } from "./parse.ts";
import type { NotifyLevel } from "./ports.ts";

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
}

/** The change a command asks for: none, a new budget, or off. */
export type CommandPlan =
	| { change: "none"; reply: Reply }
	| { change: "set"; budget: TimeboxBudget; reply: Reply }
	| { change: "off"; budgetId: string; disabledAt: number; reply: Reply };

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
				budgetId: view.budget.id,
				disabledAt: view.now,
				reply: { message: TIMEBOX_OFF, level: "info" },
			};
		case "set": {
			const budget: TimeboxBudget = {
				id: view.newBudgetId,
				timeLimitMs: command.timeLimitMs,
				turnLimit: command.turnLimit,
				startTime: view.now,
				onStopCommand: command.onStopCommand,
			};
			const replacedActive = view.budget !== null && view.spent === null;
			return { change: "set", budget, reply: { message: budgetSetMessage(command, replacedActive), level: "info" } };
		}
	}
}

function statusMessage(view: BudgetView): string {
	if (!view.budget) return noBudgetStatusMessage();
	if (view.spent) return spentStatusMessage(view.spent.usedTurns, view.spent.elapsedMs);
	return activeStatusMessage(formatStatus(view.budget, view.now, view.usedTurns), view.budget.onStopCommand);
}
