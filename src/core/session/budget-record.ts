// A budget's record, written whenever a budget is set, changed or given by default, and the watcher of its time asked
// for with it: a budget with time to run out is watched (where the host needs a watcher) whatever set it, a command, an
// extension, a resume or a default budget.

import type { BudgetTerms, Spend } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";
import { budgetRecord } from "../model/records.ts";
import { outcomeId } from "./outcomes.ts";

/**
 * The effects that keep `budget` (with the prompts and spend an earlier record of it carries over), and that watch it
 * while it has time to run out and is not paused.
 */
export function recordBudget(budget: BudgetTerms, turnsBefore?: number, spendBefore?: Spend): Effect[] {
	const append: Effect = {
		kind: "append",
		record: { kind: "active", budget: budgetRecord(budget, turnsBefore, spendBefore) },
	};
	if (budget.timeLimitMs === null || budget.pausedAt !== undefined) return [append];
	return [append, { kind: "watchBudget", budgetId: outcomeId(budget) }];
}
