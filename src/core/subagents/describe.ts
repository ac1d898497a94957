// A subagent budget in words, as the user and the subagent read it: `5m and 30 model calls`.

import { formatBudgetLabel, formatCost, formatTokens } from "../format.ts";
import type { TaskBudget } from "../model/budget.ts";
import { loopGuardPhrase } from "../text/loop.ts";
import { pluralCalls } from "./messages.ts";

/**
 * A subagent budget in words.
 * @example describeTaskBudget({ timeLimitMs: 300_000, stepLimit: 30 }) // "5m and 30 model calls"
 */
export function describeTaskBudget(budget: TaskBudget): string {
	const parts: string[] = [];
	if (budget.timeLimitMs !== null) parts.push(formatBudgetLabel(budget.timeLimitMs));
	if (budget.stepLimit !== undefined) parts.push(pluralCalls(budget.stepLimit));
	if (budget.tokenLimit !== undefined) parts.push(`${formatTokens(budget.tokenLimit)} tokens`);
	if (budget.costLimit !== undefined) parts.push(formatCost(budget.costLimit));
	if (budget.loopLimit !== undefined) parts.push(loopGuardPhrase(budget.loopLimit));
	return parts.join(" and ");
}
