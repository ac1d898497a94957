// The budget's limits: a prompt counts when its first model call starts, what the model used counts when it is
// answered, the time is checked at every call and time check; the warning at 80%, the hard stop at the limit (once
// anywhere, with the on-stop command), or the question at the limit when the user asked to be asked.

import { LIMIT_QUESTION_TIMEOUT_MS } from "../constants.ts";
import { decide, decideMidRun, stopWithoutRoom } from "../decide.ts";
import type { SpentSummary, TimeboxBudget } from "../model/budget.ts";
import type { Effect, ModelRequest, OnStopOutcome, SessionEvent } from "../model/events.ts";
import { safeAmount } from "../model/measure.ts";
import {
	idleSpentMessage,
	nudgeMessage,
	onStopProblemMessage,
	onStopStartedMessage,
	spentMessage,
	spentUsage,
	stepsRefusal,
} from "../text/messages.ts";
import { limitQuestion, MORE_TIME_CHOICE, MORE_TURNS_CHOICE, STOP_CHOICE } from "../text/questions.ts";
import { withRoom } from "./caps.ts";
import { claimWithOnStop, once, outcomeId } from "./outcomes.ts";
import { recoveredStart } from "./recovery.ts";
import {
	type BudgetStanding,
	counting,
	graceOf,
	nudgedBudget,
	promptKeyOf,
	type SessionState,
	shownTurns,
	spentStanding,
	status,
	stepsOf,
	type Transition,
	withStanding,
} from "./state.ts";
import { endWrapUp, startWrapUp, wrapUpModelCall, wrapUpToolCall } from "./wrap-up.ts";

/**
 * The budget is spent and the user asked to be asked: nothing stops yet; the question offers to stop now, or more time
 * or prompts, and stops if nobody answers in time.
 */
export function askAtTheLimit(state: SessionState, reached: SessionEvent, summary: SpentSummary): Transition {
	const answer = (choice: "stop" | "time" | "prompts"): SessionEvent => ({
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
					{ label: MORE_TURNS_CHOICE, answer: answer("prompts") },
				],
				timeoutMs: LIMIT_QUESTION_TIMEOUT_MS,
				onTimeout: answer("stop"),
			},
		],
	};
}

/**
 * A model call is about to start. For a new prompt: count it, or stop the budget when the prompts are used up (this is
 * prompt N+1 of turns:N). For the latest prompt (a tool loop, a steer, a re-run after a provider error or compaction):
 * it never counts again; its run goes on unless the budget stopped it. A call whose `request` the host told cannot hold
 * a minimal answer in what is left of the tokens or cost is not sent: the budget is spent there.
 */
export function modelCall(
	state: SessionState,
	prompt: string | null,
	now: number,
	isPrompt = true,
	request?: ModelRequest,
): Transition {
	// A run with no prompt at all (started by the host itself) is one prompt however many calls it makes.
	const key = promptKeyOf(state, prompt);
	const standing = state.standing;
	if (key === state.lastPrompt) {
		const next = { ...state, running: true };
		const wrapUp = standing?.wrapUp;
		if (standing && wrapUp && key === wrapUp.prompt) return wrapUpModelCall(next, standing, wrapUp, now);
		if (key === standing?.stoppedPrompt && standing.spent)
			return { state: next, effects: refuseStopped(standing.spent) };
		return checkTime(next, now, "modelCall", state.lastPrompt, request);
	}
	if (standing?.wrapUp) {
		// A new prompt: the run that was wrapping up is over.
		const ended = endWrapUp(state, standing, standing.wrapUp, now, null);
		const goOn = modelCall(ended.state, key, now, isPrompt, request);
		return { state: goOn.state, effects: [...ended.effects, ...goOn.effects] };
	}
	const fresh: SessionState = {
		...state,
		lastPrompt: key,
		running: true,
		standing: standing ? { ...standing, runningCounted: false } : null,
	};
	// Without a budget, after its stop, or while it is paused, a prompt does not count.
	const active = counting(fresh);
	if (!active) return { state: fresh, effects: [status(fresh, now)] };
	// A run an extension started: not a prompt, so nothing to count; the time, tokens and cost still hold.
	if (!isPrompt) return checkTime(fresh, now, "modelCall", fresh.lastPrompt, request);
	const budget = active.budget;
	const decision = withRoom(decide(budget, now, active.usedTurns, active.spend), budget, active, request, (limit) =>
		stopWithoutRoom(budget, now, active.usedTurns, active.spend, limit),
	);
	if (decision.kind === "stop") return hardStop(fresh, active, decision.summary, key, now, true);
	const counted = { usedTurns: active.usedTurns + 1, runningCounted: true };
	if (decision.kind === "nudge") {
		const nudged = withStanding(fresh, active, { ...counted, budget: nudgedBudget(active) });
		return { state: nudged, effects: [nudge(budget, decision.urgency, decision.detail), status(nudged, now)] };
	}
	const next = withStanding(fresh, active, counted);
	return { state: next, effects: [status(next, now)] };
}

/**
 * The latest prompt, whose run the rules started, was refused after all by the daily ledger (read ahead, where another
 * machine took the day's last turn meanwhile): it never ran. It counts no more and its run is over, and the session's
 * history forgets it, so that no later process counts it either (nor takes it for the latest prompt). In this process
 * it stays the latest prompt seen: an event of it that still comes is not a new prompt's. With no run going (the rules
 * did not start one), nothing changes.
 */
export function promptRefused(state: SessionState, now: number): Transition {
	const prompt = state.lastPrompt;
	if (prompt === null || !state.running) return { state, effects: [] };
	const drop: Effect = { kind: "dropPrompt", prompt };
	const standing = state.standing;
	const uncounted =
		standing?.runningCounted === true
			? { ...standing, usedTurns: standing.usedTurns - 1, runningCounted: false }
			: standing;
	const next: SessionState = { ...state, running: false, standing: uncounted };
	return { state: next, effects: [drop, status(next, now)] };
}

/**
 * What a response the host named used, kept in the session's history first, whatever the budget does with it: it
 * counts once by its id after any reload. Its cost is kept where the host sees cost.
 */
export function keptUsage(
	response: { tokens: number; cost: number; responseId: string; costSeen?: false },
	now: number,
): Effect {
	const used =
		response.costSeen === false ? { tokens: response.tokens } : { tokens: response.tokens, cost: response.cost };
	return { kind: "recordUsage", usage: { responseId: response.responseId, used, at: now } };
}

/**
 * A model call was answered: what it used counts against the budget (not while paused, nor once spent), and the budget
 * is checked at once, so a run that used up its tokens or cost stops before its next step.
 */
export function modelResponse(state: SessionState, used: { tokens: number; cost: number }, now: number): Transition {
	const active = counting(state);
	if (!active) return { state, effects: [] };
	const before = active.spend;
	const spend = { tokens: before.tokens + safeAmount(used.tokens), cost: before.cost + safeAmount(used.cost) };
	return checkTime(withStanding(state, active, { spend }), now, "modelResponse");
}

/** A tool is about to run: refused once its prompt was stopped; the time limit is checked. */
export function toolCall(state: SessionState, prompt: string | null, now: number): Transition {
	const key = prompt ?? state.lastPrompt;
	const standing = state.standing;
	const steps = stepsOf(state);
	const limit = standing?.budget.stepLimit;
	if (steps && limit !== undefined && key === state.lastPrompt && steps.used > steps.allowed && !standing?.spent) {
		// The prompt's wrap-up call asked for a tool: refused, and the run ends there.
		return { state, effects: [{ kind: "abort" }, { kind: "refuse", reason: stepsRefusal(limit) }] };
	}
	const wrapUp = standing?.wrapUp;
	if (standing && wrapUp && key === wrapUp.prompt) return wrapUpToolCall(state, standing, wrapUp, now);
	if (key !== null && key === standing?.stoppedPrompt && standing.spent) {
		return { state, effects: refuseStopped(standing.spent) };
	}
	return checkTime(state, now, "toolCall", key);
}

/**
 * Checks the time limit alone: stop when it ran out (the prompt of the event, by default the latest, is the one
 * stopped; the model or tool call that `reached` the limit is refused), or let a run with a grace period wrap up; warn
 * at 80%, else refresh the status. A model call's `request` is checked for room too (beside what the calls in flight of
 * agents other than `agent`, the main agent by default, may use).
 */
export function checkTime(
	state: SessionState,
	now: number,
	reached: "toolCall" | "modelCall" | "modelResponse" | "timer",
	prompt: string | null = state.lastPrompt,
	request?: ModelRequest,
	agent?: string,
): Transition {
	const active = counting(state);
	if (!active) return { state, effects: [status(state, now)] };
	const budget = active.budget;
	const turns = shownTurns(state);
	const decision = withRoom(
		decideMidRun(budget, now, turns, active.spend),
		budget,
		active,
		request,
		(limit) => stopWithoutRoom(budget, now, turns, active.spend, limit),
		agent,
	);
	switch (decision.kind) {
		case "stop": {
			// The running prompt, counted at its start, was used: the summary's turns leave it out, as the user reads them.
			const counted = state.running && active.runningCounted;
			const summary: SpentSummary = counted ? { ...decision.summary, promptCounted: true } : decision.summary;
			if (state.running && graceOf(state, budget) > 0) {
				return startWrapUp(state, active, summary, prompt, now, reached === "toolCall");
			}
			return hardStop(state, active, summary, prompt, now, reached === "toolCall" || reached === "modelCall");
		}
		case "nudge": {
			const next = withStanding(state, active, { budget: nudgedBudget(active) });
			const warning = nudge(budget, decision.urgency, decision.detail, state.running);
			return { state: next, effects: [warning, status(next, now)] };
		}
		case "ok":
			return { state, effects: [status(state, now)] };
	}
}

/**
 * The hard stop, once per budget anywhere: tell the user, start the on-stop command, show the spent status, and end the
 * run (also a run waiting to be re-run). The prompt that was running or waiting is refused from now on.
 */
function hardStop(
	state: SessionState,
	standing: BudgetStanding,
	summary: SpentSummary,
	prompt: string | null,
	now: number,
	refuse: boolean,
): Transition {
	const budget = standing.budget;
	const next: SessionState = { ...state, standing: spentStanding(standing, summary, prompt) };
	const usage = spentUsage(summary, budget);
	const message = spentMessage(summary.usedTurns, summary.elapsedMs, usage);
	const said = state.running ? message : idleSpentMessage(summary.usedTurns, summary.elapsedMs, usage);
	const announce: Effect[] = [{ kind: "notify", message: said, level: "error" }];
	const claim = { kind: "spent" as const, budgetId: outcomeId(budget), summary, prompt };
	// The status comes first: the on-stop command's outcome, reported while the claim is carried out, updates it after.
	const effects: Effect[] = [
		status(next, now),
		claimWithOnStop(claim, budget.onStopCommand, announce),
		{ kind: "abort" },
	];
	if (refuse) effects.push({ kind: "refuse", reason: message });
	return { state: next, effects };
}

/** The on-stop command's outcome: kept in the footer of the spent budget, and told to the user. */
export function onStopReported(
	state: SessionState,
	event: Extract<SessionEvent, { type: "onStopReport" }>,
	now: number,
): Transition {
	const standing = state.standing;
	// A failure after the start (a failing exit) turns "ran" into "failed"; nothing turns "failed" back. A start that found
	// the command started by another process ran it all the same.
	const began = event.outcome.kind === "started" || event.outcome.kind === "alreadyStarted";
	const outcome = began && standing?.onStopOutcome !== "failed" ? "ran" : "failed";
	const next = standing?.spent ? withStanding(state, standing, { onStopOutcome: outcome }) : state;
	return {
		state: next,
		effects: [...onStopReport(event.command, event.outcome), ...recoveredStart(event), status(next, now)],
	};
}

/** Ends and refuses what the stopped prompt asks for, with the stop message. */
export function refuseStopped(summary: SpentSummary): Effect[] {
	return [{ kind: "abort" }, { kind: "refuse", reason: spentMessage(summary.usedTurns, summary.elapsedMs) }];
}

function nudge(budget: TimeboxBudget, urgency: "warning" | "critical", detail: string, running = true): Effect {
	return once({ kind: "nudged", budgetId: outcomeId(budget) }, [
		{ kind: "notify", message: nudgeMessage(urgency, detail, running), level: "warning" },
	]);
}

function onStopReport(command: string, outcome: OnStopOutcome): Effect[] {
	switch (outcome.kind) {
		case "started":
			return [{ kind: "notify", message: onStopStartedMessage(command), level: "info" }];
		case "alreadyStarted":
			// The process that started it said so: saying it again here would tell the user it ran twice.
			return [];
		case "failed":
		case "exited":
			return [{ kind: "notify", message: onStopProblemMessage(outcome.problem), level: "warning" }];
	}
}
