// The budget's limits in the rulebook: each event (model call, tool call, end of a run, time check, on-stop report)
// counting, warning and stopping, a whole session, and the question at the limit.

import { describe, expect, it } from "vitest";
import type { TimeboxBudget } from "../../../src/core/model/budget.ts";
import type { OnStopOutcome } from "../../../src/core/ports.ts";
import {
	type Effect,
	EMPTY_SESSION,
	type SessionEvent,
	type SessionState,
	statusText,
	transition,
} from "../../../src/core/session/index.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import {
	call,
	changed,
	contextOf,
	DAY,
	fiveTurns,
	loadEvent,
	notices,
	play,
	RUN_END,
	type SessionOutline,
	SPENT,
	session,
	set,
	spentText,
	stopEffects,
	TIME_CHECK,
	tenMinutes,
	threeTurns,
	tool,
	warning,
	withBudget,
} from "../../support/session.ts";

describe("modelCall", () => {
	it("lets a prompt run without a budget and remembers it as the latest", () => {
		const result = transition(EMPTY_SESSION, call("p1"), START);
		expect(result.state).toEqual(session({ lastPrompt: "p1", running: true }));
		expect(result.effects).toEqual([
			{ kind: "status", text: undefined },
			{ kind: "recordPrompt", prompt: "p1" },
		]);
	});

	it("counts a new prompt, showing the count without it while it runs", () => {
		const result = transition(withBudget(threeTurns), call("p1"), START);
		expect(result.state).toEqual(
			session({ lastPrompt: "p1", running: true, budget: threeTurns, usedTurns: 1, runningCounted: true }),
		);
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" },
			{ kind: "recordPrompt", prompt: "p1" },
		]);
	});

	it("never counts the same prompt again: its tool loop, retry or re-run goes on", () => {
		const running = play(withBudget(threeTurns), [call("p1")]);
		const again = transition(running, call("p1"), START);
		expect(again.state).toEqual(running);
		expect(again.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" }]);
		const rerun = transition(play(running, [RUN_END]), call("p1"), START);
		expect(rerun.state).toMatchObject({ running: true, standing: { usedTurns: 1 } });
		expect(rerun.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" }]);
	});

	it("never counts a run an extension started, even with every prompt used, but stops it at the time limit", () => {
		const extensionRun: SessionEvent = { type: "modelCall", prompt: "e1", step: 1, startedBy: "extension" };
		const first = transition(withBudget(threeTurns), extensionRun, START);
		expect(first.state).toMatchObject({ lastPrompt: "e1", running: true, standing: { usedTurns: 0 } });
		expect(first.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 3 turns left (0/3)" }]);
		const allUsed = withBudget(threeTurns, { usedTurns: 3, lastPrompt: "p3" });
		expect(transition(allUsed, extensionRun, START).state).toMatchObject({
			lastPrompt: "e1",
			standing: { usedTurns: 3, spent: null },
		});
		const late = transition(withBudget(tenMinutes), extensionRun, START + 10 * MINUTE);
		expect(late.state.standing?.spent).not.toBeNull();
		expect(late.effects).toContainEqual({ kind: "abort" });
	});

	it("takes a call without a prompt for the latest prompt", () => {
		const answered = play(withBudget(threeTurns), [call("p1"), RUN_END]);
		const result = transition(answered, call(null), START);
		expect(result.state).toMatchObject({ lastPrompt: "p1", running: true, standing: { usedTurns: 1 } });
	});

	it("counts a run without any prompt once, however many model calls it makes", () => {
		let state = withBudget(threeTurns);
		for (let calls = 0; calls < 4; calls++) state = transition(state, call(null), START).state;
		expect(state).toMatchObject({ running: true, standing: { usedTurns: 1, runningCounted: true, spent: null } });
		expect(statusText(state, START)).toBe("Timebox: no time limit | 3 turns left (0/3)");
	});

	it("warns when a new prompt reaches 80%, counting it", () => {
		const result = transition(withBudget(fiveTurns, { usedTurns: 4, lastPrompt: "p4" }), call("p5"), START);
		expect(result.state).toMatchObject({
			standing: { usedTurns: 5, budget: { softNudgeSent: true }, runningCounted: true },
		});
		expect(result.effects).toEqual([
			warning("Timebox: 1 prompt left of 5 — the model is asked to wrap up."),
			{ kind: "status", text: "Timebox: no time limit | 1 turn left (4/5)" },
			{ kind: "context", text: expect.stringContaining("IMPORTANT TIMEBOX WARNING") },
			{ kind: "recordPrompt", prompt: "p5" },
		]);
	});

	it("stops prompt N+1 of turns:N without counting it: says so, runs the on-stop command, aborts and refuses", () => {
		const allUsed = withBudget(threeTurns, { usedTurns: 3, lastPrompt: "p3", runningCounted: true });
		const result = transition(allUsed, call("p4"), START + MINUTE);
		const summary = { usedTurns: 3, elapsedMs: MINUTE, timeRanOut: false };
		expect(result.state).toEqual(
			changed(allUsed, {
				lastPrompt: "p4",
				running: true,
				runningCounted: false,
				spent: summary,
				stoppedPrompt: "p4",
			}),
		);
		expect(result.effects).toEqual(stopEffects(summary, "p4", "1m 0s", "lmk", true));
	});

	it("stops without an on-stop command by notifying alone", () => {
		const result = transition(withBudget(fiveTurns, { usedTurns: 5 }), call("p6"), START);
		expect(result.effects).toEqual(
			stopEffects({ usedTurns: 5, elapsedMs: 0, timeRanOut: false }, "p6", "0s", null, true),
		);
	});

	it("stops a new prompt when the time ran out before any check saw it", () => {
		const result = transition(
			withBudget(budget({ timeLimitMs: 5 * MINUTE, turnLimit: 9 })),
			call("p1"),
			START + 6 * MINUTE,
		);
		expect(result.effects).toEqual(
			stopEffects({ usedTurns: 0, elapsedMs: 6 * MINUTE, timeRanOut: true }, "p1", "6m 0s", null, true),
		);
	});

	it("stops the running prompt at its next call once the time ran out, aborting and refusing the call", () => {
		const running = play(withBudget(budget({ timeLimitMs: MINUTE })), [call("p1")]);
		const result = transition(running, call("p1"), START + MINUTE);
		expect(result.state).toMatchObject({ standing: { stoppedPrompt: "p1", spent: { timeRanOut: true } } });
		expect(result.effects).toEqual(
			// The running prompt, counted at its start, was used: the claim says so for an extension.
			stopEffects(
				{ usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true, promptCounted: true },
				"p1",
				"1m 0s",
				null,
				true,
			),
		);
	});

	it("aborts and refuses every later call for the stopped prompt, by key or as the latest", () => {
		const stopped = play(withBudget(threeTurns, { usedTurns: 3 }), [call("p4")], START + MINUTE);
		const refusal = [{ kind: "abort" }, { kind: "refuse", reason: spentText(3, "1m 0s") }];
		expect(transition(stopped, call("p4"), START + 5 * MINUTE).effects).toEqual(refusal);
		expect(transition(stopped, call(null), START).effects).toEqual(refusal);
		const rerun = transition(play(stopped, [RUN_END]), call("p4"), START);
		expect(rerun.effects).toEqual(refusal);
		expect(rerun.state).toMatchObject({ running: true, standing: { usedTurns: 3 } });
	});

	it("after the stop, runs a new prompt normally without counting it", () => {
		const stopped = play(withBudget(threeTurns, { usedTurns: 3 }), [call("p4"), RUN_END]);
		const next = transition(stopped, call("p5"), START);
		expect(next.state).toMatchObject({
			lastPrompt: "p5",
			running: true,
			standing: { runningCounted: false, usedTurns: 3 },
		});
		expect(next.effects).toEqual([
			{ kind: "status", text: SPENT },
			{ kind: "recordPrompt", prompt: "p5" },
		]);
		expect(transition(next.state, call("p5"), START).effects).toEqual([{ kind: "status", text: SPENT }]);
		expect(transition(next.state, tool(), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});
});

describe("toolCall", () => {
	it("lets a tool run while the budget holds, refreshing the status", () => {
		const running = play(withBudget(tenMinutes), [call("p1")]);
		const result = transition(running, tool(), START + MINUTE);
		expect(result.state).toBe(running);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: 9m 0s left (10m budget) | no turn limit" }]);
	});

	it("lets a tool run after a stop that found no prompt to stop", () => {
		const spent = { usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true };
		const state = withBudget(tenMinutes, { spent, stoppedPrompt: null });
		expect(transition(state, tool(null), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});

	it("lets a tool run without a budget", () => {
		expect(transition(EMPTY_SESSION, tool("p1"), START).effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("refuses a tool of the stopped prompt, by key or as the latest", () => {
		const stopped = play(withBudget(threeTurns, { usedTurns: 3 }), [call("p4")]);
		const refusal = [{ kind: "abort" }, { kind: "refuse", reason: spentText(3, "0s") }];
		expect(transition(stopped, tool(), START).effects).toEqual(refusal);
		expect(transition(stopped, tool("p4"), START).effects).toEqual(refusal);
		expect(transition(stopped, tool("p3"), START).effects).toEqual([{ kind: "status", text: SPENT }]);
	});

	it("stops at the deadline and refuses the tool", () => {
		const withCommand = budget({ timeLimitMs: MINUTE, onStopCommand: "lmk" });
		const running = play(withBudget(withCommand), [call("p1")]);
		const result = transition(running, tool(), START + MINUTE);
		const summary = { usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true, promptCounted: true as const };
		expect(result.state).toMatchObject({ standing: { spent: summary, stoppedPrompt: "p1" } });
		expect(result.effects).toEqual(stopEffects(summary, "p1", "1m 0s", "lmk", true));
	});

	it("stops the prompt the tool belongs to when it is not the latest, so that prompt's next tool is refused", () => {
		const running = play(withBudget(budget({ timeLimitMs: MINUTE })), [call("p1"), call("p2")]);
		const result = transition(running, tool("p1"), START + MINUTE);
		expect(result.state).toMatchObject({ standing: { stoppedPrompt: "p1" } });
		expect(transition(result.state, tool("p1"), START + MINUTE).effects).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(1, "1m 0s") },
		]);
	});

	it("leaves the turn limit to prompts", () => {
		const allUsed = play(withBudget(fiveTurns, { usedTurns: 4, nudged: true }), [call("p5")]);
		expect(transition(allUsed, tool(), START).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 1 turn left (4/5)" },
		]);
	});
});

describe("promptRefused", () => {
	const REFUSED: SessionEvent = { type: "promptRefused" };

	it("takes back the count of the latest prompt, which never ran, ends its run, and has the store forget it", () => {
		const counted = play(withBudget(threeTurns), [call("p1"), RUN_END, call("p2")]);
		const result = transition(counted, REFUSED, START);
		expect(result.state).toEqual(
			withBudget(threeTurns, { usedTurns: 1, lastPrompt: "p2", running: false, runningCounted: false }),
		);
		expect(result.effects).toEqual([
			{ kind: "dropPrompt", prompt: "p2" },
			{ kind: "status", text: statusText(result.state, START) },
		]);
		expect(statusText(result.state, START)).toBe("Timebox: no time limit | 2 turns left (1/3)");
		// The same prompt's events still to come are not a new prompt's: they count nothing.
		expect(transition(result.state, call("p2"), START).state.standing?.usedTurns).toBe(1);
	});

	it("has the store forget a prompt that ran without a budget, and does nothing before any prompt", () => {
		const running = play(EMPTY_SESSION, [call("p1")]);
		expect(transition(running, REFUSED, START)).toEqual({
			state: { ...running, running: false },
			effects: [
				{ kind: "dropPrompt", prompt: "p1" },
				{ kind: "status", text: undefined },
			],
		});
		expect(transition(EMPTY_SESSION, REFUSED, START)).toEqual({ state: EMPTY_SESSION, effects: [] });
		// A prompt whose run the rules did not start (it ended, or they never let it go) is left alone.
		const ended = play(withBudget(threeTurns), [call("p1"), RUN_END]);
		expect(transition(ended, REFUSED, START)).toEqual({ state: ended, effects: [] });
	});
});

describe("runEnd", () => {
	it("shows the answered prompt in the count", () => {
		const running = withBudget(threeTurns, { usedTurns: 2, lastPrompt: "p2", running: true, runningCounted: true });
		expect(statusText(running, START)).toBe("Timebox: no time limit | 2 turns left (1/3)");
		const result = transition(running, RUN_END, START);
		expect(result.state).toEqual({ ...running, running: false });
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: no time limit | 1 turn left (2/3)" }]);
	});

	it.each([
		["without a budget", EMPTY_SESSION, undefined],
		["once spent", withBudget(fiveTurns, { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }), SPENT],
	])("shows the status %s", (_name, state, text) => {
		expect(transition(state, RUN_END, START).effects).toEqual([{ kind: "status", text }]);
	});
});

describe("timeCheck", () => {
	it("refreshes the status below 80%", () => {
		const active = withBudget(tenMinutes);
		const result = transition(active, TIME_CHECK, START + MINUTE);
		expect(result.state).toBe(active);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: 9m 0s left (10m budget) | no turn limit" }]);
	});

	it("warns at 80% once, even while idle", () => {
		const result = transition(withBudget(tenMinutes), TIME_CHECK, START + 8 * MINUTE);
		expect(result.state.standing?.budget.softNudgeSent).toBe(true);
		expect(result.effects).toEqual([
			warning("Timebox: 2m 0s left of 10m — the model will be told at its next call to wrap up."),
			{ kind: "status", text: "Timebox: 2m 0s left (10m budget) | no turn limit" },
		]);
		expect(transition(result.state, TIME_CHECK, START + 8 * MINUTE + 1_000).effects).toEqual([
			{ kind: "status", text: "Timebox: 1m 59s left (10m budget) | no turn limit" },
		]);
	});

	it("warns critically when the first check comes after 95%", () => {
		const result = transition(withBudget(tenMinutes), TIME_CHECK, START + 9.6 * MINUTE);
		expect(notices(result.effects)).toEqual([
			"Timebox: 24s left of 10m — the model will be told at its next call to wrap up now.",
		]);
	});

	it("stops at 100%, recording the latest prompt as stopped, with nothing to refuse", () => {
		const idle = withBudget(budget({ timeLimitMs: 10 * MINUTE, onStopCommand: "lmk" }), {
			usedTurns: 2,
			lastPrompt: "p2",
			nudged: true,
		});
		const result = transition(idle, TIME_CHECK, START + 10 * MINUTE);
		const summary = { usedTurns: 2, elapsedMs: 10 * MINUTE, timeRanOut: true };
		expect(result.state).toEqual(changed(idle, { spent: summary, stoppedPrompt: "p2" }));
		expect(result.effects).toEqual(stopEffects(summary, "p2", "10m 0s", "lmk", false, true));
		expect(transition(result.state, call("p2"), START).effects).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(2, "10m 0s") },
		]);
		expect(transition(result.state, call("p3"), START).effects).toEqual([
			{ kind: "status", text: SPENT },
			{ kind: "recordPrompt", prompt: "p3" },
		]);
	});

	it("stops with no prompt to record when none was sent", () => {
		const result = transition(withBudget(tenMinutes), TIME_CHECK, START + 11 * MINUTE);
		expect(result.state.standing?.stoppedPrompt).toBeNull();
		expect(result.effects[1]).toMatchObject({ kind: "once", claim: { kind: "spent", prompt: null } });
	});

	it("leaves the turn limit to prompts: used-up turns are not stopped by the clock", () => {
		const allUsed = withBudget(budget({ turnLimit: 1 }), { usedTurns: 1 });
		expect(transition(allUsed, TIME_CHECK, START + DAY).effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | 0 turns left (1/1)" },
		]);
	});

	it.each([
		["without a budget", EMPTY_SESSION, undefined],
		["once spent", withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } }), SPENT],
	])("only shows the status %s", (_name, state, text) => {
		const result = transition(state, TIME_CHECK, START + DAY);
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
		const result = transition(state, { type: "onStopReport", command: "lmk done", outcome }, START);
		expect(result.state).toBe(state);
		expect(result.effects).toEqual([
			{ kind: "notify", message, level },
			{ kind: "status", text: "Timebox: 10m 0s left (10m budget) | no turn limit" },
		]);
	});

	it("keeps what became of the command in the footer of the spent budget, where no later message hides it", () => {
		const spent = withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 10 * MINUTE, timeRanOut: true } });
		const report = (state: SessionState, outcome: OnStopOutcome) =>
			transition(state, { type: "onStopReport", command: "lmk", outcome }, START).state;
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
		expect(statusText(transition(ran, set("5m"), START).state, START)).toBe(
			"Timebox: 5m 0s left (5m budget) | no turn limit",
		);
		expect(transition(ran, set("5m"), START).state.standing?.onStopOutcome).toBeNull();
	});

	it("says nothing of a start that found the command started by another process, which said so, and keeps it as ran", () => {
		const spent = withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 10 * MINUTE, timeRanOut: true } });
		const result = transition(
			spent,
			{ type: "onStopReport", command: "lmk", outcome: { kind: "alreadyStarted" } },
			START,
		);
		expect(result.effects).toEqual([{ kind: "status", text: "Timebox: budget spent | on-stop command ran" }]);
		const failed = transition(
			spent,
			{ type: "onStopReport", command: "lmk", outcome: { kind: "failed", problem: "x" } },
			START,
		);
		const after = transition(
			failed.state,
			{ type: "onStopReport", command: "lmk", outcome: { kind: "alreadyStarted" } },
			START,
		);
		expect(statusText(after.state, START)).toBe("Timebox: budget spent | on-stop command failed");
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
			const result = transition(state, event, START);
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
		expect(state).toMatchObject({
			lastPrompt: "p4",
			running: false,
			standing: { usedTurns: 2, stoppedPrompt: "p3" },
		});
	});
});

describe("asking the user", () => {
	const ask = (result: { effects: Effect[] }) => result.effects.find((effect) => effect.kind === "ask");

	it("asks before a new budget replaces an active one, where the host can ask", () => {
		const active = withBudget(threeTurns, { usedTurns: 1 });
		const event: SessionEvent = { type: "command", args: "5m", newBudgetId: "b2", canAsk: true };
		const result = transition(active, event, START + MINUTE);
		expect(result.state).toBe(active);
		expect(result.effects).toEqual([
			{
				kind: "ask",
				question: "Replace the active budget (2 turns left)?",
				choices: [
					{ label: "Replace it", answer: { ...event, confirmed: true } },
					{ label: "Keep it", answer: { type: "declined", message: "Nothing changed: the active budget stays." } },
				],
				timeoutMs: 30_000,
				onTimeout: { type: "declined", message: "Nothing changed: the active budget stays." },
			},
		]);
		expect(transition(active, { ...event, confirmed: true }, START).state.standing?.budget?.id).toBe("b2");
		expect(transition(active, { type: "declined", message: "no" }, START)).toEqual({
			state: active,
			effects: [{ kind: "notify", message: "no", level: "info" }],
		});
	});

	it("replaces without asking where the host cannot ask, or when the budget is spent", () => {
		const active = withBudget(tenMinutes);
		expect(transition(active, set("5m"), START).state.standing?.budget?.id).toBe("b1");
		const spent = withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } });
		const event: SessionEvent = { type: "command", args: "5m", newBudgetId: "b2", canAsk: true };
		expect(transition(spent, event, START).state.standing?.budget?.id).toBe("b2");
	});

	describe("at the limit", () => {
		const asking = (b: TimeboxBudget, more: SessionOutline = {}) => withBudget(b, { askAtLimit: true, ...more });

		it("asks instead of stopping: stop now, 5 more minutes or 1 more prompt, stopping after 30 s", () => {
			const result = transition(asking(threeTurns, { usedTurns: 3, lastPrompt: "p3" }), call("p4"), START);
			expect(result.state).toMatchObject({ asking: true, standing: { spent: null, usedTurns: 3 } });
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
				expect(transition(open, event, START + 20 * MINUTE)).toEqual({
					state: open,
					effects: [{ kind: "status", text: "Timebox: 0s left (10m budget) | no turn limit" }],
				});
			}
		});

		it("stops as usual when the user chooses to stop", () => {
			const open = asking(threeTurns, { usedTurns: 3, lastPrompt: "p3", asking: true });
			const result = transition(open, { type: "limitAnswer", answer: "stop", reached: call("p4") }, START);
			expect(result.state).toMatchObject({ asking: false, standing: { stoppedPrompt: "p4" } });
			expect(result.effects).toContainEqual({ kind: "abort" });
		});

		it("goes on with one more prompt: the prompt that reached the limit runs and counts", () => {
			const open = asking(threeTurns, { usedTurns: 3, lastPrompt: "p3", asking: true });
			const result = transition(open, { type: "limitAnswer", answer: "prompts", reached: call("p4") }, START);
			expect(result.state).toMatchObject({
				asking: false,
				lastPrompt: "p4",
				standing: { spent: null, usedTurns: 4 },
			});
			expect(result.state.standing?.budget?.turnLimit).toBe(4);
			expect(result.effects).not.toContainEqual({ kind: "abort" });
		});

		it("goes on with five more minutes, and asks again when time was not what ran out", () => {
			const timeUp = asking(budget({ timeLimitMs: MINUTE }), { lastPrompt: "p1", running: true, asking: true });
			const more = transition(timeUp, { type: "limitAnswer", answer: "time", reached: TIME_CHECK }, START + MINUTE);
			expect(more.state).toMatchObject({ asking: false, standing: { spent: null } });
			expect(more.state.standing?.budget?.timeLimitMs).toBe(6 * MINUTE);
			const turnsUp = asking(threeTurns, { usedTurns: 3, lastPrompt: "p3", asking: true });
			const again = transition(turnsUp, { type: "limitAnswer", answer: "time", reached: call("p4") }, START);
			expect(again.state).toMatchObject({ asking: true, standing: { spent: null } });
			expect(ask(again)).toMatchObject({ kind: "ask" });
		});

		it.each([
			["ask", true, true],
			["ask", false, false],
			["stop", true, false],
		])("is on for onLimit %j where the host can ask (%s): %s", (value, canAsk, on) => {
			const event = { ...loadEvent({}), onLimit: { value, source: "settings" }, canAsk };
			expect(transition(EMPTY_SESSION, event, START).state.askAtLimit === true).toBe(on);
		});

		it("names an onLimit it does not know, and stops at the limit", () => {
			const event = {
				...loadEvent({}),
				onLimit: { value: "maybe", source: "timebox.onLimit in s.json" },
				canAsk: true,
			};
			const result = transition(EMPTY_SESSION, event, START);
			expect(result.state.askAtLimit).toBe(false);
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
	const asking = (b: TimeboxBudget, more: SessionOutline = {}) => withBudget(b, { askAtLimit: true, ...more });

	it("names each choice's answer: stop, more time, one more prompt", () => {
		const result = transition(asking(threeTurns, { usedTurns: 3, lastPrompt: "p3" }), call("p4"), START);
		const question = result.effects[0];
		expect(question?.kind === "ask" && question.choices.map((choice) => choice.answer)).toEqual([
			{ type: "limitAnswer", answer: "stop", reached: call("p4") },
			{ type: "limitAnswer", answer: "time", reached: call("p4") },
			{ type: "limitAnswer", answer: "prompts", reached: call("p4") },
		]);
	});

	it("asks when the time runs out at a tool call too", () => {
		const running = asking(budget({ timeLimitMs: MINUTE }), { lastPrompt: "p1", running: true });
		expect(transition(running, tool(), START + MINUTE).effects[0]).toMatchObject({ kind: "ask" });
	});

	it("does not ask again for a prompt already stopped: it is refused", () => {
		const spent = { usedTurns: 3, elapsedMs: 0, timeRanOut: false };
		const stopped = asking(threeTurns, { usedTurns: 3, lastPrompt: "p4", spent, stoppedPrompt: "p4" });
		expect(transition(stopped, call("p4"), START).effects).toEqual([
			{ kind: "abort" },
			{ kind: "refuse", reason: spentText(3, "0s") },
		]);
	});
});

describe("a paused budget near its end", () => {
	const nearlyDone = withBudget({ ...tenMinutes, pausedAt: START + 9 * MINUTE });

	it("gives no warning and no block to a prompt while paused", () => {
		const result = transition(nearlyDone, call("p1"), START + 30 * MINUTE);
		expect(contextOf(result.effects)).toEqual([]);
		expect(notices(result.effects)).toEqual([]);
	});

	it("neither warns nor stops on a time check while paused", () => {
		const result = transition(nearlyDone, TIME_CHECK, START + 30 * MINUTE);
		expect(result.state).toBe(nearlyDone);
		expect(result.effects).toEqual([
			{ kind: "status", text: "Timebox: paused | 1m 0s left (10m budget) | no turn limit" },
		]);
	});
});
