// Today's daily budgets as data, for the report page: each budget's limits with today's additions, what was used and
// what is left, the line `/timebox today` prints for it, and the day's sessions (by host, and by member for a team).
// Pure: the host reads the ledger and hands in the standings and the sessions.

import { type DailyLimits, type DailyStanding, type DailyUse, limitsToday } from "./daily-budget.ts";
import { dailyWho, todayLine, todayReport } from "./daily-text.ts";

/** What one session used of a day, with the host that ran it and, for a team, whose it was. */
export interface DaySessionUse {
	session: string;
	host: string | null;
	member: string | null;
	agentMs: number;
	prompts: number;
	tokens: number;
	cost: number;
}

/** One daily budget today, as the page draws it. */
export interface TodayBudgetData {
	/** `Every session (settings.json)`. */
	who: string;
	limits: DailyLimits;
	use: DailyUse;
	/** What is left of each limit, null where there is none. */
	left: DailyLimits;
	off: boolean;
	/** The line `/timebox today` prints for it. */
	line: string;
}

/** Today, as data. */
export interface TodayData {
	/** What `/timebox today` prints. */
	text: string;
	dayStart: number | null;
	budgets: TodayBudgetData[];
	sessions: DaySessionUse[];
}

/** What one day used, for the chart of the last days. */
export interface DayUseRow {
	/** `YYYY-MM-DD`. */
	day: string;
	agentMs: number;
	prompts: number;
	tokens: number;
	cost: number;
}

const leftOf = (limit: number | null, used: number): number | null =>
	limit === null ? null : Math.max(0, limit - used);

/**
 * Today's daily budgets and sessions as data, with the text of `/timebox today`.
 * @example todayData([standing], sessions).budgets[0]?.left.prompts // 58
 */
export function todayData(standings: readonly DailyStanding[], sessions: readonly DaySessionUse[]): TodayData {
	return {
		text: todayReport(standings),
		dayStart: standings[0]?.dayStart ?? null,
		budgets: standings.map((standing) => {
			const limits = limitsToday(standing);
			const { use } = standing;
			return {
				who: dailyWho(standing),
				limits,
				use,
				left: {
					timeMs: leftOf(limits.timeMs, use.agentMs),
					turns: leftOf(limits.turns, use.prompts),
					tokens: leftOf(limits.tokens, use.tokens),
					cost: leftOf(limits.cost, use.cost),
				},
				off: standing.adjustment.off,
				line: todayLine(standing),
			};
		}),
		sessions: [...sessions],
	};
}
