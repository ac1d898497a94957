// One session's state under the rules, and the selectors that read it: what counts, what shows, what is due.

import { type Awareness, NO_SPEND, type Spend, type SpentSummary, type TimeboxBudget } from "../budget.ts";
import { MAX_TIMER_DELAY_MS, NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO, UNNAMED_RUN } from "../constants.ts";
import type { Effect } from "../events.ts";
import { formatStatus, SPENT_STATUS, type StepCount, WRAPPING_UP_STATUS } from "../format.ts";
import { elapsedMs } from "../measure.ts";

/** One session's budget and where its prompts stand. */
export interface SessionState {
	/** The budget in force, active or spent, or null. */
	readonly budget: TimeboxBudget | null;
	/** Prompts counted against the budget, the running one included when it counts. */
	readonly usedTurns: number;
	/** The latest prompt seen: a model call for it again is the same prompt (a re-run, a steer), not a new one. */
	readonly lastPrompt: string | null;
	/** Whether a run of the latest prompt is in progress. */
	readonly running: boolean;
	/** Whether the running prompt is among `usedTurns` (a prompt does not count against itself while it runs). */
	readonly runningCounted: boolean;
	/** Whether the budget's warning was given. */
	readonly nudged: boolean;
	/** What the hard stop found, once the budget is spent. */
	readonly spent: SpentSummary | null;
	/** The prompt that was running or waiting when the budget stopped: nothing more runs for it. */
	readonly stoppedPrompt: string | null;
	/** Whether the user asked to be asked at the limit (and the host can ask) instead of a plain stop. */
	readonly askAtLimit?: boolean;
	/** Whether the limit question is open: nothing is checked, nothing stops, until it is answered. */
	readonly asking?: boolean;
	/** What became of the spent budget's on-stop command, kept in the footer where no later message can hide it. */
	readonly onStopOutcome?: "ran" | "failed";
	/** Tokens and cost the model used under the budget; absent for none. */
	readonly spend?: Spend;
	/** Under a step cap: the model calls the latest prompt's run made, and the extra calls granted to that run. */
	readonly steps?: number;
	readonly stepAllowance?: number;
	/** The session's settings for every budget that does not set its own: awareness and the grace period. */
	readonly settings?: SessionSettings;
	/** The budget ran out mid-run and the model is writing its final answer: tools are refused until the run ends. */
	readonly wrapUp?: WrapUp;
}

/** How the model is treated under any budget of the session, unless the budget says otherwise. */
export interface SessionSettings {
	awareness?: Awareness;
	graceMs?: number;
}

/** A run given time to wrap up after its budget was spent. */
export interface WrapUp {
	/** The prompt whose run is wrapping up. */
	readonly prompt: string | null;
	/** Epoch ms when the wrap-up time ends: a run still going then is stopped. */
	readonly until: number;
	/** Whether a tool call was refused already: after one more model call, the next one ends the run. */
	readonly refused: boolean;
	/** Model calls made since the first refusal. */
	readonly callsSinceRefusal: number;
	/** The ledger name of the spent budget, and its on-stop command, run when the run ends. */
	readonly outcomeId: string;
	readonly onStopCommand: string | null;
}

/** A session with no budget. */
export const EMPTY_SESSION: SessionState = {
	budget: null,
	usedTurns: 0,
	lastPrompt: null,
	running: false,
	runningCounted: false,
	nudged: false,
	spent: null,
	stoppedPrompt: null,
};

export interface StepResult {
	state: SessionState;
	effects: Effect[];
}

/** Points of the time limit at which the budget is checked on time, not at the next status refresh. */
const TIME_CHECKPOINTS = [NUDGE_WARNING_RATIO, NUDGE_CRITICAL_RATIO, 1];

/** The prompt a model call belongs to: the one named, else the latest, else the one run without a prompt. */
export function promptKeyOf(state: SessionState, prompt: string | null): string {
	return prompt ?? state.lastPrompt ?? UNNAMED_RUN;
}

/** Whether a model call for `prompt` starts a new prompt's run (rather than a later call, a re-run or a steer). */
export function isNewPrompt(state: SessionState, prompt: string | null): boolean {
	return promptKeyOf(state, prompt) !== state.lastPrompt;
}

/** Prompts used as the user reads them: the prompt being answered does not count against itself. */
export function shownTurns(state: SessionState): number {
	return state.usedTurns - (state.running && state.runningCounted ? 1 : 0);
}

/** The status text: the budget left, the spent marker, or nothing without a budget. */
export function statusText(state: SessionState, now: number): string | undefined {
	if (!state.budget) return undefined;
	if (state.wrapUp) return WRAPPING_UP_STATUS;
	if (state.spent)
		return state.onStopOutcome ? `${SPENT_STATUS} | on-stop command ${state.onStopOutcome}` : SPENT_STATUS;
	return formatStatus(state.budget, now, shownTurns(state), spendOf(state), stepsOf(state));
}

/** Where the running prompt stands under the step cap, or null when there is no cap or no run. */
export function stepsOf(state: SessionState): StepCount | null {
	const limit = state.budget?.stepLimit;
	if (limit === undefined || !state.running || state.steps === undefined) return null;
	return { used: state.steps, allowed: limit + (state.stepAllowance ?? 0) };
}

/** Whether timers run: the budget is in force and not spent, or its last run is wrapping up. */
export function isActive(state: SessionState): boolean {
	return (state.budget !== null && state.spent === null) || state.wrapUp !== undefined;
}

/**
 * When the host should next send `timeCheck`: the next of 80%, 95% and 100% of the time limit still ahead, as a delay
 * in ms (at least 1, at most what a timer holds), or null when nothing is due.
 */
export function nextTimeCheckIn(state: SessionState, now: number): number | null {
	if (state.wrapUp) return timerDelay(state.wrapUp.until - now);
	const budget = state.budget;
	if (!budget || state.spent || budget.timeLimitMs === null || budget.pausedAt !== undefined) return null;
	const limitMs = budget.timeLimitMs;
	const elapsed = elapsedMs(budget, now);
	const next = Math.min(
		...TIME_CHECKPOINTS.map((ratio) => ratio * limitMs).filter((point) => point > elapsed),
		limitMs,
	);
	return timerDelay(next - elapsed);
}

/** A delay a timer can hold: at least 1 ms, at most what a timer holds. */
export function timerDelay(ms: number): number {
	return Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(ms)));
}

export function status(state: SessionState, now: number): Effect {
	return { kind: "status", text: statusText(state, now) };
}

/** The session under a new budget (or none): nothing used, warned or stopped; a prompt running now does not count. */
export function withNewBudget(state: SessionState, budget: TimeboxBudget | null): SessionState {
	const { onStopOutcome: _spentBudgetsCommand, wrapUp: _spentBudgetsRun, ...rest } = state;
	const { spend: _spentUnderTheOldBudget, steps: _stepsUnderIt, stepAllowance: _allowance, ...fresh } = rest;
	return { ...fresh, budget, usedTurns: 0, runningCounted: false, nudged: false, spent: null, stoppedPrompt: null };
}

/** What the model used under the budget so far. */
export function spendOf(state: SessionState): Spend {
	return state.spend ?? NO_SPEND;
}

/** Whether the model is told what is left at every call: the budget's own word, else the session's setting. */
export function awarenessOf(state: SessionState, budget: TimeboxBudget): Awareness {
	return budget.awareness ?? state.settings?.awareness ?? "nudge";
}

/** The time a run gets to wrap up at the limit: the budget's own word, else the session's setting, else none. */
export function graceOf(state: SessionState, budget: TimeboxBudget): number {
	return budget.graceMs ?? state.settings?.graceMs ?? 0;
}
