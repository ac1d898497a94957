// What a `/timebox` command does to the session: a new budget (asked first where one is active), an extension, a
// pause or resume, off, or a reply only.

import { REPLACE_QUESTION_TIMEOUT_MS } from "../constants.ts";
import { formatLeft } from "../format.ts";
import { parseCommand } from "../grammar/command.ts";
import { planCommand } from "../grammar/command-plan.ts";
import type { Spend, TimeboxBudget } from "../model/budget.ts";
import type { Effect, SessionEvent } from "../model/events.ts";
import { offRecord } from "../model/records.ts";
import { subagentsCommand } from "../subagents/commands.ts";
import { subagentStatusLines } from "../subagents/status.ts";
import { ignoredWordsNote } from "../text/messages.ts";
import { KEEP_CHOICE, KEPT_MESSAGE, REPLACE_CHOICE, replaceQuestion } from "../text/questions.ts";
import { recordBudget } from "./budget-record.ts";
import { once } from "./outcomes.ts";
import {
	budgetOf,
	freshStanding,
	type SessionState,
	shownTurns,
	spendOf,
	status,
	type Transition,
	withNewBudget,
	withStanding,
} from "./state.ts";
import { endWrapUp } from "./wrap-up.ts";

export function command(
	state: SessionState,
	event: Extract<SessionEvent, { type: "command" }>,
	now: number,
): Transition {
	const parsed = parseCommand(event.args);
	if (parsed.kind === "subagents") {
		const result = subagentsCommand(state.subagents, parsed, now);
		return { state: { ...state, subagents: result.agents }, effects: result.effects };
	}
	const used = usedByBudget(state);
	const plan = planCommand(parsed, {
		...(event.turns === undefined ? {} : { turns: event.turns }),
		budget: budgetOf(state),
		spent: state.standing?.spent ?? null,
		usedTurns: used.usedTurns,
		spend: used.spend,
		now,
		newBudgetId: event.newBudgetId,
		...(event.cost === undefined ? {} : { cost: event.cost }),
		...(event.tokensSeen === undefined ? {} : { tokensSeen: event.tokensSeen }),
		...(event.report === undefined ? {} : { report: event.report }),
		...(parsed.kind === "status" ? { subagents: subagentStatusLines(state.subagents, now) } : {}),
	});
	const ignored =
		(parsed.kind === "off" || parsed.kind === "status") && parsed.ignored !== undefined
			? ignoredWordsNote(parsed.kind, parsed.ignored)
			: null;
	const message = ignored === null ? plan.reply.message : `${plan.reply.message}\n${ignored}`;
	const reply: Effect = { kind: "notify", message, level: plan.reply.level };
	switch (plan.change) {
		case "none":
			return { state, effects: [status(state, now), reply] };
		case "set": {
			const active = state.standing;
			if (active && !active.spent && event.canAsk && !event.confirmed) {
				return askToReplace(state, active.budget, event, now);
			}
			const ended = wrapUpEnded(state, now);
			const next = withNewBudget(ended.state, plan.budget);
			return {
				state: next,
				effects: [...recordBudget(plan.budget), status(next, now), reply, ...ended.effects],
			};
		}
		case "update": {
			// The same budget, changed: an extension makes a spent one active again, with its start and on-stop command.
			// An update is planned for the budget in force only: its standing goes on, with the budget changed.
			const standing = { ...freshStanding(plan.budget), ...state.standing };
			const stop = usedAtStop(state);
			const next = withStanding(
				state,
				standing,
				plan.reactivate
					? {
							budget: { ...plan.budget, softNudgeSent: false, active: true },
							spent: null,
							stoppedPrompt: null,
							wrapUp: null,
							// Counted from the stop; a run the stop let wrap up goes on under the extension, its prompt counted.
							...(stop && { usedTurns: stop.counted, runningCounted: stop.runningCounted, spend: stop.spend }),
						}
					: {
							budget: {
								...plan.budget,
								softNudgeSent: plan.budget.extensions === standing.budget.extensions && standing.budget.softNudgeSent,
							},
						},
			);
			return {
				state: next,
				effects: [
					...recordBudget(plan.budget, next.standing?.usedTurns, next.standing?.spend),
					status(next, now),
					reply,
				],
			};
		}
		case "off": {
			const ended = wrapUpEnded(state, now);
			const next = withNewBudget(ended.state, null);
			// A spent budget is no longer active: it leaves the session, and nothing is written or claimed for it.
			if (!plan.write) return { state: next, effects: [status(next, now), reply, ...ended.effects] };
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

/**
 * A new budget or `off` during the time to wrap up ends it, as a new prompt does: the spent budget's end is claimed
 * and its on-stop command starts now, once (the run goes on, no longer the budget's), never left for a later start.
 * Said after the command's reply: a host that shows one notice of a level at a time shows the command's start last.
 */
function wrapUpEnded(state: SessionState, now: number): Transition {
	const wrapUp = state.standing?.wrapUp;
	if (!state.standing || !wrapUp) return { state, effects: [] };
	const ended = endWrapUp(state, state.standing, wrapUp, now, null);
	// Its status is the session's after the command: said once, there.
	return { state: ended.state, effects: ended.effects.filter((effect) => effect.kind !== "status") };
}

/**
 * What the budget in force used, as its commands read it (a prompt being answered does not count against itself): a
 * spent budget's at its stop (`usedAtStop`), else as it stands.
 */
function usedByBudget(state: SessionState): { usedTurns: number; spend: Spend } {
	const stop = usedAtStop(state);
	if (stop === null) return { usedTurns: shownTurns(state), spend: spendOf(state) };
	return { usedTurns: stop.counted - (stop.runningCounted ? 1 : 0), spend: stop.spend };
}

/**
 * What a spent budget had used at its stop, as kept: the prompts the chat goes on with after it run without a budget,
 * so an extension counts from the stop, not from what came after (a session's history counts every prompt and answer
 * after the budget's record; the stop's claim, what it had used). The prompt a stop ended mid-run was used; while its
 * run wraps up, it is the one running. Null for a budget not spent.
 */
function usedAtStop(state: SessionState): { counted: number; runningCounted: boolean; spend: Spend } | null {
	const spent = state.standing?.spent;
	if (!spent) return null;
	const spend = spendOf(state);
	return {
		counted: spent.usedTurns + (spent.promptCounted ? 1 : 0),
		runningCounted: state.running && spent.promptCounted === true && state.lastPrompt === state.standing?.stoppedPrompt,
		spend: { tokens: spent.tokens ?? spend.tokens, cost: spent.cost ?? spend.cost },
	};
}

/** Asks before a new budget replaces the active one; "no" changes nothing. */
function askToReplace(
	state: SessionState,
	budget: TimeboxBudget,
	event: Extract<SessionEvent, { type: "command" }>,
	now: number,
): Transition {
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
				timeoutMs: REPLACE_QUESTION_TIMEOUT_MS,
				onTimeout: keep,
			},
		],
	};
}
