// The daily budget: a budget shared by every session of a scope (the user, or one project) for one local day, counted
// in agent time (how long runs took), prompts, tokens and cost. This module holds its rules, as pure functions of what
// the shared ledger holds today; it is the daily budget's entry for the rest of the core, with its values in
// `daily-budget.ts`, its texts in `daily-text.ts`, `/timebox today` in `today-command.ts` and a team's store in
// `team.ts`. The rules read today's standings and return effects; the executor writes the ledger.

import { NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO } from "../constants.ts";
import type { DailyBudget } from "../model/daily.ts";
import type { Effect } from "../model/events.ts";
import {
	type DailyPort,
	type DailyStanding,
	dailyRatio,
	limitsToday,
	runTimeToday,
	spentDaily,
} from "./daily-budget.ts";
import { dailyModelLine, dailySpentMessage, dailyWarningMessage } from "./daily-text.ts";

export {
	type DailyAdjustment,
	type DailyBudget,
	type DailyLimits,
	type DailyMember,
	type DailyPort,
	type DailyStanding,
	type DailyTeam,
	type DailyUse,
	type DailyUseAdded,
	limitsToday,
	NO_ADJUSTMENT,
	parseDailyBudget,
	type StoredLimits,
	type TeamAsk,
	type TeamView,
	type TeamWrite,
} from "./daily-budget.ts";
export { todayReport } from "./daily-text.ts";
export {
	type BudgetsWithLimits,
	budgetsInForce,
	byWhereCounted,
	closedTeamStanding,
	countsInStore,
	limitsUnread,
	parseTeam,
	requestsAnswered,
	type TeamAnswer,
	type TeamCommand,
	type TeamDayReading,
	type TeamReads,
	teamCommand,
	teamStandings,
} from "./team.ts";
export {
	ADMIN_ONLY,
	describeAdded,
	NO_TEAM,
	STORE_SOURCE,
	teamAsksFull,
	teamDayRefused,
	teamDayUnread,
	teamReport,
	teamStoreDidNotTake,
	teamStoreNotReached,
	teamTime,
	teamViewRefused,
	teamViewUnreadable,
	teamWriteNotSent,
	teamWriteRefusal,
	teamZoneOfStore,
} from "./team-text.ts";
export { PERSONAL_KEPT, parseToday, type TodayAnswer, type TodayCommand, todayCommand } from "./today-command.ts";

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
		modelLines.push(dailyModelLine(standing));
		if (now.includes(level)) continue;
		now.push(level);
		effects.push({ kind: "notify", message: dailyWarningMessage(standing), level: "warning" });
	}
	return { effects, given: now, modelLines };
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
	/**
	 * A model call or tool call of the running run, an answer (with what its model call used), or a time check: a spent
	 * budget stops the run.
	 */
	| { type: "duringRun"; modelCall: boolean; used?: { tokens: number; cost: number } }
	/** The run ended: its agent time is added. */
	| { type: "runEnd" };

/** What the daily rules answer: the new part, the effects (today's ledger writes among them), lines for the model. */
export interface DailyResult {
	session: DailySession;
	effects: Effect[];
	/** Lines the model call about to start carries about today's budget. */
	context: string[];
}

function refusal(standing: DailyStanding): Effect[] {
	const message = dailySpentMessage(standing);
	return [{ kind: "notify", message, level: "error" }, { kind: "abort" }, { kind: "refuse", reason: message }];
}

/** The budgets in force today, as the standings have them: what the daily ledger writes (a team's store, or this machine's). */
function inForce(standings: readonly DailyStanding[]): DailyBudget[] {
	return standings.map((standing) => standing.budget);
}

/**
 * The budgets in force today for a use heard outside the daily rules (the tokens a hook host reads from its transcript):
 * the standings' budgets, so a team's limits kept in its store count it as the session's own budgets do.
 */
export function budgetsCounting(port: DailyPort): DailyBudget[] {
	return inForce(port.ledger.standings(port.budgets));
}

/** What a model call about to start reserves of today's budgets. */
function reserve(standings: readonly DailyStanding[]): Effect {
	return { kind: "reserveDaily", budgets: inForce(standings) };
}

/** Adds agent time to today's use, when there is any. */
function addAgentTime(agentMs: number, standings: readonly DailyStanding[]): Effect[] {
	return agentMs > 0 ? [{ kind: "addDailyUse", use: { agentMs }, budgets: inForce(standings) }] : [];
}

/**
 * Counts a new prompt; when another session took the last one meanwhile, the prompt is refused by the first budget
 * whose prompt limit is met (the ledger found one, so the standings have one with a limit).
 */
function countPrompt(standings: readonly DailyStanding[]): Effect {
	const spent = promptLimitMet(standings);
	return {
		kind: "countPrompt",
		limits: promptLimits(standings),
		refused: spent ? refusal(spent) : [],
		budgets: inForce(standings),
	};
}

/** Each budget's prompt limit today, or null where it sets none or is off for the day. */
function promptLimits(standings: readonly DailyStanding[]): (number | null)[] {
	return standings.map((standing) => (standing.adjustment.off ? null : limitsToday(standing).turns));
}

/** The budget that refuses a prompt the ledger would not count: the first whose prompt limit is met, else the first. */
function promptLimitMet(standings: readonly DailyStanding[]): DailyStanding | undefined {
	const limits = promptLimits(standings);
	const full = standings.map((standing, index) => ({
		...standing,
		use: { ...standing.use, prompts: Math.max(standing.use.prompts, limits[index] ?? standing.use.prompts) },
	}));
	return spentDaily(full, true) ?? standings[0];
}

/**
 * Why a prompt was refused whose count a ledger gave back later, as the standings read after it have it (a host that
 * counts a prompt ahead and hears from the team's store after the rules ran); null without a daily budget.
 */
export function promptTakenMessage(standings: readonly DailyStanding[]): string | null {
	const spent = promptLimitMet(standings);
	return spent ? dailySpentMessage(spent) : null;
}

/** A prompt the daily budgets refused starts no run: nothing of its time counts. */
export function dailyRefused(session: DailySession): DailySession {
	return { ...session, runStartedAt: null };
}

/**
 * The daily rules for one event of a session: a new prompt is refused once a daily budget is spent, else counted; a run
 * is stopped once today's time, tokens or cost are spent (its own time so far included); the model and the user are
 * warned at 80% and 95%; an answer adds what its model call used, and the end of a run its agent time.
 */
export function dailyTransition(
	session: DailySession,
	event: DailyEvent,
	standings: readonly DailyStanding[],
	now: number,
): DailyResult {
	const none = { effects: [], context: [] };
	switch (event.type) {
		case "newPrompt": {
			const spent = spentDaily(standings, true);
			if (spent) return { ...none, session: dailyRefused(session), effects: refusal(spent) };
			const warned = dailyWarnings(standings, session.given);
			// A follow-up starts while its run goes on: the time so far belongs to the prompt before it.
			const before = session.runStartedAt === null ? 0 : runTimeToday(session.runStartedAt, standings, now);
			return {
				session: { given: warned.given, runStartedAt: now, stopped: false },
				effects: [...warned.effects, countPrompt(standings), ...addAgentTime(before, standings), reserve(standings)],
				context: warned.modelLines,
			};
		}
		case "duringRun": {
			const used = event.used ?? { tokens: 0, cost: 0 };
			// A model call of a run that had ended (pi ends a run before it retries a call or re-runs after compaction)
			// goes on with the same prompt: its time counts again from here.
			if (session.runStartedAt === null && !event.modelCall) {
				const answer = event.used;
				return {
					...none,
					session,
					effects: answer ? [{ kind: "addDailyUse", use: answer, budgets: inForce(standings) }] : [],
				};
			}
			const startedAt = session.runStartedAt ?? now;
			// The run's own time so far counts; its own prompt does not count against itself.
			const running = runTimeToday(startedAt, standings, now);
			// An answer adds the run's time so far with what its call used, so that other sessions (a team's, on other
			// machines) see a long run's time at each answer, not only at its end.
			const write: Effect[] = event.used
				? [
						{
							kind: "addDailyUse",
							use: running > 0 ? { ...event.used, agentMs: running } : event.used,
							budgets: inForce(standings),
						},
					]
				: [];
			const withRun = standings.map((standing) => ({
				...standing,
				use: {
					...standing.use,
					agentMs: standing.use.agentMs + running,
					prompts: Math.max(0, standing.use.prompts - 1),
					tokens: standing.use.tokens + used.tokens,
					cost: standing.use.cost + used.cost,
				},
			}));
			const spent = spentDaily(withRun, false);
			const resumed = { ...session, runStartedAt: event.used ? now : startedAt };
			if (spent && session.stopped) {
				// The run was stopped already: whatever else it asks for is ended without another word.
				const quiet = refusal(spent).filter((effect) => effect.kind !== "notify");
				return { ...none, session: resumed, effects: [...write, ...quiet] };
			}
			if (spent) {
				// The stop ends the run: its time so far counts now, for a host that sends no end of a run its hook stopped
				// (Claude Code's classic hooks, Gemini CLI), and whatever of it still comes counts from here.
				const time = event.used ? [] : addAgentTime(running, standings);
				return {
					...none,
					session: { ...resumed, runStartedAt: now, stopped: true },
					effects: [...write, ...time, ...refusal(spent)],
				};
			}
			const warned = dailyWarnings(withRun, session.given);
			return {
				session: { ...resumed, given: warned.given },
				effects: [...write, ...warned.effects, ...(event.modelCall ? [reserve(standings)] : [])],
				context: event.modelCall ? warned.modelLines : [],
			};
		}
		case "runEnd": {
			if (session.runStartedAt === null) return { ...none, session };
			return {
				...none,
				session: { ...session, runStartedAt: null, stopped: false },
				effects: addAgentTime(runTimeToday(session.runStartedAt, standings, now), standings),
			};
		}
	}
}
