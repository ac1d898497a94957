// Arbitrary lines of a session's log (fast-check), of every kind a hook writes or an earlier version wrote, over a few
// ids so that prompts, responses, agents and claims meet again: the folds of a log are tested against its lines.

import fc from "fast-check";
import {
	EMPTY_SESSION,
	foldHistory,
	type KeptLine,
	type LogLine,
	NOTHING_RECORDED,
	type SessionState,
	transition,
} from "../../src/core/index.ts";
import { budgetRecord, offRecord } from "../../src/core/model/records.ts";
import { budget, START } from "./budgets.ts";

// Beside plain ids: the empty one, one that begins another, and ones holding what a summary's id texts part ids with.
const id = fc.constantFrom("p1", "p2", "p3", "constructor", "__proto__", "", "p", "p1\np2", "p\t1");
const agent = fc.constantFrom("a1", "a2");
const at = fc.integer({ min: START, max: START + 10_000 });
// `+ 0`: JSON writes -0 as 0.
const amount = fc.oneof(
	fc.integer({ min: 0, max: 5_000 }),
	fc.double({ min: -10, max: 10, noNaN: true }).map((value) => value + 0),
);
const prompt = fc.record({ input: fc.nat(1_000), from: fc.nat(10_000) });

/** A budget record: set, paused, carrying turns and spend over, in the first version's form, off, or unreadable. */
const record: fc.Arbitrary<LogLine> = fc.oneof(
	fc
		.record({ turns: fc.integer({ min: 1, max: 5 }), before: fc.nat(3), tokens: fc.nat(100), cost: amount })
		.map(({ turns, before, tokens, cost }) => ({
			kind: "active",
			budget: budgetRecord(budget({ turnLimit: turns }), before, { tokens, cost: Math.max(0, cost) }),
		})),
	fc.constant({ kind: "active", budget: { ...budgetRecord(budget({ turnLimit: 3 })), pausedAt: START + 5 } }),
	fc.constant({ kind: "active", budget: { ...budget({ turnLimit: 4 }), version: undefined, startTurn: 1 } }),
	fc.constant({ ...offRecord("budget-1", START + 1) }),
	fc.constant({ kind: "active", budget: "unreadable" }),
	fc.constant({ kind: "subagents", budgets: { "*": "5m" } }),
	fc.constant({ kind: "subagent", agent: "unreadable" }),
) as fc.Arbitrary<LogLine>;

/** One line of a session's log. */
export const logLine: fc.Arbitrary<LogLine> = fc.oneof(
	{ arbitrary: record, weight: 3 },
	{ arbitrary: fc.record({ kind: fc.constant("prompt" as const), promptId: id, at }), weight: 4 },
	fc.record({ kind: fc.constant("prompt" as const), promptId: id, at, cwd: fc.constantFrom("/a", "/b") }),
	{ arbitrary: fc.record({ kind: fc.constant("call" as const), promptId: id, at }), weight: 3 },
	{
		arbitrary: fc.record(
			{
				kind: fc.constant("usage" as const),
				responseId: fc.oneof(
					{ arbitrary: fc.nat(12).map((n) => `r${n}`), weight: 4 },
					fc.constantFrom("", "r", "r1\nr2", "r\t1"),
				),
				tokens: amount,
				cost: amount,
				at,
				offset: fc.nat(10_000),
				prompt,
			},
			{ requiredKeys: ["kind", "responseId", "tokens"] },
		),
		weight: 3,
	},
	fc.record({ kind: fc.constant("transcript" as const), offset: fc.nat(10_000) }),
	fc.record({ kind: fc.constant("transcript-unreadable" as const), at }),
	fc.record({ kind: fc.constant("default-said" as const), at }),
	fc.record({ kind: fc.constant("ended" as const), promptId: id, at }),
	fc.record({ kind: fc.constant("prompt-dropped" as const), promptId: id, at }),
	fc.record({
		kind: fc.constant("tool" as const),
		promptId: id,
		agent: fc.option(agent),
		key: fc.constantFrom("k1", "k2"),
		at,
	}),
	fc.record({
		kind: fc.constant("untold" as const),
		notices: fc.array(fc.constantFrom("n1", "n2"), { maxLength: 2 }),
		at,
	}),
	fc.record({ kind: fc.constant("told" as const), at }),
	fc.record({ kind: fc.constant("daily-warned" as const), level: fc.constantFrom("80", "95"), at }),
	fc.record({ kind: fc.constantFrom("daily-stopped" as const, "daily-ended" as const), promptId: id, at }),
	fc.record({
		kind: fc.constant("claim" as const),
		claim: fc.constantFrom(
			{ kind: "nudged" as const, budgetId: "budget-1" },
			{ kind: "off" as const, budgetId: "budget-1" },
			{ kind: "onStopRecovered" as const, budgetId: "budget-1" },
		),
		at,
	}),
	fc.record({
		kind: fc.constant("spent" as const),
		budgetStart: fc.constant(START),
		usedTurns: fc.nat(3),
		elapsedMs: fc.nat(100),
		promptId: fc.option(id),
	}),
	fc.record({ kind: fc.constant("nudged" as const), budgetStart: fc.constant(START) }),
	fc.record({
		kind: fc.constant("spawn" as const),
		id: fc.option(agent),
		agent: fc.option(agent),
		agentType: fc.constantFrom("t1", "t2"),
		task: fc.constant("task"),
		at,
	}),
	fc.record({ kind: fc.constant("spawn-taken" as const), index: fc.nat(3), agent, at }),
	fc.record({ kind: fc.constant("spawn-refused" as const), agent, reason: fc.constant("no"), at }),
	fc.record({ kind: fc.constant("owed" as const), to: fc.option(agent), lines: fc.constant(["owed"]), at }),
	fc.record({ kind: fc.constant("paid" as const), to: fc.option(agent), at }),
) as fc.Arbitrary<LogLine>;

/** A log's lines, and a place to split it. */
export const splitLog = fc
	.array(logLine, { maxLength: 60, size: "max" })
	.chain((lines) => fc.tuple(fc.constant(lines), fc.integer({ min: 0, max: lines.length })));

/** The ids the arbitrary lines use, to ask every query of a fold about each. */
export const PROMPT_IDS = ["p1", "p2", "p3", "constructor", "__proto__", "", "p", "p1\np2", "p\t1", "p2\n", "never"];
export const AGENT_IDS = ["a1", "a2", "a3"];

/** Kept lines with each run of prompts read back from a summary as the prompt lines it stands for, in order. */
export function expandKept(kept: readonly KeptLine[]): LogLine[] {
	return kept.flatMap((line): LogLine[] =>
		line.kind === "prompts"
			? line.ids
					.slice(0, -1)
					.split("\n")
					.map((promptId, index) => ({ kind: "prompt", promptId, at: line.at[index] as number }))
			: [line],
	);
}

/** A session under a loop guard, whose tool calls the log keeps: for the loop guard's reading of the lines. */
export const GUARDED: SessionState = transition(
	EMPTY_SESSION,
	{
		type: "load",
		history: foldHistory([
			{ kind: "record", record: { kind: "active", budget: budgetRecord(budget({ loopLimit: 3 })) } },
		]),
		ledger: NOTHING_RECORDED,
		mode: "continue",
		announce: false,
	},
	START,
).state;
