// The subagents of a session as loaded: the budget set with the command (kept across reloads as a record) or else
// the `subagents` setting, and the subagents the history shows running, so a host that reloads at every hook sees
// them with their steps and usage.

import type { FoldedHistory } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";
import { COMMAND_SOURCE, readTaskBudgets, subagentsSetting } from "./commands.ts";
import { NO_SUBAGENTS, type SubagentsState } from "./state.ts";

export function loadSubagents(
	history: FoldedHistory,
	setting: { value: unknown; source: string } | undefined,
	effects: Effect[],
): SubagentsState {
	const runs = Object.fromEntries((history.subagents ?? []).filter((run) => !run.closed).map((run) => [run.id, run]));
	const recorded = history.subagentBudgets;
	if (recorded === undefined) {
		const loaded = { ...NO_SUBAGENTS, runs };
		return setting ? subagentsSetting(loaded, setting, effects) : loaded;
	}
	// A record this version wrote reads back; one that does not (damaged), or off (null), leaves no budget.
	const read = readTaskBudgets(recorded);
	const budgets = "budgets" in read ? { byType: read.budgets, source: COMMAND_SOURCE } : null;
	return { budgets, runs };
}
