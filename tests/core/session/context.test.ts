// What each model call carries to the model in the rulebook: the warning block, the aware line, the wrap-up notice.

import { describe, expect, it } from "vitest";
import { EMPTY_SESSION, transition } from "../../../src/core/session/index.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import {
	call,
	contextOf,
	fiveTurns,
	notices,
	tenMinutes,
	tool,
	WRAP_UP,
	warning,
	withBudget,
} from "../../support/session.ts";

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
		expect(contextOf(transition(state, call("p9"), START).effects)).toEqual([]);
	});

	it("warns once at 80% and gives the model the warning block", () => {
		const result = transition(withBudget(fiveTurns, { usedTurns: 4 }), call("p5"), START);
		expect(result.state.standing?.budget.softNudgeSent).toBe(true);
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
			{ kind: "recordPrompt", prompt: "p5" },
		]);
	});

	it("warns on time at 80% and tells the model the time left", () => {
		const result = transition(withBudget(tenMinutes), call("p1"), START + 8 * MINUTE);
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
			{ kind: "recordPrompt", prompt: "p1" },
		]);
	});

	it("gives every later call the block as it stands then, and no second warning", () => {
		const nudged = withBudget(tenMinutes, { nudged: true, lastPrompt: "p1", running: true });
		const first = transition(nudged, call(null), START + 8 * MINUTE);
		const later = transition(first.state, call(null), START + 9 * MINUTE + 30_000);
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
		let state = transition(withBudget(tenMinutes), call("p1"), START).state;
		const carried: boolean[] = [];
		for (const at of [7 * MINUTE, 7 * MINUTE + 59_000, 8 * MINUTE, 9 * MINUTE]) {
			const result = transition(state, call(null), START + at);
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
		const result = transition(withBudget(budget({ turnLimit: 20 }), { usedTurns, nudged }), call("next"), START);
		expect(contextOf(result.effects)[0]?.text.split("\n")[0]).toBe(heading);
	});

	it("warns critically when the first warning comes from 95%", () => {
		const result = transition(withBudget(budget({ turnLimit: 20 }), { usedTurns: 19 }), call("p20"), START);
		expect(notices(result.effects)).toEqual(["Timebox: 1 prompt left of 20 — the model is asked to wrap up now."]);
	});

	it("measures a model call of a running prompt without that prompt", () => {
		const running = withBudget(fiveTurns, { usedTurns: 5, lastPrompt: "p5", running: true, runningCounted: true });
		expect(contextOf(transition(running, call(null), START).effects)[0]?.text).toContain(
			"Turns: this is the last prompt the budget allows (4 of 5 used).",
		);
	});

	it("gives every call a line with what is left when the budget says aware, and the block from 80%", () => {
		const aware = withBudget(budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5, awareness: "always" }), {
			usedTurns: 2,
		});
		const first = transition(aware, call("p3"), START + 5 * MINUTE + 48_000);
		expect(contextOf(first.effects)).toEqual([
			{ kind: "context", text: "Timebox: 9m 12s and 3 prompts left of 15m / 5 prompts." },
		]);
		const late = transition(first.state, call(null), START + 12 * MINUTE);
		expect(contextOf(late.effects)[0]?.text.split("\n")[0]).toBe("IMPORTANT TIMEBOX WARNING");
	});

	it("takes awareness from the session's setting when the budget does not say", () => {
		const state = withBudget(tenMinutes, { settings: { awareness: "always" } });
		expect(contextOf(transition(state, call("p1"), START).effects)).toEqual([
			{ kind: "context", text: "Timebox: 10m 0s left of 10m." },
		]);
		const turnsOnly = withBudget(fiveTurns, { settings: { awareness: "always" } });
		expect(contextOf(transition(turnsOnly, call("p1"), START).effects)).toEqual([
			{ kind: "context", text: "Timebox: 5 prompts left of 5 prompts." },
		]);
	});

	it("says in the block that tools are refused and the model may finish, when the budget has a grace period", () => {
		const graced = withBudget({ ...tenMinutes, graceMs: 30_000 });
		expect(
			contextOf(transition(graced, call("p1"), START + 9 * MINUTE).effects)[0]
				?.text.split("\n")
				.at(-1),
		).toBe("When the budget runs out, your tool calls are refused and you have 30s to write the final answer.");
	});

	it("adds nothing to a tool call, and nothing to a call while paused", () => {
		const state = withBudget(budget({ timeLimitMs: 10 * MINUTE, awareness: "always" }), {
			lastPrompt: "p1",
			running: true,
		});
		expect(contextOf(transition(state, tool(), START + 9 * MINUTE).effects)).toEqual([]);
		const paused = withBudget({ ...tenMinutes, awareness: "always", pausedAt: START + 9 * MINUTE });
		expect(contextOf(transition(paused, call("p1"), START + 9 * MINUTE).effects)).toEqual([]);
	});
});
