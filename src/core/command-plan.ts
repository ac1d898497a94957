// What a /timebox command does to a session's budget, as data: the change to make and the reply to show. Every host
// carries the plan out its own way (pi keeps a live controller; Claude Code hooks write a store and exit).

import type { TimeboxBudget } from "./budget.ts";
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
	/** What the hard stop recorded, once the budget is spent. */
	spent: { usedTurns: number; elapsedMs: number } | null;
	/** Prompts used of the budget. */
	usedTurns: number;
	/** User messages in the session now: a new budget counts turns from here. */
	userMessages: number;
	now: number;
}

/** The change a command asks for: none, a new budget (to persist, then adopt), or off (to persist, then clear). */
export type CommandPlan =
	| { change: "none"; reply: Reply }
	| { change: "set"; budget: TimeboxBudget; reply: Reply }
	| { change: "off"; disabledAt: number; reply: Reply };

/** Plans a parsed `/timebox` command against the session's budget. Pure: the caller writes and adopts the change. */
export function planCommand(command: TimeboxCommand, view: BudgetView): CommandPlan {
	switch (command.kind) {
		case "invalid":
			return { change: "none", reply: { message: invalidMessage(command.reason), level: "warning" } };
		case "status":
			return { change: "none", reply: { message: statusMessage(view), level: "info" } };
		case "off":
			if (!view.budget) return { change: "none", reply: { message: NO_ACTIVE_TIMEBOX, level: "info" } };
			return { change: "off", disabledAt: view.now, reply: { message: TIMEBOX_OFF, level: "info" } };
		case "set": {
			const budget: TimeboxBudget = {
				timeLimitMs: command.timeLimitMs,
				turnLimit: command.turnLimit,
				startTime: view.now,
				startTurn: view.userMessages,
				softNudgeSent: false,
				active: true,
				onStopCommand: command.onStopCommand,
			};
			const replacedActive = view.budget?.active === true;
			return { change: "set", budget, reply: { message: budgetSetMessage(command, replacedActive), level: "info" } };
		}
	}
}

function statusMessage(view: BudgetView): string {
	if (!view.budget) return noBudgetStatusMessage();
	if (view.spent) return spentStatusMessage(view.spent.usedTurns, view.spent.elapsedMs);
	return activeStatusMessage(formatStatus(view.budget, view.now, view.usedTurns), view.budget.onStopCommand);
}
