// What the user and the model read about a daily budget: what it allows, what is left of it, its refusal, and the
// answer to `/timebox today`.

import { formatBudgetLabel, formatCost, formatLeftMs, formatTokens, pluralPrompts, pluralTurns } from "../format.ts";
import { formatTime } from "../parse.ts";
import { NO_DAILY_BUDGET } from "../text/messages.ts";
import { type DailyLimits, type DailyStanding, type DailyTeam, limitsToday } from "./daily-budget.ts";

/** `3h of agent time`, `60 prompts` (`60 turns`, for a team), `$10.00`: what a daily budget allows, for its messages. */
export function describeDaily(limits: DailyLimits, team = false): string {
	const parts: string[] = [];
	if (limits.timeMs !== null) parts.push(`${formatBudgetLabel(limits.timeMs)} of agent time`);
	if (limits.turns !== null) parts.push((team ? pluralTurns : pluralPrompts)(limits.turns));
	if (limits.tokens !== null) parts.push(`${formatTokens(limits.tokens)} tokens`);
	if (limits.cost !== null) parts.push(formatCost(limits.cost));
	return parts.join(" and ");
}

/** The refusal and stop text of a spent daily budget, naming the limits it reached. */
export function dailySpentMessage(standing: DailyStanding): string {
	if (standing.closed !== undefined) return standing.closed;
	const team = standing.budget.team;
	if (team) {
		const limits = describeDaily(limitsReached(standing), true);
		return `Timebox: the team's budget for today is spent (${limits}). It resets at midnight ${team.zone}.`;
	}
	return `Timebox: today's budget is spent (${describeDaily(limitsReached(standing))}). It resets at midnight.`;
}

/** The 80% and 95% warning the user sees; a team's budget is said to be the team's, as its spent text says. */
export function dailyWarningMessage(standing: DailyStanding): string {
	const whose = standing.budget.team ? "the team's budget for today" : "today's budget";
	return `Timebox: ${whose}: ${dailyLeft(standing)} — the model is asked to wrap up.`;
}

/** What a model call carries about a daily budget that is nearly spent: what is left, and the ask the user is told of. */
export function dailyModelLine(standing: DailyStanding): string {
	const whose = standing.budget.team
		? "The team's budget for today (shared by every member)"
		: "Today's budget (shared by every session)";
	return `${whose}: ${dailyLeft(standing)}. ${DAILY_WRAP_UP}`;
}

/** The ask of a daily budget's line in a model call, which the user's warning says the model is given. */
export const DAILY_WRAP_UP = "Wrap up what you are doing, and start nothing new.";

/**
 * Today's limits that the use reached (`4h of agent time and 200 turns and $50` names only `200 turns` when the turns
 * ran out); all of them where none did (a prompt refused by a ledger that met a limit the standing does not show yet).
 */
function limitsReached(standing: DailyStanding): DailyLimits {
	const limits = limitsToday(standing);
	const { use } = standing;
	const reached = (used: number, limit: number | null) => (limit !== null && used >= limit ? limit : null);
	const spent: DailyLimits = {
		timeMs: reached(use.agentMs, limits.timeMs),
		turns: reached(use.prompts, limits.turns),
		tokens: reached(use.tokens, limits.tokens),
		cost: reached(use.cost, limits.cost),
	};
	return Object.values(spent).some((limit) => limit !== null) ? spent : limits;
}

/**
 * What is left of a daily budget, for the warnings: `36m 0s of agent time left of 3h and 1 prompt left of 5` (`1 turn`,
 * for a team, as its limits are set).
 */
export function dailyLeft(standing: DailyStanding): string {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts: string[] = [];
	if (limits.timeMs !== null) {
		parts.push(
			`${formatLeftMs(limits.timeMs - use.agentMs)} of agent time left of ${formatBudgetLabel(limits.timeMs)}`,
		);
	}
	if (limits.turns !== null)
		parts.push(
			`${(standing.budget.team ? pluralTurns : pluralPrompts)(Math.max(0, limits.turns - use.prompts))} left of ${limits.turns}`,
		);
	if (limits.tokens !== null) {
		parts.push(
			`${formatTokens(Math.max(0, limits.tokens - use.tokens))} tokens left of ${formatTokens(limits.tokens)}`,
		);
	}
	if (limits.cost !== null)
		parts.push(`${formatCost(Math.max(0, limits.cost - use.cost))} left of ${formatCost(limits.cost)}`);
	return parts.join(" and ");
}

/**
 * Each limited dimension of a daily budget as used of limit and what is left, the unlimited ones not at all:
 * `1h 0m of 3h of agent time used, 2h 0m left; 2 of 3 prompts used, 1 left`.
 */
function usedOfLimits(standing: DailyStanding, team: boolean): string {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts: string[] = [];
	if (limits.timeMs !== null) {
		const left = formatLeftMs(limits.timeMs - use.agentMs);
		parts.push(`${formatTime(use.agentMs)} of ${formatBudgetLabel(limits.timeMs)} of agent time used, ${left} left`);
	}
	if (limits.turns !== null) {
		const left = Math.max(0, limits.turns - use.prompts);
		parts.push(`${use.prompts} of ${(team ? pluralTurns : pluralPrompts)(limits.turns)} used, ${left} left`);
	}
	if (limits.tokens !== null) {
		const left = formatTokens(Math.max(0, limits.tokens - use.tokens));
		parts.push(`${formatTokens(use.tokens)} of ${formatTokens(limits.tokens)} tokens used, ${left} left`);
	}
	if (limits.cost !== null) {
		const left = formatCost(Math.max(0, limits.cost - use.cost));
		parts.push(`${formatCost(use.cost)} of ${formatCost(limits.cost)} used, ${left} left`);
	}
	return parts.join("; ");
}

/** `Used by 2 sessions.`: how many sessions used a daily budget today. */
function usedBy(sessions: number): string {
	if (sessions === 0) return "Used by no session yet.";
	return `Used by ${sessions} ${sessions === 1 ? "session" : "sessions"}.`;
}

/** A team's line: its use, who used it (`alice@laptop (pi) 2 sessions`), and when its day resets. */
function teamLine(standing: DailyStanding, team: DailyTeam): string {
	const members = (standing.use.members ?? []).map(
		(member) => `${member.name} ${member.sessions === 1 ? "1 session" : `${member.sessions} sessions`}`,
	);
	const by = members.length === 0 ? "" : ` By ${members.join(", ")}.`;
	const state = standing.adjustment.off ? " Off until midnight." : "";
	return `The team ${team.name} (${standing.budget.source}): ${usedOfLimits(standing, true)}. ${usedBy(standing.use.sessions)}${by}${state} It resets at midnight ${team.zone}.`;
}

/** What `/timebox today` says of one daily budget: a team's, or one of this machine's. */
export function todayLine(standing: DailyStanding): string {
	if (standing.budget.team) return teamLine(standing, standing.budget.team);
	const state = standing.adjustment.off ? " Off until midnight." : "";
	return `${dailyWho(standing)}: ${usedOfLimits(standing, false)}. ${usedBy(standing.use.sessions)}${state}`;
}

/** `Every session (settings.json)`, `This project (.pi/settings.json)`, `The team platform (…)`: who shares a daily budget. */
export function dailyWho(standing: DailyStanding): string {
	const team = standing.budget.team;
	if (team) return `The team ${team.name} (${standing.budget.source})`;
	return `${standing.budget.scope === "user" ? "Every session" : "This project"} (${standing.budget.source})`;
}

/** `/timebox today`: today's use against each daily budget, what is left, and how many sessions used it. */
export function todayReport(standings: readonly DailyStanding[]): string {
	if (standings.length === 0) return NO_DAILY_BUDGET;
	const lines = standings.map(todayLine);
	return [
		`Timebox today: ${standings.length === 1 ? "1 daily budget" : `${standings.length} daily budgets`}.`,
		...lines,
	].join("\n");
}
