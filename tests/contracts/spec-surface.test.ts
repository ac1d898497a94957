// The core's shared contract as someone outside the project calls it, through the public entry alone: the budget's
// seven fields, parseTimeToMs / parseTurns / formatTime, decide(budget, now, turns) reading softNudgeSent from the
// budget, and restore(records, now, turns) over records shaped as the contract writes them.

import { describe, expect, it } from "vitest";
import {
	type Decision,
	decide,
	formatTime,
	parseTimeToMs,
	parseTurns,
	type RestoreResult,
	restore,
	type TimeboxBudget,
	type TimeboxRecord,
} from "../../src/core/index.ts";

const START = 1_800_000_000_000;
const MINUTE = 60_000;

/** A budget with exactly the seven shared fields, as the contract writes it. */
function budget(limits: { timeLimitMs?: number | null; turnLimit?: number | null }, more: Partial<TimeboxBudget> = {}) {
	const made: TimeboxBudget = {
		timeLimitMs: limits.timeLimitMs ?? null,
		turnLimit: limits.turnLimit ?? null,
		startTime: START,
		startTurn: 0,
		softNudgeSent: false,
		active: true,
		onStopCommand: null,
		...more,
	};
	return made;
}

const active = (b: TimeboxBudget): TimeboxRecord => ({ kind: "active", budget: b });
const off = (disabledAt: number): TimeboxRecord => ({ kind: "off", disabledAt });

describe("parseTimeToMs", () => {
	it.each([
		["15m", 900_000],
		["30s", 30_000],
		["2h", 7_200_000],
		["1.5h", 5_400_000],
		["90", 5_400_000],
		["15M", 900_000],
		["abc", null],
		["", null],
		["15x", null],
	])("%j → %j", (token, ms) => {
		expect(parseTimeToMs(token)).toBe(ms);
	});
});

describe("parseTurns", () => {
	it.each([
		["turns:5", 5],
		["TURNS: 10", 10],
		["turns:", null],
		["turns:abc", null],
	])("%j → %j", (token, turns) => {
		expect(parseTurns(token)).toBe(turns);
	});
});

describe("formatTime", () => {
	it.each([
		[0, "0s"],
		[59_000, "59s"],
		[60_000, "1m 0s"],
		[3_600_000, "1h 0m"],
		[3_661_000, "1h 1m"],
	])("%d → %j", (ms, text) => {
		expect(formatTime(ms)).toBe(text);
	});
});

describe("decide(budget, now, turns)", () => {
	const fifteen = budget({ timeLimitMs: 15 * MINUTE });
	const five = budget({ turnLimit: 5 });
	const twenty = budget({ turnLimit: 20 });

	it("returns ok below 80%", () => {
		expect(decide(fifteen, START + 11 * MINUTE, 0)).toEqual({ kind: "ok" });
		expect(decide(five, START, 3)).toEqual({ kind: "ok" });
	});

	it("returns nudge:warning at exactly 80% time; nudge:critical at 95% turns", () => {
		expect(decide(fifteen, START + 12 * MINUTE, 0)).toMatchObject({ kind: "nudge", urgency: "warning" });
		expect(decide(twenty, START, 19)).toMatchObject({ kind: "nudge", urgency: "critical" });
	});

	it("returns stop at 100% time; at turns >= turnLimit, with usedTurns, elapsedMs and onStopCommand", () => {
		const withCommand = budget({ timeLimitMs: 15 * MINUTE }, { onStopCommand: "lmk done" });
		const stop = decide(withCommand, START + 15 * MINUTE, 2);
		expect(stop).toMatchObject({ kind: "stop", usedTurns: 2, elapsedMs: 15 * MINUTE, onStopCommand: "lmk done" });
		expect(decide(five, START + MINUTE, 5)).toMatchObject({
			kind: "stop",
			usedTurns: 5,
			elapsedMs: MINUTE,
			onStopCommand: null,
		});
		expect(decide(five, START, 7)).toMatchObject({ kind: "stop", usedTurns: 7 });
	});

	it("combined budget: critical wins over warning; whichever ratio is worst sets urgency", () => {
		const combined = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 20 });
		expect(decide(combined, START + 12 * MINUTE, 19)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(combined, START + 14.5 * MINUTE, 16)).toMatchObject({ kind: "nudge", urgency: "critical" });
		expect(decide(combined, START + 12 * MINUTE, 1)).toMatchObject({ kind: "nudge", urgency: "warning" });
		expect(decide(combined, START, 20)).toMatchObject({ kind: "stop" });
	});

	it("reads softNudgeSent from the budget: no second nudge, but the stop still comes", () => {
		const warned = { ...fifteen, softNudgeSent: true };
		expect(decide(warned, START + 13 * MINUTE, 0)).toEqual({ kind: "ok" });
		expect(decide(warned, START + 15 * MINUTE, 0)).toMatchObject({ kind: "stop" });
	});

	it("says what is left in a nudge's detail", () => {
		const decision: Decision = decide(fifteen, START + 12 * MINUTE, 0);
		expect(decision.kind === "nudge" ? decision.detail : "").toContain("3m 0s");
	});
});

describe("restore(records, now, turns)", () => {
	const fifteen = budget({ timeLimitMs: 15 * MINUTE }, { onStopCommand: "lmk" });
	const status = (result: RestoreResult) => result.status;

	it('restore([]) → { status: "none" }', () => {
		expect(restore([], START, 0)).toEqual({ status: "none" });
	});

	it('restore([active]) with now < startTime + timeLimitMs → { status: "restored", budget }', () => {
		const result = restore([active(fifteen)], START + 5 * MINUTE, 0);
		expect(result).toMatchObject({ status: "restored", budget: { ...fifteen, softNudgeSent: false, active: true } });
	});

	it('restore([active]) past time limit → { status: "expired" }', () => {
		expect(restore([active(fifteen)], START + 15 * MINUTE, 0)).toEqual({ status: "expired" });
	});

	it('restore([active, off]) → { status: "none" } (off wins)', () => {
		expect(restore([active(fifteen), off(START + MINUTE)], START + 2 * MINUTE, 0)).toEqual({ status: "none" });
	});

	it('restore([off, active]) (active is newer) → { status: "restored" }', () => {
		expect(status(restore([off(START - MINUTE), active(fifteen)], START + MINUTE, 0))).toBe("restored");
	});

	it("restore([active]) past 80% but under 100% → softNudgeSent re-derived to true", () => {
		expect(restore([active(fifteen)], START + 12.75 * MINUTE, 0)).toMatchObject({
			status: "restored",
			budget: { softNudgeSent: true },
		});
	});

	it("re-derives softNudgeSent and active from the clock and turns, whatever the record says", () => {
		const stale = { ...fifteen, softNudgeSent: true, active: false };
		expect(restore([active(stale)], START + MINUTE, 0)).toMatchObject({
			status: "restored",
			budget: { softNudgeSent: false, active: true },
		});
	});

	it("counts turns from the budget's startTurn, and restores a budget whose turns are all used (it expires by time alone)", () => {
		const turns = budget({ turnLimit: 3 }, { startTurn: 4 });
		expect(restore([active(turns)], START, 5)).toMatchObject({ budget: { softNudgeSent: false } });
		expect(restore([active(turns)], START, 7)).toMatchObject({ status: "restored", budget: { softNudgeSent: true } });
		expect(restore([active(turns)], START + 600 * MINUTE, 9)).toMatchObject({ status: "restored" });
	});

	it("restores a legacy record without onStopCommand with onStopCommand null", () => {
		const { onStopCommand: _none, ...legacy } = fifteen;
		const records = [{ kind: "active", budget: legacy }] as unknown as TimeboxRecord[];
		expect(restore(records, START, 0)).toMatchObject({ status: "restored", budget: { onStopCommand: null } });
	});

	it("never throws on garbage, and skips what it cannot read", () => {
		const garbage = [null, 42, "x", { kind: "active", budget: { timeLimitMs: "15m" } }] as unknown as TimeboxRecord[];
		expect(restore(garbage, START, 0)).toEqual({ status: "none" });
		expect(restore([active(fifteen), ...garbage], START, 0)).toMatchObject({ status: "restored" });
	});
});
