// Loading a session: its history and the ledger become the state, with the settings read and a default budget for
// a session new to Timebox; a budget whose time ran out while the session was closed is not restored, and an on-stop
// command whose claiming process ended before it started it is started now.

import { AWARENESS_CHOICES, MAX_GRACE_MS, MIN_GRACE_MS, ON_LIMIT_CHOICES } from "../constants.ts";
import { spentSummary } from "../decide.ts";
import { formatStatus } from "../format.ts";
import { parseCommand, quoteInput } from "../grammar/command.ts";
import { spendLimits, treatment } from "../grammar/command-plan.ts";
import { type Awareness, freshBudget, type Spend, type TimeboxBudget } from "../model/budget.ts";
import type { Effect, SessionEvent } from "../model/events.ts";
import { parseTimeToMs } from "../parse.ts";
import { restoreBudget } from "../persist.ts";
import { loadSubagents } from "../subagents/load.ts";
import {
	badDefaultMessage,
	badOnLimitMessage,
	badSettingMessage,
	defaultSetMessage,
	expiredMessage,
	restoredMessage,
	UNUSABLE_RECORD,
} from "../text/messages.ts";
import { recordBudget } from "./budget-record.ts";
import { once, outcomeId } from "./outcomes.ts";
import { type RecoveryLoad, recoverOnStop } from "./recovery.ts";
import {
	type BudgetStanding,
	EMPTY_SESSION,
	freshStanding,
	type SessionSettings,
	type SessionState,
	status,
	type Transition,
	type WrapUp,
	withNewBudget,
} from "./state.ts";

/**
 * A session loaded: its state from the history and the ledger, and, whatever became of the budget, an on-stop command
 * that a stop claimed and no process started is started now (recovery.ts).
 */
export function load(event: Extract<SessionEvent, { type: "load" }>, now: number): Transition {
	const recovered = recoverOnStop(event.ledger, now, recoveryLoad(event));
	const loaded = loadBudget(event, now, recovered.length > 0);
	return recovered.length === 0 ? loaded : { state: loaded.state, effects: [...loaded.effects, ...recovered] };
}

/** What the recovery of an on-stop command asks of a load: whether its event is one of the run that wraps up. */
export function recoveryLoad(event: Extract<SessionEvent, { type: "load" }>): RecoveryLoad {
	return { continuesRun: wrappingPrompt(event) !== null, atStart: event.runningPrompt === undefined };
}

/** The prompt of the run that wraps up after the stop, where the load's event is one of that run's; else null. */
function wrappingPrompt(event: Extract<SessionEvent, { type: "load" }>): string | null {
	const { history, ledger } = event;
	const runningKey = event.runningPrompt === undefined ? null : (event.runningPrompt ?? history.lastPrompt);
	const running = runningKey !== null && runningKey === history.lastPrompt;
	const wraps = event.mode === "continue" && running && ledger.spent?.wrapUpUntil !== undefined;
	return wraps && ledger.spent?.prompt === runningKey ? runningKey : null;
}

function loadBudget(event: Extract<SessionEvent, { type: "load" }>, now: number, startsLate: boolean): Transition {
	const { history, ledger, mode, announce } = event;
	const effects: Effect[] = [];
	if (announce && history.newestUnusable) effects.push({ kind: "notify", message: UNUSABLE_RECORD, level: "warning" });
	const runningKey = event.runningPrompt === undefined ? null : (event.runningPrompt ?? history.lastPrompt);
	const running = runningKey !== null && runningKey === history.lastPrompt;
	const onLimit = event.onLimit;
	if (onLimit && !ON_LIMIT_CHOICES.includes(String(onLimit.value))) {
		effects.push({ kind: "notify", message: badOnLimitMessage(onLimit.source, onLimit.value), level: "warning" });
	}
	const settings = readSettings(event, effects);
	const base: SessionState = {
		...EMPTY_SESSION,
		lastPrompt: history.lastPrompt,
		running,
		askAtLimit: onLimit?.value === "ask" && event.canAsk === true,
		settings,
		subagents: loadSubagents(history, event.subagents, effects),
	};
	const budget = history.budget;
	if (!history.hasRecords && event.defaultBudget) {
		const given = withDefault(base, event.defaultBudget, now);
		return { state: given.state, effects: [...effects, ...given.effects] };
	}
	if (!budget || ledger.off) return { state: base, effects: [...effects, status(base, now)] };
	const standing: BudgetStanding = {
		...freshStanding({ ...budget, softNudgeSent: ledger.nudged, active: ledger.spent === null }),
		usedTurns: history.usedTurns,
		spend: history.spend,
		steps: running && event.runningSteps !== undefined && budget.stepLimit !== undefined ? event.runningSteps : null,
		runningCounted: running && history.lastPromptCounted,
		spent: ledger.spent,
		stoppedPrompt: ledger.spent?.prompt ?? null,
	};
	if (mode === "continue") {
		// A hook of the run that is wrapping up after the stop: that run goes on wrapping up.
		const wrapUntil = ledger.spent?.wrapUpUntil;
		const wrappedPrompt = wrappingPrompt(event);
		const wrapUp: WrapUp | null =
			wrapUntil !== undefined && wrappedPrompt !== null
				? {
						prompt: wrappedPrompt,
						until: wrapUntil,
						refused: false,
						callsSinceRefusal: 0,
						outcomeId: outcomeId(budget),
						onStopCommand: budget.onStopCommand,
					}
				: null;
		const wrapping: SessionState = { ...base, standing: { ...standing, wrapUp } };
		effects.push(status(wrapping, now));
		if (announce && !ledger.spent) effects.push(restoredNotice(budget, now, history.usedTurns, history.spend));
		return { state: wrapping, effects };
	}
	// A restored budget expires by time alone: turns, tokens and cost do not change while the session is closed, so a
	// budget with them used up is restored, and the next turn's start (or model call) stops it there, on-stop command
	// and all.
	const outcome = ledger.spent ? null : restoreBudget(budget, now, history.usedTurns, history.spend, ledger.nudged);
	if (outcome?.status !== "restored") {
		const summary = ledger.spent ?? spentSummary(budget, now, history.usedTurns, history.spend);
		if (announce) {
			effects.push({
				kind: "notify",
				message: expiredMessage(budget, summary, startsLate, ledger.onStop !== undefined),
				level: "warning",
			});
		}
		// Its time ran out while the session was closed: it is over everywhere, though its on-stop command does not
		// start now.
		if (!ledger.spent) effects.push(once({ kind: "spent", budgetId: outcomeId(budget), summary, prompt: null }, []));
		return { state: base, effects: [...effects, status(base, now)] };
	}
	const next: SessionState = { ...base, standing: { ...standing, budget: outcome.budget } };
	effects.push(status(next, now));
	if (announce) effects.push(restoredNotice(budget, now, history.usedTurns, history.spend));
	return { state: next, effects };
}

/**
 * A session new to Timebox gets the default budget, or a warning naming where a bad default came from. A default that
 * starts no budget leaves a line in the session's log (where a host keeps one), so that a later process of the session
 * does not try it, nor say why, again.
 */
function withDefault(
	state: SessionState,
	{
		text,
		source,
		newBudgetId,
		unavailable,
	}: { text: string; source: string; newBudgetId: string; unavailable?: string },
	now: number,
): Transition {
	const command = parseCommand(text);
	if (unavailable !== undefined || command.kind !== "set") {
		const reason =
			unavailable ?? (command.kind === "invalid" ? command.reason : `${quoteInput(text)} is not a budget.`);
		return {
			state,
			effects: [
				status(state, now),
				{ kind: "notify", message: badDefaultMessage(source, reason), level: "warning" },
				{ kind: "logLine", line: { kind: "default-said", at: now } },
			],
		};
	}
	const budget = freshBudget({
		id: newBudgetId,
		timeLimitMs: command.timeLimitMs,
		turnLimit: command.turnLimit,
		startTime: now,
		onStopCommand: command.onStopCommand,
		...spendLimits(command),
		...treatment(command),
	});
	const next = withNewBudget(state, budget);
	return {
		state: next,
		effects: [
			...recordBudget(budget),
			status(next, now),
			{ kind: "notify", message: defaultSetMessage(source, command), level: "info" },
		],
	};
}

function restoredNotice(budget: TimeboxBudget, now: number, usedTurns: number, spend: Spend): Effect {
	const text = formatStatus(budget, now, usedTurns, spend);
	return { kind: "notify", message: restoredMessage(text, budget.onStopCommand), level: "info" };
}

/** The `awareness` and `grace` settings; one that cannot be read is named in a warning and left out. */
function readSettings(event: Extract<SessionEvent, { type: "load" }>, effects: Effect[]): SessionSettings {
	const settings: SessionSettings = {};
	const { awareness, grace } = event;
	if (awareness) {
		if (AWARENESS_CHOICES.includes(String(awareness.value))) settings.awareness = awareness.value as Awareness;
		else effects.push(badSetting(awareness.source, awareness.value, 'is neither "nudge" nor "always"'));
	}
	if (grace) {
		const ms = typeof grace.value === "string" ? parseTimeToMs(grace.value) : null;
		if (ms !== null && ms >= MIN_GRACE_MS && ms <= MAX_GRACE_MS) settings.graceMs = Math.round(ms / 1_000) * 1_000;
		else effects.push(badSetting(grace.source, grace.value, 'is not a grace period from 1s to 10m (such as "30s")'));
	}
	return settings;
}

function badSetting(source: string, value: unknown, why: string): Effect {
	return { kind: "notify", message: badSettingMessage(source, value, why), level: "warning" };
}
