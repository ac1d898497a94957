// The session rulebook: every rule about a session's budget, as one pure function. A host reports what happened
// (a command, a prompt, a model call, a tool call, the end of a run, a time check, a load); `step` returns the new
// state and the effects the host carries out (notify, status, append a record, abort, refuse, add context, run the
// on-stop command, once anywhere). No host, clock or timer is touched here.

import { type Awareness, NO_SPEND, type Spend, type SpentSummary, type TimeboxBudget } from "./budget.ts";
import { type CostReporting, planCommand, spendLimits, treatment } from "./command-plan.ts";
import {
	AWARENESS_CHOICES,
	LIMIT_MORE_TIME,
	LIMIT_MORE_TURNS,
	LIMIT_QUESTION_TIMEOUT_MS,
	MAX_GRACE_MS,
	MAX_TIMER_DELAY_MS,
	MIN_GRACE_MS,
	NUDGE_CRITICAL_RATIO,
	NUDGE_WARNING_RATIO,
	ON_LIMIT_CHOICES,
	UNNAMED_RUN,
} from "./constants.ts";
import { decide, decideMidRun, urgencyFor } from "./decide.ts";
import {
	formatAwareLine,
	formatLeft,
	formatNudgePrompt,
	formatStatus,
	formatStepsWrapUp,
	SPENT_STATUS,
	type StepCount,
	WRAP_UP_PROMPT,
	WRAPPING_UP_STATUS,
} from "./format.ts";
import type { FoldedHistory } from "./history.ts";
import { elapsedMs, safeAmount, worstRatio } from "./measure.ts";
import {
	badDefaultMessage,
	badOnLimitMessage,
	badSettingMessage,
	defaultSetMessage,
	expiredMessage,
	idleSpentMessage,
	KEEP_CHOICE,
	KEPT_MESSAGE,
	limitQuestion,
	MORE_TIME_CHOICE,
	MORE_TURNS_CHOICE,
	moreStepsChoice,
	nudgeMessage,
	onStopProblemMessage,
	onStopStartedMessage,
	REPLACE_CHOICE,
	replaceQuestion,
	restoredMessage,
	STOP_CHOICE,
	spentMessage,
	spentUsage,
	stepsQuestion,
	stepsRefusal,
	stepsStoppedMessage,
	stepsUsedMessage,
	UNUSABLE_RECORD,
	WRAP_UP_REFUSAL,
	wrapUpCutMessage,
	wrapUpMessage,
} from "./messages.ts";
import { parseCommand, parseTimeToMs, quoteInput } from "./parse.ts";
import type { NotifyLevel, OnStopOutcome } from "./ports.ts";
import { budgetRecord, offRecord, type TimeboxRecord } from "./records.ts";

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

/** What the ledger (outside any one session) holds about a budget. */
export interface LedgerView {
	spent: (SpentSummary & { prompt: string | null }) | null;
	off: boolean;
	nudged: boolean;
}

/** A ledger that knows nothing of a budget. */
export const NOTHING_RECORDED: LedgerView = { spent: null, off: false, nudged: false };

/**
 * What a ledger claim writes: the outcome of a budget, once per budget and kind, anywhere. `ended`: the run a spent
 * budget let wrap up has ended, and the on-stop command ran.
 */
export type LedgerClaim =
	| { kind: "spent"; budgetId: string; summary: SpentSummary; prompt: string | null }
	| { kind: "off"; budgetId: string }
	| { kind: "nudged"; budgetId: string }
	| { kind: "ended"; budgetId: string };

/**
 * How a host treats a budget it loads. `restore` (pi reopening a session): a budget already spent, or spent while the
 * session was closed, is not restored, and its warning counts as given once 80% is used. `continue` (a host whose
 * every hook reloads, such as Claude Code): the budget is kept as it is and the next event enforces it.
 */
export type LoadMode = "restore" | "continue";

/** What a host reports. `prompt` keys tell prompts apart; null means "the latest prompt". */
export type SessionEvent =
	| {
			type: "load";
			history: FoldedHistory;
			ledger: LedgerView;
			mode: LoadMode;
			announce: boolean;
			/**
			 * A host that loads in the middle of a run (every Claude Code hook) names the prompt being answered; null
			 * means the latest one. When it is the latest prompt of the history, it runs and does not count against itself.
			 */
			runningPrompt?: string | null;
			/**
			 * The budget to set in a session where none was ever set (a default from a flag, the environment or
			 * settings), with where it came from and the id it gets.
			 */
			defaultBudget?: { text: string; source: string; newBudgetId: string };
			/**
			 * The `onLimit` setting and where it came from: "ask" asks at the limit (stop now, or more time or prompts)
			 * where the host can ask (`canAsk`); "stop", the default, stops.
			 */
			onLimit?: { value: unknown; source: string };
			canAsk?: boolean;
			/** The `awareness` setting ("nudge" or "always") and where it came from. */
			awareness?: { value: unknown; source: string };
			/** The `grace` setting (a time such as "30s") and where it came from. */
			grace?: { value: unknown; source: string };
			/** The model calls the running prompt's run made so far, for a host that loads in the middle of a run. */
			runningSteps?: number;
	  }
	| {
			type: "command";
			args: string;
			newBudgetId: string;
			/** Whether the host can ask the user now (an interactive UI); a replacement is then asked first. */
			canAsk?: boolean;
			/** The user said yes to the question this command raised. */
			confirmed?: boolean;
			/** Whether a cost limit can be enforced here; said when a cost limit is set. Default: reported. */
			cost?: CostReporting;
			/** False where the host never says what a model call used; said when a token limit is set. Default: true. */
			tokensSeen?: boolean;
			/** The report of the session's budgets, which the host works out when the command asks for it. */
			report?: string;
	  }
	/** The user said no: nothing changes, and the user is told so. */
	| { type: "declined"; message: string }
	/** The answer to the limit question, and the event that reached the limit, to go on with after more room. */
	| { type: "limitAnswer"; answer: "stop" | "time" | "turns"; reached: SessionEvent }
	/**
	 * A model call is about to start. `step` is which call of its prompt's run it is, as the host counts them (a call the
	 * host sends again, a retry, has the same number); without it every call counts as the next. `startedBy: "extension"`
	 * names the first call of a run that something other than the user started (a pi extension's message): that run is
	 * no prompt and never counts as one, but its calls are steps, its time and usage count and the budget stops it.
	 */
	| { type: "modelCall"; prompt: string | null; step?: number; startedBy?: "user" | "extension" }
	/** The answer to the question at a prompt's step cap, and the model call that reached it. */
	| {
			type: "stepsAnswer";
			answer: "stop" | "more";
			limit: number;
			/** The steps the run was granted beyond the cap before this question. */
			allowance: number;
			reached: Extract<SessionEvent, { type: "modelCall" }>;
	  }
	/** A model call answered: what it used, as the host reports it. */
	| { type: "modelResponse"; tokens: number; cost: number }
	| { type: "toolCall"; prompt: string | null }
	| { type: "runEnd" }
	| { type: "timeCheck" }
	| { type: "onStopReport"; command: string; outcome: OnStopOutcome };

/** What a host carries out, in order. */
export type Effect =
	| { kind: "notify"; message: string; level: NotifyLevel }
	| { kind: "status"; text: string | undefined }
	| { kind: "append"; record: TimeboxRecord }
	/** Add this block to what the model reads in the model call about to start. */
	| { kind: "context"; text: string }
	/** End the running run now, and any re-run the host has pending for it. */
	| { kind: "abort" }
	/** Refuse what the event announced (the prompt, the model call, the tool call), telling the model why. */
	| { kind: "refuse"; reason: string }
	/** Claim this outcome in the ledger; only the first claim anywhere carries out `then`. */
	| { kind: "once"; claim: LedgerClaim; then: readonly Effect[] }
	/**
	 * Ask the user: each choice names the event (`answer`) to report when it is chosen; `onTimeout` is reported when nobody
	 * answers within `timeoutMs` (null: wait). Until then the host holds model calls and tools back.
	 */
	| {
			kind: "ask";
			question: string;
			choices: readonly { label: string; answer: SessionEvent }[];
			timeoutMs: number | null;
			onTimeout: SessionEvent;
	  }
	| { kind: "runOnStop"; command: string };

export interface StepResult {
	state: SessionState;
	effects: Effect[];
}

/** Points of the time limit at which the budget is checked on time, not at the next status refresh. */
const TIME_CHECKPOINTS = [NUDGE_WARNING_RATIO, NUDGE_CRITICAL_RATIO, 1];

/** Applies one event to a session: the new state and the effects to carry out. */
export function step(state: SessionState, event: SessionEvent, now: number): StepResult {
	if (state.asking && (event.type === "timeCheck" || event.type === "toolCall" || event.type === "modelCall")) {
		// The limit question is open: nothing is checked or stopped until it is answered.
		return { state, effects: [status(state, now)] };
	}
	const result = applyEvent(state, event, now);
	const spent = result.state.spent;
	const reachesLimit =
		event.type === "modelCall" ||
		event.type === "toolCall" ||
		event.type === "timeCheck" ||
		event.type === "modelResponse";
	// More time or a prompt can lift a time or prompt limit only: tokens and cost stop as usual.
	if (state.askAtLimit && state.spent === null && spent !== null && spent.limit === undefined && reachesLimit) {
		return askAtTheLimit(state, event, spent);
	}
	return result;
}

function applyEvent(state: SessionState, event: SessionEvent, now: number): StepResult {
	switch (event.type) {
		case "load":
			return load(event, now);
		case "command":
			return command(state, event, now);
		case "declined":
			return { state, effects: [{ kind: "notify", message: event.message, level: "info" }] };
		case "limitAnswer":
			return limitAnswer({ ...state, asking: false }, event, now);
		case "modelCall":
			return withCallContext(
				countStep(state, modelCall(state, event.prompt, now, event.startedBy !== "extension"), event, now),
				now,
			);
		case "stepsAnswer":
			return stepsAnswer({ ...state, asking: false }, event, now);
		case "toolCall":
			return toolCall(state, event.prompt, now);
		case "modelResponse":
			return modelResponse(state, event, now);
		case "runEnd": {
			const next = { ...state, running: false };
			if (state.wrapUp) return endWrapUp(next, state.wrapUp, now, null);
			return { state: next, effects: [status(next, now)] };
		}
		case "timeCheck":
			if (state.wrapUp) return wrapUpTimeCheck(state, state.wrapUp, now);
			return checkTime(state, now, "timer");
		case "onStopReport": {
			// A failure after the start (a failing exit) turns "ran" into "failed"; nothing turns "failed" back.
			const outcome = event.outcome.kind === "started" && state.onStopOutcome !== "failed" ? "ran" : "failed";
			const next: SessionState = state.spent ? { ...state, onStopOutcome: outcome } : state;
			return { state: next, effects: [...onStopReport(event.command, event.outcome), status(next, now)] };
		}
	}
}

/**
 * Counts a model call against its prompt's step cap, once the call is let through. Calls up to the cap run as usual;
 * the next one is the prompt's wrap-up call (the model is told, the user too), or, when the user asked to be asked at
 * the limit, a question: stop the run, or continue with as many steps again. A call past the wrap-up ends the run.
 */
function countStep(
	before: SessionState,
	result: StepResult,
	event: Extract<SessionEvent, { type: "modelCall" }>,
	now: number,
): StepResult {
	const { state, effects } = result;
	const budget = state.budget;
	const limit = budget?.stepLimit;
	// A call the budget refused spent the budget first: from then on nothing is capped.
	if (limit === undefined || state.spent || budget?.pausedAt !== undefined) return result;
	const newPrompt = state.lastPrompt !== before.lastPrompt;
	const previous = newPrompt ? 0 : (before.steps ?? 0);
	// A call numbered as the last one is that call sent again; a lower number (the run's answers compacted away) is
	// the next call all the same.
	const step = event.step ?? previous + 1;
	const used = step < previous ? previous + 1 : Math.max(previous, step);
	const allowance = newPrompt ? 0 : (before.stepAllowance ?? 0);
	const allowed = limit + allowance;
	const counted: SessionState = { ...state, steps: used, stepAllowance: allowance };
	const withStatus = [...effects.filter((effect) => effect.kind !== "status"), status(counted, now)];
	if (used <= allowed || used === previous) return { state: counted, effects: withStatus };
	if (used > allowed + 1) {
		return {
			state: counted,
			effects: [...withStatus, { kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit) }],
		};
	}
	if (state.askAtLimit) {
		return { state: { ...state, asking: true }, effects: [askAboutSteps(limit, allowance, event)] };
	}
	return {
		state: counted,
		effects: [...withStatus, { kind: "notify", message: stepsUsedMessage(limit), level: "warning" }],
	};
}

/** The question at a prompt's step cap: stop the run now, or continue with as many steps again. */
function askAboutSteps(
	limit: number,
	allowance: number,
	reached: Extract<SessionEvent, { type: "modelCall" }>,
): Effect {
	const answer = (choice: "stop" | "more"): SessionEvent => ({
		type: "stepsAnswer",
		answer: choice,
		limit,
		allowance,
		reached,
	});
	return {
		kind: "ask",
		question: stepsQuestion(limit),
		choices: [
			{ label: STOP_CHOICE, answer: answer("stop") },
			{ label: moreStepsChoice(limit), answer: answer("more") },
		],
		timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
		onTimeout: answer("stop"),
	};
}

/** The user answered the question at a prompt's step cap: the run ends, or goes on with as many steps again. */
function stepsAnswer(
	state: SessionState,
	event: Extract<SessionEvent, { type: "stepsAnswer" }>,
	now: number,
): StepResult {
	const { limit } = event;
	if (event.answer === "stop") {
		return {
			state,
			effects: [
				{ kind: "notify", message: stepsStoppedMessage(limit), level: "warning" },
				{ kind: "abort" },
				{ kind: "refuse", reason: stepsRefusal(limit) },
			],
		};
	}
	const more: SessionState = { ...state, stepAllowance: event.allowance + limit };
	return applyEvent(more, event.reached, now);
}

/** The prompt a model call belongs to: the one named, else the latest, else the one run without a prompt. */
function promptKeyOf(state: SessionState, prompt: string | null): string {
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
function stepsOf(state: SessionState): StepCount | null {
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
function timerDelay(ms: number): number {
	return Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(ms)));
}

function status(state: SessionState, now: number): Effect {
	return { kind: "status", text: statusText(state, now) };
}

function load(event: Extract<SessionEvent, { type: "load" }>, now: number): StepResult {
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
		...(onLimit?.value === "ask" && event.canAsk ? { askAtLimit: true } : {}),
		...(Object.keys(settings).length > 0 ? { settings } : {}),
	};
	const budget = history.budget;
	if (!history.hasRecords && event.defaultBudget) {
		const given = withDefault(base, event.defaultBudget, now);
		return { state: given.state, effects: [...effects, ...given.effects] };
	}
	if (!budget || ledger.off) return { state: base, effects: [...effects, status(base, now)] };
	const loaded: SessionState = {
		...base,
		budget,
		usedTurns: history.usedTurns,
		...(history.spend.tokens > 0 || history.spend.cost > 0 ? { spend: history.spend } : {}),
		...(running && event.runningSteps !== undefined && budget.stepLimit !== undefined
			? { steps: event.runningSteps }
			: {}),
		runningCounted: running && history.lastPromptCounted,
		nudged: ledger.nudged,
		spent: ledger.spent,
		stoppedPrompt: ledger.spent?.prompt ?? null,
	};
	if (mode === "continue") {
		// A hook of the run that is wrapping up after the stop: that run goes on wrapping up.
		const wrapUntil = ledger.spent?.wrapUpUntil;
		const wrapping =
			wrapUntil !== undefined && running && ledger.spent?.prompt === runningKey
				? {
						...loaded,
						wrapUp: {
							prompt: runningKey,
							until: wrapUntil,
							refused: false,
							callsSinceRefusal: 0,
							outcomeId: outcomeId(budget),
							onStopCommand: budget.onStopCommand,
						},
					}
				: loaded;
		effects.push(status(wrapping, now));
		if (announce && !ledger.spent) effects.push(restored(budget, now, history.usedTurns, history.spend));
		return { state: wrapping, effects };
	}
	const decision = ledger.spent ? null : decide(budget, now, history.usedTurns, true, history.spend);
	const summary = ledger.spent ?? (decision?.kind === "stop" ? decision.summary : null);
	if (summary) {
		if (announce) effects.push({ kind: "notify", message: expiredMessage(budget, summary), level: "warning" });
		// Spent while the session was closed: it is over everywhere, though its on-stop command does not run now.
		if (!ledger.spent) effects.push(once({ kind: "spent", budgetId: outcomeId(budget), summary, prompt: null }, []));
		return { state: base, effects: [...effects, status(base, now)] };
	}
	const next = {
		...loaded,
		nudged: ledger.nudged || worstRatio(budget, now, history.usedTurns, history.spend) >= NUDGE_WARNING_RATIO,
	};
	effects.push(status(next, now));
	if (announce) effects.push(restored(budget, now, history.usedTurns, history.spend));
	return { state: next, effects };
}

/** A session new to Timebox gets the default budget, or a warning naming where a bad default came from. */
function withDefault(
	state: SessionState,
	{ text, source, newBudgetId }: { text: string; source: string; newBudgetId: string },
	now: number,
): StepResult {
	const command = parseCommand(text);
	if (command.kind !== "set") {
		const reason = command.kind === "invalid" ? command.reason : `${quoteInput(text)} is not a budget.`;
		return {
			state,
			effects: [status(state, now), { kind: "notify", message: badDefaultMessage(source, reason), level: "warning" }],
		};
	}
	const budget: TimeboxBudget = {
		id: newBudgetId,
		timeLimitMs: command.timeLimitMs,
		turnLimit: command.turnLimit,
		startTime: now,
		onStopCommand: command.onStopCommand,
		...spendLimits(command),
		...treatment(command),
	};
	const next = withNewBudget(state, budget);
	return {
		state: next,
		effects: [
			{ kind: "append", record: { kind: "active", budget: budgetRecord(budget) } },
			status(next, now),
			{ kind: "notify", message: defaultSetMessage(source, command), level: "info" },
		],
	};
}

function restored(budget: TimeboxBudget, now: number, usedTurns: number, spend: Spend): Effect {
	const text = formatStatus(budget, now, usedTurns, spend);
	return { kind: "notify", message: restoredMessage(text, budget.onStopCommand), level: "info" };
}

function command(state: SessionState, event: Extract<SessionEvent, { type: "command" }>, now: number): StepResult {
	const plan = planCommand(parseCommand(event.args), {
		budget: state.budget,
		spent: state.spent,
		usedTurns: shownTurns(state),
		now,
		newBudgetId: event.newBudgetId,
		spend: spendOf(state),
		...(event.cost === undefined ? {} : { cost: event.cost }),
		...(event.tokensSeen === undefined ? {} : { tokensSeen: event.tokensSeen }),
		...(event.report === undefined ? {} : { report: event.report }),
	});
	const reply: Effect = { kind: "notify", message: plan.reply.message, level: plan.reply.level };
	switch (plan.change) {
		case "none":
			return { state, effects: [status(state, now), reply] };
		case "set": {
			if (state.budget && !state.spent && event.canAsk && !event.confirmed)
				return askToReplace(state, state.budget, event, now);
			const next = withNewBudget(state, plan.budget);
			return {
				state: next,
				effects: [
					{ kind: "append", record: { kind: "active", budget: budgetRecord(plan.budget) } },
					status(next, now),
					reply,
				],
			};
		}
		case "update": {
			// The same budget, changed: an extension makes a spent one active again, with its start and on-stop command.
			const { wrapUp: _wrapUpEndsWithTheExtension, ...unwrapped } = state;
			const next: SessionState = plan.reactivate
				? { ...unwrapped, budget: plan.budget, nudged: false, spent: null, stoppedPrompt: null }
				: {
						...state,
						budget: plan.budget,
						nudged: plan.budget.extensions === state.budget?.extensions && state.nudged,
					};
			return {
				state: next,
				effects: [
					{
						kind: "append",
						record: { kind: "active", budget: budgetRecord(plan.budget, next.usedTurns, spendOf(next)) },
					},
					status(next, now),
					reply,
				],
			};
		}
		case "off": {
			const next = withNewBudget(state, null);
			return {
				state: next,
				effects: [
					{ kind: "append", record: offRecord(plan.budgetId, plan.disabledAt) },
					// Off everywhere: a fork or clone of a branch without this record must not bring the budget back.
					once({ kind: "off", budgetId: plan.budgetId }, []),
					status(next, now),
					reply,
				],
			};
		}
	}
}

/** Asks before a new budget replaces the active one; "no" changes nothing. */
function askToReplace(
	state: SessionState,
	budget: TimeboxBudget,
	event: Extract<SessionEvent, { type: "command" }>,
	now: number,
): StepResult {
	const keep: SessionEvent = { type: "declined", message: KEPT_MESSAGE };
	return {
		state,
		effects: [
			{
				kind: "ask",
				question: replaceQuestion(formatLeft(budget, now, shownTurns(state), spendOf(state))),
				choices: [
					{ label: REPLACE_CHOICE, answer: { ...event, confirmed: true } },
					{ label: KEEP_CHOICE, answer: keep },
				],
				timeoutMs: null,
				onTimeout: keep,
			},
		],
	};
}

/**
 * The budget is spent and the user asked to be asked: nothing stops yet; the question offers to stop now, or more time
 * or prompts, and stops if nobody answers in time.
 */
function askAtTheLimit(state: SessionState, reached: SessionEvent, summary: SpentSummary): StepResult {
	const answer = (choice: "stop" | "time" | "turns"): SessionEvent => ({
		type: "limitAnswer",
		answer: choice,
		reached,
	});
	return {
		state: { ...state, asking: true },
		effects: [
			{
				kind: "ask",
				question: limitQuestion(summary.usedTurns, summary.elapsedMs),
				choices: [
					{ label: STOP_CHOICE, answer: answer("stop") },
					{ label: MORE_TIME_CHOICE, answer: answer("time") },
					{ label: MORE_TURNS_CHOICE, answer: answer("turns") },
				],
				timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
				onTimeout: answer("stop"),
			},
		],
	};
}

/** The user answered the limit question: stop as usual, or extend and go on with what reached the limit. */
function limitAnswer(
	state: SessionState,
	event: Extract<SessionEvent, { type: "limitAnswer" }>,
	now: number,
): StepResult {
	if (event.answer === "stop") return applyEvent(state, event.reached, now);
	const args = event.answer === "time" ? `+${LIMIT_MORE_TIME}` : `+turns:${LIMIT_MORE_TURNS}`;
	// An extension keeps the budget and its id: no new id is needed.
	const extended = command(state, { type: "command", args, newBudgetId: "" }, now);
	// Room of the other kind does not lift the limit that was met: the question comes again, with the other choice.
	const goOn = step(extended.state, event.reached, now);
	return { state: goOn.state, effects: [...extended.effects, ...goOn.effects] };
}

/** The session under a new budget (or none): nothing used, warned or stopped; a prompt running now does not count. */
function withNewBudget(state: SessionState, budget: TimeboxBudget | null): SessionState {
	const { onStopOutcome: _spentBudgetsCommand, wrapUp: _spentBudgetsRun, ...rest } = state;
	const { spend: _spentUnderTheOldBudget, steps: _stepsUnderIt, stepAllowance: _allowance, ...fresh } = rest;
	return { ...fresh, budget, usedTurns: 0, runningCounted: false, nudged: false, spent: null, stoppedPrompt: null };
}

/**
 * A model call is about to start. For a new prompt: count it, or stop the budget when the prompts are used up (this is
 * prompt N+1 of turns:N). For the latest prompt (a tool loop, a steer, a re-run after a provider error or compaction):
 * it never counts again; its run goes on unless the budget stopped it. A run that is no prompt (`isPrompt` false, an
 * extension started it) never counts; only the time, tokens and cost are checked.
 */
function modelCall(state: SessionState, prompt: string | null, now: number, isPrompt: boolean): StepResult {
	// A run with no prompt at all (started by the host itself) is one prompt however many calls it makes.
	const key = promptKeyOf(state, prompt);
	if (key === state.lastPrompt) {
		const next = { ...state, running: true };
		if (state.wrapUp && key === state.wrapUp.prompt) return wrapUpModelCall(next, state.wrapUp, now);
		if (key === state.stoppedPrompt && state.spent) return { state: next, effects: refuseStopped(state.spent) };
		return checkTime(next, now, "modelCall");
	}
	if (state.wrapUp) {
		// A new prompt: the run that was wrapping up is over.
		const ended = endWrapUp(state, state.wrapUp, now, null);
		const goOn = modelCall(ended.state, key, now, isPrompt);
		return { state: goOn.state, effects: [...ended.effects, ...goOn.effects] };
	}
	const budget = state.budget;
	const fresh: SessionState = { ...state, lastPrompt: key, running: true, runningCounted: false };
	// Without a budget, after its stop, or while it is paused, a prompt does not count.
	if (!budget || state.spent || budget.pausedAt !== undefined) return { state: fresh, effects: [status(fresh, now)] };
	// A run an extension started: not a prompt, so nothing to count; the time, tokens and cost still hold.
	if (!isPrompt) return checkTime(fresh, now, "modelCall");
	const decision = decide(budget, now, state.usedTurns, state.nudged, spendOf(state));
	if (decision.kind === "stop") return hardStop(fresh, budget, decision.summary, key, now, true);
	const counted: SessionState = { ...fresh, usedTurns: state.usedTurns + 1, runningCounted: true };
	if (decision.kind === "nudge") {
		const nudged = { ...counted, nudged: true };
		return { state: nudged, effects: [nudge(budget, decision.urgency, decision.detail), status(nudged, now)] };
	}
	return { state: counted, effects: [status(counted, now)] };
}

/**
 * A model call was answered: what it used counts against the budget (not while paused, nor once spent), and the budget
 * is checked at once, so a run that used up its tokens or cost stops before its next step.
 */
function modelResponse(state: SessionState, used: { tokens: number; cost: number }, now: number): StepResult {
	const budget = state.budget;
	if (!budget || state.spent || budget.pausedAt !== undefined) return { state, effects: [] };
	const before = spendOf(state);
	const spend = { tokens: before.tokens + safeAmount(used.tokens), cost: before.cost + safeAmount(used.cost) };
	return checkTime({ ...state, spend }, now, "modelResponse");
}

/** What the model used under the budget so far. */
function spendOf(state: SessionState): Spend {
	return state.spend ?? NO_SPEND;
}

/** A tool is about to run: refused once its prompt was stopped; the time limit is checked. */
function toolCall(state: SessionState, prompt: string | null, now: number): StepResult {
	const key = prompt ?? state.lastPrompt;
	const steps = stepsOf(state);
	const limit = state.budget?.stepLimit;
	if (steps && limit !== undefined && key === state.lastPrompt && steps.used > steps.allowed && !state.spent) {
		// The prompt's wrap-up call asked for a tool: refused, and the run ends there.
		return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit) }] };
	}
	if (state.wrapUp && key === state.wrapUp.prompt) return wrapUpToolCall(state, state.wrapUp, now);
	if (key !== null && key === state.stoppedPrompt && state.spent) return { state, effects: refuseStopped(state.spent) };
	return checkTime(state, now, "toolCall", key);
}

/**
 * Checks the time limit alone: stop when it ran out (the prompt of the event, by default the latest, is the one
 * stopped; the model or tool call that `reached` the limit is refused), or let a run with a grace period wrap up; warn
 * at 80%, else refresh the status.
 */
function checkTime(
	state: SessionState,
	now: number,
	reached: "toolCall" | "modelCall" | "modelResponse" | "timer",
	prompt: string | null = state.lastPrompt,
): StepResult {
	const budget = state.budget;
	if (!budget || state.spent || budget.pausedAt !== undefined) return { state, effects: [status(state, now)] };
	const decision = decideMidRun(budget, now, shownTurns(state), state.nudged, spendOf(state));
	switch (decision.kind) {
		case "stop":
			if (state.running && graceOf(state, budget) > 0) {
				return startWrapUp(state, budget, decision.summary, prompt, now, reached === "toolCall");
			}
			return hardStop(state, budget, decision.summary, prompt, now, reached === "toolCall" || reached === "modelCall");
		case "nudge": {
			const next = { ...state, nudged: true };
			return { state: next, effects: [nudge(budget, decision.urgency, decision.detail), status(next, now)] };
		}
		case "ok":
			return { state, effects: [status(state, now)] };
	}
}

/**
 * The hard stop, once per budget anywhere: tell the user, run the on-stop command, show the spent status, and end the
 * run (also a run waiting to be re-run). The prompt that was running or waiting is refused from now on.
 */
function hardStop(
	state: SessionState,
	budget: TimeboxBudget,
	summary: SpentSummary,
	prompt: string | null,
	now: number,
	refuse: boolean,
): StepResult {
	const next: SessionState = { ...state, spent: summary, stoppedPrompt: prompt };
	const usage = spentUsage(summary, budget);
	const message = spentMessage(summary.usedTurns, summary.elapsedMs, usage);
	const said = state.running ? message : idleSpentMessage(summary.usedTurns, summary.elapsedMs, usage);
	const announce: Effect[] = [{ kind: "notify", message: said, level: "error" }];
	if (budget.onStopCommand !== null) announce.push({ kind: "runOnStop", command: budget.onStopCommand });
	// The status comes first: the on-stop command's outcome, reported while the claim runs, updates it after.
	const effects: Effect[] = [
		status(next, now),
		once({ kind: "spent", budgetId: outcomeId(budget), summary, prompt }, announce),
		{ kind: "abort" },
	];
	if (refuse) effects.push({ kind: "refuse", reason: message });
	return { state: next, effects };
}

/**
 * The budget ran out during a run that may wrap up: nothing is aborted yet. The user is told, the budget is spent
 * everywhere, and from now on tools are refused while the model writes its final answer; the on-stop command runs when
 * the run ends. A tool call that met the limit is the first one refused.
 */
function startWrapUp(
	state: SessionState,
	budget: TimeboxBudget,
	summary: SpentSummary,
	prompt: string | null,
	now: number,
	refuseTool: boolean,
): StepResult {
	const graceMs = graceOf(state, budget);
	const until = now + graceMs;
	const wrapUp: WrapUp = {
		prompt,
		until,
		refused: refuseTool,
		callsSinceRefusal: 0,
		outcomeId: outcomeId(budget),
		onStopCommand: budget.onStopCommand,
	};
	const next: SessionState = { ...state, spent: summary, stoppedPrompt: prompt, wrapUp };
	const message = wrapUpMessage(summary.usedTurns, summary.elapsedMs, graceMs, spentUsage(summary, budget));
	const effects: Effect[] = [
		status(next, now),
		once({ kind: "spent", budgetId: outcomeId(budget), summary: { ...summary, wrapUpUntil: until }, prompt }, [
			{ kind: "notify", message, level: "error" },
		]),
	];
	if (refuseTool) effects.push({ kind: "refuse", reason: WRAP_UP_REFUSAL });
	return { state: next, effects };
}

/** A model call of the run wrapping up: the one that writes the final answer, unless the wrap-up time is over. */
function wrapUpModelCall(state: SessionState, wrapUp: WrapUp, now: number): StepResult {
	if (now >= wrapUp.until) return endWrapUp(state, wrapUp, now, "time");
	const calls = wrapUp.refused ? wrapUp.callsSinceRefusal + 1 : 0;
	const next: SessionState = { ...state, wrapUp: { ...wrapUp, callsSinceRefusal: calls } };
	return { state: next, effects: [status(next, now)] };
}

/**
 * A tool call of the run wrapping up is refused, with a reason the model reads. One that comes after the model was
 * refused and called again (it asks for tools again), or after the wrap-up time, ends the run.
 */
function wrapUpToolCall(state: SessionState, wrapUp: WrapUp, now: number): StepResult {
	if (now >= wrapUp.until) return endWrapUp(state, wrapUp, now, "time");
	if (wrapUp.refused && wrapUp.callsSinceRefusal > 0) return endWrapUp(state, wrapUp, now, "tools");
	const next: SessionState = { ...state, wrapUp: { ...wrapUp, refused: true } };
	return { state: next, effects: [status(next, now), { kind: "refuse", reason: WRAP_UP_REFUSAL }] };
}

/** The time check while a run wraps up: the run is stopped once the wrap-up time is over. */
function wrapUpTimeCheck(state: SessionState, wrapUp: WrapUp, now: number): StepResult {
	if (now >= wrapUp.until) return endWrapUp(state, wrapUp, now, "time");
	return { state, effects: [status(state, now)] };
}

/**
 * The run that wrapped up is over: it ended by itself (`cut` null), or it is stopped because the wrap-up time ran out
 * or the model asked for tools again. The on-stop command runs now, once anywhere.
 */
function endWrapUp(state: SessionState, wrapUp: WrapUp, now: number, cut: "time" | "tools" | null): StepResult {
	const { wrapUp: _ended, ...next } = state;
	const announce: Effect[] = [];
	if (cut !== null) announce.push({ kind: "notify", message: wrapUpCutMessage(cut), level: "warning" });
	if (wrapUp.onStopCommand !== null) announce.push({ kind: "runOnStop", command: wrapUp.onStopCommand });
	const effects: Effect[] = [status(next, now), once({ kind: "ended", budgetId: wrapUp.outcomeId }, announce)];
	if (cut !== null) effects.push({ kind: "abort" }, { kind: "refuse", reason: WRAP_UP_REFUSAL });
	return { state: next, effects };
}

/**
 * What the model reads in the model call about to start: the wrap-up notice while a spent budget's run wraps up; the
 * warning block from 80% of the budget (critical from 95%), as it stands at this call; or, when the user asked that
 * the model always know, a line with what is left. Nothing for a call that is refused, or without an active budget.
 */
function withCallContext(result: StepResult, now: number): StepResult {
	const { state, effects } = result;
	if (effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort" || effect.kind === "ask")) {
		return result;
	}
	const text = callContext(state, now);
	return text === null ? result : { state, effects: [...effects, { kind: "context", text }] };
}

function callContext(state: SessionState, now: number): string | null {
	if (state.wrapUp) return WRAP_UP_PROMPT;
	const budget = state.budget;
	if (!budget || state.spent || budget.pausedAt !== undefined) return null;
	const steps = stepsOf(state);
	if (steps && budget.stepLimit !== undefined && steps.used > steps.allowed) return formatStepsWrapUp(budget.stepLimit);
	const used = shownTurns(state);
	const spend = spendOf(state);
	const ratio = Math.max(worstRatio(budget, now, used, spend), steps ? steps.used / steps.allowed : 0);
	if (ratio >= NUDGE_WARNING_RATIO) {
		return formatNudgePrompt(budget, now, used, urgencyFor(ratio), graceOf(state, budget), spend, steps);
	}
	return awarenessOf(state, budget) === "always" ? formatAwareLine(budget, now, used, spend) : null;
}

/** Whether the model is told what is left at every call: the budget's own word, else the session's setting. */
function awarenessOf(state: SessionState, budget: TimeboxBudget): Awareness {
	return budget.awareness ?? state.settings?.awareness ?? "nudge";
}

/** The time a run gets to wrap up at the limit: the budget's own word, else the session's setting, else none. */
function graceOf(state: SessionState, budget: TimeboxBudget): number {
	return budget.graceMs ?? state.settings?.graceMs ?? 0;
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

/** Ends and refuses what the stopped prompt asks for, with the stop message. */
function refuseStopped(summary: SpentSummary): Effect[] {
	return [{ kind: "abort" }, { kind: "refuse", reason: spentMessage(summary.usedTurns, summary.elapsedMs) }];
}

function nudge(budget: TimeboxBudget, urgency: "warning" | "critical", detail: string): Effect {
	return once({ kind: "nudged", budgetId: outcomeId(budget) }, [
		{ kind: "notify", message: nudgeMessage(urgency, detail), level: "warning" },
	]);
}

/**
 * The ledger name of a budget's stop and warning: its id, then one name per extension, so an extended budget can stop
 * and warn again, once each time. Turning a budget off is recorded under its id, for every extension.
 */
export function outcomeId(budget: TimeboxBudget): string {
	return budget.extensions ? `${budget.id}.e${budget.extensions}` : budget.id;
}

/** What the ledger holds for a budget as it stands now (its current extension). */
export function readLedger(ledger: { read(budgetId: string): LedgerView }, budget: TimeboxBudget): LedgerView {
	const outcomes = ledger.read(outcomeId(budget));
	return budget.extensions ? { ...outcomes, off: ledger.read(budget.id).off } : outcomes;
}

function once(claim: LedgerClaim, then: Effect[]): Effect {
	return { kind: "once", claim, then };
}

function onStopReport(command: string, outcome: OnStopOutcome): Effect[] {
	switch (outcome.kind) {
		case "started":
			return [{ kind: "notify", message: onStopStartedMessage(command), level: "info" }];
		case "failed":
		case "exited":
			return [{ kind: "notify", message: onStopProblemMessage(outcome.problem), level: "warning" }];
	}
}
