// The step cap in the rulebook: the word, the count per prompt (a call sent again counts once), the wrap-up call, the
// refusal past it, the question at the cap, and what the footer shows. Guards a runaway loop the cap never ends.

import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../src/core/grammar/command.ts";
import {
	type Effect,
	type SessionEvent,
	type SessionState,
	statusText,
	transition,
} from "../../../src/core/session/index.ts";
import { budget, START } from "../../support/budgets.ts";
import { session } from "../../support/session.ts";

const call = (prompt: string | null, stepNumber?: number): SessionEvent =>
	stepNumber === undefined ? { type: "modelCall", prompt } : { type: "modelCall", prompt, step: stepNumber };
const tool: SessionEvent = { type: "toolCall", prompt: null };
const kinds = (effects: readonly Effect[]) => effects.map((effect) => effect.kind);

function play(state: SessionState, events: readonly SessionEvent[]): { state: SessionState; effects: Effect[] } {
	let current = state;
	let last: Effect[] = [];
	for (const event of events) {
		const result = transition(current, event, START);
		current = result.state;
		last = result.effects;
	}
	return { state: current, effects: last };
}

describe("the steps word", () => {
	it.each([
		["steps:25", { stepLimit: 25 }],
		["steps: 1", { stepLimit: 1 }],
		["steps:2 steps:3", { stepLimit: 3, notes: ["steps:3 replaces steps:2."] }],
	])("reads %j", (input, expected) => {
		expect(parseCommand(input)).toEqual({
			kind: "set",
			timeLimitMs: null,
			turnLimit: null,
			onStopCommand: null,
			...expected,
		});
	});

	it.each([
		["steps:0", '"steps:0" is out of range: a step cap is 1 to 10,000 model calls per prompt.'],
		["steps:10001", '"steps:10001" is out of range: a step cap is 1 to 10,000 model calls per prompt.'],
		["+steps:2", "An extension adds to the limits only; set aware, grace, steps or loop with a new budget."],
	])("rejects %j", (input, reason) => {
		expect(parseCommand(input)).toEqual({ kind: "invalid", reason });
	});
});

describe("counting steps", () => {
	const capped = session({ budget: budget({ stepLimit: 2 }) });

	it("counts each call of a run once, a call sent again not twice, and starts afresh at the next prompt", () => {
		const run = play(capped, [call("p1", 1), call(null, 2), call(null, 2)]);
		expect(run.state.standing?.steps).toBe(2);
		expect(statusText(run.state, START)).toBe("Timebox: no time limit | no turn limit | step 2/2");
		const next = play(run.state, [{ type: "runEnd" }, call("p2", 1)]);
		expect(next.state.standing?.steps).toBe(1);
		expect(statusText({ ...next.state, running: false }, START)).toBe(
			"Timebox: no time limit | no turn limit | 2 steps per prompt",
		);
	});

	it("counts calls one by one where the host does not number them", () => {
		const run = play(capped, [call("p1"), call(null), call(null)]);
		expect(run.state.standing?.steps).toBe(3);
		expect(run.effects).toContainEqual({
			kind: "notify",
			message: "Timebox: this prompt used its 2 steps; the model was asked to finish.",
			level: "warning",
		});
		expect(run.effects.at(-1)).toMatchObject({
			kind: "context",
			text: expect.stringMatching(/^TIMEBOX: STEPS SPENT\n/),
		});
	});

	it("ends the run at a call past the wrap-up, and at a tool the wrap-up call asks for", () => {
		const wrapping = play(capped, [call("p1", 1), call(null, 2), call(null, 3)]).state;
		expect(kinds(transition(wrapping, tool, START).effects)).toEqual(["abort", "refuse"]);
		expect(kinds(transition(wrapping, call(null, 5), START).effects)).toEqual(["status", "abort", "refuse"]);
	});

	it("does not count while paused, once spent, or for a call that is refused anyway", () => {
		const paused = session({ budget: budget({ stepLimit: 2, pausedAt: START }) });
		expect(play(paused, [call("p1", 5)]).state.standing?.steps).toBeNull();
		const turnsSpent = session({ budget: budget({ stepLimit: 2, turnLimit: 1 }), usedTurns: 1, lastPrompt: "p0" });
		expect(play(turnsSpent, [call("p1", 1)]).state.standing?.steps).toBeNull();
	});

	it("asks at the cap when the user chose to be asked, and goes on with as many steps again", () => {
		const asking = { ...capped, askAtLimit: true };
		const run = play(asking, [call("p1", 1), call(null, 2)]);
		const atCap = transition(run.state, call(null, 3), START);
		expect(atCap.state.asking).toBe(true);
		const question = atCap.effects[0];
		if (question?.kind !== "ask") throw new Error("no question");
		expect(question.question).toBe("This prompt used its 2 steps. Stop now, or continue with 2 more?");
		const more = transition(atCap.state, question.choices[1]?.answer as SessionEvent, START);
		expect(more.state).toMatchObject({ asking: false, standing: { steps: 3, stepAllowance: 2 } });
		expect(statusText(more.state, START)).toBe("Timebox: no time limit | no turn limit | step 3/4");
		const stop = transition(atCap.state, question.choices[0]?.answer as SessionEvent, START);
		expect(stop.effects).toEqual([
			{ kind: "notify", message: "Timebox: this prompt used its 2 steps and was stopped.", level: "warning" },
			{ kind: "abort" },
			{
				kind: "refuse",
				reason:
					"Timebox: this prompt used its 2 steps. Write the final answer now, with what was done and what is left, without tools.",
			},
		]);
	});

	it("lets the call through, uncapped, when the budget was turned off while the question at the cap was open", () => {
		const asking = { ...capped, askAtLimit: true };
		const atCap = transition(play(asking, [call("p1", 1), call(null, 2)]).state, call(null, 3), START);
		const off = transition(atCap.state, { type: "command", args: "off", newBudgetId: "b2" }, START).state;
		const question = atCap.effects[0];
		if (question?.kind !== "ask") throw new Error("no question");
		const more = transition(off, question.choices[1]?.answer as SessionEvent, START);
		expect(more.state).toMatchObject({ asking: false, standing: null, lastPrompt: "p1" });
		expect(more.effects).toEqual([{ kind: "status", text: undefined }]);
	});

	it("counts no step for a call held for the question at the time limit", () => {
		const timed = session({ budget: budget({ stepLimit: 2, timeLimitMs: 60_000 }), askAtLimit: true });
		const held = transition(timed, call("p1", 1), START + 120_000);
		expect(kinds(held.effects)).toEqual(["ask"]);
		expect(held.state.standing?.steps).toBeNull();
	});

	it("asks again at the end of the steps granted, and counts a run the budget found under way from zero", () => {
		const asking = { ...capped, askAtLimit: true };
		const atCap = transition(play(asking, [call("p1", 1), call(null, 2)]).state, call(null, 3), START);
		const ask = (effects: readonly Effect[]) => {
			const question = effects[0];
			if (question?.kind !== "ask") throw new Error("no question");
			return question;
		};
		const more = transition(atCap.state, ask(atCap.effects).choices[1]?.answer as SessionEvent, START);
		const again = transition(play(more.state, [call(null, 4)]).state, call(null, 5), START);
		const twice = transition(again.state, ask(again.effects).choices[1]?.answer as SessionEvent, START);
		expect(twice.state).toMatchObject({ standing: { steps: 5, stepAllowance: 4 } });
		const underWay = { ...capped, lastPrompt: "p0", running: true };
		expect(transition(underWay, call(null), START).state.standing?.steps).toBe(1);
	});

	it("calls a cap of one a step", () => {
		expect(statusText(session({ budget: budget({ stepLimit: 1 }) }), START)).toBe(
			"Timebox: no time limit | no turn limit | 1 step per prompt",
		);
	});
});

describe("the cap after a compaction, and the limit question for tokens", () => {
	it("counts a call whose number dropped (its run's answers compacted away) as the next call", () => {
		const capped = session({ budget: budget({ stepLimit: 3 }) });
		const run = play(capped, [call("p1", 1), call(null, 2), call(null, 3), call(null, 1)]);
		expect(run.state.standing?.steps).toBe(4);
		expect(run.effects).toContainEqual(expect.objectContaining({ kind: "notify", level: "warning" }));
	});

	it("does not ask at a token limit, which more time or a prompt cannot lift: it stops", () => {
		const tokens = session({ budget: budget({ tokenLimit: 100 }), askAtLimit: true, lastPrompt: "p1", running: true });
		const result = transition(tokens, { type: "modelResponse", tokens: 150, cost: 0 }, START);
		expect(kinds(result.effects)).toEqual(["status", "once", "abort"]);
	});
});
