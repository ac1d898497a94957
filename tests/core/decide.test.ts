// The decision rules: ok below 80%, a one-shot nudge from 80% (critical from 95%), stop at the limit, and the same on
// the time limit alone for the clock's checks.

import { describe, expect, it } from "vitest";
import { decide, decideMidRun, urgencyFor } from "../../src/core/decide.ts";
import { elapsedMs, safeTurns, worstRatio } from "../../src/core/model/measure.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const fifteenMinutes = budget({ timeLimitMs: 15 * MINUTE });
const fiveTurns = budget({ turnLimit: 5 });
const twentyTurns = budget({ turnLimit: 20 });

describe("decide", () => {
	it("decide() returns ok below 80%", () => {
		expect(decide(fifteenMinutes, START + 11 * MINUTE, 0)).toEqual({ kind: "ok" });
		expect(decide(fiveTurns, START, 3)).toEqual({ kind: "ok" });
	});

	it("returns nudge:warning at exactly 80% time", () => {
		expect(decide(fifteenMinutes, START + 12 * MINUTE, 0)).toEqual({
			kind: "nudge",
			urgency: "warning",
			detail: "3m 0s left of 15m",
		});
	});

	it("returns nudge:warning at 80% turns", () => {
		expect(decide(fiveTurns, START, 4)).toEqual({
			kind: "nudge",
			urgency: "warning",
			detail: "1 prompt left of 5",
		});
	});

	it("returns nudge:critical at 95% turns and at 95% time", () => {
		expect(decide(twentyTurns, START, 19)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(fifteenMinutes, START + 14.25 * MINUTE, 0)).toMatchObject({
			kind: "nudge",
			urgency: "critical",
		});
	});

	it("returns stop at 100% time, with the turns used, the time elapsed and the on-stop command", () => {
		expect(decide({ ...fifteenMinutes, onStopCommand: "lmk" }, START + 15 * MINUTE, 2)).toEqual({
			kind: "stop",
			usedTurns: 2,
			elapsedMs: 15 * MINUTE,
			onStopCommand: "lmk",
			summary: { usedTurns: 2, elapsedMs: 15 * MINUTE, timeRanOut: true },
		});
	});

	it("returns stop once turns reach the limit, saying the turns ran out", () => {
		expect(decide(fiveTurns, START + MINUTE, 5)).toEqual({
			kind: "stop",
			usedTurns: 5,
			elapsedMs: MINUTE,
			onStopCommand: null,
			summary: { usedTurns: 5, elapsedMs: MINUTE, timeRanOut: false },
		});
		expect(decide({ ...fiveTurns, softNudgeSent: true }, START, 9)).toMatchObject({
			kind: "stop",
			summary: { usedTurns: 9 },
		});
	});

	it("stops on either dimension of a combined budget, whichever comes first", () => {
		const combined = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 3 });
		expect(decide(combined, START + MINUTE, 3)).toMatchObject({ kind: "stop", summary: { timeRanOut: false } });
		expect(decide(combined, START + 15 * MINUTE, 0)).toMatchObject({
			kind: "stop",
			summary: { timeRanOut: true },
		});
		expect(decide(combined, START + 15 * MINUTE, 3)).toMatchObject({
			kind: "stop",
			summary: { timeRanOut: true },
		});
	});

	it("lets the worst ratio set the urgency: critical wins over warning", () => {
		const combined = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 20 });
		expect(decide(combined, START + 12 * MINUTE, 19)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(combined, START + 14.5 * MINUTE, 16)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(combined, START + 12 * MINUTE, 1)).toMatchObject({ kind: "nudge", urgency: "warning" });
	});

	it("does not nudge once the nudge was given, but still stops", () => {
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

describe("decideMidRun", () => {
	it("leaves the turn limit to prompts: used-up turns are not a stop", () => {
		expect(decideMidRun(fiveTurns, START, 5)).toEqual({ kind: "ok" });
		expect(decideMidRun(fiveTurns, START, 4)).toEqual({ kind: "ok" });
	});

	it("nudges and stops on the time limit, showing the turns used", () => {
		const combined = budget({ timeLimitMs: 10 * MINUTE, turnLimit: 5 });
		expect(decideMidRun(combined, START + 8 * MINUTE, 1)).toEqual({
			kind: "nudge",
			urgency: "warning",
			detail: "2m 0s left of 10m",
		});
		expect(decideMidRun({ ...combined, softNudgeSent: true }, START + 10 * MINUTE, 7)).toEqual({
			kind: "stop",
			usedTurns: 7,
			elapsedMs: 10 * MINUTE,
			onStopCommand: null,
			summary: { usedTurns: 7, elapsedMs: 10 * MINUTE, timeRanOut: true },
		});
	});
});

describe("measures", () => {
	it("ignores a dimension without a limit in the worst ratio", () => {
		expect(worstRatio(budget({ timeLimitMs: 10 * MINUTE }), START + 5 * MINUTE, 1_000)).toBe(0.5);
		expect(worstRatio(budget({ turnLimit: 4 }), START + 10_000 * MINUTE, 1)).toBe(0.25);
	});

	it.each([
		[START - 1, 0],
		[START, 0],
		[START + 1_500, 1_500],
		[Number.NaN, 0],
		[Number.POSITIVE_INFINITY, 0],
	])("measures the time elapsed at %d as %d ms", (now, elapsed) => {
		expect(elapsedMs(fifteenMinutes, now)).toBe(elapsed);
	});

	it.each([
		[3, 3],
		[-2, 0],
		[2.7, 2],
		[Number.NaN, 0],
		[Number.POSITIVE_INFINITY, 0],
	])("reads %d used turns as %d", (turns, safe) => {
		expect(safeTurns(turns)).toBe(safe);
	});

	it.each([
		[0.8, "warning"],
		[0.94, "warning"],
		[0.95, "critical"],
		[1, "critical"],
	])("picks the urgency at %d used: %s", (ratio, urgency) => {
		expect(urgencyFor(ratio)).toBe(urgency);
	});
});
