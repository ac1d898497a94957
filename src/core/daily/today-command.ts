// `/timebox today …`: reading its words (nothing, `off`, what to add), and what it answers against today's standings,
// with what it writes to the daily ledger (for a team, to its store, which may refuse a member's user).

import { parseCommand } from "../grammar/command.ts";
import type { DailyAdjustment } from "../model/daily.ts";
import type { Effect } from "../model/events.ts";
import { type DailyStanding, NO_ADJUSTMENT } from "./daily-budget.ts";
import { describeDaily, todayReport } from "./daily-text.ts";

/** `/timebox today`, `/timebox today +30m +turns:5`, `/timebox today off`: what the words ask of today's budget. */
export type TodayCommand =
	| { kind: "show" }
	| { kind: "off" }
	| { kind: "add"; adjustment: DailyAdjustment; added: string }
	| { kind: "invalid"; reason: string };

/** Reads the words after `/timebox today`. */
export function parseToday(words: string): TodayCommand {
	const text = words.trim();
	if (text.length === 0) return { kind: "show" };
	if (text.toLowerCase() === "off") return { kind: "off" };
	const command = parseCommand(text);
	if (command.kind !== "extend") {
		return { kind: "invalid", reason: "After /timebox today: nothing, off, or what to add (+30m, +turns:5, +$2)." };
	}
	const adjustment: DailyAdjustment = {
		addTimeMs: command.addTimeMs ?? 0,
		addPrompts: command.addTurns ?? 0,
		addTokens: command.addTokens ?? 0,
		addCost: command.addCost ?? 0,
		off: false,
	};
	const added = describeDaily({
		timeMs: command.addTimeMs,
		turns: command.addTurns,
		tokens: command.addTokens ?? null,
		cost: command.addCost ?? null,
	});
	return { kind: "add", adjustment, added };
}

/** What `/timebox today …` answers now (null: the effects say it, once the ledger took the change), and its writes. */
export interface TodayAnswer {
	message: string | null;
	level: "info" | "warning";
	effects: Effect[];
}

/** Said where a change of the team's day leaves a member's own cap as it was. */
export const PERSONAL_KEPT =
	"Your own daily budget (TIMEBOX_DAILY) is not changed: it is yours, not the team's; change it in TIMEBOX_DAILY, for the sessions that start after.";

/** Today's standings with an adjustment added to each that it changes. */
function adjusted(standings: readonly DailyStanding[], adjustment: DailyAdjustment): DailyStanding[] {
	return standings.map((standing) => {
		if (standing.budget.personal === true) return standing;
		const now = standing.adjustment;
		return {
			...standing,
			adjustment: {
				addTimeMs: now.addTimeMs + adjustment.addTimeMs,
				addPrompts: now.addPrompts + adjustment.addPrompts,
				addTokens: now.addTokens + adjustment.addTokens,
				addCost: now.addCost + adjustment.addCost,
				off: now.off || adjustment.off,
			},
		};
	});
}

/**
 * `/timebox today …` against today's standings: what it says, and the adjustment it writes for every budget in force
 * (a team's first). What a change says comes once the ledger took it: a team's store that refuses it changes nothing.
 */
export function todayCommand(standings: readonly DailyStanding[], words: string): TodayAnswer {
	const command = parseToday(words);
	if (command.kind === "invalid")
		return { message: `Timebox: ${command.reason} Nothing changed.`, level: "warning", effects: [] };
	if (standings.length === 0 || command.kind === "show")
		return { message: todayReport(standings), level: "info", effects: [] };
	// A member's own cap beside a team's limits (`personal`) is theirs, set in their TIMEBOX_DAILY: a change of the day
	// is the team's, and never lifts it, the admin's own included.
	const budgets = standings.map((standing) => standing.budget).filter((budget) => budget.personal !== true);
	const kept = standings.length - budgets.length;
	const keptNote = kept === 0 ? "" : `\n${PERSONAL_KEPT}`;
	const change = (adjustment: DailyAdjustment, message: string): TodayAnswer => ({
		message: null,
		level: "info",
		effects: [{ kind: "adjustDaily", adjustment, budgets, done: [{ kind: "notify", message, level: "info" }] }],
	});
	if (command.kind === "off") {
		return change(
			{ ...NO_ADJUSTMENT, off: true },
			`Timebox: today's budget is off until midnight, in every session it covers.${keptNote}`,
		);
	}
	return change(
		command.adjustment,
		`Timebox: today's budget raised by ${command.added} for the rest of the day.\n${todayReport(adjusted(standings, command.adjustment))}${keptNote}`,
	);
}
