// The session budget's loop guard in the rulebook: the word and its refusals, the count per run (A A A A, A B A B,
// a new prompt afresh), what the model reads and the person sees at the Nth call and at the stop, the budget in force
// after it with no on-stop command, what it does not count, and the guard kept in the budget's records. Guards a loop
// no limit ends, a guard that stops the budget, and one that lets the model go on after the stop.

import { describe, expect, it } from "vitest";
import { parseDailyBudget } from "../../../src/core/daily/daily-budget.ts";
import { describeBudget } from "../../../src/core/format.ts";
import { parseCommand, parseTaskBudget } from "../../../src/core/grammar/command.ts";
import { callKey } from "../../../src/core/loop/calls.ts";
import type { HistoryItem } from "../../../src/core/model/history.ts";
import { budgetRecord, parseBudget } from "../../../src/core/model/records.ts";
import {
	type Effect,
	NOTHING_RECORDED,
	type SessionEvent,
	type SessionState,
	statusText,
	transition,
} from "../../../src/core/session/index.ts";
import { LOOP_STOPPED_REFUSAL } from "../../../src/core/text/loop.ts";
import { sessionReport } from "../../../src/core/text/report.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import { loadEvent, session } from "../../support/session.ts";

type Call = { tool: string; input: unknown };
const A: Call = { tool: "bash", input: { command: "npm test" } };
const B: Call = { tool: "read", input: { path: "src/parse.ts" } };
const use = (call: Call, prompt: string | null = null): SessionEvent => ({ type: "toolCall", prompt, call });
const model = (prompt: string | null): SessionEvent => ({ type: "modelCall", prompt });

/** Feeds events in order and returns the state and each event's effects. */
function run(state: SessionState, events: readonly SessionEvent[], now = START) {
	let current = state;
	const effects: Effect[][] = [];
	for (const event of events) {
		const result = transition(current, event, now);
		current = result.state;
		effects.push(result.effects);
	}
	return { state: current, effects };
}

const notRunning = (effects: readonly Effect[]) => effects.filter((effect) => effect.kind !== "status");

const REFUSED_3RD =
	"Timebox: this is the 3rd identical bash call in this run (npm test); its result will not change. Change your approach or finish with what you have.";
const STOPPED_4 = "Timebox stopped a loop: bash (npm test) asked for 4 times in this run.";

describe("the loop word", () => {
	it.each([
		["loop:3", { loopLimit: 3 }],
		["loop: 3", { loopLimit: 3 }],
		["LOOP:1000", { loopLimit: 1000 }],
		["30m loop:3", { timeLimitMs: 30 * MINUTE, loopLimit: 3 }],
		["loop:2 loop:4", { loopLimit: 4, notes: ["loop:4 replaces loop:2."] }],
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
		["loop:0", '"loop:0" is out of range: a loop guard is 2 to 1,000 identical calls.'],
		["loop:1", '"loop:1" is out of range: a loop guard is 2 to 1,000 identical calls.'],
		["loop:1001", '"loop:1001" is out of range: a loop guard is 2 to 1,000 identical calls.'],
		["loop:x", '"loop:x" is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).'],
		["loop:", '"loop:" is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).'],
		["15m loop:-2", '"loop:-2" is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).'],
		["+loop:2", "An extension adds to the limits only; set aware, grace, steps or loop with a new budget."],
		["+10m +loop:2", "An extension adds to the limits only; set aware, grace, steps or loop with a new budget."],
	])("refuses %j, naming the word", (input, reason) => {
		expect(parseCommand(input)).toEqual({ kind: "invalid", reason });
	});

	it("takes a subagent budget's loop guard, alone or with its other words, and refuses a bad one", () => {
		expect(parseTaskBudget("5m loop:3")).toEqual({ timeLimitMs: 5 * MINUTE, loopLimit: 3 });
		expect(parseTaskBudget("loop:3")).toEqual({ timeLimitMs: null, loopLimit: 3 });
		expect(parseCommand("subagents 5m loop:3")).toMatchObject({ kind: "subagents", action: "set", words: "5m loop:3" });
		expect(parseTaskBudget("5m loop:0")).toEqual({
			invalid: '"loop:0" is out of range: a loop guard is 2 to 1,000 identical calls.',
		});
	});

	it("is no daily budget's word", () => {
		expect(parseDailyBudget("3h loop:3", "user", "TIMEBOX_DAILY")).toEqual({
			warning:
				"Timebox: TIMEBOX_DAILY: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.",
		});
	});

	it("is said when set and shown in the status", () => {
		expect(describeBudget({ timeLimitMs: 30 * MINUTE, turnLimit: null, loopLimit: 3, onStopCommand: null })).toBe(
			"30m and a loop guard (the 3rd identical tool call of a run is refused)",
		);
		const state = session({ budget: budget({ timeLimitMs: 30 * MINUTE, loopLimit: 3 }) });
		expect(statusText(state, START)).toBe("Timebox: 30m 0s left (30m budget) | no turn limit | loop guard at 3");
		const set = transition(session(), { type: "command", args: "loop:3", newBudgetId: "b1" }, START);
		expect(set.effects).toContainEqual({
			kind: "notify",
			message: "Timebox set: a loop guard (the 3rd identical tool call of a run is refused).",
			level: "info",
		});
		expect(set.state.standing?.budget.loopLimit).toBe(3);
	});
});

describe("the loop guard at work", () => {
	const guarded = session({ budget: budget({ loopLimit: 3, onStopCommand: "lmk", timeLimitMs: 30 * MINUTE }) });

	it("lets a call run twice, refuses the 3rd with why, stops the run at the 4th, and keeps the budget", () => {
		const played = run(guarded, [model("p1"), use(A), use(A), use(A), use(A)]);
		const [, first, second, third, fourth] = played.effects.map(notRunning);
		expect(first).toEqual([]);
		expect(second).toEqual([]);
		expect(third).toEqual([
			{
				kind: "notify",
				message: "Timebox refused a repeated call: bash (npm test), the 3rd identical one in this run.",
				level: "warning",
			},
			{ kind: "refuse", reason: REFUSED_3RD },
		]);
		expect(fourth).toEqual([
			{ kind: "notify", message: STOPPED_4, level: "warning" },
			{ kind: "abort" },
			{
				kind: "refuse",
				reason: `${STOPPED_4} Write the final answer now, with what was done and what is left. Call no more tools.`,
			},
		]);
		// The budget is not spent: it stays in force, and no on-stop command runs.
		expect(played.state.standing?.spent).toBeNull();
		expect(played.state.standing?.budget.active).toBe(true);
		expect(played.effects.flat().some((effect) => effect.kind === "startOnStop" || effect.kind === "once")).toBe(false);
		expect(statusText(played.state, START)).toBe("Timebox: 30m 0s left (30m budget) | no turn limit | loop guard at 3");
	});

	it("refuses anything more of the stopped run, a model call or another tool, and lets the next prompt start afresh", () => {
		const stopped = run(guarded, [model("p1"), use(A), use(A), use(A), use(A)]).state;
		const after = run(stopped, [use(B), model(null), model("p2"), use(A), use(A)]);
		const [other, again, next, first, second] = after.effects.map(notRunning);
		expect(other).toEqual([{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }]);
		expect(again).toEqual([{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }]);
		expect(next?.some((effect) => effect.kind === "refuse" || effect.kind === "abort")).toBe(false);
		expect(first).toEqual([]);
		expect(second).toEqual([]);
		expect(after.state.standing?.calls).toMatchObject({ run: "p2", peak: 2, size: 1 });
	});

	it("counts calls that are not one after the other: A B A B refuses both at their 3rd, and stops at the 4th", () => {
		const played = run(guarded, [model("p1"), use(A), use(B), use(A), use(B), use(A), use(B), use(A)]);
		const refusals = played.effects.map((effects) => effects.find((effect) => effect.kind === "refuse"));
		expect(refusals.slice(0, 5)).toEqual([undefined, undefined, undefined, undefined, undefined]);
		expect(refusals[5]).toEqual({ kind: "refuse", reason: REFUSED_3RD });
		expect(refusals[6]).toEqual({
			kind: "refuse",
			reason:
				"Timebox: this is the 3rd identical read call in this run (src/parse.ts); its result will not change. Change your approach or finish with what you have.",
		});
		expect(played.effects[7]).toContainEqual({ kind: "notify", message: STOPPED_4, level: "warning" });
		expect(played.effects[7]).toContainEqual({ kind: "abort" });
	});

	it("never counts different calls together, nor the same call in two prompts", () => {
		const inputs = Array.from({ length: 6 }, (_, n): Call => ({ tool: "bash", input: { command: `echo ${n}` } }));
		const varied = run(guarded, [model("p1"), ...inputs.map((call) => use(call))]);
		expect(varied.effects.flat().some((effect) => effect.kind === "refuse")).toBe(false);
		const split = run(guarded, [model("p1"), use(A), use(A), { type: "runEnd" }, model("p2"), use(A), use(A)]);
		expect(split.effects.flat().some((effect) => effect.kind === "refuse")).toBe(false);
	});

	it("counts a steering message's calls with its prompt's (a model call of the same prompt is the same run)", () => {
		const played = run(guarded, [model("p1"), use(A), model("p1"), use(A), model(null), use(A)]);
		expect(played.effects[5]).toContainEqual({ kind: "refuse", reason: REFUSED_3RD });
	});

	it("counts from the keys the host kept when it gives them (a hook host's log)", () => {
		const key = callKey(A);
		const event: SessionEvent = { type: "toolCall", prompt: "p1", call: A, earlier: [key, key] };
		const refused = transition({ ...guarded, lastPrompt: "p1", running: true }, event, START);
		expect(refused.effects).toContainEqual({ kind: "refuse", reason: REFUSED_3RD });
		const stopped = transition(
			{ ...guarded, lastPrompt: "p1", running: true },
			{ ...event, call: B, earlier: [key, key, key, key] },
			START,
		);
		expect(notRunning(stopped.effects)).toEqual([{ kind: "abort" }, { kind: "refuse", reason: LOOP_STOPPED_REFUSAL }]);
	});

	it.each([
		["a budget with no loop guard", session({ budget: budget({ timeLimitMs: 30 * MINUTE }) })],
		["a paused budget", session({ budget: budget({ loopLimit: 2, turnLimit: 9, pausedAt: START }) })],
		[
			"a spent budget",
			session({
				budget: budget({ loopLimit: 2, turnLimit: 1 }),
				spent: { usedTurns: 1, elapsedMs: 0, timeRanOut: false },
			}),
		],
		["no budget", session()],
	])("counts nothing under %s", (_name, state) => {
		const played = run(state, [model("p1"), use(A), use(A), use(A)]);
		expect(played.effects.flat().some((effect) => effect.kind === "refuse")).toBe(false);
		expect(played.state.standing?.calls).toBeUndefined();
	});

	it("counts nothing of a call whose tool and input the host does not show", () => {
		const played = run(guarded, [
			model("p1"),
			...Array.from({ length: 4 }, (): SessionEvent => ({ type: "toolCall", prompt: null })),
		]);
		expect(played.effects.flat().some((effect) => effect.kind === "refuse")).toBe(false);
	});

	it("lets the budget's own stop win at a call that reaches its time limit, and counts nothing then", () => {
		const state = run(guarded, [model("p1"), use(A), use(A)]).state;
		const late = transition(state, use(A), START + 31 * MINUTE);
		const claimed = late.effects.find((effect) => effect.kind === "once");
		expect(claimed?.kind === "once" ? claimed.then : []).toContainEqual({
			kind: "startOnStop",
			command: "lmk",
			claim: { kind: "spent", budgetId: "budget-1" },
		});
		expect(late.effects.some((effect) => effect.kind === "notify" && effect.message.includes("loop"))).toBe(false);
	});

	it("counts nothing while a question at a limit is open", () => {
		const asking = { ...run(guarded, [model("p1"), use(A), use(A)]).state, asking: true };
		const held = transition(asking, use(A), START);
		expect(held.state.standing?.calls?.peak).toBe(2);
		expect(held.effects.some((effect) => effect.kind === "refuse")).toBe(false);
	});
});

describe("the loop guard kept", () => {
	it("is named in the report, with the budget's other words", () => {
		const items: HistoryItem[] = [
			{
				kind: "record",
				record: { kind: "active", budget: budgetRecord(budget({ timeLimitMs: 30 * MINUTE, loopLimit: 3 })) },
			},
		];
		expect(sessionReport(items, () => NOTHING_RECORDED, START + MINUTE).split("\n")[1]).toBe(
			"1. 30m and a loop guard (the 3rd identical tool call of a run is refused), set 1m 0s ago: used 1m 0s, 0 turns, 0 tokens, $0.00. Still active.",
		);
	});

	it("is written in the budget's record and read back; a bad one is dropped", () => {
		const written = budgetRecord(budget({ loopLimit: 3 }));
		expect(written.loopLimit).toBe(3);
		expect(parseBudget(written)?.loopLimit).toBe(3);
		expect(parseBudget({ ...written, timeLimitMs: 60_000, loopLimit: 1 })?.loopLimit).toBeUndefined();
		expect(parseBudget({ ...written, loopLimit: 1 })).toBeNull();
	});

	it("comes back with the session, its run's count starting afresh", () => {
		const loaded = transition(
			session(),
			loadEvent({ budget: budget({ loopLimit: 3 }), hasRecords: true }, { mode: "continue" }),
			START,
		).state;
		expect(loaded.standing?.budget.loopLimit).toBe(3);
		const played = run(loaded, [model("p1"), use(A), use(A), use(A)]);
		expect(played.effects[3]).toContainEqual({ kind: "refuse", reason: REFUSED_3RD });
	});
});
