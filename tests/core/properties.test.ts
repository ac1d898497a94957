// Properties that must hold for any input: the parser never throws nor yields an unusable budget, decisions only get
// more severe as time and turns are used, a history folds whatever JSON a session file holds, and the session rules
// never count past a turn limit nor stop a budget twice, whatever events arrive in whatever order.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_TIME_LIMIT_MS, MAX_TURN_LIMIT, MIN_TIME_LIMIT_MS } from "../../src/core/constants.ts";
import { decide } from "../../src/core/decide.ts";
import { formatStatus } from "../../src/core/format.ts";
import { parseCommand } from "../../src/core/grammar/command.ts";
import type { Decision } from "../../src/core/model/budget.ts";
import { foldHistory, type HistoryItem } from "../../src/core/model/history.ts";
import {
	type Effect,
	EMPTY_SESSION,
	NOTHING_RECORDED,
	type SessionEvent,
	shownTurns,
	statusText,
	transition,
} from "../../src/core/session/index.ts";
import { anyString } from "../support/arbitraries.ts";
import { budget, START } from "../support/budgets.ts";

const tokenPieces = [
	"15m",
	"30s",
	"2h",
	"1.5h",
	"90",
	"turns:3",
	"turns:",
	"--",
	"off",
	"status",
	"0",
	"-1",
	"1e3m",
	"0x10m",
	"NaNm",
	"turns:-1",
];
const commandLike = fc
	.array(fc.oneof(fc.constantFrom(...tokenPieces), fc.string(), fc.string({ unit: "grapheme" })), {
		maxLength: 12,
	})
	.map((parts) => parts.join(" "));

const severity = (decision: Decision): number =>
	decision.kind === "ok" ? 0 : decision.kind === "stop" ? 3 : decision.urgency === "warning" ? 1 : 2;

describe("parseCommand properties", () => {
	it("never throws and never yields a budget with a non-finite or non-positive limit", () => {
		fc.assert(
			fc.property(fc.oneof(anyString, commandLike), (input) => {
				const result = parseCommand(input);
				if (result.kind !== "set") return;
				// A budget has at least one limit: a time, prompts, tokens, cost or a step cap (`$5` alone is a budget).
				const spendLimit =
					result.tokenLimit !== undefined || result.costLimit !== undefined || result.stepLimit !== undefined;
				expect(result.timeLimitMs !== null || result.turnLimit !== null || spendLimit).toBe(true);
				if (result.timeLimitMs !== null) {
					expect(Number.isFinite(result.timeLimitMs)).toBe(true);
					expect(result.timeLimitMs).toBeGreaterThanOrEqual(MIN_TIME_LIMIT_MS);
					expect(result.timeLimitMs).toBeLessThanOrEqual(MAX_TIME_LIMIT_MS);
				}
				if (result.turnLimit !== null) {
					expect(Number.isInteger(result.turnLimit)).toBe(true);
					expect(result.turnLimit).toBeGreaterThanOrEqual(1);
					expect(result.turnLimit).toBeLessThanOrEqual(MAX_TURN_LIMIT);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("never throws on huge inputs: 10,000 tokens, 100,000 characters, huge digit runs", () => {
		const manyTokens = Array.from({ length: 10_000 }, (_, i) => tokenPieces[i % tokenPieces.length]).join(" ");
		const inputs = [
			manyTokens,
			"x".repeat(100_000),
			`${"9".repeat(100_000)}m`,
			`turns:${"9".repeat(5_000)}`,
			"٣m",
			"𝟓m",
		];
		for (const input of inputs) {
			const result = parseCommand(input);
			expect(["set", "invalid", "off", "status"]).toContain(result.kind);
			if (result.kind === "invalid") expect(result.reason.length).toBeLessThan(200);
		}
	});
});

describe("decide properties", () => {
	const budgets = fc.record({
		timeLimitMs: fc.option(fc.integer({ min: MIN_TIME_LIMIT_MS, max: MAX_TIME_LIMIT_MS })),
		turnLimit: fc.option(fc.integer({ min: 1, max: 1_000 })),
	});

	it("never becomes less severe as elapsed time or used turns grow, warned or not", () => {
		fc.assert(
			fc.property(
				budgets,
				fc.boolean(),
				fc.nat({ max: 2 * MAX_TIME_LIMIT_MS }),
				fc.nat({ max: MAX_TIME_LIMIT_MS }),
				fc.nat({ max: 2_000 }),
				fc.nat({ max: 2_000 }),
				(limits, nudged, elapsed, moreElapsed, turns, moreTurns) => {
					const b = budget(limits);
					const before = decide({ ...b, softNudgeSent: nudged }, START + elapsed, turns);
					const after = decide({ ...b, softNudgeSent: nudged }, START + elapsed + moreElapsed, turns + moreTurns);
					expect(severity(after)).toBeGreaterThanOrEqual(severity(before));
				},
			),
			{ numRuns: 500 },
		);
	});

	it("never shows NaN or a negative number in the status", () => {
		fc.assert(
			fc.property(budgets, fc.double(), fc.double(), (limits, now, turns) => {
				const text = formatStatus(budget(limits), now, turns);
				expect(text).not.toMatch(/NaN|Infinity|-\d/);
			}),
		);
	});
});

describe("foldHistory properties", () => {
	const prompt = fc.constantFrom("p1", "p2", "p3").map((key): HistoryItem => ({ kind: "prompt", key }));

	it("never throws on arbitrary JSON values as records, and counts only prompts it holds", () => {
		const record = fc.jsonValue({ maxDepth: 2 }).map((value): HistoryItem => ({ kind: "record", record: value }));
		fc.assert(
			fc.property(fc.array(fc.oneof(record, prompt), { maxLength: 15 }), (items) => {
				const folded = foldHistory(items);
				expect(folded.usedTurns).toBeLessThanOrEqual(items.filter((item) => item.kind === "prompt").length);
				if (folded.budget === null) expect(folded.usedTurns).toBe(0);
			}),
			{ numRuns: 200 },
		);
	});

	it("never yields a budget whose status shows NaN, from records shaped like budgets with any field values", () => {
		const field = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.double(), fc.constant(undefined));
		const record = fc
			.record({
				kind: fc.constantFrom("active", "off", "other"),
				budget: fc.record({
					version: fc.oneof(fc.constant(undefined), fc.constant(2)),
					id: fc.oneof(field, fc.constant("budget-1")),
					timeLimitMs: field,
					turnLimit: field,
					startTime: field,
					onStopCommand: field,
				}),
				budgetId: field,
				disabledAt: field,
			})
			.map((value): HistoryItem => ({ kind: "record", record: value }));
		fc.assert(
			fc.property(fc.array(fc.oneof(record, prompt), { maxLength: 10 }), fc.double(), (items, now) => {
				const folded = foldHistory(items);
				if (folded.budget) expect(formatStatus(folded.budget, now, folded.usedTurns)).not.toMatch(/NaN|Infinity/);
			}),
			{ numRuns: 200 },
		);
	});
});

describe("session properties", () => {
	const event: fc.Arbitrary<SessionEvent> = fc.oneof(
		fc.constantFrom<SessionEvent>(
			{ type: "runEnd" },
			{ type: "timeCheck" },
			{ type: "modelCall", prompt: null },
			{ type: "toolCall", prompt: null },
		),
		fc
			.constantFrom("p1", "p2", "p3", "p4", "p5")
			.chain((key) =>
				fc.constantFrom<SessionEvent>({ type: "modelCall", prompt: key }, { type: "toolCall", prompt: key }),
			),
	);
	const spentClaims = (effects: readonly Effect[]): number =>
		effects.filter((effect) => effect.kind === "once" && effect.claim.kind === "spent").length;

	it("never counts past the turn limit, never shows a negative count, and stops a budget at most once", () => {
		fc.assert(
			fc.property(
				fc.constantFrom("turns:1", "turns:3", "1m", "2m turns:2"),
				fc.array(fc.tuple(event, fc.nat({ max: 20_000 })), { maxLength: 30 }),
				(args, events) => {
					const limit = parseCommand(args);
					let now = START;
					let state = transition(EMPTY_SESSION, { type: "command", args, newBudgetId: "b1" }, now).state;
					let stops = 0;
					for (const [next, waitMs] of events) {
						now += waitMs;
						const result = transition(state, next, now);
						state = result.state;
						stops += spentClaims(result.effects);
						expect(shownTurns(state)).toBeGreaterThanOrEqual(0);
						if (limit.kind === "set" && limit.turnLimit !== null) {
							expect(state.standing?.usedTurns ?? 0).toBeLessThanOrEqual(limit.turnLimit);
						}
						expect(statusText(state, now)).not.toMatch(/NaN|Infinity|-\d/);
					}
					expect(stops).toBeLessThanOrEqual(1);
					expect(stops).toBe(state.standing?.spent ? 1 : 0);
				},
			),
			{ numRuns: 100 },
		);
	});

	it("loads whatever a history and ledger hold without throwing", () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.oneof(
						fc.jsonValue({ maxDepth: 2 }).map((value): HistoryItem => ({ kind: "record", record: value })),
						fc.string().map((key): HistoryItem => ({ kind: "prompt", key })),
					),
					{ maxLength: 10 },
				),
				fc.constantFrom("restore", "continue") as fc.Arbitrary<"restore" | "continue">,
				fc.boolean(),
				fc.integer(),
				(items, mode, announce, now) => {
					const history = foldHistory(items);
					const { state } = transition(
						EMPTY_SESSION,
						{ type: "load", history, ledger: NOTHING_RECORDED, mode, announce },
						now,
					);
					expect(state.lastPrompt).toBe(history.lastPrompt);
				},
			),
			{ numRuns: 100 },
		);
	});
});
