// The spec's parse helpers (core/parse.ts): times (bare numbers are minutes, parts add up), turn counts, and durations
// formatted for people, with every example the spec gives.

import { describe, expect, it } from "vitest";
import { formatTime, parseTimeToMs, parseTurns } from "../../src/core/parse.ts";

describe("parseTimeToMs", () => {
	it.each([
		["15m", 900_000],
		["30s", 30_000],
		["2h", 7_200_000],
		["1.5h", 5_400_000],
		["90", 5_400_000],
		["15M", 900_000],
		["15 m", 900_000],
		[" 45s ", 45_000],
		["0", 0],
	])("reads %j as %i ms", (token, ms) => {
		expect(parseTimeToMs(token)).toBe(ms);
	});

	it.each(["abc", "", "15x", "-5m", "1e3m", "0x10m", "NaNm", "m", "1.m", ".5m", "١٥m", "１５m"])(
		"rejects %j",
		(token) => {
			expect(parseTimeToMs(token)).toBeNull();
		},
	);

	it("rejects a digit run too large to be a number", () => {
		expect(parseTimeToMs("9".repeat(400))).toBeNull();
	});
});

describe("parseTurns", () => {
	it.each([
		["turns:5", 5],
		["TURNS: 10", 10],
		["Turns:1", 1],
		["turns:0", 0],
		["  turns:4  ", 4],
	])("reads %j as %i", (token, turns) => {
		expect(parseTurns(token)).toBe(turns);
	});

	it.each(["turns:", "turns:abc", "turns:-1", "turns:1.5", "turn:3", "5", "turns:５"])("rejects %j", (token) => {
		expect(parseTurns(token)).toBeNull();
	});

	it("rejects a digit run too large to be a number", () => {
		expect(parseTurns(`turns:${"9".repeat(400)}`)).toBeNull();
	});
});

describe("formatTime", () => {
	it.each([
		[0, "0s"],
		[59_000, "59s"],
		[59_999, "59s"],
		[60_000, "1m 0s"],
		[754_000, "12m 34s"],
		[3_600_000, "1h 0m"],
		[3_661_000, "1h 1m"],
		[-5_000, "0s"],
		[Number.NaN, "0s"],
		[Number.POSITIVE_INFINITY, "0s"],
	])("formats %d ms as %j", (ms, text) => {
		expect(formatTime(ms)).toBe(text);
	});
});
