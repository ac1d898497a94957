// The records that persist a budget: what is written, and how records read back (damaged, hand-edited, from the first
// version without an id, or from a newer version) become a budget, an off, or nothing.

import { describe, expect, it } from "vitest";
import {
	budgetIdOf,
	budgetRecord,
	isBudgetId,
	offRecord,
	parseBudget,
	parseRecord,
} from "../../src/core/model/records.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

const DAY = 24 * 60 * MINUTE;
const stored = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 3, onStopCommand: "say hi" });
/** The budget as the current version writes it: without how it stands (the turn count at set, the warning, active). */
const { startTurn: _startTurn, softNudgeSent: _sent, active: _active, ...terms } = stored;
const written = { version: 2, ...terms };
/** A budget as the first version wrote it: no version, no id, runtime flags beside the limits. */
const firstVersion = {
	timeLimitMs: 15 * MINUTE,
	turnLimit: null,
	startTime: START,
	startTurn: 4,
	softNudgeSent: true,
	active: false,
	onStopCommand: "lmk",
};

describe("writing records", () => {
	it("names a budget without an id by its start time, as a first-version record is named", () => {
		const { id: _id, ...unnamed } = stored;
		expect(budgetIdOf(unnamed)).toBe(`legacy-${START}`);
		expect(budgetIdOf(stored)).toBe("budget-1");
		expect(budgetRecord(unnamed).id).toBe(`legacy-${START}`);
	});

	it("writes a budget with the record version and reads it back unchanged", () => {
		expect(budgetRecord(stored)).toEqual(written);
		expect(parseBudget(budgetRecord(stored))).toEqual(stored);
	});

	it("writes an off record naming its budget and when it was turned off", () => {
		expect(offRecord("budget-1", START + MINUTE)).toEqual({
			kind: "off",
			version: 2,
			budgetId: "budget-1",
			disabledAt: START + MINUTE,
		});
	});
});

describe("parseBudget", () => {
	it("reads a budget of the current version", () => {
		expect(parseBudget(written)).toEqual(stored);
	});

	it("reads a missing or empty on-stop command as none", () => {
		const { onStopCommand: _dropped, ...withoutCommand } = written;
		expect(parseBudget(withoutCommand)).toEqual({ ...stored, onStopCommand: null });
		expect(parseBudget({ ...written, onStopCommand: "" })).toEqual({ ...stored, onStopCommand: null });
		expect(parseBudget({ ...written, onStopCommand: null })).toEqual({ ...stored, onStopCommand: null });
	});

	it("reads awareness and a grace period back, and drops values no version writes", () => {
		const treated = { ...stored, awareness: "always" as const, graceMs: 30_000 };
		expect(parseBudget(budgetRecord(treated))).toEqual(treated);
		expect(parseBudget({ ...written, awareness: "nudge" })).toEqual({ ...stored, awareness: "nudge" });
		expect(parseBudget({ ...written, awareness: "loud", graceMs: 0 })).toEqual(stored);
		expect(parseBudget({ ...written, graceMs: 11 * MINUTE })).toEqual(stored);
		expect(parseBudget({ ...written, graceMs: "30s" })).toEqual(stored);
	});

	it("ignores fields it does not know", () => {
		expect(parseBudget({ ...written, colour: "red", version: 9 })).toEqual(stored);
	});

	it("names a first-version budget by its start time, keeps its turn count at set, and re-derives how it stands", () => {
		expect(parseBudget(firstVersion)).toEqual({
			id: `legacy-${START}`,
			timeLimitMs: 15 * MINUTE,
			turnLimit: null,
			startTime: START,
			startTurn: 4,
			softNudgeSent: false,
			active: true,
			onStopCommand: "lmk",
		});
	});

	it("reads a first-version budget without an on-stop command as having none", () => {
		const { onStopCommand: _dropped, ...older } = firstVersion;
		expect(parseBudget(older)).toMatchObject({ id: `legacy-${START}`, onStopCommand: null });
	});

	it("names a first-version budget by its start time even when it carries an id", () => {
		expect(parseBudget({ ...firstVersion, id: "chosen" })?.id).toBe(`legacy-${START}`);
	});

	it.each([
		["the shortest time limit", { timeLimitMs: 1_000, turnLimit: null }],
		["the longest time limit", { timeLimitMs: 30 * DAY, turnLimit: null }],
		["the largest turn limit", { timeLimitMs: null, turnLimit: 1_000_000 }],
		["a single turn", { timeLimitMs: null, turnLimit: 1 }],
		["a start time before 1970", { startTime: -5 }],
		["an id of 100 characters", { id: "a".repeat(100) }],
		["an id with dots, dashes and underscores", { id: "_a.b-c_d" }],
	])("accepts %s", (_name, change) => {
		expect(parseBudget({ ...written, ...change })).toEqual({ ...stored, ...change });
	});

	it.each([
		["no limits", { timeLimitMs: null, turnLimit: null }],
		["a missing time limit field", { timeLimitMs: undefined }],
		["a missing turn limit field", { turnLimit: undefined }],
		["a string for a number", { timeLimitMs: "900000" }],
		["a negative time limit", { timeLimitMs: -5 }],
		["a time limit under a second", { timeLimitMs: 999 }],
		["an infinite time limit", { timeLimitMs: Number.POSITIVE_INFINITY }],
		["a NaN time limit", { timeLimitMs: Number.NaN }],
		["a time limit over 30 days", { timeLimitMs: 30 * DAY + 1 }],
		["a fractional turn limit", { turnLimit: 2.5 }],
		["a zero turn limit", { turnLimit: 0 }],
		["a turn limit over a million", { turnLimit: 1_000_001 }],
		["a string turn limit", { turnLimit: "3" }],
		["a string start time", { startTime: "today" }],
		["a NaN start time", { startTime: Number.NaN }],
		["a missing start time", { startTime: undefined }],
		["a numeric on-stop command", { onStopCommand: 42 }],
		["a missing id", { id: undefined }],
		["a numeric id", { id: 42 }],
		["an empty id", { id: "" }],
		["an id that leaves its folder", { id: "../escape" }],
		["an id with a slash", { id: "a/b" }],
		["an id starting with a dot", { id: ".hidden" }],
		["an id with a space", { id: "a b" }],
		["an id of 101 characters", { id: "a".repeat(101) }],
	])("rejects %s", (_name, change) => {
		expect(parseBudget({ ...written, ...change })).toBeNull();
	});

	it("rejects a first-version budget whose start time cannot name it", () => {
		expect(parseBudget({ ...firstVersion, startTime: 1e21 })).toBeNull();
	});

	it.each([
		["null", null],
		["a list", [written]],
		["a string", "budget"],
		["a number", 42],
	])("rejects %s", (_name, value) => {
		expect(parseBudget(value)).toBeNull();
	});
});

describe("isBudgetId", () => {
	it.each([
		["budget-1", true],
		["0b5c1f9e-7d3a-4a8e-9c1b-2f6d8e4a1c3b", true],
		[`legacy-${START}`, true],
		["-leading-dash", true],
		["", false],
		[".", false],
		["..", false],
		["a/b", false],
		["a\\b", false],
		["a\u0000b", false],
		["ünïcode", false],
		[42, false],
		[null, false],
	])("says %j is %s", (value, expected) => {
		expect(isBudgetId(value)).toBe(expected);
	});
});

describe("parseRecord", () => {
	it("reads an active record of the current version, which has no start count", () => {
		expect(parseRecord({ kind: "active", budget: { ...written, startTurn: 3 } })).toEqual({
			kind: "active",
			budget: stored,
			legacyStartTurn: null,
			turnsBefore: 0,
			spendBefore: { tokens: 0, cost: 0 },
		});
	});

	it("reads a first-version active record with the transcript's prompt count at its start", () => {
		expect(parseRecord({ kind: "active", budget: firstVersion })).toEqual({
			kind: "active",
			budget: {
				id: `legacy-${START}`,
				timeLimitMs: 15 * MINUTE,
				turnLimit: null,
				startTime: START,
				startTurn: 4,
				softNudgeSent: false,
				active: true,
				onStopCommand: "lmk",
			},
			legacyStartTurn: 4,
			turnsBefore: 0,
			spendBefore: { tokens: 0, cost: 0 },
		});
	});

	it.each([
		["zero", 0, 0],
		["missing", undefined, null],
		["negative", -1, null],
		["fractional", 1.5, null],
		["a string", "4", null],
	])("reads a first-version start count that is %s as %j", (_name, startTurn, legacyStartTurn) => {
		expect(parseRecord({ kind: "active", budget: { ...firstVersion, startTurn } })).toMatchObject({ legacyStartTurn });
	});

	it("reads an off record of the current version", () => {
		expect(parseRecord(offRecord("budget-1", START))).toEqual({
			kind: "off",
			budgetId: "budget-1",
			disabledAt: START,
		});
	});

	it.each([
		["with nothing else", { kind: "off" }, { budgetId: null, disabledAt: 0 }],
		["of the first version", { kind: "off", disabledAt: 7 }, { budgetId: null, disabledAt: 7 }],
		["with a damaged time", { kind: "off", budgetId: "budget-1", disabledAt: "yesterday" }, { disabledAt: 0 }],
		["with an infinite time", { kind: "off", disabledAt: Number.POSITIVE_INFINITY }, { disabledAt: 0 }],
		["with a bad budget id", { kind: "off", budgetId: "../x", disabledAt: 7 }, { budgetId: null }],
		["with a numeric budget id", { kind: "off", budgetId: 12 }, { budgetId: null }],
		["from a newer version", { kind: "off", version: 99, budgetId: "budget-1", extra: {} }, { budgetId: "budget-1" }],
	])("still counts an off record %s", (_name, record, expected) => {
		expect(parseRecord(record)).toMatchObject({ kind: "off", ...expected });
	});

	it.each([
		["null", null],
		["undefined", undefined],
		["a number", 3],
		["a string", "active"],
		["a list", []],
		["an unknown kind", { kind: "paused" }],
		["a record without a kind", { budget: written }],
		["an active record without a budget", { kind: "active" }],
		["an active record with a damaged budget", { kind: "active", budget: { ...written, turnLimit: "five" } }],
		["an active record with a bad id", { kind: "active", budget: { ...written, id: "../x" } }],
	])("rejects %s", (_name, value) => {
		expect(parseRecord(value)).toBeNull();
	});
});

describe("a budget written again: paused, extended, with prompts used before", () => {
	it("reads back the pause, the time paused before, the extensions and the prompts used before", () => {
		const again = { ...written, pausedMs: 60_000, pausedAt: START + 5, extensions: 2, turnsBefore: 3 };
		expect(parseRecord({ kind: "active", budget: again })).toEqual({
			kind: "active",
			budget: { ...stored, pausedMs: 60_000, pausedAt: START + 5, extensions: 2 },
			legacyStartTurn: null,
			turnsBefore: 3,
			spendBefore: { tokens: 0, cost: 0 },
		});
	});

	it.each([
		["negative", -5],
		["zero", 0],
		["fractional", 1.5],
		["text", "60000"],
		["null", null],
	])("ignores a %s time paused, extension count and prompt count", (_name, value) => {
		const again = { ...written, pausedMs: value, extensions: value, turnsBefore: value, pausedAt: "soon" };
		expect(parseRecord({ kind: "active", budget: again })).toEqual({
			kind: "active",
			budget: stored,
			legacyStartTurn: null,
			turnsBefore: typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0,
			spendBefore: { tokens: 0, cost: 0 },
		});
	});

	it("writes only what is set, and the prompts used before when there are any", () => {
		expect(budgetRecord({ ...stored, pausedAt: START }, 2)).toEqual({ ...written, pausedAt: START, turnsBefore: 2 });
		expect(budgetRecord(stored, 0)).toEqual(written);
	});
});
