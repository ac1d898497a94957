// A team's day as its store's read script answers it: the day's use, today's additions to its limits, who used it, the
// session count and the other sessions' reservations, made into the daily rules' standings (and a past day's row for
// the report); and when a day's keys expire.

import {
	type DailyAdjustment,
	type DailyBudget,
	type DailyMember,
	type DailyStanding,
	type DayUseRow,
	TEAM_KEYS_OUTLIVE_S,
} from "../../core/index.ts";
import type { TeamConfig } from "./config.ts";

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

/** A flat `[field, value, …]` reply as a map. */
function fields(value: unknown): Map<string, string> {
	const map = new Map<string, string>();
	const flat = Array.isArray(value) ? value : [];
	for (let index = 0; index + 1 < flat.length; index += 2) map.set(String(flat[index]), String(flat[index + 1]));
	return map;
}

function amount(text: string | undefined): number {
	const value = Number(text);
	return Number.isFinite(value) && value > 0 ? value : 0;
}

/** The read script's reply: the day's use, who used it, the session count, and the others' reservations. */
function parts(value: unknown): { use: Map<string, string>; who: unknown; sessions: number; reserved: Use } {
	const [useFields, whoFields, sessions, reservedTokens, reservedCost] = Array.isArray(value) ? value : [];
	return {
		use: fields(useFields),
		who: whoFields,
		sessions: amount(String(sessions)),
		reserved: { prompts: 0, agentMs: 0, tokens: amount(String(reservedTokens)), cost: amount(String(reservedCost)) },
	};
}

/** The day's standings of each budget, as the team's: its use (the others' reservations counted), additions, members. */
export function standingsOf(
	reply: unknown,
	budgets: readonly DailyBudget[],
	config: TeamConfig,
	dayStart: number,
): DailyStanding[] {
	const { use, who, sessions, reserved } = parts(reply);
	const members: DailyMember[] = [...fields(who)].map(([name, count]) => ({ name, sessions: amount(count) }));
	members.sort((a, b) => a.name.localeCompare(b.name));
	const adjustment: DailyAdjustment = {
		addTimeMs: amount(use.get("addTimeMs")),
		addPrompts: amount(use.get("addPrompts")),
		addTokens: amount(use.get("addTokens")),
		addCost: amount(use.get("addCost")),
		off: use.get("off") === "1",
	};
	return teamBudgets(budgets, config).map((budget) => ({
		budget,
		use: {
			agentMs: amount(use.get("agentMs")),
			prompts: amount(use.get("prompts")),
			// The model calls other sessions are making count as what they reserved, until their answers settle them.
			tokens: amount(use.get("tokens")) + reserved.tokens,
			cost: amount(use.get("cost")) + reserved.cost,
			sessions,
			members,
		},
		adjustment,
		dayStart,
	}));
}

/** Each budget as the team's. */
export function teamBudgets(budgets: readonly DailyBudget[], config: TeamConfig): DailyBudget[] {
	const team = { name: config.team, zone: config.zone };
	return budgets.map((budget) => ({ ...budget, team }));
}

/** A day's row of the report: its use, the others' reservations counted. */
export function dayRowOf(day: string, reply: unknown): DayUseRow {
	const { use, reserved } = parts(reply);
	return {
		day,
		agentMs: amount(use.get("agentMs")),
		prompts: amount(use.get("prompts")),
		tokens: amount(use.get("tokens")) + reserved.tokens,
		cost: amount(use.get("cost")) + reserved.cost,
	};
}
