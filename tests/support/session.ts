// What the session rulebook's tests share: budgets, events, a state builder, the expected stop and warning effects,
// a load event and the notices among effects.

import type { SpentSummary, TimeboxBudget } from "../../src/core/model/budget.ts";
import type { FoldedHistory } from "../../src/core/model/history.ts";
import {
	type Effect,
	EMPTY_SESSION,
	type LedgerClaim,
	type LedgerView,
	type LoadMode,
	NOTHING_RECORDED,
	type SessionEvent,
	type SessionState,
	transition,
} from "../../src/core/session/index.ts";
import { type BudgetStanding, freshStanding } from "../../src/core/session/state.ts";
import { budget, MINUTE, START } from "./budgets.ts";

export const DAY = 24 * 60 * MINUTE;
export const SPENT = "Timebox: budget spent";
export const WRAP_UP = [
	"Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.",
	"When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished.",
];

export const threeTurns = budget({ turnLimit: 3, onStopCommand: "lmk" });
export const fiveTurns = budget({ turnLimit: 5 });
export const tenMinutes = budget({ timeLimitMs: 10 * MINUTE });

export const set = (args: string, newBudgetId = "b1"): SessionEvent => ({ type: "command", args, newBudgetId });
export const call = (prompt: string | null): SessionEvent => ({ type: "modelCall", prompt });
export const tool = (prompt: string | null = null): SessionEvent => ({ type: "toolCall", prompt });
export const RUN_END: SessionEvent = { type: "runEnd" };
export const TIME_CHECK: SessionEvent = { type: "timeCheck" };

/**
 * A session described flat: its own fields, the budget in force (or none) and how that budget stands; `nudged` is the
 * budget's `softNudgeSent`, and a `spent` budget is no longer active.
 */
export type SessionOutline = Partial<Omit<SessionState, "standing">> &
	Partial<Omit<BudgetStanding, "budget">> & { budget?: TimeboxBudget | null; nudged?: boolean };

/** The standing with the outline's changes, the budget's flags following `nudged` and `spent`. */
function standingWith(before: BudgetStanding, change: Omit<SessionOutline, "budget">): BudgetStanding {
	const { nudged, ...rest } = change;
	const next = { ...before, ...rest };
	const flags = {
		...(nudged === undefined ? {} : { softNudgeSent: nudged }),
		...("spent" in rest ? { active: rest.spent === null } : {}),
	};
	return { ...next, budget: { ...next.budget, ...flags } };
}

/** The session an outline describes: what it leaves out is as in a session new to the budget. */
export function session(outline: SessionOutline = {}): SessionState {
	const { budget = null, lastPrompt, running, askAtLimit, asking, settings, ...standing } = outline;
	const own = { lastPrompt, running, askAtLimit, asking, settings };
	const given = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined));
	return {
		...EMPTY_SESSION,
		...given,
		standing: budget ? standingWith(freshStanding(budget), standing) : null,
	};
}

/** The session with these fields changed, its own or its budget's standing. */
export function changed(state: SessionState, outline: Omit<SessionOutline, "budget">): SessionState {
	const { lastPrompt, running, askAtLimit, asking, settings, ...standing } = outline;
	const own = { lastPrompt, running, askAtLimit, asking, settings };
	const given = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined));
	return { ...state, ...given, standing: state.standing ? standingWith(state.standing, standing) : null };
}

/** A session with this budget in force. */
export function withBudget(b: TimeboxBudget, more: Omit<SessionOutline, "budget"> = {}): SessionState {
	return session({ ...more, budget: b });
}

/** Feeds events in order, all at `now`, and returns the state they leave. */
export function play(state: SessionState, events: readonly SessionEvent[], now = START): SessionState {
	return events.reduce((current, event) => transition(current, event, now).state, state);
}

/** The stop notice when nothing was running: there was nothing to stop. */
export function idleSpentText(usedTurns: number, elapsed: string): string {
	return `Timebox budget spent. Used ${usedTurns} ${usedTurns === 1 ? "turn" : "turns"}, ${elapsed}, while the agent was idle. The chat continues.`;
}

export function spentText(usedTurns: number, elapsed: string): string {
	return `Timebox budget spent. Used ${usedTurns} ${usedTurns === 1 ? "turn" : "turns"}, ${elapsed}. The agent stops for this turn. The chat continues.`;
}

/** The blocks a model call carries to the model. */
export function contextOf(effects: readonly Effect[]): Extract<Effect, { kind: "context" }>[] {
	return effects.filter((effect): effect is Extract<Effect, { kind: "context" }> => effect.kind === "context");
}

/** A ledger claim and what only its first claimant carries out. */
export function once(claim: LedgerClaim, then: Effect[] = []): Effect {
	return { kind: "once", claim, then };
}

export function stopEffects(
	summary: SpentSummary,
	prompt: string | null,
	elapsed: string,
	onStop: string | null,
	refuse: boolean,
	idle = false,
): Effect[] {
	const message = spentText(summary.usedTurns, elapsed);
	const said = idle ? idleSpentText(summary.usedTurns, elapsed) : message;
	const announce: Effect[] = [{ kind: "notify", message: said, level: "error" }];
	// The claim carries the command it starts, and the start names the claim: another process can start it late.
	if (onStop !== null) {
		announce.push({ kind: "startOnStop", command: onStop, claim: { budgetId: "budget-1", kind: "spent" } });
	}
	const claim = { kind: "spent" as const, budgetId: "budget-1", summary, prompt };
	const effects: Effect[] = [
		{ kind: "status", text: SPENT },
		once(onStop === null ? claim : { ...claim, onStopCommand: onStop }, announce),
		{ kind: "abort" },
	];
	if (refuse) effects.push({ kind: "refuse", reason: message });
	return effects;
}

export function warning(message: string): Effect {
	return once({ kind: "nudged", budgetId: "budget-1" }, [{ kind: "notify", message, level: "warning" }]);
}

export function loadEvent(
	history: Partial<FoldedHistory>,
	options: {
		ledger?: Partial<LedgerView>;
		mode?: LoadMode;
		announce?: boolean;
		runningPrompt?: string | null;
	} = {},
): Extract<SessionEvent, { type: "load" }> {
	return {
		type: "load",
		history: {
			budget: null,
			usedTurns: 0,
			spend: { tokens: 0, cost: 0 },
			lastPrompt: null,
			lastPromptCounted: false,
			newestUnusable: false,
			hasRecords: true,
			...history,
		},
		ledger: { ...NOTHING_RECORDED, ...options.ledger },
		mode: options.mode ?? "restore",
		announce: options.announce ?? true,
		...(options.runningPrompt === undefined ? {} : { runningPrompt: options.runningPrompt }),
	};
}

/** Every notification text of a list of effects, those inside ledger claims included. */
export function notices(effects: readonly Effect[]): string[] {
	return effects.flatMap((effect) => {
		if (effect.kind === "notify") return [effect.message];
		return effect.kind === "once" ? notices(effect.then) : [];
	});
}
