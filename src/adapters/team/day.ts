// A team's day as its store's read script answers it, made into the daily rules' standings: the budgets in force are
// the core's rule (the admin's limits in the store, a member's own budget a personal cap on this machine beside them;
// else each machine's own as the team's), the day's use and raises read by reading.ts; a past day's row for the
// report; and when a day's keys expire.

import {
	type DailyBudget,
	type DailyStanding,
	type DailyTeam,
	type DayUseRow,
	TEAM_KEYS_OUTLIVE_S,
	teamStandings,
} from "../../core/index.ts";
import type { TeamConfig } from "./config.ts";
import { amount, dayReading, fields, listReply } from "./reading.ts";

/** Use to add to the team's day. */
export interface Use {
	prompts: number;
	agentMs: number;
	tokens: number;
	cost: number;
}

/** When a day's keys expire (epoch seconds): a day after the day ends (`dayEnd`, epoch ms). */
export function keysExpiry(dayEnd: number): number {
	return Math.ceil(dayEnd / 1000) + TEAM_KEYS_OUTLIVE_S;
}

/** The team of a config, as the rules name it. */
export function teamOf(config: TeamConfig): DailyTeam {
	return { name: config.team, zone: config.zone };
}

/**
 * The day's standings of the budgets in force, from the session's own (`budgets`) and the read script's reply: the
 * team's with the store's use (the others' reservations counted) and raises, a personal cap with this machine's
 * standing (`machine`, asked only for those).
 */
export function standingsOf(
	reply: unknown,
	budgets: readonly DailyBudget[],
	config: TeamConfig,
	dayStart: number,
	machine: (budgets: readonly DailyBudget[]) => DailyStanding[],
): DailyStanding[] {
	return teamStandings(budgets, teamOf(config), dayReading(reply, dayStart), machine);
}

/** Each budget as the team's. */
export function teamBudgets(budgets: readonly DailyBudget[], config: TeamConfig): DailyBudget[] {
	const team = teamOf(config);
	return budgets.map((budget) => ({ ...budget, team }));
}

/** A day's row of the report: its use, the others' reservations counted. */
export function dayRowOf(day: string, reply: unknown): DayUseRow {
	const [useFields, , , reservedTokens, reservedCost] = listReply(reply);
	const use = fields(useFields);
	return {
		day,
		agentMs: amount(use.get("agentMs")),
		prompts: amount(use.get("prompts")),
		tokens: amount(use.get("tokens")) + amount(reservedTokens),
		cost: amount(use.get("cost")) + amount(reservedCost),
	};
}
