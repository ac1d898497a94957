// The session rulebook, tested purely: each event on a given state yields the exact new state and the exact effects a
// host carries out (notifications, status, records, context blocks, aborts, refusals, ledger claims, the on-stop run).

import { describe, expect, it } from "vitest";
import type { SpentSummary, TimeboxBudget } from "../../src/core/budget.ts";
import { MAX_TIMER_DELAY_MS } from "../../src/core/constants.ts";
import type { FoldedHistory } from "../../src/core/history.ts";
import { UNUSABLE_RECORD, USAGE } from "../../src/core/messages.ts";
import type { OnStopOutcome } from "../../src/core/ports.ts";
import {
	type Effect,
	EMPTY_SESSION,
	isActive,
	type LedgerClaim,
	type LedgerView,
	type LoadMode,
	NOTHING_RECORDED,
	nextTimeCheckIn,
	outcomeId,
	readLedger,
	type SessionEvent,
	type SessionState,
	shownTurns,
	statusText,
	step,
} from "../../src/core/session.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const DAY = 24 * 60 * MINUTE;
const SPENT = "Timebox: budget spent";
const WRAP_UP = [
	"Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.",
	"When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished.",
];

const threeTurns = budget({ turnLimit: 3, onStopCommand: "lmk" });
const fiveTurns = budget({ turnLimit: 5 });
const tenMinutes = budget({ timeLimitMs: 10 * MINUTE });

const set = (args: string, newBudgetId = "b1"): SessionEvent => ({ type: "command", args, newBudgetId });
const call = (prompt: string | null): SessionEvent => ({ type: "modelCall", prompt });
const tool = (prompt: string | null = null): SessionEvent => ({ type: "toolCall", prompt });
const RUN_END: SessionEvent = { type: "runEnd" };
const TIME_CHECK: SessionEvent = { type: "timeCheck" };

/** A session with this budget in force. */
function withBudget(b: TimeboxBudget, more: Partial<SessionState> = {}): SessionState {
	return { ...EMPTY_SESSION, budget: b, ...more };
}

/** Feeds events in order, all at `now`, and returns the state they leave. */
function play(state: SessionState, events: readonly SessionEvent[], now = START): SessionState {
	return events.reduce((current, event) => step(current, event, now).state, state);
}

/** The stop notice when nothing was running: there was nothing to stop. */
function idleSpentText(usedTurns: number, elapsed: string): string {
	return `Timebox budget spent. Used ${usedTurns} ${usedTurns === 1 ? "turn" : "turns"}, ${elapsed}, while the agent was idle. The chat continues.`;
}

function spentText(usedTurns: number, elapsed: string): string {
	return `Timebox budget spent. Used ${usedTurns} ${usedTurns === 1 ? "turn" : "turns"}, ${elapsed}. The agent stops for this turn. The chat continues.`;
}

/** The blocks a model call carries to the model. */
function contextOf(effects: readonly Effect[]): Extract<Effect, { kind: "context" }>[] {
	return effects.filter((effect): effect is Extract<Effect, { kind: "context" }> => effect.kind === "context");
}

/** A ledger claim and what only its first claimant carries out. */
function once(claim: LedgerClaim, then: Effect[] = []): Effect {
	return { kind: "once", claim, then };
}

function stopEffects(
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
	if (onStop !== null) announce.push({ kind: "runOnStop", command: onStop });
	const effects: Effect[] = [
		{ kind: "status", text: SPENT },
		once({ kind: "spent", budgetId: "budget-1", summary, prompt }, announce),
		{ kind: "abort" },
	];
	if (refuse) effects.push({ kind: "refuse", reason: message });
	return effects;
}

function warning(message: string): Effect {
	return once({ kind: "nudged", budgetId: "budget-1" }, [{ kind: "notify", message, level: "warning" }]);
}

function loadEvent(
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
function notices(effects: readonly Effect[]): string[] {
	return effects.flatMap((effect) => {
		if (effect.kind === "notify") return [effect.message];
		return effect.kind === "once" ? notices(effect.then) : [];
	});
}

describe("commands", () => {
	it("sets a budget: appends its record, shows the status and confirms it", () => {
		const result = step(EMPTY_SESSION, set("15m turns:3 -- lmk"), START);
		const set15 = { id: "b1", timeLimitMs: 15 * MINUTE, turnLimit: 3, startTime: START, onStopCommand: "lmk" };
		expect(result.state).toEqual({ ...EMPTY_SESSION, budget: set15 });
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "active", budget: { version: 2, ...set15 } } },
			{ kind: "status", text: "Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)" },
			{ kind: "notify", message: "Timebox set: 15m and 3 turns. On stop it runs: lmk", level: "info" },
		]);
	});

	it("replaces an active budget: the count and the warning start over from the new start time", () => {
		const before = withBudget(tenMinutes, { usedTurns: 4, nudged: true, lastPrompt: "p4" });
		const result = step(before, set("turns:2", "b2"), START + 9 * MINUTE);
		const replacement = {
			id: "b2",
			timeLimitMs: null,
			turnLimit: 2,
			startTime: START + 9 * MINUTE,
			onStopCommand: null,
		};
		expect(result.state).toEqual({ ...EMPTY_SESSION, budget: replacement, lastPrompt: "p4" });
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "active", budget: { version: 2, ...replacement } } },
			{ kind: "status", text: "Timebox: no time limit | 2 turns left (0/2)" },
			{ kind: "notify", message: "Timebox set: 2 turns. It replaces the previous budget.", level: "info" },
		]);
	});

	it("sets a new budget after a spent one without calling it a replacement, and lets the stopped prompt run", () => {
		const spent = withBudget(threeTurns, {
			usedTurns: 3,
			lastPrompt: "p4",
			spent: { usedTurns: 3, elapsedMs: 0, timeRanOut: false },
			stoppedPrompt: "p4",
		});
		const result = step(spent, set("turns:5", "b2"), START);
		expect(result.state).toMatchObject({ usedTurns: 0, spent: null, stoppedPrompt: null, lastPrompt: "p4" });
		expect(notices(result.effects)).toEqual(["Timebox set: 5 turns."]);
		expect(step(result.state, call("p4"), START).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 5 turns left (0/5)" },
		]);
	});

	it("does not count the prompt running when the budget is set, through its whole run", () => {
		const running = play(EMPTY_SESSION, [call("p1")]);
		const afterSet = step(running, set("turns:2"), START).state;
		expect(afterSet).toMatchObject({ usedTurns: 0, running: true, runningCounted: false, lastPrompt: "p1" });
		const answered = play(afterSet, [call("p1"), tool(), call(null)]);
		expect(answered.usedTurns).toBe(0);
		expect(step(answered, RUN_END, START).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 2 turns left (0/2)" },
		]);
	});

	it("does not count the prompt running when a budget replaces another during it", () => {
		const counted = withBudget(fiveTurns, { usedTurns: 3, lastPrompt: "p3", running: true, runningCounted: true });
		const replaced = play(counted, [set("turns:2"), RUN_END]);
		expect(statusText(replaced, START)).toBe("Timebox: no time limit | 2 turns left (0/2)");
	});

	it("turns an active budget off: appends the off record, claims off everywhere and clears the status", () => {
		const active = withBudget(tenMinutes, { usedTurns: 2, nudged: true, lastPrompt: "p2" });
		const result = step(active, set("off"), START + MINUTE);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p2" });
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "off", version: 2, budgetId: "budget-1", disabledAt: START + MINUTE } },
			once({ kind: "off", budgetId: "budget-1" }),
			{ kind: "status", text: undefined },
			{ kind: "notify", message: "Timebox off.", level: "info" },
		]);
	});

	it("turns a budget off during a counted prompt: that prompt no longer counts, and a new budget starts at 0", () => {
		const running = play(withBudget(threeTurns), [call("p1")]);
		const off = step(running, set("off"), START).state;
		expect(off).toMatchObject({ running: true, runningCounted: false, usedTurns: 0 });
		expect(shownTurns(off)).toBe(0);
		expect(statusText(step(off, set("turns:2"), START).state, START)).toBe(
			"Timebox: no time limit | 2 turns left (0/2)",
		);
	});

	it("turns a spent budget off and forgets its stopped prompt", () => {
		const spent = withBudget(threeTurns, {
			lastPrompt: "p4",
			spent: { usedTurns: 3, elapsedMs: 0, timeRanOut: false },
			stoppedPrompt: "p4",
		});
		const result = step(spent, set("cancel"), START);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p4" });
		expect(result.effects[0]).toEqual({
			kind: "append",
			record: { kind: "off", version: 2, budgetId: "budget-1", disabledAt: START },
		});
		expect(step(result.state, call("p4"), START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it.each(["off", "disable", "cancel"])("answers %j without a budget: nothing to turn off, nothing written", (word) => {
		const result = step(EMPTY_SESSION, set(word), START);
		expect(result.state).toBe(EMPTY_SESSION);
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{ kind: "notify", message: "No active timebox.", level: "info" },
		]);
	});

	it.each([
		["without a budget", EMPTY_SESSION, START, undefined, "No active timebox."],
		[
			"with what is left and the on-stop command",
			withBudget(budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5, onStopCommand: "lmk" }), { usedTurns: 2 }),
			START + 146_000,
			"Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)",
			"Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)\nOn stop it runs: lmk",
		],
		[
			"mid-run without the prompt being answered",
			withBudget(fiveTurns, { usedTurns: 2, lastPrompt: "p2", running: true, runningCounted: true }),
			START,
			"Timebox: no time limit | 4 turns left (1/5)",
			"Timebox: no time limit | 4 turns left (1/5)",
		],
		[
			"after the stop with what was used",
			withBudget(threeTurns, { usedTurns: 3, spent: { usedTurns: 3, elapsedMs: 61_000, timeRanOut: false } }),
			START,
			SPENT,
			"Timebox budget spent. Used 3 turns, 1m 1s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.",
		],
	])("answers status %s", (_name, state, now, status, reply) => {
		const result = step(state, set(" status "), now);
		expect(result.state).toBe(state);
		expect(result.effects).toEqual([
			{ kind: "status", text: status },
			{ kind: "notify", message: reply, level: "info" },
		]);
	});

	it("warns about invalid input with the reason and the usage, and changes nothing", () => {
		const active = withBudget(tenMinutes);
		const result = step(active, set("15x"), START);
		expect(result.state).toBe(active);
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: 10m 0s left (10m budget) | no turn limit" },
			{
				kind: "notify",
				message: `Timebox: "15x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s. Nothing changed.\n${USAGE}`,
				level: "warning",
			},
		]);
	});
});

describe("load, restoring a session (restore mode)", () => {
	const restorable = budget({ timeLimitMs: 15 * MINUTE, onStopCommand: "lmk" });

	it("restores an active budget: shows the status and says what it restored", () => {
		const result = step(EMPTY_SESSION, loadEvent({ budget: restorable, lastPrompt: "p1" }), START + 5 * MINUTE);
		expect(result.state).toEqual({ ...EMPTY_SESSION, budget: restorable, lastPrompt: "p1" });
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: 10m 0s left (15m budget) | no turn limit" },
			{
				kind: "notify",
				message: "Timebox restored: 10m 0s left (15m budget) | no turn limit. On stop it runs: lmk",
				level: "info",
			},
		]);
	});

	it("restores silently when not announcing", () => {
		const result = step(EMPTY_SESSION, loadEvent({ budget: restorable }, { announce: false }), START);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: 15m 0s left (15m budget) | no turn limit" }]);
	});

	it("replaces whatever the session held before", () => {
		const before = withBudget(tenMinutes, { usedTurns: 2, running: true, runningCounted: true, nudged: true });
		const result = step(before, loadEvent({ lastPrompt: "p9" }), START);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p9" });
	});

	it("restores the prompts used, and a re-run of the latest prompt does not count again", () => {
		const result = step(
			EMPTY_SESSION,
			loadEvent({ budget: fiveTurns, usedTurns: 2, lastPrompt: "p2" }, { announce: false }),
			START,
		);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (2/5)" }]);
		const rerun = step(result.state, call("p2"), START);
		expect(rerun.state.usedTurns).toBe(2);
		expect(rerun.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (2/5)" }]);
		expect(step(rerun.state, call("p3"), START).state.usedTurns).toBe(3);
	});

	it.each([
		["past 80% of the time", budget({ timeLimitMs: 20 * MINUTE }), 0, 17 * MINUTE, false, true],
		["at 80% of the turns", fiveTurns, 4, 0, false, true],
		["below 80% when the ledger has the warning", budget({ timeLimitMs: 20 * MINUTE }), 0, MINUTE, true, true],
		["below 80% otherwise", budget({ timeLimitMs: 20 * MINUTE }), 0, MINUTE, false, false],
	])("counts the warning as given %s", (_name, b, usedTurns, elapsed, ledgerNudged, nudged) => {
		const event = loadEvent({ budget: b, usedTurns }, { ledger: { nudged: ledgerNudged } });
		expect(step(EMPTY_SESSION, event, START + elapsed).state.nudged).toBe(nudged);
	});

	it("gives no second warning after restoring past 80%, only the block for the model", () => {
		const restored = step(EMPTY_SESSION, loadEvent({ budget: tenMinutes }), START + 9 * MINUTE).state;
		expect(step(restored, TIME_CHECK, START + 9 * MINUTE + 1_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 59s left (10m budget) | no turn limit" },
		]);
		expect(contextOf(step(restored, call("p1"), START + 9 * MINUTE).effects)).toEqual([
			{
				kind: "context",
				text: [
					"IMPORTANT TIMEBOX WARNING",
					"The user gave this session a budget and it is nearly spent.",
					"Time left: 1m 0s of 10m.",
					...WRAP_UP,
				].join("\n"),
			},
		]);
	});

	it.each([
		["its turns", false, "all 2 turns used"],
		["its time", true, "time ran out"],
	])("does not restore a budget the ledger has as spent (%s): says so, claims nothing again", (_n, timeRanOut, why) => {
		const spentBudget = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 2, onStopCommand: "lmk" });
		const event = loadEvent(
			{ budget: spentBudget, usedTurns: 3, lastPrompt: "p3" },
			{ ledger: { spent: { usedTurns: 2, elapsedMs: MINUTE, timeRanOut, prompt: "p3" } } },
		);
		const result = step(EMPTY_SESSION, event, START + 2 * MINUTE);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p3" });
		expect(result.effects).toEqual([
			{
				kind: "notify",
				message: `Timebox budget of this session was already spent (${why}), so it was not restored. Its on-stop command is not run on restore: lmk`,
				level: "warning",
			},
			{ kind: "status", text: undefined },
		]);
		expect(step(result.state, call("p3"), START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("does not restore a spent budget and says nothing when not announcing", () => {
		const event = loadEvent(
			{ budget: fiveTurns },
			{ announce: false, ledger: { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false, prompt: null } } },
		);
		expect(step(EMPTY_SESSION, event, START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("does not restore a budget whose time ran out while the session was closed, and claims it spent without running anything", () => {
		const closed = budget({ timeLimitMs: MINUTE, onStopCommand: "lmk" });
		const result = step(
			EMPTY_SESSION,
			loadEvent({ budget: closed, usedTurns: 1, lastPrompt: "p1" }),
			START + 2 * MINUTE,
		);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p1" });
		expect(result.effects).toEqual([
			{
				kind: "notify",
				message:
					"Timebox budget of this session was already spent (time ran out), so it was not restored. Its on-stop command is not run on restore: lmk",
				level: "warning",
			},
			once({
				kind: "spent",
				budgetId: "budget-1",
				summary: { usedTurns: 1, elapsedMs: 2 * MINUTE, timeRanOut: true },
				prompt: null,
			}),
			{ kind: "status", text: undefined },
		]);
	});

	it("does not restore a turn budget whose turns are all used, and claims it spent silently when not announcing", () => {
		const result = step(EMPTY_SESSION, loadEvent({ budget: fiveTurns, usedTurns: 5 }, { announce: false }), START);
		expect(result.state.budget).toBeNull();
		expect(result.effects).toEqual([
			once({
				kind: "spent",
				budgetId: "budget-1",
				summary: { usedTurns: 5, elapsedMs: 0, timeRanOut: false },
				prompt: null,
			}),
			{ kind: "status", text: undefined },
		]);
	});

	it.each<LoadMode>(["restore", "continue"])("brings nothing back when the ledger has the budget off (%s)", (mode) => {
		const event = loadEvent({ budget: restorable, usedTurns: 1, lastPrompt: "p1" }, { mode, ledger: { off: true } });
		const result = step(EMPTY_SESSION, event, START);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p1" });
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("starts without a budget from a history without one, keeping its latest prompt", () => {
		const result = step(EMPTY_SESSION, loadEvent({ lastPrompt: "p7" }), START);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p7" });
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("warns that the newest record was unreadable first, when announcing", () => {
		const unreadable = { kind: "notify", message: UNUSABLE_RECORD, level: "warning" } as const;
		expect(step(EMPTY_SESSION, loadEvent({ newestUnusable: true }), START).effects).toEqual([
			unreadable,
			{ kind: "status", text: undefined },
		]);
		expect(notices(step(EMPTY_SESSION, loadEvent({ budget: fiveTurns, newestUnusable: true }), START).effects)).toEqual(
			[UNUSABLE_RECORD, "Timebox restored: no time limit | 5 turns left (0/5)."],
		);
		expect(step(EMPTY_SESSION, loadEvent({ newestUnusable: true }, { announce: false }), START).effects).toEqual([
			{ kind: "status", text: undefined },
		]);
	});
});

describe("load, continuing a session (continue mode)", () => {
	const oneMinute = budget({ timeLimitMs: MINUTE });

	it.each([
		["the latest prompt by name", "p2" as string | null, true, 1],
		["the latest prompt as null", null, true, 1],
		["an older prompt", "p1", false, 2],
	])("runs %s without counting it against itself while it runs", (_name, runningPrompt, running, shown) => {
		const history = { budget: threeTurns, usedTurns: 2, lastPrompt: "p2", lastPromptCounted: true };
		const result = step(EMPTY_SESSION, loadEvent(history, { mode: "continue", runningPrompt }), START);
		expect(result.state).toMatchObject({ running, runningCounted: running, usedTurns: 2 });
		expect(shownTurns(result.state)).toBe(shown);
	});

	it("runs nothing when the host names the latest prompt and the history has none", () => {
		const history = { budget: threeTurns, usedTurns: 0, lastPrompt: null };
		const result = step(EMPTY_SESSION, loadEvent(history, { mode: "continue", runningPrompt: null }), START);
		expect(result.state).toMatchObject({ running: false, runningCounted: false });
	});

	it("runs a latest prompt sent before the budget without taking it off the count", () => {
		const history = { budget: threeTurns, usedTurns: 0, lastPrompt: "p0", lastPromptCounted: false };
		const result = step(EMPTY_SESSION, loadEvent(history, { mode: "continue", runningPrompt: null }), START);
		expect(result.state).toMatchObject({ running: true, runningCounted: false });
		expect(shownTurns(result.state)).toBe(0);
	});

	it("keeps a budget past its limit and leaves the stop to the next event", () => {
		const event = loadEvent({ budget: oneMinute, usedTurns: 1, lastPrompt: "p1" }, { mode: "continue" });
		const result = step(EMPTY_SESSION, event, START + 2 * MINUTE);
		expect(result.state).toEqual({ ...EMPTY_SESSION, budget: oneMinute, usedTurns: 1, lastPrompt: "p1" });
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: 0s left (1m budget) | no turn limit" },
			{ kind: "notify", message: "Timebox restored: 0s left (1m budget) | no turn limit.", level: "info" },
		]);
		expect(step(result.state, TIME_CHECK, START + 2 * MINUTE).effects).toEqual(
			stopEffects({ usedTurns: 1, elapsedMs: 2 * MINUTE, timeRanOut: true }, "p1", "2m 0s", null, false, true),
		);
	});

	it("keeps a turn budget whose turns are all used, so the next prompt is stopped", () => {
		const event = loadEvent({ budget: fiveTurns, usedTurns: 5, lastPrompt: "p5" }, { mode: "continue" });
		const { state } = step(EMPTY_SESSION, event, START);
		expect(step(state, call("p6"), START).effects).toEqual(
			stopEffects({ usedTurns: 5, elapsedMs: 0, timeRanOut: false }, "p6", "0s", null, true),
		);
	});

	it("continues silently when not announcing", () => {
		const event = loadEvent({ budget: oneMinute }, { mode: "continue", announce: false });
		expect(step(EMPTY_SESSION, event, START).effects).toEqual([
			{ kind: "status", text: "Timebox: 1m 0s left (1m budget) | no turn limit" },
		]);
	});

	it("keeps a spent budget spent with its stopped prompt, and announces nothing", () => {
		const spent = { usedTurns: 3, elapsedMs: MINUTE, timeRanOut: false, prompt: "p4" };
		const event = loadEvent(
			{ budget: threeTurns, usedTurns: 4, lastPrompt: "p4" },
			{ mode: "continue", ledger: { spent } },
		);
		const result = step(EMPTY_SESSION, event, START + 2 * MINUTE);
		expect(result.state).toEqual({
			...EMPTY_SESSION,
			budget: threeTurns,
			usedTurns: 4,
			lastPrompt: "p4",
			spent,
			stoppedPrompt: "p4",
		});
		expect(result.effects).toEqual([{ kind: "status", text: SPENT }]);
		const refusal = [{ kind: "abort" }, { kind: "refuse", reason: spentText(3, "1m 0s") }];
		expect(step(result.state, call("p4"), START).effects).toEqual(refusal);
		expect(step(result.state, call(null), START).effects).toEqual(refusal);
		expect(step(result.state, call("p5"), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});

	it.each([
		[false, false],
		[true, true],
	])("takes the warning from the ledger alone (ledger: %s)", (ledgerNudged, nudged) => {
		const event = loadEvent({ budget: tenMinutes }, { mode: "continue", ledger: { nudged: ledgerNudged } });
		const { state } = step(EMPTY_SESSION, event, START + 9 * MINUTE);
		expect(state.nudged).toBe(nudged);
	});
});

describe("what each model call carries", () => {
	it.each([
		["without a budget", EMPTY_SESSION],
		[
			"once the budget is spent",
			withBudget(fiveTurns, { usedTurns: 5, spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }),
		],
		["below 80%", withBudget(fiveTurns, { usedTurns: 3 })],
		["for a prompt past the turn limit, which its model call stops", withBudget(fiveTurns, { usedTurns: 5 })],
	])("adds nothing %s", (_name, state) => {
		expect(contextOf(step(state, call("p9"), START).effects)).toEqual([]);
	});

	it("warns once at 80% and gives the model the warning block", () => {
		const result = step(withBudget(fiveTurns, { usedTurns: 4 }), call("p5"), START);
		expect(result.state.nudged).toBe(true);
		expect(result.effects).toEqual([
			warning("Timebox: 1 prompt left of 5 — the model is asked to wrap up."),
			{ kind: "status", text: "Timebox: no time limit | 1 turn left (4/5)" },
			{
				kind: "context",
				text: [
					"IMPORTANT TIMEBOX WARNING",
					"The user gave this session a budget and it is nearly spent.",
					"Turns: this is the last prompt the budget allows (4 of 5 used).",
					...WRAP_UP,
				].join("\n"),
			},
		]);
	});

	it("warns on time at 80% and tells the model the time left", () => {
		const result = step(withBudget(tenMinutes), call("p1"), START + 8 * MINUTE);
		expect(result.effects).toEqual([
			warning("Timebox: 2m 0s left of 10m — the model is asked to wrap up."),
			{ kind: "status", text: "Timebox: 2m 0s left (10m budget) | no turn limit" },
			{
				kind: "context",
				text: [
					"IMPORTANT TIMEBOX WARNING",
					"The user gave this session a budget and it is nearly spent.",
					"Time left: 2m 0s of 10m.",
					...WRAP_UP,
				].join("\n"),
			},
		]);
	});

	it("gives every later call the block as it stands then, and no second warning", () => {
		const nudged = withBudget(tenMinutes, { nudged: true, lastPrompt: "p1", running: true });
		const first = step(nudged, call(null), START + 8 * MINUTE);
		const later = step(first.state, call(null), START + 9 * MINUTE + 30_000);
		expect(notices([...first.effects, ...later.effects])).toEqual([]);
		expect(contextOf(first.effects)[0]?.text.split("\n").slice(0, 3)).toEqual([
			"IMPORTANT TIMEBOX WARNING",
			"The user gave this session a budget and it is nearly spent.",
			"Time left: 2m 0s of 10m.",
		]);
		expect(contextOf(later.effects)[0]?.text.split("\n").slice(0, 3)).toEqual([
			"CRITICAL TIMEBOX WARNING",
			"The user gave this session a budget and it is nearly spent.",
			"Time left: 30s of 10m.",
		]);
	});

	it("gives the calls of a run that crossed 80% midway the block from the crossing on", () => {
		let state = step(withBudget(tenMinutes), call("p1"), START).state;
		const carried: boolean[] = [];
		for (const at of [7 * MINUTE, 7 * MINUTE + 59_000, 8 * MINUTE, 9 * MINUTE]) {
			const result = step(state, call(null), START + at);
			state = result.state;
			carried.push(contextOf(result.effects).length === 1);
		}
		expect(carried).toEqual([false, false, true, true]);
	});

	it.each([
		[16, true, "IMPORTANT TIMEBOX WARNING"],
		[18, true, "IMPORTANT TIMEBOX WARNING"],
		[19, true, "CRITICAL TIMEBOX WARNING"],
		[19, false, "CRITICAL TIMEBOX WARNING"],
	])("heads the block after %d of 20 turns (warned before: %s) with %j", (usedTurns, nudged, heading) => {
		const result = step(withBudget(budget({ turnLimit: 20 }), { usedTurns, nudged }), call("next"), START);
		expect(contextOf(result.effects)[0]?.text.split("\n")[0]).toBe(heading);
	});

	it("warns critically when the first warning comes from 95%", () => {
		const result = step(withBudget(budget({ turnLimit: 20 }), { usedTurns: 19 }), call("p20"), START);
		expect(notices(result.effects)).toEqual(["Timebox: 1 prompt left of 20 — the model is asked to wrap up now."]);
	});

	it("measures a model call of a running prompt without that prompt", () => {
		const running = withBudget(fiveTurns, { usedTurns: 5, lastPrompt: "p5", running: true, runningCounted: true });
		expect(contextOf(step(running, call(null), START).effects)[0]?.text).toContain(
			"Turns: this is the last prompt the budget allows (4 of 5 used).",
		);
	});

	it("gives every call a line with what is left when the budget says aware, and the block from 80%", () => {
		const aware = withBudget(budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5, awareness: "always" }), {
			usedTurns: 2,
		});
		const first = step(aware, call("p3"), START + 5 * MINUTE + 48_000);
		expect(contextOf(first.effects)).toEqual([
			{ kind: "context", text: "Timebox: 9m 12s and 3 prompts left of 15m / 5 prompts." },
		]);
		const late = step(first.state, call(null), START + 12 * MINUTE);
		expect(contextOf(late.effects)[0]?.text.split("\n")[0]).toBe("IMPORTANT TIMEBOX WARNING");
	});

	it("takes awareness from the session's setting when the budget does not say", () => {
		const state = withBudget(tenMinutes, { settings: { awareness: "always" } });
		expect(contextOf(step(state, call("p1"), START).effects)).toEqual([
			{ kind: "context", text: "Timebox: 10m 0s left of 10m." },
		]);
		const turnsOnly = withBudget(fiveTurns, { settings: { awareness: "always" } });
		expect(contextOf(step(turnsOnly, call("p1"), START).effects)).toEqual([
			{ kind: "context", text: "Timebox: 5 prompts left of 5 prompts." },
		]);
	});

	it("says in the block that tools are refused and the model may finish, when the budget has a grace period", () => {
		const graced = withBudget({ ...tenMinutes, graceMs: 30_000 });
		expect(
			contextOf(step(graced, call("p1"), START + 9 * MINUTE).effects)[0]
				?.text.split("\n")
				.at(-1),
		).toBe("When the budget runs out, your tool calls are refused and you have 30s to write the final answer.");
	});

	it("adds nothing to a tool call, and nothing to a call while paused", () => {
		const state = withBudget(budget({ timeLimitMs: 10 * MINUTE, awareness: "always" }), {
			lastPrompt: "p1",
			running: true,
		});
		expect(contextOf(step(state, tool(), START + 9 * MINUTE).effects)).toEqual([]);
		const paused = withBudget({ ...tenMinutes, awareness: "always", pausedAt: START + 9 * MINUTE });
		expect(contextOf(step(paused, call("p1"), START + 9 * MINUTE).effects)).toEqual([]);
	});
});

describe("modelCall", () => {
	it("lets a prompt run without a budget and remembers it as the latest", () => {
		const result = step(EMPTY_SESSION, call("p1"), START);
		expect(result.state).toEqual({ ...EMPTY_SESSION, lastPrompt: "p1", running: true });
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("counts a new prompt, showing the count without it while it runs", () => {
		const result = step(withBudget(threeTurns), call("p1"), START);
		expect(result.state).toEqual({
			...EMPTY_SESSION,
			budget: threeTurns,
			usedTurns: 1,
			lastPrompt: "p1",
			running: true,
			runningCounted: true,
		});
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" }]);
	});

	it("never counts the same prompt again: its tool loop, retry or re-run goes on", () => {
		const running = play(withBudget(threeTurns), [call("p1")]);
		const again = step(running, call("p1"), START);
		expect(again.state).toEqual(running);
		expect(again.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" }]);
		const rerun = step(play(running, [RUN_END]), call("p1"), START);
		expect(rerun.state).toMatchObject({ usedTurns: 1, running: true });
		expect(rerun.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" }]);
	});

	it("takes a call without a prompt for the latest prompt", () => {
		const answered = play(withBudget(threeTurns), [call("p1"), RUN_END]);
		const result = step(answered, call(null), START);
		expect(result.state).toMatchObject({ usedTurns: 1, lastPrompt: "p1", running: true });
	});

	it("counts a run without any prompt once, however many model calls it makes", () => {
		let state = withBudget(threeTurns);
		for (let calls = 0; calls < 4; calls++) state = step(state, call(null), START).state;
		expect(state).toMatchObject({ usedTurns: 1, running: true, runningCounted: true, spent: null });
		expect(statusText(state, START)).toBe("Timebox: no time limit | 3 turns left (0/3)");
	});

	it("warns when a new prompt reaches 80%, counting it", () => {
		const result = step(withBudget(fiveTurns, { usedTurns: 4, lastPrompt: "p4" }), call("p5"), START);
		expect(result.state).toMatchObject({ usedTurns: 5, nudged: true, runningCounted: true });
		expect(result.effects).toEqual([
			warning("Timebox: 1 prompt left of 5 — the model is asked to wrap up."),
			{ kind: "status", text: "Timebox: no time limit | 1 turn left (4/5)" },
			{ kind: "context", text: expect.stringContaining("IMPORTANT TIMEBOX WARNING") },
		]);
	});

	it("stops prompt N+1 of turns:N without counting it: says so, runs the on-stop command, aborts and refuses", () => {
		const allUsed = withBudget(threeTurns, { usedTurns: 3, lastPrompt: "p3", runningCounted: true });
		const result = step(allUsed, call("p4"), START + MINUTE);
		const summary = { usedTurns: 3, elapsedMs: MINUTE, timeRanOut: false };
		expect(result.state).toEqual({
			...allUsed,
			lastPrompt: "p4",
			running: true,
			runningCounted: false,
			spent: summary,
			stoppedPrompt: "p4",
		});
		expect(result.effects).toEqual(stopEffects(summary, "p4", "1m 0s", "lmk", true));
	});

	it("stops without an on-stop command by notifying alone", () => {
		const result = step(withBudget(fiveTurns, { usedTurns: 5 }), call("p6"), START);
		expect(result.effects).toEqual(
			stopEffects({ usedTurns: 5, elapsedMs: 0, timeRanOut: false }, "p6", "0s", null, true),
		);
	});

	it("stops a new prompt when the time ran out before any check saw it", () => {
		const result = step(withBudget(budget({ timeLimitMs: 5 * MINUTE, turnLimit: 9 })), call("p1"), START + 6 * MINUTE);
		expect(result.effects).toEqual(
			stopEffects({ usedTurns: 0, elapsedMs: 6 * MINUTE, timeRanOut: true }, "p1", "6m 0s", null, true),
		);
	});

	it("stops the running prompt at its next call once the time ran out, aborting and refusing the call", () => {
		const running = play(withBudget(budget({ timeLimitMs: MINUTE })), [call("p1")]);
		const result = step(running, call("p1"), START + MINUTE);
		expect(result.state).toMatchObject({ stoppedPrompt: "p1", spent: { timeRanOut: true } });
		expect(result.effects).toEqual(
			stopEffects({ usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true }, "p1", "1m 0s", null, true),
		);
	});

	it("aborts and refuses every later call for the stopped prompt, by key or as the latest", () => {
		const stopped = play(withBudget(threeTurns, { usedTurns: 3 }), [call("p4")], START + MINUTE);
		const refusal = [{ kind: "abort" }, { kind: "refuse", reason: spentText(3, "1m 0s") }];
		expect(step(stopped, call("p4"), START + 5 * MINUTE).effects).toEqual(refusal);
		expect(step(stopped, call(null), START).effects).toEqual(refusal);
		const rerun = step(play(stopped, [RUN_END]), call("p4"), START);
		expect(rerun.effects).toEqual(refusal);
		expect(rerun.state).toMatchObject({ running: true, usedTurns: 3 });
	});

	it("after the stop, runs a new prompt normally without counting it", () => {
		const stopped = play(withBudget(threeTurns, { usedTurns: 3 }), [call("p4"), RUN_END]);
		const next = step(stopped, call("p5"), START);
		expect(next.state).toMatchObject({ lastPrompt: "p5", running: true, runningCounted: false, usedTurns: 3 });
		expect(next.effects).toEqual([{ kind: "status", text: SPENT }]);
		expect(step(next.state, call("p5"), START).effects).toEqual([{ kind: "status", text: SPENT }]);
		expect(step(next.state, tool(), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});
});

describe("toolCall", () => {
	it("lets a tool run while the budget holds, refreshing the status", () => {
		const running = play(withBudget(tenMinutes), [call("p1")]);
		const result = step(running, tool(), START + MINUTE);
		expect(result.state).toBe(running);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: 9m 0s left (10m budget) | no turn limit" }]);
	});

	it("lets a tool run after a stop that found no prompt to stop", () => {
		const spent = { usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true };
		const state = withBudget(tenMinutes, { spent, stoppedPrompt: null });
		expect(step(state, tool(null), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});

	it("lets a tool run without a budget", () => {
		expect(step(EMPTY_SESSION, tool("p1"), START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("refuses a tool of the stopped prompt, by key or as the latest", () => {
		const stopped = play(withBudget(threeTurns, { usedTurns: 3 }), [call("p4")]);
		const refusal = [{ kind: "abort" }, { kind: "refuse", reason: spentText(3, "0s") }];
		expect(step(stopped, tool(), START).effects).toEqual(refusal);
		expect(step(stopped, tool("p4"), START).effects).toEqual(refusal);
		expect(step(stopped, tool("p3"), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});

	it("stops at the deadline and refuses the tool", () => {
		const withCommand = budget({ timeLimitMs: MINUTE, onStopCommand: "lmk" });
		const running = play(withBudget(withCommand), [call("p1")]);
		const result = step(running, tool(), START + MINUTE);
		const summary = { usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true };
		expect(result.state).toMatchObject({ spent: summary, stoppedPrompt: "p1" });
		expect(result.effects).toEqual(stopEffects(summary, "p1", "1m 0s", "lmk", true));
	});

	it("stops the prompt the tool belongs to when it is not the latest, so that prompt's next tool is refused", () => {
		const running = play(withBudget(budget({ timeLimitMs: MINUTE })), [call("p1"), call("p2")]);
		const result = step(running, tool("p1"), START + MINUTE);
		expect(result.state).toMatchObject({ stoppedPrompt: "p1" });
		expect(step(result.state, tool("p1"), START + MINUTE).effects).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(1, "1m 0s") },
		]);
	});

	it("leaves the turn limit to prompts", () => {
		const allUsed = play(withBudget(fiveTurns, { usedTurns: 4, nudged: true }), [call("p5")]);
		expect(step(allUsed, tool(), START).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 1 turn left (4/5)" },
		]);
	});
});

describe("runEnd", () => {
	it("shows the answered prompt in the count", () => {
		const running = withBudget(threeTurns, { usedTurns: 2, lastPrompt: "p2", running: true, runningCounted: true });
		expect(statusText(running, START)).toBe("Timebox: no time limit | 2 turns left (1/3)");
		const result = step(running, RUN_END, START);
		expect(result.state).toEqual({ ...running, running: false });
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 1 turn left (2/3)" }]);
	});

	it.each([
		["without a budget", EMPTY_SESSION, undefined],
		["once spent", withBudget(fiveTurns, { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }), SPENT],
	])("shows the status %s", (_name, state, text) => {
		expect(step(state, RUN_END, START).effects).toEqual([{ kind: "status", text }]);
	});
});

describe("timeCheck", () => {
	it("refreshes the status below 80%", () => {
		const active = withBudget(tenMinutes);
		const result = step(active, TIME_CHECK, START + MINUTE);
		expect(result.state).toBe(active);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: 9m 0s left (10m budget) | no turn limit" }]);
	});

	it("warns at 80% once, even while idle", () => {
		const result = step(withBudget(tenMinutes), TIME_CHECK, START + 8 * MINUTE);
		expect(result.state.nudged).toBe(true);
		expect(result.effects).toEqual([
			warning("Timebox: 2m 0s left of 10m — the model is asked to wrap up."),
			{ kind: "status", text: "Timebox: 2m 0s left (10m budget) | no turn limit" },
		]);
		expect(step(result.state, TIME_CHECK, START + 8 * MINUTE + 1_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 1m 59s left (10m budget) | no turn limit" },
		]);
	});

	it("warns critically when the first check comes after 95%", () => {
		const result = step(withBudget(tenMinutes), TIME_CHECK, START + 9.6 * MINUTE);
		expect(notices(result.effects)).toEqual(["Timebox: 24s left of 10m — the model is asked to wrap up now."]);
	});

	it("stops at 100%, recording the latest prompt as stopped, with nothing to refuse", () => {
		const idle = withBudget(budget({ timeLimitMs: 10 * MINUTE, onStopCommand: "lmk" }), {
			usedTurns: 2,
			lastPrompt: "p2",
			nudged: true,
		});
		const result = step(idle, TIME_CHECK, START + 10 * MINUTE);
		const summary = { usedTurns: 2, elapsedMs: 10 * MINUTE, timeRanOut: true };
		expect(result.state).toEqual({ ...idle, spent: summary, stoppedPrompt: "p2" });
		expect(result.effects).toEqual(stopEffects(summary, "p2", "10m 0s", "lmk", false, true));
		expect(step(result.state, call("p2"), START).effects).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(2, "10m 0s") },
		]);
		expect(step(result.state, call("p3"), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});

	it("stops with no prompt to record when none was sent", () => {
		const result = step(withBudget(tenMinutes), TIME_CHECK, START + 11 * MINUTE);
		expect(result.state.stoppedPrompt).toBeNull();
		expect(result.effects[1]).toMatchObject({ kind: "once", claim: { kind: "spent", prompt: null } });
	});

	it("leaves the turn limit to prompts: used-up turns are not stopped by the clock", () => {
		const allUsed = withBudget(budget({ turnLimit: 1 }), { usedTurns: 1 });
		expect(step(allUsed, TIME_CHECK, START + DAY).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 0 turns left (1/1)" },
		]);
	});

	it.each([
		["without a budget", EMPTY_SESSION, undefined],
		["once spent", withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } }), SPENT],
	])("only shows the status %s", (_name, state, text) => {
		const result = step(state, TIME_CHECK, START + DAY);
		expect(result.state).toBe(state);
		expect(result.effects).toEqual([{ kind: "status", text }]);
	});
});

describe("onStopReport", () => {
	it.each<[string, OnStopOutcome, string, string]>([
		["started", { kind: "started" }, "Timebox ran the on-stop command: lmk done", "info"],
		[
			"could not start",
			{ kind: "failed", problem: "spawn /bin/sh ENOENT" },
			"Timebox on-stop command failed: spawn /bin/sh ENOENT",
			"warning",
		],
		[
			"exited badly",
			{ kind: "exited", problem: '"lmk done" exited with code 127' },
			'Timebox on-stop command failed: "lmk done" exited with code 127',
			"warning",
		],
	])("tells the user the command %s", (_name, outcome, message, level) => {
		const state = withBudget(tenMinutes);
		const result = step(state, { type: "onStopReport", command: "lmk done", outcome }, START);
		expect(result.state).toBe(state);
		expect(result.effects).toEqual([
			{ kind: "notify", message, level },
			{ kind: "status", text: "Timebox: 10m 0s left (10m budget) | no turn limit" },
		]);
	});

	it("keeps what became of the command in the footer of the spent budget, where no later message hides it", () => {
		const spent = withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 10 * MINUTE, timeRanOut: true } });
		const report = (state: SessionState, outcome: OnStopOutcome) =>
			step(state, { type: "onStopReport", command: "lmk", outcome }, START).state;
		const ran = report(spent, { kind: "started" });
		expect(statusText(ran, START)).toBe("Timebox: budget spent | on-stop command ran");
		const exited = report(ran, { kind: "exited", problem: "exit 1" });
		expect(statusText(exited, START)).toBe("Timebox: budget spent | on-stop command failed");
		expect(statusText(report(exited, { kind: "started" }), START)).toBe(
			"Timebox: budget spent | on-stop command failed",
		);
		expect(statusText(report(spent, { kind: "failed", problem: "E2BIG" }), START)).toBe(
			"Timebox: budget spent | on-stop command failed",
		);
		expect(statusText(step(ran, set("5m"), START).state, START)).toBe(
			"Timebox: 5m 0s left (5m budget) | no turn limit",
		);
		expect(step(ran, set("5m"), START).state.onStopOutcome).toBeUndefined();
	});
});

describe("a whole session", () => {
	it("holds turns:2: two prompts answered with their tool calls, the third stopped, the chat going on", () => {
		const events = [
			set("turns:2 -- lmk"),
			call("p1"),
			tool(),
			call(null),
			RUN_END,
			call("p2"),
			RUN_END,
			call("p3"),
			tool(),
			RUN_END,
			call("p4"),
			tool(),
			RUN_END,
		];
		let state = EMPTY_SESSION;
		const effects: Effect[] = [];
		for (const event of events) {
			const result = step(state, event, START);
			state = result.state;
			effects.push(...result.effects);
		}
		expect(notices(effects)).toEqual(["Timebox set: 2 turns. On stop it runs: lmk", spentText(2, "0s")]);
		expect(effects.flatMap((effect) => (effect.kind === "status" ? [effect.text] : []))).toEqual([
			"Timebox: no time limit | 2 turns left (0/2)",
			"Timebox: no time limit | 2 turns left (0/2)",
			"Timebox: no time limit | 2 turns left (0/2)",
			"Timebox: no time limit | 2 turns left (0/2)",
			"Timebox: no time limit | 1 turn left (1/2)",
			"Timebox: no time limit | 1 turn left (1/2)",
			"Timebox: no time limit | 0 turns left (2/2)",
			SPENT,
			SPENT,
			SPENT,
			SPENT,
			SPENT,
		]);
		expect(effects.filter((effect) => effect.kind === "refuse" || effect.kind === "abort")).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(2, "0s") },
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(2, "0s") },
		]);
		expect(state).toMatchObject({ usedTurns: 2, lastPrompt: "p4", stoppedPrompt: "p3", running: false });
	});
});

describe("nextTimeCheckIn", () => {
	it.each([
		["the 80% point first", tenMinutes, START, 8 * MINUTE],
		["the 80% point from part way", tenMinutes, START + MINUTE, 7 * MINUTE],
		["the 95% point after 80%", tenMinutes, START + 8 * MINUTE, 1.5 * MINUTE],
		["the 100% point after 95%", tenMinutes, START + 9.5 * MINUTE, 0.5 * MINUTE],
		["at least 1 ms at the limit", tenMinutes, START + 10 * MINUTE, 1],
		["at least 1 ms past the limit", tenMinutes, START + 12 * MINUTE, 1],
		["whole milliseconds, rounded up", budget({ timeLimitMs: 1_001 }), START, 801],
		["the 80% point when the clock went back", tenMinutes, START - MINUTE, 8 * MINUTE],
		["no more than a timer holds", budget({ timeLimitMs: 40 * DAY }), START, MAX_TIMER_DELAY_MS],
	])("asks for %s", (_name, b, now, delay) => {
		expect(nextTimeCheckIn(withBudget(b), now)).toBe(delay);
	});

	it.each([
		["without a budget", EMPTY_SESSION],
		["without a time limit", withBudget(fiveTurns)],
		["once spent", withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } })],
	])("asks for nothing %s", (_name, state) => {
		expect(nextTimeCheckIn(state, START)).toBeNull();
	});
});

describe("what a session shows", () => {
	it.each([
		[3, false, false, 3],
		[3, true, true, 2],
		[3, true, false, 3],
		[3, false, true, 3],
	])("shows %d used (running: %s, counted: %s) as %d", (usedTurns, running, runningCounted, shown) => {
		expect(shownTurns({ ...EMPTY_SESSION, usedTurns, running, runningCounted })).toBe(shown);
	});

	it.each([
		["no budget", EMPTY_SESSION, false],
		["an active budget", withBudget(fiveTurns), true],
		["a spent budget", withBudget(fiveTurns, { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }), false],
	])("counts %s as active: %s", (_name, state, active) => {
		expect(isActive(state)).toBe(active);
	});

	it.each([
		["nothing without a budget", EMPTY_SESSION, undefined],
		[
			"the spent marker once spent",
			withBudget(fiveTurns, { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }),
			SPENT,
		],
		[
			"what is left, without the prompt being answered",
			withBudget(fiveTurns, { usedTurns: 2, running: true, runningCounted: true }),
			"Timebox: no time limit | 4 turns left (1/5)",
		],
	])("shows %s", (_name, state, text) => {
		expect(statusText(state, START)).toBe(text);
	});
});

describe("extend, pause and resume", () => {
	const info = (message: string): Effect => ({ kind: "notify", message, level: "info" });
	const record = (b: TimeboxBudget, turnsBefore = 0): Effect => ({
		kind: "append",
		record: { kind: "active", budget: { version: 2, ...b, ...(turnsBefore > 0 ? { turnsBefore } : {}) } },
	});

	it("extends the time limit and the prompts, and writes the budget again with the prompts used so far", () => {
		const both = budget({ timeLimitMs: 10 * MINUTE, turnLimit: 3 });
		const result = step(withBudget(both, { usedTurns: 2, lastPrompt: "p2" }), set("+5m +turns:2"), START + MINUTE);
		const extended = { ...both, timeLimitMs: 15 * MINUTE, turnLimit: 5, extensions: 1 };
		expect(result.state.budget).toEqual(extended);
		expect(result.effects).toEqual([
			record(extended, 2),
			{ kind: "status", text: "Timebox: 14m 0s left (15m budget) | 3 turns left (2/5)" },
			info("Timebox extended by 5m and 2 turns. Timebox: 14m 0s left (15m budget) | 3 turns left (2/5)"),
		]);
	});

	it("counts added time from now and added prompts from those used, for a dimension without a limit", () => {
		const timeOnly = step(withBudget(threeTurns, { usedTurns: 1 }), set("+10m"), START + 2 * MINUTE).state.budget;
		expect(timeOnly).toMatchObject({ timeLimitMs: 12 * MINUTE, turnLimit: 3 });
		const turnsOnly = step(withBudget(tenMinutes, { usedTurns: 4 }), set("add turns:2"), START).state.budget;
		expect(turnsOnly).toMatchObject({ timeLimitMs: 10 * MINUTE, turnLimit: 6 });
	});

	it("makes a spent budget active again, its warning and stop to come anew under a new ledger name", () => {
		const spent = { usedTurns: 3, elapsedMs: 0, timeRanOut: false };
		const state = withBudget(threeTurns, { usedTurns: 3, nudged: true, spent, stoppedPrompt: "p4", lastPrompt: "p4" });
		const extended = step(state, set("+turns:1"), START).state;
		expect(extended).toMatchObject({ spent: null, stoppedPrompt: null, nudged: false, usedTurns: 3 });
		const stopped = step(step(extended, call("p5"), START).state, call("p6"), START);
		expect(stopped.effects[1]).toMatchObject({ kind: "once", claim: { kind: "spent", budgetId: "budget-1.e1" } });
	});

	it("allows an extension up to the largest budget exactly", () => {
		const upTo = step(withBudget(budget({ timeLimitMs: 29 * DAY })), set("+24h"), START).state.budget;
		expect(upTo?.timeLimitMs).toBe(30 * DAY);
		const turns = step(withBudget(budget({ turnLimit: 999_999 })), set("+turns:1"), START).state.budget;
		expect(turns?.turnLimit).toBe(1_000_000);
	});

	it("names in the reply a word that replaced an earlier one", () => {
		expect(step(EMPTY_SESSION, set("1h 30m"), START).effects.at(-1)).toEqual({
			kind: "notify",
			message: "Timebox set: 30m.\n30m replaces 1h; for the sum, write 1h30m as one word.",
			level: "info",
		});
		expect(step(withBudget(tenMinutes), set("+1m +2m"), START).effects.at(-1)).toEqual({
			kind: "notify",
			message:
				"Timebox extended by 2m. Timebox: 12m 0s left (12m budget) | no turn limit\n2m replaces 1m; for the sum, write 1m2m as one word.",
			level: "info",
		});
	});

	it("refuses an extension past the largest budget and changes nothing", () => {
		const state = withBudget(budget({ timeLimitMs: 29 * DAY }));
		const result = step(state, set("+48h"), START);
		expect(result.state).toBe(state);
		expect(result.effects.at(-1)).toEqual({
			kind: "notify",
			message:
				"Timebox: that extension would pass the largest budget (30 days, 1,000,000 turns, 1,000,000,000 tokens, $10,000). Nothing changed.",
			level: "warning",
		});
		expect(step(withBudget(budget({ turnLimit: 999_999 })), set("+turns:2"), START).effects.at(-1)).toMatchObject({
			level: "warning",
		});
	});

	it("pauses: the clock stands still, the status says so, and nothing is checked or counted", () => {
		const result = step(withBudget(tenMinutes, { usedTurns: 1 }), set("pause"), START + MINUTE);
		const paused = { ...tenMinutes, pausedAt: START + MINUTE };
		expect(result.effects).toEqual([
			record(paused, 1),
			{ kind: "status", text: "Timebox: paused | 9m 0s left (10m budget) | no turn limit" },
			info(
				"Timebox paused: the clock stands still and prompts do not count until /timebox resume.\nTimebox: paused | 9m 0s left (10m budget) | no turn limit",
			),
		]);
		const later = START + 60 * MINUTE;
		expect(statusText(result.state, later)).toBe("Timebox: paused | 9m 0s left (10m budget) | no turn limit");
		expect(nextTimeCheckIn(result.state, later)).toBeNull();
		expect(step(result.state, TIME_CHECK, later).state).toBe(result.state);
		expect(contextOf(step(result.state, call("p2"), later).effects)).toEqual([]);
		expect(step(result.state, call("p2"), later).state).toMatchObject({ usedTurns: 1, spent: null });
	});

	it("resumes where it paused, adding the pause to the time paused before", () => {
		const paused = withBudget({ ...tenMinutes, pausedMs: MINUTE, pausedAt: START + 2 * MINUTE });
		const result = step(paused, set("resume"), START + 30 * MINUTE);
		expect(result.state.budget).toEqual({ ...tenMinutes, pausedMs: 29 * MINUTE });
		expect(result.effects.at(-1)).toEqual(info("Timebox resumed. Timebox: 9m 0s left (10m budget) | no turn limit"));
		const atOnce = step(withBudget({ ...tenMinutes, pausedAt: START }), set("resume"), START).state.budget;
		expect(atOnce).toEqual(tenMinutes);
	});

	it.each([
		["pause", EMPTY_SESSION, "No active timebox."],
		["resume", EMPTY_SESSION, "No active timebox."],
		["resume", withBudget(tenMinutes), "Timebox is not paused."],
		["pause", withBudget({ ...tenMinutes, pausedAt: START }), "Timebox is already paused. /timebox resume goes on."],
		[
			"pause",
			withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } }),
			"Timebox budget is spent: there is nothing to pause. Extend it with /timebox +<budget>.",
		],
		["+10m", EMPTY_SESSION, "No active timebox: nothing to extend. Set one with /timebox <budget>."],
	])("answers %s on %j with a reply and no change", (args, state, message) => {
		const result = step(state, set(args), START);
		expect(result.state).toBe(state);
		expect(result.effects.at(-1)).toEqual(info(message));
	});

	it("keeps the warning given through a pause and a resume, and lets it come again after an extension", () => {
		const warned = withBudget(tenMinutes, { nudged: true });
		const paused = step(warned, set("pause"), START).state;
		expect(paused.nudged).toBe(true);
		expect(step(paused, set("resume"), START).state.nudged).toBe(true);
		expect(step(warned, set("+5m"), START).state.nudged).toBe(false);
	});
});

describe("the ledger name of a budget's outcomes", () => {
	it("is its id, then one name per extension; off stays under the id", () => {
		expect(outcomeId(tenMinutes)).toBe("budget-1");
		expect(outcomeId({ ...tenMinutes, extensions: 2 })).toBe("budget-1.e2");
		const reads: string[] = [];
		const ledger = {
			read(budgetId: string): LedgerView {
				reads.push(budgetId);
				return { spent: null, off: budgetId === "budget-1", nudged: budgetId === "budget-1.e2" };
			},
		};
		expect(readLedger(ledger, { ...tenMinutes, extensions: 2 })).toEqual({ spent: null, off: true, nudged: true });
		expect(reads).toEqual(["budget-1.e2", "budget-1"]);
		expect(readLedger(ledger, tenMinutes)).toEqual({ spent: null, off: true, nudged: false });
	});
});

describe("a default budget for a session new to Timebox", () => {
	const fresh = { budget: null, usedTurns: 0, lastPrompt: null, hasRecords: false };
	const withDefaultEvent = (text: string, history: Partial<FoldedHistory> = fresh): SessionEvent => ({
		...loadEvent(history),
		defaultBudget: { text, source: "PI_TIMEBOX", newBudgetId: "b9" },
	});

	it("sets the default, writes it and says where it came from", () => {
		const result = step(EMPTY_SESSION, withDefaultEvent("30m turns:10 -- lmk"), START);
		const set = { id: "b9", timeLimitMs: 30 * MINUTE, turnLimit: 10, startTime: START, onStopCommand: "lmk" };
		expect(result.state.budget).toEqual(set);
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "active", budget: { version: 2, ...set } } },
			{ kind: "status", text: "Timebox: 30m 0s left (30m budget) | 10 turns left (0/10)" },
			{ kind: "notify", message: "Timebox set from PI_TIMEBOX: 30m and 10 turns. On stop it runs: lmk", level: "info" },
		]);
	});

	it.each([
		[
			"30x",
			'"30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s.',
		],
		["status", '"status" is not a budget.'],
	])("names a bad default %j and sets nothing", (text, reason) => {
		const result = step(EMPTY_SESSION, withDefaultEvent(text), START);
		expect(result.state.budget).toBeNull();
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{
				kind: "notify",
				message: `Timebox: PI_TIMEBOX: ${reason} The session starts without a budget.`,
				level: "warning",
			},
		]);
	});

	it("leaves a session that ever had a budget record alone", () => {
		const result = step(EMPTY_SESSION, withDefaultEvent("30m", { ...fresh, hasRecords: true }), START);
		expect(result.state.budget).toBeNull();
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});
});

describe("asking the user", () => {
	const ask = (result: { effects: Effect[] }) => result.effects.find((effect) => effect.kind === "ask");

	it("asks before a new budget replaces an active one, where the host can ask", () => {
		const active = withBudget(threeTurns, { usedTurns: 1 });
		const event: SessionEvent = { type: "command", args: "5m", newBudgetId: "b2", canAsk: true };
		const result = step(active, event, START + MINUTE);
		expect(result.state).toBe(active);
		expect(result.effects).toEqual([
			{
				kind: "ask",
				question: "Replace the active budget (2 turns left)?",
				choices: [
					{ label: "Replace it", answer: { ...event, confirmed: true } },
					{ label: "Keep it", answer: { type: "declined", message: "Nothing changed: the active budget stays." } },
				],
				timeoutMs: null,
				onTimeout: { type: "declined", message: "Nothing changed: the active budget stays." },
			},
		]);
		expect(step(active, { ...event, confirmed: true }, START).state.budget?.id).toBe("b2");
		expect(step(active, { type: "declined", message: "no" }, START)).toEqual({
			state: active,
			effects: [{ kind: "notify", message: "no", level: "info" }],
		});
	});

	it("replaces without asking where the host cannot ask, or when the budget is spent", () => {
		const active = withBudget(tenMinutes);
		expect(step(active, set("5m"), START).state.budget?.id).toBe("b1");
		const spent = withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } });
		const event: SessionEvent = { type: "command", args: "5m", newBudgetId: "b2", canAsk: true };
		expect(step(spent, event, START).state.budget?.id).toBe("b2");
	});

	describe("at the limit", () => {
		const asking = (b: TimeboxBudget, more: Partial<SessionState> = {}) => withBudget(b, { askAtLimit: true, ...more });

		it("asks instead of stopping: stop now, 5 more minutes or 1 more prompt, stopping after 30 s", () => {
			const result = step(asking(threeTurns, { usedTurns: 3, lastPrompt: "p3" }), call("p4"), START);
			expect(result.state).toMatchObject({ asking: true, spent: null, usedTurns: 3 });
			const question = ask(result);
			expect(question).toMatchObject({
				question: "Timebox budget spent (used 3 turns, 0s). Stop now, or go on with more?",
				timeoutMs: 30_000,
				onTimeout: { type: "limitAnswer", answer: "stop", reached: call("p4") },
			});
			expect(question?.kind === "ask" && question.choices.map((choice) => choice.label)).toEqual([
				"Stop now",
				"+5 minutes",
				"+1 prompt",
			]);
			expect(result.effects).toHaveLength(1);
		});

		it("checks and stops nothing while the question is open", () => {
			const open = asking(tenMinutes, { asking: true });
			for (const event of [TIME_CHECK, call("p9"), tool("p9")]) {
				expect(step(open, event, START + 20 * MINUTE)).toEqual({
					state: open,
					effects: [{ kind: "status", text: "Timebox: 0s left (10m budget) | no turn limit" }],
				});
			}
		});

		it("stops as usual when the user chooses to stop", () => {
			const open = asking(threeTurns, { usedTurns: 3, lastPrompt: "p3", asking: true });
			const result = step(open, { type: "limitAnswer", answer: "stop", reached: call("p4") }, START);
			expect(result.state).toMatchObject({ asking: false, stoppedPrompt: "p4" });
			expect(result.effects).toContainEqual({ kind: "abort" });
		});

		it("goes on with one more prompt: the prompt that reached the limit runs and counts", () => {
			const open = asking(threeTurns, { usedTurns: 3, lastPrompt: "p3", asking: true });
			const result = step(open, { type: "limitAnswer", answer: "turns", reached: call("p4") }, START);
			expect(result.state).toMatchObject({ asking: false, spent: null, usedTurns: 4, lastPrompt: "p4" });
			expect(result.state.budget?.turnLimit).toBe(4);
			expect(result.effects).not.toContainEqual({ kind: "abort" });
		});

		it("goes on with five more minutes, and asks again when time was not what ran out", () => {
			const timeUp = asking(budget({ timeLimitMs: MINUTE }), { lastPrompt: "p1", running: true, asking: true });
			const more = step(timeUp, { type: "limitAnswer", answer: "time", reached: TIME_CHECK }, START + MINUTE);
			expect(more.state).toMatchObject({ asking: false, spent: null });
			expect(more.state.budget?.timeLimitMs).toBe(6 * MINUTE);
			const turnsUp = asking(threeTurns, { usedTurns: 3, lastPrompt: "p3", asking: true });
			const again = step(turnsUp, { type: "limitAnswer", answer: "time", reached: call("p4") }, START);
			expect(again.state).toMatchObject({ asking: true, spent: null });
			expect(ask(again)).toMatchObject({ kind: "ask" });
		});

		it.each([
			["ask", true, true],
			["ask", false, false],
			["stop", true, false],
		])("is on for onLimit %j where the host can ask (%s): %s", (value, canAsk, on) => {
			const event = { ...loadEvent({}), onLimit: { value, source: "settings" }, canAsk };
			expect(step(EMPTY_SESSION, event, START).state.askAtLimit === true).toBe(on);
		});

		it("names an onLimit it does not know, and stops at the limit", () => {
			const event = {
				...loadEvent({}),
				onLimit: { value: "maybe", source: "timebox.onLimit in s.json" },
				canAsk: true,
			};
			const result = step(EMPTY_SESSION, event, START);
			expect(result.state.askAtLimit).toBeUndefined();
			expect(result.effects).toContainEqual({
				kind: "notify",
				message:
					'Timebox: timebox.onLimit in s.json: "maybe" is neither "stop" nor "ask", so Timebox stops at the limit.',
				level: "warning",
			});
		});
	});
});

describe("asking at the limit, in detail", () => {
	const asking = (b: TimeboxBudget, more: Partial<SessionState> = {}) => withBudget(b, { askAtLimit: true, ...more });

	it("names each choice's answer: stop, more time, one more prompt", () => {
		const result = step(asking(threeTurns, { usedTurns: 3, lastPrompt: "p3" }), call("p4"), START);
		const question = result.effects[0];
		expect(question?.kind === "ask" && question.choices.map((choice) => choice.answer)).toEqual([
			{ type: "limitAnswer", answer: "stop", reached: call("p4") },
			{ type: "limitAnswer", answer: "time", reached: call("p4") },
			{ type: "limitAnswer", answer: "turns", reached: call("p4") },
		]);
	});

	it("asks when the time runs out at a tool call too", () => {
		const running = asking(budget({ timeLimitMs: MINUTE }), { lastPrompt: "p1", running: true });
		expect(step(running, tool(), START + MINUTE).effects[0]).toMatchObject({ kind: "ask" });
	});

	it("does not ask again for a prompt already stopped: it is refused", () => {
		const spent = { usedTurns: 3, elapsedMs: 0, timeRanOut: false };
		const stopped = asking(threeTurns, { usedTurns: 3, lastPrompt: "p4", spent, stoppedPrompt: "p4" });
		expect(step(stopped, call("p4"), START).effects).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(3, "0s") },
		]);
	});
});

describe("a paused budget near its end", () => {
	const nearlyDone = withBudget({ ...tenMinutes, pausedAt: START + 9 * MINUTE });

	it("gives no warning and no block to a prompt while paused", () => {
		const result = step(nearlyDone, call("p1"), START + 30 * MINUTE);
		expect(contextOf(result.effects)).toEqual([]);
		expect(notices(result.effects)).toEqual([]);
	});

	it("neither warns nor stops on a time check while paused", () => {
		const result = step(nearlyDone, TIME_CHECK, START + 30 * MINUTE);
		expect(result.state).toBe(nearlyDone);
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: paused | 1m 0s left (10m budget) | no turn limit" },
		]);
	});
});

describe("a stop that lets the model wrap up (grace)", () => {
	const graced = budget({ timeLimitMs: 10 * MINUTE, graceMs: 30_000, onStopCommand: "lmk" });
	const DEADLINE = START + 10 * MINUTE;
	const summary = { usedTurns: 0, elapsedMs: 10 * MINUTE, timeRanOut: true };
	const WRAP_UP_STATUS = "Timebox: budget spent | wrapping up";
	const REFUSAL =
		"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";
	const WRAPPING =
		"Timebox budget spent. Used 0 turns, 10m 0s. The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.";
	const WRAP_UP_NOTE = [
		"TIMEBOX: BUDGET SPENT",
		"The budget the user gave this session is spent. Write your final answer now: what was done, and what is left to do.",
		"Call no more tools: they are refused, and the run is stopped if you ask for one again.",
	].join("\n");
	const running = play(withBudget(graced), [call("p1")]);
	const ended = (cut: string | null): Effect =>
		once({ kind: "ended", budgetId: "budget-1" }, [
			...(cut === null
				? []
				: [{ kind: "notify" as const, message: `Timebox stopped the agent: ${cut}.`, level: "warning" as const }]),
			{ kind: "runOnStop", command: "lmk" },
		]);

	it("aborts nothing when the time runs out mid-run: the user is told, and the status says it wraps up", () => {
		const result = step(running, TIME_CHECK, DEADLINE);
		expect(result.state).toMatchObject({
			spent: summary,
			stoppedPrompt: "p1",
			wrapUp: {
				prompt: "p1",
				until: DEADLINE + 30_000,
				refused: false,
				callsSinceRefusal: 0,
				outcomeId: "budget-1",
				onStopCommand: "lmk",
			},
		});
		expect(result.effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
			once(
				{ kind: "spent", budgetId: "budget-1", summary: { ...summary, wrapUpUntil: DEADLINE + 30_000 }, prompt: "p1" },
				[{ kind: "notify", message: WRAPPING, level: "error" }],
			),
		]);
		expect(nextTimeCheckIn(result.state, DEADLINE)).toBe(30_000);
		expect(isActive(result.state)).toBe(true);
	});

	it("refuses the tool call that meets the limit, with the reason the model reads", () => {
		const result = step(running, tool(), DEADLINE);
		expect(result.state.wrapUp).toMatchObject({ refused: true });
		expect(result.effects.at(-1)).toEqual({ kind: "refuse", reason: REFUSAL });
		expect(result.effects.some((effect) => effect.kind === "abort")).toBe(false);
	});

	it("gives the next model call the wrap-up note, and lets a text answer end the run normally, then runs on-stop", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		const refused = step(wrapping, tool(), DEADLINE + 1_000);
		expect(refused.effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
			{ kind: "refuse", reason: REFUSAL },
		]);
		const answer = step(refused.state, call(null), DEADLINE + 2_000);
		expect(answer.effects).toEqual([
			{ kind: "status", text: WRAP_UP_STATUS },
			{ kind: "context", text: WRAP_UP_NOTE },
		]);
		const end = step(answer.state, RUN_END, DEADLINE + 3_000);
		expect(end.effects).toEqual([{ kind: "status", text: SPENT }, ended(null)]);
		expect(end.state.wrapUp).toBeUndefined();
		expect(isActive(end.state)).toBe(false);
		expect(nextTimeCheckIn(end.state, DEADLINE + 3_000)).toBeNull();
	});

	it("refuses every tool of one answer, and ends the run when the model asks for tools again after the refusal", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		const first = step(wrapping, tool(), DEADLINE);
		const sameAnswer = step(first.state, tool(), DEADLINE);
		expect(sameAnswer.effects.at(-1)).toEqual({ kind: "refuse", reason: REFUSAL });
		const again = step(step(sameAnswer.state, call(null), DEADLINE + 1_000).state, tool(), DEADLINE + 2_000);
		expect(again.effects).toEqual([
			{ kind: "status", text: SPENT },
			ended("the model asked for tools again"),
			{ kind: "abort" },
			{ kind: "refuse", reason: REFUSAL },
		]);
	});

	it("lets the first call after the limit answer, refuses its tool, and ends the run at the next tool after that", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		const answer = step(wrapping, call(null), DEADLINE + 1_000);
		expect(answer.state.wrapUp).toMatchObject({ refused: false, callsSinceRefusal: 0 });
		const refused = step(answer.state, tool(), DEADLINE + 2_000);
		expect(refused.effects.at(-1)).toEqual({ kind: "refuse", reason: REFUSAL });
		const last = step(refused.state, call(null), DEADLINE + 3_000);
		expect(step(last.state, tool(), DEADLINE + 4_000).effects).toContainEqual({ kind: "abort" });
	});

	it("runs no command at the end of a wrap-up when the budget has none", () => {
		const quiet = play(withBudget(budget({ timeLimitMs: 10 * MINUTE, graceMs: 30_000 })), [call("p1")]);
		const wrapping = step(quiet, TIME_CHECK, DEADLINE).state;
		expect(step(wrapping, RUN_END, DEADLINE + 1_000).effects).toEqual([
			{ kind: "status", text: SPENT },
			once({ kind: "ended", budgetId: "budget-1" }, []),
		]);
	});

	it("stops the run when the wrap-up time is over, by the timer or at the next call", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		expect(step(wrapping, TIME_CHECK, DEADLINE + 29_999).effects).toEqual([{ kind: "status", text: WRAP_UP_STATUS }]);
		const cut = [
			{ kind: "status", text: SPENT },
			ended("the time to wrap up ran out"),
			{ kind: "abort" },
			{ kind: "refuse", reason: REFUSAL },
		];
		expect(step(wrapping, TIME_CHECK, DEADLINE + 30_000).effects).toEqual(cut);
		expect(step(wrapping, call(null), DEADLINE + 30_000).effects).toEqual(cut);
		expect(step(wrapping, tool(), DEADLINE + 31_000).effects).toEqual(cut);
	});

	it("stops at once as before without a grace period, or when nothing runs", () => {
		const plain = play(withBudget(budget({ timeLimitMs: 10 * MINUTE, onStopCommand: "lmk" })), [call("p1")]);
		expect(step(plain, TIME_CHECK, DEADLINE).effects).toContainEqual({ kind: "abort" });
		const idle = play(withBudget(graced), [call("p1"), RUN_END]);
		const result = step(idle, TIME_CHECK, DEADLINE);
		expect(result.state.wrapUp).toBeUndefined();
		expect(result.effects).toEqual(stopEffects({ ...summary, usedTurns: 1 }, "p1", "10m 0s", "lmk", false, true));
	});

	it("stops prompt N+1 of turns:N at once: it has no work to wrap up", () => {
		const allUsed = withBudget(budget({ turnLimit: 1, graceMs: 30_000 }), { usedTurns: 1, lastPrompt: "p1" });
		const result = step(allUsed, call("p2"), START);
		expect(result.state.wrapUp).toBeUndefined();
		expect(result.effects).toContainEqual({ kind: "abort" });
	});

	it("ends the wrap-up when a new prompt comes, and lets that prompt run as after any stop", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		const next = step(wrapping, call("p2"), DEADLINE + 1_000);
		expect(next.effects).toEqual([{ kind: "status", text: SPENT }, ended(null), { kind: "status", text: SPENT }]);
		expect(next.state).toMatchObject({ lastPrompt: "p2", running: true });
		expect(next.state.wrapUp).toBeUndefined();
	});

	it("takes the grace period from the session's setting when the budget has none", () => {
		const fromSetting = play(withBudget(budget({ timeLimitMs: 10 * MINUTE }), { settings: { graceMs: 5_000 } }), [
			call("p1"),
		]);
		expect(step(fromSetting, TIME_CHECK, DEADLINE).state.wrapUp?.until).toBe(DEADLINE + 5_000);
	});

	it("drops the wrap-up when the budget is extended: the run goes on under the extension, and on-stop waits", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		const extended = step(wrapping, set("+5m"), DEADLINE + 1_000);
		expect(extended.state.wrapUp).toBeUndefined();
		expect(extended.state.spent).toBeNull();
		expect(step(extended.state, RUN_END, DEADLINE + 2_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 4m 58s left (15m budget) | no turn limit" },
		]);
	});

	it("ends the wrap-up with a new budget, without running the old on-stop command", () => {
		const wrapping = step(running, TIME_CHECK, DEADLINE).state;
		const replaced = step(wrapping, set("5m", "b2"), DEADLINE + 1_000).state;
		expect(replaced.wrapUp).toBeUndefined();
		expect(step(replaced, RUN_END, DEADLINE + 2_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 4m 59s left (5m budget) | no turn limit" },
		]);
	});

	it("picks the wrap-up up again in a hook of the same run, from the ledger (continue mode)", () => {
		const spent = { ...summary, wrapUpUntil: DEADLINE + 30_000, prompt: "p1" };
		const history = { budget: graced, lastPrompt: "p1", usedTurns: 1, lastPromptCounted: true };
		const loaded = step(
			EMPTY_SESSION,
			loadEvent(history, { mode: "continue", runningPrompt: "p1", ledger: { spent } }),
			DEADLINE + 1_000,
		);
		expect(loaded.state.wrapUp).toEqual({
			prompt: "p1",
			until: DEADLINE + 30_000,
			refused: false,
			callsSinceRefusal: 0,
			outcomeId: "budget-1",
			onStopCommand: "lmk",
		});
		expect(loaded.effects).toEqual([{ kind: "status", text: WRAP_UP_STATUS }]);
		const other = step(
			EMPTY_SESSION,
			loadEvent(history, { mode: "continue", runningPrompt: "p2", ledger: { spent } }),
			DEADLINE,
		);
		expect(other.state.wrapUp).toBeUndefined();
		const plain = step(
			EMPTY_SESSION,
			loadEvent(history, { mode: "continue", runningPrompt: "p1", ledger: { spent: { ...summary, prompt: "p1" } } }),
			DEADLINE,
		);
		expect(plain.state.wrapUp).toBeUndefined();
	});
});

describe("the awareness and grace settings", () => {
	const settingsLoad = (awareness: unknown, grace: unknown) => ({
		...loadEvent({ budget: budget({ timeLimitMs: 10 * MINUTE }) }, { announce: false }),
		awareness: { value: awareness, source: "timebox.awareness in settings.json" },
		grace: { value: grace, source: "timebox.grace in settings.json" },
	});

	it("keeps good settings for every budget of the session, a new one included", () => {
		const loaded = step(EMPTY_SESSION, settingsLoad("always", "45s"), START).state;
		expect(loaded.settings).toEqual({ awareness: "always", graceMs: 45_000 });
		expect(step(loaded, set("5m", "b2"), START).state.settings).toEqual({ awareness: "always", graceMs: 45_000 });
	});

	it("names a bad setting, ignores it, and keeps the rest", () => {
		const result = step(EMPTY_SESSION, settingsLoad("sometimes", "forever"), START);
		expect(result.state.settings).toBeUndefined();
		expect(notices(result.effects)).toEqual([
			'Timebox: timebox.awareness in settings.json: "sometimes" is neither "nudge" nor "always", so it is ignored.',
			'Timebox: timebox.grace in settings.json: "forever" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
		]);
		expect(notices(step(EMPTY_SESSION, settingsLoad("nudge", "11m"), START).effects)).toEqual([
			'Timebox: timebox.grace in settings.json: "11m" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
		]);
		expect(step(EMPTY_SESSION, settingsLoad("nudge", 30), START).state.settings).toEqual({ awareness: "nudge" });
	});

	it("names a bad setting when a default budget is given as well, and sets the default", () => {
		const event: SessionEvent = {
			...loadEvent({ hasRecords: false }),
			grace: { value: "forever", source: "timebox.grace in settings.json" },
			defaultBudget: { text: "10m", source: "PI_TIMEBOX", newBudgetId: "b9" },
		};
		const result = step(EMPTY_SESSION, event, START);
		expect(result.state.budget?.timeLimitMs).toBe(10 * MINUTE);
		expect(notices(result.effects)).toEqual([
			'Timebox: timebox.grace in settings.json: "forever" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
			"Timebox set from PI_TIMEBOX: 10m.",
		]);
	});

	it("lets the budget's own words win over the settings", () => {
		const state = withBudget(budget({ timeLimitMs: 10 * MINUTE, awareness: "nudge", graceMs: 2_000 }), {
			settings: { awareness: "always", graceMs: 60_000 },
		});
		const first = step(state, call("p1"), START);
		expect(contextOf(first.effects)).toEqual([]);
		expect(step(first.state, TIME_CHECK, START + 10 * MINUTE).state.wrapUp?.until).toBe(START + 10 * MINUTE + 2_000);
	});
});
