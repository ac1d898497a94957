// The daily budget: a budget shared by every session of a scope (the user, or one project) for one local day, counted
// in agent time (how long runs took), prompts, tokens and cost. This module holds its rules, as pure functions of what
// the shared ledger holds today, and `/timebox today`; it is the daily budget's entry for the rest of the core, with
// its values in `daily-budget.ts` and its texts in `daily-text.ts`. The host reads the ledger, carries out the effects
// and keeps the ledger up to date.

import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "./constants.ts";
import type { DailyLedger } from "./daily-budget.ts";
import {
	type DailyAdjustment,
	type DailyBudget,
	type DailyStanding,
	dailyRatio,
	limitsToday,
	NO_ADJUSTMENT,
	runTimeToday,
	spentDaily,
} from "./daily-budget.ts";
import { dailyLeft, dailySpentMessage, describeDaily, todayReport } from "./daily-text.ts";
import type { Effect } from "./events.ts";
import { parseCommand } from "./parse.ts";

export {
	type DailyAdjustment,
	type DailyBudget,
	type DailyLimits,
	type DailyStanding,
	type DailyUse,
	limitsToday,
	NO_ADJUSTMENT,
	parseDailyBudget,
} from "./daily-budget.ts";
export { todayReport } from "./daily-text.ts";

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
 * Carries one daily event out against the ledger: reads today's standing, steps the rules, counts a new prompt (and
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
