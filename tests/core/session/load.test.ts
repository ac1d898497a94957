// Loading a session in the rulebook: restoring (pi reopening a session) and continuing (a host whose every hook
// reloads), the default budget of a session new to Timebox, and the awareness and grace settings.

import { describe, expect, it } from "vitest";
import type { FoldedHistory } from "../../../src/core/model/history.ts";
import {
	EMPTY_SESSION,
	type LoadMode,
	type SessionEvent,
	shownTurns,
	transition,
} from "../../../src/core/session/index.ts";
import { UNUSABLE_RECORD } from "../../../src/core/text/messages.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import {
	call,
	contextOf,
	fiveTurns,
	loadEvent,
	notices,
	once,
	SPENT,
	session,
	set,
	spentText,
	stopEffects,
	TIME_CHECK,
	tenMinutes,
	threeTurns,
	WRAP_UP,
	withBudget,
} from "../../support/session.ts";

describe("load, restoring a session (restore mode)", () => {
	const restorable = budget({ timeLimitMs: 15 * MINUTE, onStopCommand: "lmk" });

	it("restores an active budget: shows the status and says what it restored", () => {
		const result = transition(EMPTY_SESSION, loadEvent({ budget: restorable, lastPrompt: "p1" }), START + 5 * MINUTE);
		expect(result.state).toEqual(session({ lastPrompt: "p1", budget: restorable }));
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
		const result = transition(EMPTY_SESSION, loadEvent({ budget: restorable }, { announce: false }), START);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: 15m 0s left (15m budget) | no turn limit" }]);
	});

	it("replaces whatever the session held before", () => {
		const before = withBudget(tenMinutes, { usedTurns: 2, running: true, runningCounted: true, nudged: true });
		const result = transition(before, loadEvent({ lastPrompt: "p9" }), START);
		expect(result.state).toEqual(session({ lastPrompt: "p9" }));
	});

	it("restores the prompts used, and a re-run of the latest prompt does not count again", () => {
		const result = transition(
			EMPTY_SESSION,
			loadEvent({ budget: fiveTurns, usedTurns: 2, lastPrompt: "p2" }, { announce: false }),
			START,
		);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (2/5)" }]);
		const rerun = transition(result.state, call("p2"), START);
		expect(rerun.state.standing?.usedTurns).toBe(2);
		expect(rerun.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (2/5)" }]);
		expect(transition(rerun.state, call("p3"), START).state.standing?.usedTurns).toBe(3);
	});

	it.each([
		["past 80% of the time", budget({ timeLimitMs: 20 * MINUTE }), 0, 17 * MINUTE, false, true],
		["at 80% of the turns", fiveTurns, 4, 0, false, true],
		["below 80% when the ledger has the warning", budget({ timeLimitMs: 20 * MINUTE }), 0, MINUTE, true, true],
		["below 80% otherwise", budget({ timeLimitMs: 20 * MINUTE }), 0, MINUTE, false, false],
	])("counts the warning as given %s", (_name, b, usedTurns, elapsed, ledgerNudged, nudged) => {
		const event = loadEvent({ budget: b, usedTurns }, { ledger: { nudged: ledgerNudged } });
		expect(transition(EMPTY_SESSION, event, START + elapsed).state.standing?.budget.softNudgeSent).toBe(nudged);
	});

	it("gives no second warning after restoring past 80%, only the block for the model", () => {
		const restored = transition(EMPTY_SESSION, loadEvent({ budget: tenMinutes }), START + 9 * MINUTE).state;
		expect(transition(restored, TIME_CHECK, START + 9 * MINUTE + 1_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 59s left (10m budget) | no turn limit" },
		]);
		expect(contextOf(transition(restored, call("p1"), START + 9 * MINUTE).effects)).toEqual([
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
		const result = transition(EMPTY_SESSION, event, START + 2 * MINUTE);
		expect(result.state).toEqual(session({ lastPrompt: "p3" }));
		expect(result.effects).toEqual([
			{
				kind: "notify",
				message: `Timebox budget of this session was already spent (${why}), so it was not restored. Its on-stop command is not run on restore: lmk`,
				level: "warning",
			},
			{ kind: "status", text: undefined },
		]);
		expect(transition(result.state, call("p3"), START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("says a stop's on-stop command was started at its stop where the stop's claim recorded it, and starts nothing", () => {
		const spentBudget = budget({ turnLimit: 2, onStopCommand: "lmk" });
		const onStop = {
			claim: { budgetId: "budget-1", kind: "spent" as const },
			command: "lmk",
			claimedAt: START,
			started: true,
			claimantAlive: false,
			recovered: false,
		};
		const event = loadEvent(
			{ budget: spentBudget, usedTurns: 2, lastPrompt: "p3" },
			{ ledger: { spent: { usedTurns: 2, elapsedMs: MINUTE, timeRanOut: false, prompt: "p3" }, onStop } },
		);
		expect(transition(EMPTY_SESSION, event, START + 2 * MINUTE).effects).toEqual([
			{
				kind: "notify",
				message:
					"Timebox budget of this session was already spent (all 2 turns used), so it was not restored. Its on-stop command was started at its stop, and is not run again: lmk",
				level: "warning",
			},
			{ kind: "status", text: undefined },
		]);
	});

	it("does not restore a spent budget and says nothing when not announcing", () => {
		const event = loadEvent(
			{ budget: fiveTurns },
			{ announce: false, ledger: { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false, prompt: null } } },
		);
		expect(transition(EMPTY_SESSION, event, START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("does not restore a budget whose time ran out while the session was closed, and claims it spent without running anything", () => {
		const closed = budget({ timeLimitMs: MINUTE, onStopCommand: "lmk" });
		const result = transition(
			EMPTY_SESSION,
			loadEvent({ budget: closed, usedTurns: 1, lastPrompt: "p1" }),
			START + 2 * MINUTE,
		);
		expect(result.state).toEqual(session({ lastPrompt: "p1" }));
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

	it("restores a turn budget whose turns are all used; the next prompt stops it once, and the one after runs", () => {
		const result = transition(
			EMPTY_SESSION,
			loadEvent({ budget: threeTurns, usedTurns: 3, lastPrompt: "p3", lastPromptCounted: true }),
			START + MINUTE,
		);
		expect(result.state.standing?.usedTurns).toBe(3);
		expect(result.state.standing?.budget.softNudgeSent).toBe(true);
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 0 turns left (3/3)" },
			{
				kind: "notify",
				message: "Timebox restored: no time limit | 0 turns left (3/3). On stop it runs: lmk",
				level: "info",
			},
		]);
		const stopped = transition(result.state, call("p4"), START + MINUTE);
		expect(stopped.effects).toEqual(
			stopEffects({ usedTurns: 3, elapsedMs: MINUTE, timeRanOut: false }, "p4", "1m 0s", "lmk", true),
		);
		// The chat goes on: the next prompt runs, kept as a prompt that ran, with no budget to stop it.
		const after = transition({ ...stopped.state, running: false }, call("p5"), START + MINUTE);
		expect(after.effects).toEqual([
			{ kind: "status", text: SPENT },
			{ kind: "recordPrompt", prompt: "p5" },
		]);
	});

	it("restores a budget whose last counted prompt was killed mid-run: the next prompt stops it", () => {
		// A process killed during prompt 2 of turns:2 left prompt 2 counted and no stop recorded.
		const event = loadEvent({ budget: budget({ turnLimit: 2 }), usedTurns: 2, lastPrompt: "p2" });
		const restored = transition(EMPTY_SESSION, event, START);
		expect(restored.state.standing?.spent).toBeNull();
		expect(notices(transition(restored.state, call("p3"), START).effects)).toEqual([spentText(2, "0s")]);
	});

	it.each([
		["tokens", budget({ tokenLimit: 100 }), { tokens: 150, cost: 0 }],
		["cost", budget({ costLimit: 1 }), { tokens: 0, cost: 2 }],
	])(
		"restores a budget whose %s are used up, silently when not announcing; the next model call stops it",
		(_n, b, spend) => {
			const result = transition(EMPTY_SESSION, loadEvent({ budget: b, spend }, { announce: false }), START);
			expect(result.state.standing?.spend).toEqual(spend);
			expect(result.effects).toHaveLength(1);
			expect(result.effects[0]?.kind).toBe("status");
			const stopped = transition(result.state, call("p1"), START);
			expect(stopped.state.standing?.spent).not.toBeNull();
			expect(stopped.effects.some((effect) => effect.kind === "abort")).toBe(true);
		},
	);

	it.each<LoadMode>(["restore", "continue"])("brings nothing back when the ledger has the budget off (%s)", (mode) => {
		const event = loadEvent({ budget: restorable, usedTurns: 1, lastPrompt: "p1" }, { mode, ledger: { off: true } });
		const result = transition(EMPTY_SESSION, event, START);
		expect(result.state).toEqual(session({ lastPrompt: "p1" }));
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("starts without a budget from a history without one, keeping its latest prompt", () => {
		const result = transition(EMPTY_SESSION, loadEvent({ lastPrompt: "p7" }), START);
		expect(result.state).toEqual(session({ lastPrompt: "p7" }));
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("warns that the newest record was unreadable first, when announcing", () => {
		const unreadable = { kind: "notify", message: UNUSABLE_RECORD, level: "warning" } as const;
		expect(transition(EMPTY_SESSION, loadEvent({ newestUnusable: true }), START).effects).toEqual([
			unreadable,
			{ kind: "status", text: undefined },
		]);
		expect(
			notices(transition(EMPTY_SESSION, loadEvent({ budget: fiveTurns, newestUnusable: true }), START).effects),
		).toEqual([UNUSABLE_RECORD, "Timebox restored: no time limit | 5 turns left (0/5)."]);
		expect(transition(EMPTY_SESSION, loadEvent({ newestUnusable: true }, { announce: false }), START).effects).toEqual([
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
		const result = transition(EMPTY_SESSION, loadEvent(history, { mode: "continue", runningPrompt }), START);
		expect(result.state).toMatchObject({ running, standing: { runningCounted: running, usedTurns: 2 } });
		expect(shownTurns(result.state)).toBe(shown);
	});

	it("runs nothing when the host names the latest prompt and the history has none", () => {
		const history = { budget: threeTurns, usedTurns: 0, lastPrompt: null };
		const result = transition(EMPTY_SESSION, loadEvent(history, { mode: "continue", runningPrompt: null }), START);
		expect(result.state).toMatchObject({ running: false, standing: { runningCounted: false } });
	});

	it("runs a latest prompt sent before the budget without taking it off the count", () => {
		const history = { budget: threeTurns, usedTurns: 0, lastPrompt: "p0", lastPromptCounted: false };
		const result = transition(EMPTY_SESSION, loadEvent(history, { mode: "continue", runningPrompt: null }), START);
		expect(result.state).toMatchObject({ running: true, standing: { runningCounted: false } });
		expect(shownTurns(result.state)).toBe(0);
	});

	it("keeps a budget past its limit and leaves the stop to the next event", () => {
		const event = loadEvent({ budget: oneMinute, usedTurns: 1, lastPrompt: "p1" }, { mode: "continue" });
		const result = transition(EMPTY_SESSION, event, START + 2 * MINUTE);
		expect(result.state).toEqual(session({ lastPrompt: "p1", budget: oneMinute, usedTurns: 1 }));
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: 0s left (1m budget) | no turn limit" },
			{ kind: "notify", message: "Timebox restored: 0s left (1m budget) | no turn limit.", level: "info" },
		]);
		expect(transition(result.state, TIME_CHECK, START + 2 * MINUTE).effects).toEqual(
			stopEffects({ usedTurns: 1, elapsedMs: 2 * MINUTE, timeRanOut: true }, "p1", "2m 0s", null, false, true),
		);
	});

	it("keeps a turn budget whose turns are all used, so the next prompt is stopped", () => {
		const event = loadEvent({ budget: fiveTurns, usedTurns: 5, lastPrompt: "p5" }, { mode: "continue" });
		const { state } = transition(EMPTY_SESSION, event, START);
		expect(transition(state, call("p6"), START).effects).toEqual(
			stopEffects({ usedTurns: 5, elapsedMs: 0, timeRanOut: false }, "p6", "0s", null, true),
		);
	});

	it("continues silently when not announcing", () => {
		const event = loadEvent({ budget: oneMinute }, { mode: "continue", announce: false });
		expect(transition(EMPTY_SESSION, event, START).effects).toEqual([
			{ kind: "status", text: "Timebox: 1m 0s left (1m budget) | no turn limit" },
		]);
	});

	it("keeps a spent budget spent with its stopped prompt, and announces nothing", () => {
		const spent = { usedTurns: 3, elapsedMs: MINUTE, timeRanOut: false, prompt: "p4" };
		const event = loadEvent(
			{ budget: threeTurns, usedTurns: 4, lastPrompt: "p4" },
			{ mode: "continue", ledger: { spent } },
		);
		const result = transition(EMPTY_SESSION, event, START + 2 * MINUTE);
		expect(result.state).toEqual(
			session({ lastPrompt: "p4", budget: threeTurns, usedTurns: 4, spent, stoppedPrompt: "p4" }),
		);
		expect(result.effects).toEqual([{ kind: "status", text: SPENT }]);
		const refusal = [{ kind: "abort" }, { kind: "refuse", reason: spentText(3, "1m 0s") }];
		expect(transition(result.state, call("p4"), START).effects).toEqual(refusal);
		expect(transition(result.state, call(null), START).effects).toEqual(refusal);
		expect(transition(result.state, call("p5"), START).effects).toEqual([
			{ kind: "status", text: SPENT },
			{ kind: "recordPrompt", prompt: "p5" },
		]);
	});

	it.each([
		[false, false],
		[true, true],
	])("takes the warning from the ledger alone (ledger: %s)", (ledgerNudged, nudged) => {
		const event = loadEvent({ budget: tenMinutes }, { mode: "continue", ledger: { nudged: ledgerNudged } });
		const { state } = transition(EMPTY_SESSION, event, START + 9 * MINUTE);
		expect(state.standing?.budget.softNudgeSent).toBe(nudged);
	});
});

describe("a default budget for a session new to Timebox", () => {
	const fresh = { budget: null, usedTurns: 0, lastPrompt: null, hasRecords: false };
	const withDefaultEvent = (text: string, history: Partial<FoldedHistory> = fresh): SessionEvent => ({
		...loadEvent(history),
		defaultBudget: { text, source: "PI_TIMEBOX", newBudgetId: "b9" },
	});

	it("sets the default, writes it and says where it came from", () => {
		const result = transition(EMPTY_SESSION, withDefaultEvent("30m turns:10 -- lmk"), START);
		const set = { id: "b9", timeLimitMs: 30 * MINUTE, turnLimit: 10, startTime: START, onStopCommand: "lmk" };
		expect(result.state.standing?.budget).toEqual({ ...set, startTurn: 0, softNudgeSent: false, active: true });
		expect(result.effects).toEqual([
			{ kind: "append", record: { kind: "active", budget: { version: 2, ...set } } },
			{ kind: "watchBudget", budgetId: "b9" },
			{ kind: "status", text: "Timebox: 30m 0s left (30m budget) | 10 turns left (0/10)" },
			{ kind: "notify", message: "Timebox set from PI_TIMEBOX: 30m and 10 turns. On stop it runs: lmk", level: "info" },
		]);
	});

	it.each([
		[
			"30x",
			'"30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		["status", '"status" is not a budget.'],
	])("names a bad default %j and sets nothing", (text, reason) => {
		const result = transition(EMPTY_SESSION, withDefaultEvent(text), START);
		expect(result.state.standing).toBeNull();
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{
				kind: "notify",
				message: `Timebox: PI_TIMEBOX: ${reason} The session starts without a budget.`,
				level: "warning",
			},
			// Where the host keeps a log, a later process of the session does not try it, nor say it, again.
			{ kind: "logLine", line: { kind: "default-said", at: START } },
		]);
	});

	it("names why no budget could be suggested, starts none and leaves the line that says so, whatever the text", () => {
		const event = withDefaultEvent("30m");
		if (event.type !== "load" || !event.defaultBudget) throw new Error("a load with a default");
		event.defaultBudget.unavailable = "too little history to suggest a budget.";
		const result = transition(EMPTY_SESSION, event, START);
		expect(result.state.standing).toBeNull();
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{
				kind: "notify",
				message: "Timebox: PI_TIMEBOX: too little history to suggest a budget. The session starts without a budget.",
				level: "warning",
			},
			{ kind: "logLine", line: { kind: "default-said", at: START } },
		]);
	});

	it("leaves a session that ever had a budget record alone", () => {
		const result = transition(EMPTY_SESSION, withDefaultEvent("30m", { ...fresh, hasRecords: true }), START);
		expect(result.state.standing).toBeNull();
		expect(result.effects).toEqual([{ kind: "status", text: undefined }]);
	});
});

describe("the awareness and grace settings", () => {
	const settingsLoad = (awareness: unknown, grace: unknown) => ({
		...loadEvent({ budget: budget({ timeLimitMs: 10 * MINUTE }) }, { announce: false }),
		awareness: { value: awareness, source: "timebox.awareness in settings.json" },
		grace: { value: grace, source: "timebox.grace in settings.json" },
	});

	it("keeps good settings for every budget of the session, a new one included", () => {
		const loaded = transition(EMPTY_SESSION, settingsLoad("always", "45s"), START).state;
		expect(loaded.settings).toEqual({ awareness: "always", graceMs: 45_000 });
		expect(transition(loaded, set("5m", "b2"), START).state.settings).toEqual({ awareness: "always", graceMs: 45_000 });
	});

	it("names a bad setting, ignores it, and keeps the rest", () => {
		const result = transition(EMPTY_SESSION, settingsLoad("sometimes", "forever"), START);
		expect(result.state.settings).toEqual({});
		expect(notices(result.effects)).toEqual([
			'Timebox: timebox.awareness in settings.json: "sometimes" is neither "nudge" nor "always", so it is ignored.',
			'Timebox: timebox.grace in settings.json: "forever" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
		]);
		expect(notices(transition(EMPTY_SESSION, settingsLoad("nudge", "11m"), START).effects)).toEqual([
			'Timebox: timebox.grace in settings.json: "11m" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
		]);
		expect(transition(EMPTY_SESSION, settingsLoad("nudge", 30), START).state.settings).toEqual({ awareness: "nudge" });
	});

	it("names a bad setting when a default budget is given as well, and sets the default", () => {
		const event: SessionEvent = {
			...loadEvent({ hasRecords: false }),
			grace: { value: "forever", source: "timebox.grace in settings.json" },
			defaultBudget: { text: "10m", source: "PI_TIMEBOX", newBudgetId: "b9" },
		};
		const result = transition(EMPTY_SESSION, event, START);
		expect(result.state.standing?.budget?.timeLimitMs).toBe(10 * MINUTE);
		expect(notices(result.effects)).toEqual([
			'Timebox: timebox.grace in settings.json: "forever" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
			"Timebox set from PI_TIMEBOX: 10m.",
		]);
	});

	it("lets the budget's own words win over the settings", () => {
		const state = withBudget(budget({ timeLimitMs: 10 * MINUTE, awareness: "nudge", graceMs: 2_000 }), {
			settings: { awareness: "always", graceMs: 60_000 },
		});
		const first = transition(state, call("p1"), START);
		expect(contextOf(first.effects)).toEqual([]);
		expect(transition(first.state, TIME_CHECK, START + 10 * MINUTE).state.standing?.wrapUp?.until).toBe(
			START + 10 * MINUTE + 2_000,
		);
	});
});
