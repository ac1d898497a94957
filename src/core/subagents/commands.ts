// The subagent budget: `/timebox subagents` (show it, `off`, or a budget), and the `subagents` setting (a budget's
// words, or a map of them by agent type with "*" for every other type) read at load, a bad value named with its source.

import { ANY_AGENT_TYPE, RECORD_VERSION } from "../constants.ts";
import { parseTaskBudget, quoteInput, type TimeboxCommand } from "../grammar/command.ts";
import type { Effect } from "../model/events.ts";
import { badSettingMessage } from "../text/messages.ts";
import { describeTaskBudget } from "./describe.ts";
import {
	NO_SUBAGENT_BUDGET,
	SUBAGENT_BUDGET_OFF,
	subagentBudgetMessage,
	subagentBudgetSetMessage,
} from "./messages.ts";
import type { AgentsTransition, SetTaskBudget, SubagentsState } from "./state.ts";

/** Where a budget set with the command comes from, as `/timebox subagents` shows it. */
export const COMMAND_SOURCE = "/timebox subagents";

/** `/timebox subagents …`: show the budget, turn it off, or set it for every subagent started from now on. */
export function subagentsCommand(
	agents: SubagentsState,
	command: Extract<TimeboxCommand, { kind: "subagents" }>,
	now: number,
): AgentsTransition {
	switch (command.action) {
		case "show":
			// A setting that could not be read is not a budget left unset: its warning says again why none holds.
			if (agents.budgets === null && agents.badSetting !== undefined)
				return { agents, effects: [notify(agents.badSetting, "warning")] };
			return { agents, effects: [notify(showBudget(agents), "info")] };
		case "off": {
			const { badSetting: _said, ...rest } = agents;
			return {
				agents: { ...rest, budgets: null },
				effects: [budgetsRecord(null, now), notify(SUBAGENT_BUDGET_OFF, "info")],
			};
		}
		case "set": {
			const byType = { [ANY_AGENT_TYPE]: { words: command.words, budget: command.budget } };
			return {
				agents: { ...agents, budgets: { byType, source: COMMAND_SOURCE } },
				effects: [
					budgetsRecord({ [ANY_AGENT_TYPE]: command.words }, now),
					notify(subagentBudgetSetMessage(describeTaskBudget(command.budget)), "info"),
				],
			};
		}
	}
}

/**
 * Reads the subagent budget's words by agent type: a budget's words for every type, or a map of them. The reason, when any is
 * unusable: a bad value changes nothing.
 */
export function readTaskBudgets(value: unknown): { budgets: Record<string, SetTaskBudget> } | { invalid: string } {
	const entries: [string, unknown][] =
		typeof value === "string"
			? [[ANY_AGENT_TYPE, value]]
			: typeof value === "object" && value !== null && !Array.isArray(value)
				? Object.entries(value)
				: [];
	if (entries.length === 0) {
		return { invalid: 'is not a subagent budget (such as "5m steps:30", or { "*": "5m", "Explore": "2m" })' };
	}
	const budgets: Record<string, SetTaskBudget> = {};
	for (const [agentType, words] of entries) {
		const budget = typeof words === "string" ? parseTaskBudget(words) : { invalid: "it is not text" };
		if ("invalid" in budget) {
			// The reason is a sentence of its own: the setting's message goes on after it.
			return { invalid: `has a bad budget for ${quoteInput(agentType)} (${budget.invalid.replace(/\.$/, "")})` };
		}
		budgets[agentType] = { words: String(words), budget };
	}
	return { budgets };
}

/** The `subagents` setting as the budget in force; a bad value is named with its source and changes nothing. */
export function subagentsSetting(
	agents: SubagentsState,
	setting: { value: unknown; source: string },
	effects: Effect[],
): SubagentsState {
	const read = readTaskBudgets(setting.value);
	if ("invalid" in read) {
		const warning = badSettingMessage(setting.source, setting.value, read.invalid);
		effects.push(notify(warning, "warning"));
		return { ...agents, badSetting: warning };
	}
	return { ...agents, budgets: { byType: read.budgets, source: setting.source } };
}

/** The budget a subagent of each type gets, and where it came from. */
function showBudget(agents: SubagentsState): string {
	const budgets = agents.budgets;
	if (budgets === null) return NO_SUBAGENT_BUDGET;
	const described = Object.entries(budgets.byType).map(([agentType, { budget }]) => {
		const who = agentType === ANY_AGENT_TYPE ? "every subagent" : `${agentType} subagents`;
		return `${who}: ${describeTaskBudget(budget)}`;
	});
	return subagentBudgetMessage(described, budgets.source);
}

function budgetsRecord(budgets: Record<string, string> | null, at: number): Effect {
	return { kind: "append", record: { kind: "subagents", version: RECORD_VERSION, budgets, at } };
}

function notify(message: string, level: "info" | "warning"): Effect {
	return { kind: "notify", message, level };
}
