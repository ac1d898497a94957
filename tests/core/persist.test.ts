// The §5 restore rule and the validation of records that come back from a session file, which may be damaged.

import { describe, expect, it } from "vitest";
import {
	assessRestore,
	latestRecord,
	parseBudget,
	parseRecord,
	restore,
	turnsUsedSince,
} from "../../src/core/persist.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const fifteenMinutes = budget({ timeLimitMs: 15 * MINUTE });
const active = (b = fifteenMinutes) => ({ kind: "active", budget: b });
const off = (disabledAt = START + MINUTE) => ({ kind: "off", disabledAt });

describe("restore", () => {
	it("restores nothing from no records", () => {
		expect(restore([], START, 0)).toEqual({ status: "none" });
	});

	it("restores an active budget whose time is not up", () => {
		expect(restore([active()], START + 5 * MINUTE, 0)).toEqual({ status: "restored", budget: fifteenMinutes });
	});

	it("reports a budget past its time limit as expired", () => {
		expect(restore([active()], START + 15 * MINUTE, 0)).toEqual({ status: "expired" });
	});

	it("lets a newer off win", () => {
		expect(restore([active(), off()], START + MINUTE, 0)).toEqual({ status: "none" });
	});

	it("restores an active budget newer than an off", () => {
		expect(restore([off(), active()], START + MINUTE, 0)).toMatchObject({ status: "restored" });
	});

	it("re-derives softNudgeSent past 80%", () => {
		const result = restore([active({ ...fifteenMinutes, softNudgeSent: false })], START + 12.75 * MINUTE, 0);
		expect(result).toEqual({ status: "restored", budget: { ...fifteenMinutes, softNudgeSent: true } });
	});

	it("re-derives softNudgeSent as false below 80%, whatever the record says", () => {
		const result = restore([active({ ...fifteenMinutes, softNudgeSent: true, active: false })], START + MINUTE, 0);
		expect(result).toEqual({ status: "restored", budget: fifteenMinutes });
	});

	it("reports a turn budget whose turns are used up as expired", () => {
		const turns = budget({ turnLimit: 3, startTurn: 2 });
		expect(restore([active(turns)], START, 5)).toEqual({ status: "expired" });
		expect(restore([active(turns)], START, 4)).toMatchObject({ status: "restored" });
	});

	it("uses the newest active record", () => {
		const newer = budget({ timeLimitMs: 30 * MINUTE, startTime: START + MINUTE });
		expect(restore([active(), active(newer)], START + 20 * MINUTE, 0)).toEqual({ status: "restored", budget: newer });
	});

	it("normalises a legacy record without onStopCommand to null", () => {
		const { onStopCommand: _dropped, ...legacy } = budget({ turnLimit: 4 });
		expect(restore([{ kind: "active", budget: legacy }], START, 0)).toEqual({
			status: "restored",
			budget: budget({ turnLimit: 4 }),
		});
	});

	it("skips damaged records and falls back to the newest usable one", () => {
		const records = [active(), { kind: "active", budget: { ...fifteenMinutes, timeLimitMs: "15m" } }, null, 42];
		expect(restore(records, START + MINUTE, 0)).toEqual({ status: "restored", budget: fifteenMinutes });
	});

	it("never throws on records that are not a list", () => {
		expect(restore("nonsense" as unknown as unknown[], START, 0)).toEqual({ status: "none" });
	});
});

describe("assessRestore", () => {
	it("says whether time ran out or turns were used up", () => {
		const combined = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 2, onStopCommand: "lmk" });
		expect(assessRestore([active(combined)], START + 16 * MINUTE, 0)).toEqual({
			status: "expired",
			budget: combined,
			timeRanOut: true,
			newestUnusable: false,
		});
		expect(assessRestore([active(combined)], START, 2)).toMatchObject({ status: "expired", timeRanOut: false });
	});

	it("flags an unusable newest record", () => {
		expect(assessRestore([active(), { kind: "active", budget: null }], START, 0)).toMatchObject({
			status: "restored",
			newestUnusable: true,
		});
		expect(assessRestore([{ kind: "v2-budget" }], START, 0)).toEqual({ status: "none", newestUnusable: true });
		expect(assessRestore([], START, 0)).toEqual({ status: "none", newestUnusable: false });
	});
});

describe("parseRecord", () => {
	it("honours an off record whatever its payload", () => {
		expect(parseRecord({ kind: "off" })).toEqual({ kind: "off", disabledAt: 0 });
		expect(parseRecord({ kind: "off", disabledAt: "yesterday" })).toEqual({ kind: "off", disabledAt: 0 });
		expect(parseRecord({ kind: "off", disabledAt: 7 })).toEqual({ kind: "off", disabledAt: 7 });
	});

	it.each([null, undefined, 3, "active", [], { kind: "paused" }, { budget: budget({ turnLimit: 1 }) }])(
		"rejects %j",
		(value) => {
			expect(parseRecord(value)).toBeNull();
		},
	);

	it("ignores extra fields", () => {
		const record = { kind: "active", version: 9, budget: { ...budget({ turnLimit: 2 }), colour: "red" } };
		expect(parseRecord(record)).toEqual({ kind: "active", budget: budget({ turnLimit: 2 }) });
	});
});

describe("parseBudget", () => {
	const valid = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 3, startTurn: 4, onStopCommand: "say hi" });

	it("reads a complete budget", () => {
		expect(parseBudget(valid)).toEqual(valid);
	});

	it("reads an empty on-stop command as none", () => {
		expect(parseBudget({ ...valid, onStopCommand: "" })).toEqual({ ...valid, onStopCommand: null });
	});

	it.each([
		["no limits", { timeLimitMs: null, turnLimit: null }],
		["a missing time limit field", { timeLimitMs: undefined }],
		["a string for a number", { timeLimitMs: "900000" }],
		["a negative time limit", { timeLimitMs: -5 }],
		["an infinite time limit", { timeLimitMs: Number.POSITIVE_INFINITY }],
		["a NaN time limit", { timeLimitMs: Number.NaN }],
		["a time limit over 30 days", { timeLimitMs: 31 * 24 * 60 * MINUTE }],
		["a fractional turn limit", { turnLimit: 2.5 }],
		["a zero turn limit", { turnLimit: 0 }],
		["a turn limit over a million", { turnLimit: 1_000_001 }],
		["a string start time", { startTime: "today" }],
		["a NaN start time", { startTime: Number.NaN }],
		["a negative start turn", { startTurn: -1 }],
		["a fractional start turn", { startTurn: 1.5 }],
		["a numeric on-stop command", { onStopCommand: 42 }],
	])("rejects %s", (_name, change) => {
		expect(parseBudget({ ...valid, ...change })).toBeNull();
	});

	it("rejects what is not an object", () => {
		expect(parseBudget([valid])).toBeNull();
		expect(parseBudget("budget")).toBeNull();
	});
});

describe("latestRecord and turnsUsedSince", () => {
	it("finds the newest usable record", () => {
		expect(latestRecord([off(), active(), { kind: "x" }])).toEqual({
			record: { kind: "active", budget: fifteenMinutes },
			newestUnusable: true,
		});
	});

	it("counts turns since the budget started, never below zero", () => {
		expect(turnsUsedSince(budget({ turnLimit: 5, startTurn: 3 }), 5)).toBe(2);
		expect(turnsUsedSince(budget({ turnLimit: 5, startTurn: 3 }), 1)).toBe(0);
		expect(turnsUsedSince(budget({ turnLimit: 5 }), Number.NaN)).toBe(0);
	});
});
