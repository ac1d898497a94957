// The restore rule: the newest usable record decides, an off wins, a budget expires by time alone, and the warning is
// re-derived from what is used; garbage never throws.

import { describe, expect, it } from "vitest";
import { restore, restoreBudget } from "../../src/core/persist.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const fifteenMinutes = budget({ timeLimitMs: 15 * MINUTE });
const active = (b: object = fifteenMinutes) => ({ kind: "active", budget: b });
const off = (disabledAt = START + MINUTE) => ({ kind: "off", disabledAt });
/** The budget as restore gives it back: named by its start time, as a record without an id is. */
const named = (b = fifteenMinutes) => ({ ...b, id: `legacy-${b.startTime}` });

describe("restore", () => {
	it('restore([]) → { status: "none" }', () => {
		expect(restore([], START, 0)).toEqual({ status: "none" });
	});

	it('restore([active]) with now < startTime + timeLimitMs → { status: "restored", budget }', () => {
		expect(restore([active()], START + 5 * MINUTE, 0)).toEqual({ status: "restored", budget: named() });
	});

	it('restore([active]) past time limit → { status: "expired" }', () => {
		expect(restore([active()], START + 15 * MINUTE, 0)).toEqual({ status: "expired" });
	});

	it('restore([active, off]) → { status: "none" } (off wins)', () => {
		expect(restore([active(), off()], START + MINUTE, 0)).toEqual({ status: "none" });
	});

	it('restore([off, active]) (active is newer) → { status: "restored" }', () => {
		expect(restore([off(), active()], START + MINUTE, 0)).toMatchObject({ status: "restored" });
	});

	it("restore([active]) past 80% but under 100% → softNudgeSent re-derived to true", () => {
		const result = restore([active()], START + 12.75 * MINUTE, 0);
		expect(result).toEqual({ status: "restored", budget: { ...named(), softNudgeSent: true } });
	});

	it("re-derives softNudgeSent as false below 80% and the budget as active, whatever the record says", () => {
		const result = restore([active({ ...fifteenMinutes, softNudgeSent: true, active: false })], START + MINUTE, 0);
		expect(result).toEqual({ status: "restored", budget: named() });
	});

	it("restores a turn budget whose turns are all used: the next turn's start stops it", () => {
		const turns = budget({ turnLimit: 3, startTurn: 2 });
		expect(restore([active(turns)], START, 5)).toEqual({
			status: "restored",
			budget: { ...named(turns), softNudgeSent: true },
		});
		expect(restore([active(turns)], START, 3)).toEqual({ status: "restored", budget: named(turns) });
	});

	it("uses the newest active record", () => {
		const newer = budget({ timeLimitMs: 30 * MINUTE, startTime: START + MINUTE });
		expect(restore([active(), active(newer)], START + 20 * MINUTE, 0)).toEqual({
			status: "restored",
			budget: named(newer),
		});
	});

	it("normalises a legacy record without onStopCommand to null", () => {
		const { onStopCommand: _dropped, ...legacy } = budget({ turnLimit: 4, onStopCommand: "lmk" });
		expect(restore([{ kind: "active", budget: legacy }], START, 0)).toEqual({
			status: "restored",
			budget: named(budget({ turnLimit: 4 })),
		});
	});

	it("keeps the on-stop command and the id of a current record", () => {
		const current = { version: 2, id: "b1", timeLimitMs: null, turnLimit: 2, startTime: START, onStopCommand: "lmk" };
		expect(restore([active(current)], START, 1)).toEqual({
			status: "restored",
			budget: budget({ id: "b1", turnLimit: 2, onStopCommand: "lmk" }),
		});
	});

	it("skips damaged records and falls back to the newest usable one", () => {
		const records = [active(), { kind: "active", budget: { ...fifteenMinutes, timeLimitMs: "15m" } }, null, 42];
		expect(restore(records, START + MINUTE, 0)).toEqual({ status: "restored", budget: named() });
	});

	it("never throws on garbage", () => {
		expect(restore("nonsense" as unknown as unknown[], START, 0)).toEqual({ status: "none" });
		expect(restore([undefined, "x", [], { kind: "active" }], Number.NaN, Number.NaN)).toEqual({ status: "none" });
	});
});

describe("restoreBudget", () => {
	it("keeps the warning sent when the ledger has it, below 80%", () => {
		expect(restoreBudget(fifteenMinutes, START, 0, { tokens: 0, cost: 0 }, true)).toEqual({
			status: "restored",
			budget: { ...fifteenMinutes, softNudgeSent: true },
		});
	});

	it("restores a budget whose tokens or cost are used up: only time expires it", () => {
		const tokens = budget({ tokenLimit: 100 });
		expect(restoreBudget(tokens, START + 600 * MINUTE, 0, { tokens: 150, cost: 0 }, false)).toEqual({
			status: "restored",
			budget: { ...tokens, softNudgeSent: true },
		});
	});

	it("expires a paused budget by the time it ran, not the time since it was set", () => {
		const paused = budget({ timeLimitMs: 10 * MINUTE, pausedAt: START + MINUTE });
		expect(restoreBudget(paused, START + 600 * MINUTE, 0, { tokens: 0, cost: 0 }, false).status).toBe("restored");
	});
});
