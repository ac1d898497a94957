// The daily budget: a budget shared by every session of a scope (the user, or one project) for one local day, counted
// in agent time (how long runs took), prompts, tokens and cost. The rules, as pure functions of what the shared ledger
// holds today; the host reads the ledger, carries out the effects and keeps the ledger up to date.

import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "./constants.ts";
import type { Effect } from "./events.ts";
import { formatBudgetLabel, formatCost, formatTokens, pluralTurns } from "./format.ts";
import { safeAmount } from "./measure.ts";
import { NO_DAILY_BUDGET } from "./messages.ts";
import { formatTime, parseCommand, quoteInput } from "./parse.ts";

/** What a daily budget allows, per day. Any limit may be absent, never all. */
export interface DailyLimits {
	/** Agent time: the time runs took, from a prompt to the end of its run, summed over sessions. */
	timeMs: number | null;
	prompts: number | null;
	tokens: number | null;
	cost: number | null;
}

/** A daily budget from a setting: whose sessions share it, where it was set, and its limits. */
export interface DailyBudget {
	/** The sessions that share it: `user` (every session of the user) or `project:<path>`. */
	scope: string;
	/** Where it was set, as the user would name it. */
	source: string;
	limits: DailyLimits;
}

/** What the sessions of a scope used today. */
export interface DailyUse {
	agentMs: number;
	prompts: number;
	tokens: number;
	cost: number;
	/** How many sessions contributed. */
	sessions: number;
}

/** What `/timebox today +…` and `/timebox today off` changed for the rest of the day. */
export interface DailyAdjustment {
	addTimeMs: number;
	addTurns: number;
	addTokens: number;
	addCost: number;
	off: boolean;
}

/** A daily budget as it stands now: today's use and adjustments, and when today began (local midnight, epoch ms). */
export interface DailyStanding {
	budget: DailyBudget;
	use: DailyUse;
	adjustment: DailyAdjustment;
	dayStart: number;
}

/**
 * Today's use of the daily budgets, shared by every session and process of the user on the machine. No method throws:
 * a ledger that cannot be used reports it through `problem` and counts nothing.
 */
export interface DailyLedger {
	/** Each budget's use and adjustments today. Reads only what was added since the last call. */
	standings(budgets: readonly DailyBudget[]): DailyStanding[];
	/**
	 * Counts a prompt in each budget, unless one of them has `limit` prompts today (its turn limit with today's
	 * additions): then nothing is counted there and the answer is false. Two sessions never both take the last prompt.
	 */
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean;
	/** Adds what this session used: agent time, tokens, cost. */
	addUse(budgets: readonly DailyBudget[], use: { agentMs?: number; tokens?: number; cost?: number }): void;
	/** Adds to a budget's limits for the rest of the day, or turns it off until midnight, for every session. */
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): void;
	/** Why the ledger cannot be used, once, or null. */
	problem(): string | null;
}

/** The part of a run since `startedAt` that belongs to today: a run that began yesterday counts from midnight. */
function runTimeToday(startedAt: number, standings: readonly DailyStanding[], now: number): number {
	const dayStart = standings.reduce((latest, standing) => Math.max(latest, standing.dayStart), startedAt);
	return Math.max(0, now - dayStart);
}

export const NO_ADJUSTMENT: DailyAdjustment = { addTimeMs: 0, addTurns: 0, addTokens: 0, addCost: 0, off: false };

/** The settings words a daily budget takes: time, prompts, tokens and cost; the rest belong to a session. */
export function parseDailyBudget(text: unknown, scope: string, source: string): DailyBudget | { warning: string } {
	const value = typeof text === "string" ? text : JSON.stringify(text);
	const command = parseCommand(value);
	if (command.kind !== "set") {
		const why = command.kind === "invalid" ? command.reason : `${quoteInput(value)} is not a budget.`;
		return { warning: `Timebox: ${source}: ${why} No daily budget is enforced from it.` };
	}
	if (
		command.stepLimit !== undefined ||
		command.awareness !== undefined ||
		command.graceMs !== undefined ||
		command.onStopCommand
	) {
		return {
			warning: `Timebox: ${source}: a daily budget takes a time, turns, tokens and cost only. No daily budget is enforced from it.`,
		};
	}
	return {
		scope,
		source,
		limits: {
			timeMs: command.timeLimitMs,
			prompts: command.turnLimit,
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
		prompts: plus(limits.prompts, add.addTurns),
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
		ratio(use.prompts, limits.prompts),
		ratio(use.tokens, limits.tokens),
		ratio(use.cost, limits.cost),
	);
}

/** `3h of agent time`, `60 turns`, `$10.00`: what a daily budget allows, for its messages. */
export function describeDaily(limits: DailyLimits): string {
	const parts: string[] = [];
	if (limits.timeMs !== null) parts.push(`${formatBudgetLabel(limits.timeMs)} of agent time`);
	if (limits.prompts !== null) parts.push(pluralTurns(limits.prompts));
	if (limits.tokens !== null) parts.push(`${formatTokens(limits.tokens)} tokens`);
	if (limits.cost !== null) parts.push(formatCost(limits.cost));
	return parts.join(" and ");
}

/** The first daily budget that is spent, or null. `prompts` checks the prompt limit too (a new prompt is about to run). */
export function spentDaily(standings: readonly DailyStanding[], prompts: boolean): DailyStanding | null {
	return (
		standings.find((standing) => {
			if (standing.adjustment.off) return false;
			const limits = limitsToday(standing);
			const { use } = standing;
			return (
				(limits.timeMs !== null && use.agentMs >= limits.timeMs) ||
				(prompts && limits.prompts !== null && use.prompts >= limits.prompts) ||
				(limits.tokens !== null && use.tokens >= limits.tokens) ||
				(limits.cost !== null && use.cost >= limits.cost)
			);
		}) ?? null
	);
}

/** The refusal and stop text of a spent daily budget. */
export function dailySpentMessage(standing: DailyStanding): string {
	return `Timebox: today's budget is spent (${describeDaily(limitsToday(standing))}). It resets at midnight.`;
}

/** What is left of a daily budget: `36m 0s of agent time left of 3h`. */
function dailyLeft(standing: DailyStanding): string {
	const limits = limitsToday(standing);
	const { use } = standing;
	const parts: string[] = [];
	if (limits.timeMs !== null) {
		parts.push(
			`${formatTime(Math.max(0, limits.timeMs - use.agentMs))} of agent time left of ${formatBudgetLabel(limits.timeMs)}`,
		);
	}
	if (limits.prompts !== null)
		parts.push(`${pluralTurns(Math.max(0, limits.prompts - use.prompts))} left of ${limits.prompts}`);
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
 * The warnings due for today's budgets at 80% and 95%, each once per session and level: the user's notice and the
 * model's lines, and the levels now given.
 */
export function dailyWarnings(
	standings: readonly DailyStanding[],
	given: readonly string[],
): { effects: Effect[]; given: string[]; modelLines: string[] } {
	const effects: Effect[] = [];
	const now = [...given];
	const modelLines: string[] = [];
	for (const standing of standings) {
		const ratio = dailyRatio(standing);
		if (ratio < NUDGE_WARNING_RATIO || ratio >= 1) continue;
		const level = `${standing.budget.scope}:${ratio >= NUDGE_CRITICAL_RATIO ? "critical" : "warning"}`;
		modelLines.push(`Today's budget (shared by every session): ${dailyLeft(standing)}.`);
		if (now.includes(level)) continue;
		now.push(level);
		effects.push({
			kind: "notify",
			message: `Timebox: today's budget: ${dailyLeft(standing)} — the model is asked to wrap up.`,
			level: "warning",
		});
	}
	return { effects, given: now, modelLines };
}

/** `/timebox today`: today's use against each daily budget. */
export function todayReport(standings: readonly DailyStanding[]): string {
	if (standings.length === 0) {
		return NO_DAILY_BUDGET;
	}
	const lines = standings.map((standing) => {
		const { use } = standing;
		const limits = describeDaily(limitsToday(standing));
		const used = [
			`${formatTime(use.agentMs)} of agent time`,
			pluralTurns(use.prompts),
			`${formatTokens(use.tokens)} tokens`,
			formatCost(use.cost),
		].join(", ");
		const sessions = `${use.sessions} ${use.sessions === 1 ? "session" : "sessions"}`;
		const state = standing.adjustment.off ? " Off until midnight." : "";
		return `${standing.budget.scope === "user" ? "Every session" : "This project"} (${standing.budget.source}): ${limits}. Used ${used}, by ${sessions}.${state}`;
	});
	return [
		`Timebox today: ${standings.length === 1 ? "1 daily budget" : `${standings.length} daily budgets`}.`,
		...lines,
	].join("\n");
}

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
		addTurns: command.addTurns ?? 0,
		addTokens: command.addTokens ?? 0,
		addCost: command.addCost ?? 0,
		off: false,
	};
	const added = describeDaily({
		timeMs: command.addTimeMs,
		prompts: command.addTurns,
		tokens: command.addTokens ?? null,
		cost: command.addCost ?? null,
	});
	return { kind: "add", adjustment, added };
}

/** A session's part in its daily budgets: the warnings it gave, and the run it is timing. */
export interface DailySession {
	/** The warning levels this session gave (`<scope>:warning`, `<scope>:critical`). */
	given: string[];
	/** When the running prompt's run started, or null while idle. */
	runStartedAt: number | null;
	/** Whether the running run was stopped by a daily budget. */
	stopped: boolean;
}

export const NO_DAILY_SESSION: DailySession = { given: [], runStartedAt: null, stopped: false };

/** What a session reports to its daily budgets. */
export type DailyEvent =
	/** A new prompt is about to run: counted, or refused when today's budget is spent. */
	| { type: "newPrompt" }
	/** A prompt the ledger could not count: a prompt limit was reached meanwhile, in another session. */
	| { type: "promptRefused" }
	/** A model call or tool call of the running run, or a time check: a spent budget stops the run. */
	| { type: "duringRun"; modelCall: boolean }
	/** The run ended: its agent time is added. */
	| { type: "runEnd" };

/** What the daily rules answer: the new part, the effects, lines for the model, and what to write to the ledger. */
export interface DailyResult {
	session: DailySession;
	effects: Effect[];
	/** Lines the model call about to start carries about today's budget. */
	context: string[];
	/** Count this prompt in the ledger (it may still be refused there: report `promptRefused` then). */
	countPrompt: boolean;
	/** Agent time to add to today's use. */
	agentMs: number;
}

function refusal(standing: DailyStanding): Effect[] {
	const message = dailySpentMessage(standing);
	return [{ kind: "notify", message, level: "error" }, { kind: "abort" }, { kind: "refuse", reason: message }];
}

/**
 * The daily rules for one event of a session: a new prompt is refused once a daily budget is spent, else counted; a run
 * is stopped once today's time, tokens or cost are spent (its own time so far included); the model and the user are
 * warned at 80% and 95%; the end of a run adds its agent time.
 */
export function dailyTransition(
	session: DailySession,
	event: DailyEvent,
	standings: readonly DailyStanding[],
	now: number,
): DailyResult {
	const none = { effects: [], context: [], countPrompt: false, agentMs: 0 };
	switch (event.type) {
		case "newPrompt": {
			const spent = spentDaily(standings, true);
			if (spent) return { ...none, session: { ...session, runStartedAt: null }, effects: refusal(spent) };
			const warned = dailyWarnings(standings, session.given);
			// A follow-up starts while its run goes on: the time so far belongs to the prompt before it.
			const before = session.runStartedAt === null ? 0 : runTimeToday(session.runStartedAt, standings, now);
			return {
				...none,
				session: { given: warned.given, runStartedAt: now, stopped: false },
				effects: warned.effects,
				context: warned.modelLines,
				countPrompt: true,
				agentMs: before,
			};
		}
		case "promptRefused": {
			const spent = spentDaily(standings, true) ?? standings[0];
			return { ...none, session: { ...session, runStartedAt: null }, effects: spent ? refusal(spent) : [] };
		}
		case "duringRun": {
			// A model call of a run that had ended (pi ends a run before it retries a call or re-runs after compaction)
			// goes on with the same prompt: its time counts again from here.
			if (session.runStartedAt === null && !event.modelCall) return { ...none, session };
			const startedAt = session.runStartedAt ?? now;
			// The run's own time so far counts; its own prompt does not count against itself.
			const running = runTimeToday(startedAt, standings, now);
			const withRun = standings.map((standing) => ({
				...standing,
				use: {
					...standing.use,
					agentMs: standing.use.agentMs + running,
					prompts: Math.max(0, standing.use.prompts - 1),
				},
			}));
			const spent = spentDaily(withRun, false);
			const resumed = { ...session, runStartedAt: startedAt };
			if (spent && session.stopped) {
				// The run was stopped already: whatever else it asks for is ended without another word.
				return { ...none, session: resumed, effects: refusal(spent).filter((effect) => effect.kind !== "notify") };
			}
			if (spent) return { ...none, session: { ...resumed, stopped: true }, effects: refusal(spent) };
			const warned = dailyWarnings(withRun, session.given);
			return {
				...none,
				session: { ...resumed, given: warned.given },
				effects: warned.effects,
				context: event.modelCall ? warned.modelLines : [],
			};
		}
		case "runEnd": {
			if (session.runStartedAt === null) return { ...none, session };
			return {
				...none,
				session: { ...session, runStartedAt: null, stopped: false },
				agentMs: runTimeToday(session.runStartedAt, standings, now),
			};
		}
	}
}

/** A host's daily budgets with its ledger: what `carryOutDaily` works on. */
export interface DailyPort {
	ledger: DailyLedger;
	budgets: readonly DailyBudget[];
}

/**
 * Carries one daily event out against the ledger: reads today's standing, applies the rules, counts a new prompt (and
 * refuses it if another session took the last one meanwhile), and adds the agent time of a run that ended.
 */
export function carryOutDaily(port: DailyPort, session: DailySession, event: DailyEvent, now: number): DailyResult {
	const { ledger, budgets } = port;
	const standings = ledger.standings(budgets);
	let result = dailyTransition(session, event, standings, now);
	if (result.countPrompt) {
		const limits = standings.map((standing) => (standing.adjustment.off ? null : limitsToday(standing).prompts));
		if (!ledger.countPrompt(budgets, limits)) {
			result = dailyTransition(result.session, { type: "promptRefused" }, ledger.standings(budgets), now);
		}
	}
	if (result.agentMs > 0) ledger.addUse(budgets, { agentMs: result.agentMs });
	const problem = ledger.problem();
	if (problem !== null)
		result = { ...result, effects: [{ kind: "notify", message: problem, level: "warning" }, ...result.effects] };
	return result;
}

/** What `/timebox today …` says, after doing what it asks to every budget. */
export function todayCommand(port: DailyPort, words: string): { message: string; level: "info" | "warning" } {
	const command = parseToday(words);
	const { ledger, budgets } = port;
	if (command.kind === "invalid") return { message: `Timebox: ${command.reason} Nothing changed.`, level: "warning" };
	if (budgets.length === 0 || command.kind === "show")
		return { message: todayReport(ledger.standings(budgets)), level: "info" };
	if (command.kind === "off") {
		for (const budget of budgets) ledger.adjust(budget, { ...NO_ADJUSTMENT, off: true });
		return { message: "Timebox: today's budget is off until midnight, in every session it covers.", level: "info" };
	}
	for (const budget of budgets) ledger.adjust(budget, command.adjustment);
	return {
		message: `Timebox: today's budget raised by ${command.added} for the rest of the day.\n${todayReport(ledger.standings(budgets))}`,
		level: "info",
	};
}
