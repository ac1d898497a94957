// The daily budget's values: what a daily budget allows (read from a setting), what the sessions of its scope used
// today, and the pure questions asked of them (the limits in force today, the used share, whether it is spent).

import { DAILY_BUDGET_WORDS, SESSION_BUDGET_WORDS } from "../grammar/budget-words.ts";
import { parseCommand, quoteInput } from "../grammar/command.ts";
import type {
	DailyAdjustment,
	DailyBudget,
	DailyLimits,
	DailyTeam,
	DailyUseAdded,
	TeamView,
	TeamWrite,
} from "../model/daily.ts";
import { safeAmount } from "../model/measure.ts";

/** Who used a team's budget today: a member (`user@machine (host)`) and how many of their sessions. */
export interface DailyMember {
	name: string;
	sessions: number;
}

/** What the sessions of a scope used today. */
export interface DailyUse {
	agentMs: number;
	prompts: number;
	tokens: number;
	cost: number;
	/** How many sessions contributed. */
	sessions: number;
	/** Who used a team's budget, by sessions. */
	members?: readonly DailyMember[];
}

/** A daily budget as it stands now: today's use and adjustments, and when today began (local midnight, epoch ms). */
export interface DailyStanding {
	budget: DailyBudget;
	use: DailyUse;
	adjustment: DailyAdjustment;
	dayStart: number;
	/** Why no new prompt may run now though the budget is not spent (a team's store that cannot be reached). */
	closed?: string;
}

export const NO_ADJUSTMENT: DailyAdjustment = { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false };

/** The part of a run since `startedAt` that belongs to today: a run that began yesterday counts from midnight. */
export function runTimeToday(startedAt: number, standings: readonly DailyStanding[], now: number): number {
	const dayStart = standings.reduce((latest, standing) => Math.max(latest, standing.dayStart), startedAt);
	return Math.max(0, now - dayStart);
}

/** The settings words a daily budget takes: time, prompts, tokens and cost; the rest belong to a session. */
export function parseDailyBudget(text: unknown, scope: string, source: string): DailyBudget | { warning: string } {
	const value = typeof text === "string" ? text : JSON.stringify(text);
	const command = parseCommand(value);
	if (command.kind !== "set") {
		// A word it does not know is answered with the words a daily budget takes, not a session's.
		const why =
			command.kind === "invalid"
				? command.reason.replace(SESSION_BUDGET_WORDS, DAILY_BUDGET_WORDS)
				: `${quoteInput(value)} is not a budget.`;
		return { warning: `Timebox: ${source}: ${why} No daily budget is enforced from it.` };
	}
	if (
		command.stepLimit !== undefined ||
		command.loopLimit !== undefined ||
		command.awareness !== undefined ||
		command.graceMs !== undefined ||
		command.onStopCommand
	) {
		return {
			warning: `Timebox: ${source}: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.`,
		};
	}
	return {
		scope,
		source,
		limits: {
			timeMs: command.timeLimitMs,
			turns: command.turnLimit,
			tokens: command.tokenLimit ?? null,
			cost: command.costLimit ?? null,
		},
	};
}

/** The limits in force today: the budget's, plus what was added today. */
export function limitsToday(standing: DailyStanding): DailyLimits {
	const { limits } = standing.budget;
	const add = standing.adjustment;
	const plus = (limit: number | null, more: number) => (limit === null ? null : limit + more);
	return {
		timeMs: plus(limits.timeMs, add.addTimeMs),
		turns: plus(limits.turns, add.addPrompts),
		tokens: plus(limits.tokens, add.addTokens),
		cost: plus(limits.cost, add.addCost),
	};
}

/** The used share of the daily budget's worst limit; 0 while it is off for the day. */
export function dailyRatio(standing: DailyStanding): number {
	if (standing.adjustment.off) return 0;
	const limits = limitsToday(standing);
	const { use } = standing;
	const ratio = (used: number, limit: number | null) => (limit === null ? 0 : safeAmount(used) / limit);
	return Math.max(
		ratio(use.agentMs, limits.timeMs),
		ratio(use.prompts, limits.turns),
		ratio(use.tokens, limits.tokens),
		ratio(use.cost, limits.cost),
	);
}

/** The first daily budget that is spent, or null. `prompts` checks the prompt limit too (a new prompt is about to run). */
export function spentDaily(standings: readonly DailyStanding[], prompts: boolean): DailyStanding | null {
	return (
		standings.find((standing) => {
			if (prompts && standing.closed !== undefined) return true;
			if (standing.adjustment.off) return false;
			const limits = limitsToday(standing);
			const { use } = standing;
			return (
				(limits.timeMs !== null && use.agentMs >= limits.timeMs) ||
				(prompts && limits.turns !== null && use.prompts >= limits.turns) ||
				(limits.tokens !== null && use.tokens >= limits.tokens) ||
				(limits.cost !== null && use.cost >= limits.cost)
			);
		}) ?? null
	);
}

/**
 * Today's use of the daily budgets, shared by every session and process of the user on the machine. No method throws:
 * a ledger that cannot be used reports it through `problem` and counts nothing.
 */
export interface DailyLedger {
	/** Each budget's use and adjustments today. Reads only what was added since the last call. */
	standings(budgets: readonly DailyBudget[]): DailyStanding[];
	/**
	 * Counts a prompt in each budget, unless one of them has `limit` prompts today (its prompt limit with today's
	 * additions): then nothing is counted there and the answer is false. Two sessions never both take the last prompt.
	 */
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean;
	/** Adds what this session used: agent time, tokens, cost; a reservation this session holds is settled by it. */
	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void;
	/**
	 * Reserves what a model call about to start may use, until its answer settles it (`addUse`), or it expires. A ledger
	 * of one machine, which sees every call as it ends, needs none.
	 */
	reserve?(budgets: readonly DailyBudget[]): void;
	/**
	 * Adds to a budget's limits for the rest of the day, or turns it off until midnight, for every session. A team's
	 * ledger says what became of it where its store may refuse it; nothing said is done.
	 */
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): TeamWrite | undefined;
	/** Why the ledger cannot be used, once, or null. */
	problem(): string | null;
	/**
	 * Why the team's day could not be read at its last reading (`teamDayUnread`), or null: where the session sets no
	 * daily budget of its own, what the team's store keeps today is then not known, which is not that it keeps none.
	 */
	dayUnread?(): string | null;
	/**
	 * The team whose store this ledger counts in (the limits kept there cover the session even where it sets no daily
	 * budget of its own), or why the team set cannot be used; absent where no team is set.
	 */
	readonly team?: DailyTeam | { unusable: string };
	/** What the team's store holds beside the day: the admin's limits and the open requests. */
	teamView?(): TeamView;
	/** Sets the team's limits in its store (null: removes them), as the store's user may. */
	setTeamLimits?(limits: DailyLimits | null): TeamWrite;
	/** Records this member's request for more of today's budget in the team's store. */
	askTeam?(adjustment: DailyAdjustment, why: string): TeamWrite;
}

/** A host's daily budgets with the ledger they share: what the executor writes today's use to. */
export interface DailyPort {
	ledger: DailyLedger;
	budgets: readonly DailyBudget[];
	/**
	 * The daily budgets set that could not be read, each as the warning that named it as the session started: they
	 * count for nothing, and `/timebox today` says them again rather than that none is set.
	 */
	unreadable?: readonly string[];
}

export type {
	DailyAdjustment,
	DailyBudget,
	DailyLimits,
	DailyTeam,
	DailyUseAdded,
	StoredLimits,
	TeamAsk,
	TeamView,
	TeamWrite,
} from "../model/daily.ts";
