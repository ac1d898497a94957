// Properties that must hold for any input: the parser never throws nor yields an unusable budget, decisions only get
// more severe as time and turns are used, and restore survives any JSON a session file could hold.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Decision } from "../../src/core/budget.ts";
import { MAX_TIME_LIMIT_MS, MAX_TURN_LIMIT, MIN_TIME_LIMIT_MS } from "../../src/core/constants.ts";
import { decide } from "../../src/core/decide.ts";
import { formatStatus } from "../../src/core/format.ts";
import { parseCommand } from "../../src/core/parse.ts";
import { restore } from "../../src/core/persist.ts";
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
				expect(result.timeLimitMs !== null || result.turnLimit !== null).toBe(true);
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
		softNudgeSent: fc.boolean(),
	});

	it("never becomes less severe as elapsed time or used turns grow", () => {
		fc.assert(
			fc.property(
				budgets,
				fc.nat({ max: 2 * MAX_TIME_LIMIT_MS }),
				fc.nat({ max: MAX_TIME_LIMIT_MS }),
				fc.nat({ max: 2_000 }),
				fc.nat({ max: 2_000 }),
				(limits, elapsed, moreElapsed, turns, moreTurns) => {
					const b = budget(limits);
					const before = decide(b, START + elapsed, turns);
					const after = decide(b, START + elapsed + moreElapsed, turns + moreTurns);
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

describe("restore properties", () => {
	it("never throws on arbitrary JSON values as records", () => {
		fc.assert(
			fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.integer(), fc.integer(), (records, now, count) => {
				const result = restore(records, now, count);
				expect(["none", "expired", "restored"]).toContain(result.status);
			}),
			{ numRuns: 300 },
		);
	});

	it("never throws on records shaped like budgets with arbitrary field values", () => {
		const field = fc.oneof(fc.jsonValue(), fc.double(), fc.constant(undefined));
		const record = fc.record({
			kind: fc.constantFrom("active", "off", "other"),
			budget: fc.record({
				timeLimitMs: field,
				turnLimit: field,
				startTime: field,
				startTurn: field,
				onStopCommand: field,
			}),
			disabledAt: field,
		});
		fc.assert(
			fc.property(fc.array(record, { maxLength: 10 }), fc.double(), fc.double(), (records, now, count) => {
				const result = restore(records, now, count);
				if (result.status === "restored") {
					expect(formatStatus(result.budget, now, count)).not.toMatch(/NaN|Infinity/);
				}
			}),
			{ numRuns: 300 },
		);
	});
});
