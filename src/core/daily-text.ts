// What the user and the model read about a daily budget: what it allows, what is left of it, its refusal, and the
// answer to `/timebox today`.

import { type DailyLimits, type DailyStanding, limitsToday } from "./daily-budget.ts";
import { formatBudgetLabel, formatCost, formatTokens } from "./format.ts";
import { NO_DAILY_BUDGET } from "./messages.ts";
import { formatTime } from "./parse.ts";

/** `1 prompt` / `3 prompts`. */
export function pluralPrompts(count: number): string {
	return `${count} ${count === 1 ? "prompt" : "prompts"}`;
}

/** `3h of agent time`, `60 prompts`, `$10.00`: what a daily budget allows, for its messages. */
export function describeDaily(limits: DailyLimits): string {
	const parts: string[] = [];
	if (limits.timeMs !== null) parts.push(`${formatBudgetLabel(limits.timeMs)} of agent time`);
	if (limits.prompts !== null) parts.push(pluralPrompts(limits.prompts));
	if (limits.tokens !== null) parts.push(`${formatTokens(limits.tokens)} tokens`);
	if (limits.cost !== null) parts.push(formatCost(limits.cost));
	return parts.join(" and ");
}

/** The refusal and stop text of a spent daily budget. */
export function dailySpentMessage(standing: DailyStanding): string {
	return `Timebox: today's budget is spent (${describeDaily(limitsToday(standing))}). It resets at midnight.`;
}

/** What is left of a daily budget, for the warnings: `36m 0s of agent time left of 3h and 1 prompt left of 5`. */
export function dailyLeft(standing: DailyStanding): string {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts: string[] = [];
	if (limits.timeMs !== null) {
		parts.push(
			`${formatTime(Math.max(0, limits.timeMs - use.agentMs))} of agent time left of ${formatBudgetLabel(limits.timeMs)}`,
		);
	}
	if (limits.prompts !== null)
		parts.push(`${pluralPrompts(Math.max(0, limits.prompts - use.prompts))} left of ${limits.prompts}`);
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
function usedOfLimits(standing: DailyStanding): string {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts: string[] = [];
	if (limits.timeMs !== null) {
		const left = formatTime(Math.max(0, limits.timeMs - use.agentMs));
		parts.push(`${formatTime(use.agentMs)} of ${formatBudgetLabel(limits.timeMs)} of agent time used, ${left} left`);
	}
	if (limits.prompts !== null) {
		const left = Math.max(0, limits.prompts - use.prompts);
		parts.push(`${use.prompts} of ${pluralPrompts(limits.prompts)} used, ${left} left`);
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

/** What `/timebox today` says of one daily budget. */
export function todayLine(standing: DailyStanding): string {
	const state = standing.adjustment.off ? " Off until midnight." : "";
	return `${dailyWho(standing)}: ${usedOfLimits(standing)}. ${usedBy(standing.use.sessions)}${state}`;
}

/** `Every session (settings.json)`, `This project (.pi/settings.json)`: whose sessions share a daily budget. */
export function dailyWho(standing: DailyStanding): string {
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
