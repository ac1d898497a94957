// One session's state under the rules, and the selectors that read it: what counts, what shows, what is due.

import { MAX_TIMER_DELAY_MS, NUDGE_CRITICAL_RATIO, NUDGE_WARNING_RATIO, UNNAMED_RUN } from "../constants.ts";
import { formatStatus, SPENT_STATUS, type StepCount, WRAPPING_UP_STATUS } from "../format.ts";
import type { RunCalls } from "../loop/run-calls.ts";
import { type Awareness, NO_SPEND, type Spend, type SpentSummary, type TimeboxBudget } from "../model/budget.ts";
import type { Effect } from "../model/events.ts";
import { elapsedMs } from "../model/measure.ts";
import { NO_SUBAGENTS, type SubagentsState } from "../subagents/state.ts";

/**
 * One session under the rules: where its prompts stand, its settings, and the budget in force with how it stands. A
 * new budget (or none) replaces `standing` whole, so nothing of the old budget's run can leak into the new one's.
 */
export interface SessionState {
	/** The budget in force, active or spent, and how it stands; null without one. */
	readonly standing: BudgetStanding | null;
	/** The latest prompt seen: a model call for it again is the same prompt (a re-run, a steer), not a new one. */
	readonly lastPrompt: string | null;
	/** Whether a run of the latest prompt is in progress. */
	readonly running: boolean;
	/** Whether the user asked to be asked at the limit (and the host can ask) instead of a plain stop. */
	readonly askAtLimit: boolean;
	/** Whether a question at a limit is open: nothing is checked, nothing stops, until it is answered. */
	readonly asking: boolean;
	/** The session's settings for every budget that does not set its own: awareness and the grace period. */
	readonly settings: SessionSettings;
	/** The session's subagents: the budget a new one gets, and those that run. */
	readonly subagents: SubagentsState;
}

/** A budget in force and how it stands: what it counted, warned, used and stopped. */
export interface BudgetStanding {
	readonly budget: TimeboxBudget;
	/** Turns (user prompts) counted against the budget, the running one included when it counts. */
	readonly usedTurns: number;
	/** Whether the running prompt is among `usedTurns` (a prompt does not count against itself while it runs). */
	readonly runningCounted: boolean;
	/** Tokens and cost the model used under the budget. */
	readonly spend: Spend;
	/**
	 * The most each agent's call in flight may use (its input at its bound, its answer at its cap), by agent (the main
	 * agent's key is ""), held back from what other calls may use until its answer comes; absent for none.
	 */
	readonly inFlight?: Readonly<Record<string, Spend>>;
	/** Under a step cap: the model calls the latest prompt's run made (null: none counted), and the extra calls granted. */
	readonly steps: number | null;
	readonly stepAllowance: number;
	/** What the hard stop found, once the budget is spent. */
	readonly spent: SpentSummary | null;
	/** The prompt that was running or waiting when the budget stopped: nothing more runs for it. */
	readonly stoppedPrompt: string | null;
	/** What became of the spent budget's on-stop command, kept in the footer where no later message can hide it. */
	readonly onStopOutcome: "ran" | "failed" | null;
	/** The budget ran out mid-run and the model is writing its final answer: tools are refused until the run ends. */
	readonly wrapUp: WrapUp | null;
	/** Under a loop guard: the tool calls of the latest prompt's run, by key (absent: none counted yet). */
	readonly calls?: RunCalls;
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
	/** The ledger name of the spent budget, and its on-stop command, started when the run ends. */
	readonly outcomeId: string;
	readonly onStopCommand: string | null;
}

/** A session with no budget. */
export const EMPTY_SESSION: SessionState = {
	standing: null,
	lastPrompt: null,
	running: false,
	askAtLimit: false,
	asking: false,
	settings: {},
	subagents: NO_SUBAGENTS,
};

/** How a budget stands when it is set: nothing used, warned or stopped; a prompt running now does not count. */
export function freshStanding(budget: TimeboxBudget): BudgetStanding {
	return {
		budget,
		usedTurns: 0,
		runningCounted: false,
		spend: NO_SPEND,
		steps: null,
		stepAllowance: 0,
		spent: null,
		stoppedPrompt: null,
		onStopOutcome: null,
		wrapUp: null,
	};
}

/** What one event does to a session: the new state, and the effects the host carries out, in order. */
export interface Transition {
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

/** The budget in force while it counts: set, not spent and not paused; else null. */
export function counting(state: SessionState): BudgetStanding | null {
	const standing = state.standing;
	if (!standing || standing.spent || standing.budget.pausedAt !== undefined) return null;
	return standing;
}

/** The budget in force, active or spent, or null. */
export function budgetOf(state: SessionState): TimeboxBudget | null {
	return state.standing?.budget ?? null;
}

/** Turns used as the user reads them: the prompt being answered does not count against itself. */
export function shownTurns(state: SessionState): number {
	const standing = state.standing;
	if (!standing) return 0;
	return standing.usedTurns - (state.running && standing.runningCounted ? 1 : 0);
}

/** The status text: the budget left, the spent marker, or nothing without a budget. */
export function statusText(state: SessionState, now: number): string | undefined {
	const standing = state.standing;
	if (!standing) return undefined;
	if (standing.wrapUp) return WRAPPING_UP_STATUS;
	if (standing.spent) {
		const outcome = standing.onStopOutcome;
		return outcome ? `${SPENT_STATUS} | on-stop command ${outcome}` : SPENT_STATUS;
	}
	return formatStatus(standing.budget, now, shownTurns(state), standing.spend, stepsOf(state));
}

/** Where the running prompt stands under the step cap, or null when there is no cap or no run. */
export function stepsOf(state: SessionState): StepCount | null {
	const standing = state.standing;
	const limit = standing?.budget.stepLimit;
	if (!standing || limit === undefined || !state.running || standing.steps === null) return null;
	return { used: standing.steps, allowed: limit + standing.stepAllowance };
}

/** Whether timers run: the budget is in force and not spent, or its last run is wrapping up. */
export function isActive(state: SessionState): boolean {
	const standing = state.standing;
	return standing !== null && (standing.spent === null || standing.wrapUp !== null);
}

/**
 * When the host should next send `timeCheck`: the next of 80%, 95% and 100% of the time limit still ahead, as a delay
 * in ms (at least 1, at most what a timer holds), or null when nothing is due.
 */
export function nextTimeCheckIn(state: SessionState, now: number): number | null {
	const wrapUp = state.standing?.wrapUp;
	if (wrapUp) return timerDelay(wrapUp.until - now);
	const budget = counting(state)?.budget;
	if (!budget || budget.timeLimitMs === null) return null;
	const limitMs = budget.timeLimitMs;
	const elapsed = elapsedMs(budget, now);
	// The first checkpoint still ahead (they rise); a plain loop, as this runs at every event of a live session.
	let next = limitMs;
	for (const ratio of TIME_CHECKPOINTS) {
		const point = ratio * limitMs;
		if (point > elapsed) {
			next = Math.min(point, limitMs);
			break;
		}
	}
	return timerDelay(next - elapsed);
}

/** A delay a timer can hold: at least 1 ms, at most what a timer holds. */
function timerDelay(ms: number): number {
	return Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(ms)));
}

export function status(state: SessionState, now: number): Effect {
	return { kind: "status", text: statusText(state, now) };
}

/** The session under a new budget (or none): the old budget's standing goes whole. */
export function withNewBudget(state: SessionState, budget: TimeboxBudget | null): SessionState {
	return { ...state, standing: budget ? freshStanding(budget) : null };
}

/**
 * The budget's hard stop (or the start of its wrap-up): the standing records what the stop found and the prompt it
 * stopped, and the budget is no longer active.
 */
export function spentStanding(standing: BudgetStanding, summary: SpentSummary, prompt: string | null): BudgetStanding {
	return { ...standing, budget: { ...standing.budget, active: false }, spent: summary, stoppedPrompt: prompt };
}

/** The budget with its warning sent: `softNudgeSent` mirrors the ledger's claim. */
export function nudgedBudget(standing: BudgetStanding): TimeboxBudget {
	return { ...standing.budget, softNudgeSent: true };
}

/** The session with its budget's standing (the one in force) changed. */
export function withStanding(
	state: SessionState,
	standing: BudgetStanding,
	change: Partial<BudgetStanding>,
): SessionState {
	return { ...state, standing: { ...standing, ...change } };
}

/** What the model used under the budget so far. */
export function spendOf(state: SessionState): Spend {
	return state.standing?.spend ?? NO_SPEND;
}

/** Whether the model is told what is left at every call: the budget's own word, else the session's setting. */
export function awarenessOf(state: SessionState, budget: TimeboxBudget): Awareness {
	return budget.awareness ?? state.settings.awareness ?? "nudge";
}

/** The time a run gets to wrap up at the limit: the budget's own word, else the session's setting, else none. */
export function graceOf(state: SessionState, budget: TimeboxBudget): number {
	return budget.graceMs ?? state.settings.graceMs ?? 0;
}
