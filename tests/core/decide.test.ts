// The §4 decision rules: ok below 80%, a one-shot nudge from 80% (critical from 95%), stop at the limit.

import { describe, expect, it } from "vitest";
import { decide, urgencyFor } from "../../src/core/decide.ts";
import { elapsedMs, safeTurns, worstRatio } from "../../src/core/measure.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const fifteenMinutes = budget({ timeLimitMs: 15 * MINUTE });
const fiveTurns = budget({ turnLimit: 5 });
const twentyTurns = budget({ turnLimit: 20 });

describe("decide", () => {
	it("returns ok below 80%", () => {
		expect(decide(fifteenMinutes, START + 11 * MINUTE, 0)).toEqual({ kind: "ok" });
		expect(decide(fiveTurns, START, 3)).toEqual({ kind: "ok" });
	});

	it("returns nudge:warning at exactly 80% time", () => {
		expect(decide(fifteenMinutes, START + 12 * MINUTE, 0)).toEqual({
			kind: "nudge",
			urgency: "warning",
			detail: "3m 0s left (15m budget) | no turn limit",
		});
	});

	it("returns nudge:warning at 80% turns", () => {
		expect(decide(fiveTurns, START, 4)).toEqual({
			kind: "nudge",
			urgency: "warning",
			detail: "no time limit | 1 turn left (4/5)",
		});
	});

	it("returns nudge:critical at 95% turns and at 95% time", () => {
		expect(decide(twentyTurns, START, 19)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(fifteenMinutes, START + 14.25 * MINUTE, 0)).toMatchObject({ kind: "nudge", urgency: "critical" });
	});

	it("returns stop at 100% time", () => {
		expect(decide({ ...fifteenMinutes, onStopCommand: "lmk done" }, START + 15 * MINUTE, 2)).toEqual({
			kind: "stop",
			usedTurns: 2,
			elapsedMs: 15 * MINUTE,
			onStopCommand: "lmk done",
		});
	});

	it("returns stop once turns reach the limit", () => {
		expect(decide(fiveTurns, START, 5)).toEqual({ kind: "stop", usedTurns: 5, elapsedMs: 0, onStopCommand: null });
		expect(decide(fiveTurns, START, 9)).toMatchObject({ kind: "stop", usedTurns: 9 });
	});

	it("stops on either dimension of a combined budget, whichever comes first", () => {
		const combined = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 3 });
		expect(decide(combined, START + MINUTE, 3)).toMatchObject({ kind: "stop" });
		expect(decide(combined, START + 15 * MINUTE, 0)).toMatchObject({ kind: "stop" });
	});

	it("lets the worst ratio set the urgency: critical wins over warning", () => {
		const combined = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 20 });
		expect(decide(combined, START + 12 * MINUTE, 19)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(combined, START + 14.5 * MINUTE, 16)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(combined, START + 12 * MINUTE, 1)).toMatchObject({ kind: "nudge", urgency: "warning" });
	});

	it("does not nudge twice", () => {
		expect(decide({ ...fifteenMinutes, softNudgeSent: true }, START + 13 * MINUTE, 0)).toEqual({ kind: "ok" });
		expect(decide({ ...fifteenMinutes, softNudgeSent: true }, START + 15 * MINUTE, 0)).toMatchObject({ kind: "stop" });
	});

	it("treats a clock that went back, and nonsense counts, as nothing used", () => {
		expect(decide(fifteenMinutes, START - 60 * MINUTE, 0)).toEqual({ kind: "ok" });
		expect(decide(fiveTurns, START, -3)).toEqual({ kind: "ok" });
		expect(decide(fiveTurns, START, Number.NaN)).toEqual({ kind: "ok" });
		expect(decide(fifteenMinutes, Number.NaN, 0)).toEqual({ kind: "ok" });
	});
});

describe("measures", () => {
	it("ignores a dimension without a limit in the worst ratio", () => {
		expect(worstRatio(budget({ timeLimitMs: 10 * MINUTE }), START + 5 * MINUTE, 1_000)).toBe(0.5);
		expect(worstRatio(budget({ turnLimit: 4 }), START + 10_000 * MINUTE, 1)).toBe(0.25);
	});

	it("never reports negative elapsed time or turns", () => {
		expect(elapsedMs(fifteenMinutes, START - 1)).toBe(0);
		expect(safeTurns(-2)).toBe(0);
		expect(safeTurns(2.7)).toBe(2);
		expect(safeTurns(Number.POSITIVE_INFINITY)).toBe(0);
	});

	it("picks the urgency from the ratio", () => {
		expect(urgencyFor(0.8)).toBe("warning");
		expect(urgencyFor(0.95)).toBe("critical");
	});
});
