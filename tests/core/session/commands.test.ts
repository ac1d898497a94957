// The `/timebox` commands in the rulebook: setting, replacing, turning off, extending, pausing and resuming a
// budget, and the question before a replacement.

import { describe, expect, it } from "vitest";
import { freshBudget, type TimeboxBudget } from "../../../src/core/model/budget.ts";
import { budgetRecord } from "../../../src/core/model/records.ts";
import {
	type Effect,
	EMPTY_SESSION,
	nextTimeCheckIn,
	type SessionState,
	shownTurns,
	statusText,
	transition,
} from "../../../src/core/session/index.ts";
import { USAGE } from "../../../src/core/text/messages.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import {
	call,
	contextOf,
	DAY,
	fiveTurns,
	notices,
	once,
	play,
	RUN_END,
	SPENT,
	session,
	set,
	TIME_CHECK,
	tenMinutes,
	threeTurns,
	tool,
	withBudget,
} from "../../support/session.ts";

describe("commands", () => {
	it("sets a budget: appends its record, watches its time, shows the status and confirms it", () => {
		const result = transition(EMPTY_SESSION, set("15m turns:3 -- lmk"), START);
		const set15 = { id: "b1", timeLimitMs: 15 * MINUTE, turnLimit: 3, startTime: START, onStopCommand: "lmk" };
		expect(result.state).toEqual(session({ budget: freshBudget(set15) }));
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "active", budget: { version: 2, ...set15 } } },
			{ kind: "watchBudget", budgetId: "b1" },
			{ kind: "status", text: "Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)" },
			{ kind: "notify", message: "Timebox set: 15m and 3 turns. On stop it runs: lmk", level: "info" },
		]);
	});

	it("keeps the session's user-message count at set as the budget's startTurn, where the host counts it", () => {
		const result = transition(EMPTY_SESSION, { type: "command", args: "turns:3", newBudgetId: "b1", turns: 7 }, START);
		expect(result.state.standing?.budget).toMatchObject({ startTurn: 7, softNudgeSent: false, active: true });
	});

	it("replaces an active budget: the count and the warning start over from the new start time", () => {
		const before = withBudget(tenMinutes, { usedTurns: 4, nudged: true, lastPrompt: "p4" });
		const result = transition(before, set("turns:2", "b2"), START + 9 * MINUTE);
		const replacement = {
			id: "b2",
			timeLimitMs: null,
			turnLimit: 2,
			startTime: START + 9 * MINUTE,
			onStopCommand: null,
		};
		expect(result.state).toEqual(session({ lastPrompt: "p4", budget: freshBudget(replacement) }));
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
		const result = transition(spent, set("turns:5", "b2"), START);
		expect(result.state).toMatchObject({
			lastPrompt: "p4",
			standing: { usedTurns: 0, spent: null, stoppedPrompt: null },
		});
		expect(notices(result.effects)).toEqual(["Timebox set: 5 turns."]);
		expect(transition(result.state, call("p4"), START).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 5 turns left (0/5)" },
		]);
	});

	it("does not count the prompt running when the budget is set, through its whole run", () => {
		const running = play(EMPTY_SESSION, [call("p1")]);
		const afterSet = transition(running, set("turns:2"), START).state;
		expect(afterSet).toMatchObject({
			running: true,
			lastPrompt: "p1",
			standing: { usedTurns: 0, runningCounted: false },
		});
		const answered = play(afterSet, [call("p1"), tool(), call(null)]);
		expect(answered.standing?.usedTurns).toBe(0);
		expect(transition(answered, RUN_END, START).effects).toEqual([
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
		const result = transition(active, set("off"), START + MINUTE);
		expect(result.state).toEqual(session({ lastPrompt: "p2" }));
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "off", version: 2, budgetId: "budget-1", disabledAt: START + MINUTE } },
			once({ kind: "off", budgetId: "budget-1" }),
			{ kind: "status", text: undefined },
			{ kind: "notify", message: "Timebox off.", level: "info" },
		]);
	});

	it("turns a budget off during a counted prompt: that prompt no longer counts, and a new budget starts at 0", () => {
		const running = play(withBudget(threeTurns), [call("p1")]);
		const off = transition(running, set("off"), START).state;
		expect(off).toMatchObject({ running: true, standing: null });
		expect(shownTurns(off)).toBe(0);
		expect(statusText(transition(off, set("turns:2"), START).state, START)).toBe(
			"Timebox: no time limit | 2 turns left (0/2)",
		);
	});

	it("lets a spent budget go on off, writing and claiming nothing (it is no longer active), and forgets its stopped prompt", () => {
		const spent = withBudget(threeTurns, {
			lastPrompt: "p4",
			spent: { usedTurns: 3, elapsedMs: 0, timeRanOut: false },
			stoppedPrompt: "p4",
		});
		const result = transition(spent, set("cancel"), START);
		expect(result.state).toEqual(session({ lastPrompt: "p4" }));
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{ kind: "notify", message: "Timebox off.", level: "info" },
		]);
		expect(transition(result.state, call("p4"), START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("turns the budget off on `off 15m`, naming what it ignored", () => {
		const result = transition(withBudget(tenMinutes), set("off 15m"), START);
		expect(result.state.standing).toBeNull();
		expect(notices(result.effects)).toEqual(['Timebox off.\nIgnored what followed off: "15m".']);
		expect(result.effects[0]).toMatchObject({ kind: "append", record: { kind: "off" } });
	});

	it.each(["off", "disable", "cancel"])("answers %j without a budget: nothing to turn off, nothing written", (word) => {
		const result = transition(EMPTY_SESSION, set(word), START);
		expect(result.state).toBe(EMPTY_SESSION);
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{ kind: "notify", message: "No active timebox.", level: "info" },
		]);
	});

	it.each([
		["without a budget", EMPTY_SESSION, START, undefined, "No active timebox.\nSet one with /timebox 15m turns:3."],
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
		const result = transition(state, set(" status "), now);
		expect(result.state).toBe(state);
		expect(result.effects).toEqual([
			{ kind: "status", text: status },
			{ kind: "notify", message: reply, level: "info" },
		]);
	});

	it("warns about invalid input with the reason and the usage, and changes nothing", () => {
		const active = withBudget(tenMinutes);
		const result = transition(active, set("15x"), START);
		expect(result.state).toBe(active);
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: 10m 0s left (10m budget) | no turn limit" },
			{
				kind: "notify",
				message: `Timebox: "15x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. Nothing changed.\n${USAGE}`,
				level: "warning",
			},
		]);
	});
});

describe("extend, pause and resume", () => {
	const info = (message: string): Effect => ({ kind: "notify", message, level: "info" });
	const record = (b: TimeboxBudget, turnsBefore = 0): Effect => ({
		kind: "append",
		record: { kind: "active", budget: { ...budgetRecord(b), ...(turnsBefore > 0 ? { turnsBefore } : {}) } },
	});

	it("extends the time limit and the prompts, and writes the budget again with the prompts used so far", () => {
		const both = budget({ timeLimitMs: 10 * MINUTE, turnLimit: 3 });
		const result = transition(
			withBudget(both, { usedTurns: 2, lastPrompt: "p2" }),
			set("+5m +turns:2"),
			START + MINUTE,
		);
		const extended = { ...both, timeLimitMs: 15 * MINUTE, turnLimit: 5, extensions: 1 };
		expect(result.state.standing?.budget).toEqual(extended);
		expect(result.effects).toEqual([
			record(extended, 2),
			// Its time, extended, is watched again under the extension's outcome id.
			{ kind: "watchBudget", budgetId: "budget-1.e1" },
			{ kind: "status", text: "Timebox: 14m 0s left (15m budget) | 3 turns left (2/5)" },
			info("Timebox extended by 5m and 2 turns. Timebox: 14m 0s left (15m budget) | 3 turns left (2/5)"),
		]);
	});

	it("counts added time from now and added prompts from those used, for a dimension without a limit", () => {
		const timeOnly = transition(withBudget(threeTurns, { usedTurns: 1 }), set("+10m"), START + 2 * MINUTE).state
			.standing?.budget;
		expect(timeOnly).toMatchObject({ timeLimitMs: 12 * MINUTE, turnLimit: 3 });
		const turnsOnly = transition(withBudget(tenMinutes, { usedTurns: 4 }), set("add turns:2"), START).state.standing
			?.budget;
		expect(turnsOnly).toMatchObject({ timeLimitMs: 10 * MINUTE, turnLimit: 6 });
	});

	it("makes a spent budget active again, its warning and stop to come anew under a new ledger name", () => {
		const spent = { usedTurns: 3, elapsedMs: 0, timeRanOut: false };
		const state = withBudget(threeTurns, {
			usedTurns: 3,
			nudged: true,
			spent,
			stoppedPrompt: "p4",
			lastPrompt: "p4",
		});
		const extended = transition(state, set("+turns:1"), START).state;
		expect(extended).toMatchObject({
			standing: { spent: null, stoppedPrompt: null, budget: { softNudgeSent: false }, usedTurns: 3 },
		});
		const stopped = transition(transition(extended, call("p5"), START).state, call("p6"), START);
		expect(stopped.effects[1]).toMatchObject({ kind: "once", claim: { kind: "spent", budgetId: "budget-1.e1" } });
	});

	it("extends a spent budget from what it used at its stop: prompts and answers after the stop ran without it", () => {
		const tokens = budget({ turnLimit: 2, tokenLimit: 1_000, costLimit: 1 });
		// The history counts two prompts and 500 tokens that came after the stop; the stop's claim, what it had used.
		const spent = { usedTurns: 1, elapsedMs: 0, timeRanOut: false, limit: "tokens" as const, tokens: 1_000, cost: 0.4 };
		const state = withBudget(tokens, { usedTurns: 3, spend: { tokens: 1_500, cost: 0.6 }, spent, stoppedPrompt: "p2" });
		const result = transition(state, set("+tokens:500"), START);
		expect(result.state.standing).toMatchObject({ usedTurns: 1, spend: { tokens: 1_000, cost: 0.4 }, spent: null });
		expect(result.effects[0]).toMatchObject({
			kind: "append",
			record: { kind: "active", budget: { turnsBefore: 1, tokensBefore: 1_000, costBefore: 0.4 } },
		});
		expect(result.effects.at(-1)).toMatchObject({
			message: expect.stringContaining("1 turn left (1/2) | $0.40 of $1.00 | 1k of 1.5k tokens"),
		});
		// Where the stop kept no tokens or cost (a budget without those limits), the standing's stand.
		const turnsOnly = { usedTurns: 2, elapsedMs: 0, timeRanOut: false };
		const plain = withBudget(budget({ turnLimit: 2 }), {
			usedTurns: 4,
			spend: { tokens: 7, cost: 0.01 },
			spent: turnsOnly,
		});
		expect(transition(plain, set("+turns:1"), START).state.standing).toMatchObject({
			usedTurns: 2,
			spend: { tokens: 7, cost: 0.01 },
		});
	});

	it("extends a budget stopped mid-run with its stopped prompt counted, and a prompt running after the stop not", () => {
		const tenThree = budget({ timeLimitMs: 10 * MINUTE, turnLimit: 3 });
		const started = play(withBudget(tenThree), [call("p1"), RUN_END, call("p2")]);
		// p2's run is stopped at the deadline (no grace): it was counted, and used.
		const stopped = transition(started, TIME_CHECK, START + 10 * MINUTE).state;
		expect(stopped.standing?.spent).toMatchObject({ usedTurns: 1, promptCounted: true });
		// The chat goes on: p3 runs without a budget while the user extends it.
		const afterStop = play(stopped, [RUN_END, call("p3")], START + 11 * MINUTE);
		const extended = transition(afterStop, set("+10m"), START + 11 * MINUTE);
		expect(extended.effects.at(-1)).toMatchObject({ message: expect.stringContaining("| 1 turn left (2/3)") });
		expect(extended.state.standing).toMatchObject({ usedTurns: 2, runningCounted: false });
	});

	it("allows an extension up to the largest budget exactly", () => {
		const upTo = transition(withBudget(budget({ timeLimitMs: 29 * DAY })), set("+24h"), START).state.standing?.budget;
		expect(upTo?.timeLimitMs).toBe(30 * DAY);
		const turns = transition(withBudget(budget({ turnLimit: 999_999 })), set("+turns:1"), START).state.standing?.budget;
		expect(turns?.turnLimit).toBe(1_000_000);
	});

	it("names in the reply a word that replaced an earlier one", () => {
		expect(transition(EMPTY_SESSION, set("1h 30m"), START).effects.at(-1)).toEqual({
			kind: "notify",
			message: "Timebox set: 30m.\n30m replaces 1h; for the sum, write 1h30m as one word.",
			level: "info",
		});
		expect(transition(withBudget(tenMinutes), set("+1m +2m"), START).effects.at(-1)).toEqual({
			kind: "notify",
			message:
				"Timebox extended by 2m. Timebox: 12m 0s left (12m budget) | no turn limit\n2m replaces 1m; for the sum, write 1m2m as one word.",
			level: "info",
		});
	});

	it("refuses an extension past the largest budget and changes nothing", () => {
		const state = withBudget(budget({ timeLimitMs: 29 * DAY }));
		const result = transition(state, set("+48h"), START);
		expect(result.state).toBe(state);
		expect(result.effects.at(-1)).toEqual({
			kind: "notify",
			message:
				"Timebox: that extension would pass the largest budget (30 days, 1,000,000 turns, 1,000,000,000 tokens, $10,000). Nothing changed.",
			level: "warning",
		});
		expect(transition(withBudget(budget({ turnLimit: 999_999 })), set("+turns:2"), START).effects.at(-1)).toMatchObject(
			{
				level: "warning",
			},
		);
	});

	it("pauses: the clock stands still, the status says so, and nothing is checked or counted", () => {
		const result = transition(withBudget(tenMinutes, { usedTurns: 1 }), set("pause"), START + MINUTE);
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
		expect(transition(result.state, TIME_CHECK, later).state).toBe(result.state);
		expect(contextOf(transition(result.state, call("p2"), later).effects)).toEqual([]);
		expect(transition(result.state, call("p2"), later).state).toMatchObject({
			standing: { usedTurns: 1, spent: null },
		});
	});

	it("asks for its time to be watched only while it can run out: set, extended or resumed, not paused nor turns alone", () => {
		const watched = (state: SessionState, args: string) =>
			transition(state, set(args, "b7"), START + MINUTE).effects.filter((effect) => effect.kind === "watchBudget");
		expect(watched(EMPTY_SESSION, "15m")).toEqual([{ kind: "watchBudget", budgetId: "b7" }]);
		expect(watched(EMPTY_SESSION, "turns:3")).toEqual([]);
		expect(watched(withBudget(threeTurns), "+turns:2")).toEqual([]);
		expect(watched(withBudget(threeTurns), "+5m")).toEqual([{ kind: "watchBudget", budgetId: "budget-1.e1" }]);
		expect(watched(withBudget(tenMinutes), "pause")).toEqual([]);
		const paused = withBudget({ ...tenMinutes, pausedAt: START });
		expect(watched(paused, "resume")).toEqual([{ kind: "watchBudget", budgetId: "budget-1" }]);
	});

	it("resumes where it paused, adding the pause to the time paused before", () => {
		const paused = withBudget({ ...tenMinutes, pausedMs: MINUTE, pausedAt: START + 2 * MINUTE });
		const result = transition(paused, set("resume"), START + 30 * MINUTE);
		expect(result.state.standing?.budget).toEqual({ ...tenMinutes, pausedMs: 29 * MINUTE });
		expect(result.effects.at(-1)).toEqual(info("Timebox resumed. Timebox: 9m 0s left (10m budget) | no turn limit"));
		const atOnce = transition(withBudget({ ...tenMinutes, pausedAt: START }), set("resume"), START).state.standing
			?.budget;
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
		const result = transition(state, set(args), START);
		expect(result.state).toBe(state);
		expect(result.effects.at(-1)).toEqual(info(message));
	});

	it("keeps the warning given through a pause and a resume, and lets it come again after an extension", () => {
		const warned = withBudget(tenMinutes, { nudged: true });
		const paused = transition(warned, set("pause"), START).state;
		expect(paused.standing?.budget.softNudgeSent).toBe(true);
		expect(transition(paused, set("resume"), START).state.standing?.budget.softNudgeSent).toBe(true);
		expect(transition(warned, set("+5m"), START).state.standing?.budget.softNudgeSent).toBe(false);
	});
});
