// A subagent's budget at work: it is told its budget when it starts, warned from 80% of it, and at its limit its
// tools are refused while it writes its final answer; it is stopped when it asks for tools again, when the time to
// conclude runs out, or when the session's budget is spent. Never more than two model calls after its budget is
// spent. Its parent reads one line with its result when it stopped at its budget.

import {
	MIN_ANSWER_TOKENS,
	NUDGE_CRITICAL_RATIO,
	NUDGE_WARNING_RATIO,
	SUBAGENT_CALLS_AFTER_SPENT,
} from "../constants.ts";
import { NO_SPEND, type SubagentRun, type TaskLimit } from "../model/budget.ts";
import type { Effect, ModelRequest, SessionEvent } from "../model/events.ts";
import { safeAmount } from "../model/measure.ts";
import { capEffect, roomLeft, tooLittleRoom } from "../session/caps.ts";
import { describeTaskBudget } from "./describe.ts";
import {
	concludingCall,
	kept,
	parentOf,
	refuseStopped,
	refuseTool,
	spendBudget,
	stop,
	stoppedNotice,
	warnOnce,
} from "./limits.ts";
import { SUBAGENT_REFUSED, subagentBudgetBlock, subagentParentLine, subagentWarningBlock } from "./messages.ts";
import {
	type AgentsTransition,
	budgetFor,
	firstWords,
	isRunning,
	leftText,
	reachedLimit,
	runRecord,
	type SessionView,
	type SubagentsState,
	usedRatio,
	usedText,
	withRun,
} from "./state.ts";

type Event<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

/** A subagent is about to start: refused once the session's budget is spent; else it gets its budget and is told it. */
export function agentStart(
	agents: SubagentsState,
	event: Event<"agentStart">,
	now: number,
	session: SessionView,
): AgentsTransition {
	if (session.spent) return { agents, effects: [{ kind: "refuse", reason: SUBAGENT_REFUSED }] };
	const known = agents.runs[event.agent];
	// The host told of the same start again: it is the same subagent.
	if (known) return { agents, effects: [] };
	const budget = budgetFor(agents, event.agentType);
	const atStart = budget !== null && event.contextAtStart !== false;
	const run: SubagentRun = {
		id: event.agent,
		parent: event.parent,
		agentType: event.agentType,
		task: firstWords(event.task),
		budget,
		startedAt: now,
		steps: 0,
		spend: NO_SPEND,
		warned: false,
		told: atStart,
		spent: null,
		wrapUp: null,
		ended: null,
		closed: false,
		endedAt: null,
	};
	const effects: Effect[] = [runRecord(run)];
	if (atStart) effects.push({ kind: "context", text: subagentBudgetBlock(describeTaskBudget(budget)) });
	return { agents: withRun(agents, run), effects };
}

/**
 * A subagent's model call: refused for a stopped one; the call that concludes (the wrap-up block) once its budget is
 * spent, or when the call's `request` cannot hold a minimal answer in what is left of its tokens or cost, and a stop
 * after two; else counted, with its budget on the first and the warning from 80%.
 */
export function agentModelCall(
	agents: SubagentsState,
	run: SubagentRun,
	now: number,
	session: SessionView,
	request?: ModelRequest,
): AgentsTransition {
	if (!isRunning(run)) return refuseStopped(agents, run);
	if (session.spent) return stop(agents, run, now, "session", true, true);
	const wrapUp = run.wrapUp;
	if (wrapUp !== null) {
		if (now >= wrapUp.until || wrapUp.calls >= SUBAGENT_CALLS_AFTER_SPENT)
			return stop(agents, run, now, "session", true, true);
		const calls = wrapUp.calls + 1;
		return concludingCall(
			agents,
			{ ...run, steps: run.steps + 1, wrapUp: { ...wrapUp, calls } },
			concluding(run, request),
		);
	}
	const limit = reachedLimit(run, now) ?? noRoomIn(run, request);
	if (limit !== null) {
		const wrapping = { ...run, steps: run.steps + 1, spent: { limit, at: now } };
		const wrapUp = { until: now + session.graceMs, calls: 1, refusedAt: null };
		return concludingCall(agents, { ...wrapping, wrapUp }, concluding(wrapping, request));
	}
	const counted: SubagentRun = { ...run, steps: run.steps + 1, told: run.told || run.budget !== null };
	const effects: Effect[] = [];
	if (!run.told && run.budget !== null) {
		effects.push({ kind: "context", text: subagentBudgetBlock(describeTaskBudget(run.budget)) });
	}
	if (run.budget !== null && request !== undefined) {
		effects.push(...capEffect(roomLeft(run.budget, run.spend, request)?.tokens ?? null));
	}
	const ratio = usedRatio(counted, now);
	if (ratio >= NUDGE_WARNING_RATIO) {
		effects.push({
			kind: "context",
			text: subagentWarningBlock(ratio >= NUDGE_CRITICAL_RATIO, leftText(counted, now)),
		});
	}
	return warnOnce(agents, counted, now, effects, true);
}

/** A call a subagent concludes in at its tokens or cost, whose request the host told, is capped at a minimal answer. */
function concluding(run: SubagentRun, request: ModelRequest | undefined): Effect[] {
	return request !== undefined && CAPPED.has(run.spent?.limit) ? capEffect(MIN_ANSWER_TOKENS) : [];
}

/** The limits a model call's answer is capped by. */
const CAPPED: ReadonlySet<TaskLimit | undefined> = new Set(["tokens", "cost"]);

/** The limit of a subagent's budget whose room left cannot hold this call, or null. */
function noRoomIn(run: SubagentRun, request: ModelRequest | undefined): "tokens" | "cost" | null {
	if (run.budget === null || request === undefined) return null;
	const room = roomLeft(run.budget, run.spend, request);
	return tooLittleRoom(room) ? room.limit : null;
}

/** A subagent's tool: refused once its budget is spent, and it is stopped when it asks again after a refusal. */
export function agentToolCall(
	agents: SubagentsState,
	run: SubagentRun,
	now: number,
	session: SessionView,
): AgentsTransition {
	if (!isRunning(run)) return refuseStopped(agents, run);
	if (session.spent) return stop(agents, run, now, "session", true, true);
	const wrapUp = run.wrapUp;
	if (wrapUp !== null) {
		const askedAgain = wrapUp.refusedAt !== null && wrapUp.calls > wrapUp.refusedAt;
		if (now >= wrapUp.until || askedAgain) return stop(agents, run, now, "session", true, true);
		const refused = { ...run, wrapUp: { ...wrapUp, refusedAt: wrapUp.refusedAt ?? wrapUp.calls } };
		return refuseTool(agents, refused, wrapUp.refusedAt === null);
	}
	// The model calls it made are its own to use: only the time, tokens or cost can run out before a tool.
	const limit = reachedLimit(run, now, false);
	if (limit === null) return { agents, effects: [] };
	const spent = { ...run, spent: { limit, at: now }, wrapUp: { until: now + session.graceMs, calls: 0, refusedAt: 0 } };
	return refuseTool(agents, spent, true);
}

/**
 * What a subagent's model call used counts for it and for every subagent above it (each checked against its tokens and
 * cost); the session counts it once, apart from this. Nothing for a subagent never seen started.
 */
export function agentResponse(
	agents: SubagentsState,
	run: SubagentRun | undefined,
	used: { tokens: number; cost: number },
	now: number,
	session: SessionView,
): AgentsTransition {
	let next = agents;
	const effects: Effect[] = [];
	const tokens = safeAmount(used.tokens);
	const cost = safeAmount(used.cost);
	// Each subagent counts once, whatever parents the host named (a subagent named as its own parent included).
	const counted = new Set<string>();
	for (let one: SubagentRun | undefined = run; one !== undefined && !counted.has(one.id); one = parentOf(next, one)) {
		counted.add(one.id);
		const spend = { tokens: one.spend.tokens + tokens, cost: one.spend.cost + cost };
		const withSpend: SubagentRun = { ...one, spend };
		const running = isRunning(withSpend) && withSpend.spent === null;
		const limit = running ? reachedLimit(withSpend, now, false) : null;
		const step =
			limit === null
				? running
					? warnOnce(next, withSpend, now, [], true)
					: kept(next, withSpend)
				: spendBudget(next, withSpend, limit, now, session);
		next = step.agents;
		effects.push(...step.effects);
	}
	return { agents: next, effects };
}

/** Time checks: a subagent whose time ran out concludes; one whose time to conclude ran out is stopped. */
export function agentsTimeCheck(agents: SubagentsState, now: number, session: SessionView): AgentsTransition {
	let next = agents;
	const effects: Effect[] = [];
	for (const run of Object.values(agents.runs)) {
		// One stopped meanwhile with the subagent that started it is done with.
		if (!isRunning(run) || next.runs[run.id] !== run) continue;
		let step: AgentsTransition;
		if (run.wrapUp !== null) {
			if (now < run.wrapUp.until) continue;
			step = stop(next, run, now, "session", false, true);
		} else {
			// A subagent whose budget is spent is concluding (above) or stopped: this one is within its budget.
			const limit = reachedLimit(run, now, false);
			step = limit === null ? warnOnce(next, run, now, [], false) : spendBudget(next, run, limit, now, session);
		}
		next = step.agents;
		effects.push(...step.effects);
	}
	return { agents: next, effects };
}

/** The session's budget is spent: every running subagent is stopped with it. */
export function stopAll(agents: SubagentsState, now: number): AgentsTransition {
	let next = agents;
	const effects: Effect[] = [];
	for (const run of Object.values(agents.runs)) {
		if (!isRunning(run)) continue;
		const step = stop(next, run, now, "session", false, false);
		next = step.agents;
		effects.push(...step.effects);
	}
	return { agents: next, effects };
}

/**
 * A subagent ended and its answer went back to its parent: it is gone. One that concluded at its budget is told to
 * the user; the parent reads a line with the result of one that concluded or was stopped.
 */
export function agentEnd(agents: SubagentsState, run: SubagentRun, now: number): AgentsTransition {
	const ended = run.ended ?? (run.spent === null ? "answered" : "concluded");
	const closed: SubagentRun = { ...run, ended, closed: true, wrapUp: null, endedAt: run.endedAt ?? now };
	const { [run.id]: _gone, ...runs } = agents.runs;
	const { [run.id]: _counted, ...calls } = agents.calls ?? {};
	const effects: Effect[] = [runRecord(closed)];
	const spent = run.spent;
	if (spent !== null) {
		if (ended === "concluded") effects.push(stoppedNotice(closed, spent.limit));
		effects.push({ kind: "context", text: subagentParentLine(spent.limit, run.budget, usedText(closed, now)) });
	}
	return { agents: { ...agents, runs, ...(agents.calls === undefined ? {} : { calls }) }, effects };
}
