// The command's grammar (core/grammar/command.ts): every `/timebox` example the spec gives, and the inputs that must not
// become a budget.

import { describe, expect, it } from "vitest";
import { parseCommand, quoteInput } from "../../src/core/grammar/command.ts";

describe("parseCommand", () => {
	it.each(["constructor", "__proto__", "hasOwnProperty", "constructor 15m"])(
		"%s, a name every object has, is no sub-command but an unknown word",
		(input) => {
			const parsed = parseCommand(input);
			expect(parsed.kind).toBe("invalid");
		},
	);

	it.each([
		["  STATUS  ", { kind: "status" }],
		["Off", { kind: "off" }],
		["report", { kind: "report" }],
	])("%s alone is its sub-command, whatever its case and spaces", (input, expected) => {
		expect(parseCommand(input)).toEqual(expected);
	});

	it.each([
		["15m", { timeLimitMs: 900_000, turnLimit: null, onStopCommand: null }],
		["30s", { timeLimitMs: 30_000, turnLimit: null, onStopCommand: null }],
		["2h", { timeLimitMs: 7_200_000, turnLimit: null, onStopCommand: null }],
		["90", { timeLimitMs: 5_400_000, turnLimit: null, onStopCommand: null }],
		["turns:5", { timeLimitMs: null, turnLimit: 5, onStopCommand: null }],
		["15m turns:3", { timeLimitMs: 900_000, turnLimit: 3, onStopCommand: null }],
		["turns:3 15m", { timeLimitMs: 900_000, turnLimit: 3, onStopCommand: null }],
		[
			"15m turns:3 30m",
			{
				timeLimitMs: 1_800_000,
				turnLimit: 3,
				onStopCommand: null,
				notes: ["30m replaces 15m; for the sum, write 15m30m as one word."],
			},
		],
		["turns:3 turns:7", { timeLimitMs: null, turnLimit: 7, onStopCommand: null, notes: ["turns:7 replaces turns:3."] }],
		["1h30m", { timeLimitMs: 5_400_000, turnLimit: null, onStopCommand: null }],
		["2h15m turns:2", { timeLimitMs: 8_100_000, turnLimit: 2, onStopCommand: null }],
		["1m30s", { timeLimitMs: 90_000, turnLimit: null, onStopCommand: null }],
		["1h0m5s", { timeLimitMs: 3_605_000, turnLimit: null, onStopCommand: null }],
		["turns: 5", { timeLimitMs: null, turnLimit: 5, onStopCommand: null }],
		["15 m", { timeLimitMs: 900_000, turnLimit: null, onStopCommand: null }],
		["15   m", { timeLimitMs: 900_000, turnLimit: null, onStopCommand: null }],
		["15 m turns:3", { timeLimitMs: 900_000, turnLimit: 3, onStopCommand: null }],
		["turns:   3", { timeLimitMs: null, turnLimit: 3, onStopCommand: null }],
		["  15m   turns:3  ", { timeLimitMs: 900_000, turnLimit: 3, onStopCommand: null }],
		["1.5s", { timeLimitMs: 2_000, turnLimit: null, onStopCommand: null }],
		["15m -- lmk done", { timeLimitMs: 900_000, turnLimit: null, onStopCommand: "lmk done" }],
		["15m turns:5 aware", { timeLimitMs: 900_000, turnLimit: 5, onStopCommand: null, awareness: "always" }],
		["AWARE turns:5", { timeLimitMs: null, turnLimit: 5, onStopCommand: null, awareness: "always" }],
		["15m grace:30s", { timeLimitMs: 900_000, turnLimit: null, onStopCommand: null, graceMs: 30_000 }],
		["15m grace: 2m", { timeLimitMs: 900_000, turnLimit: null, onStopCommand: null, graceMs: 120_000 }],
		[
			"15m GRACE:1m30s aware",
			{ timeLimitMs: 900_000, turnLimit: null, onStopCommand: null, awareness: "always", graceMs: 90_000 },
		],
		[
			"15m grace:10s grace:20s",
			{
				timeLimitMs: 900_000,
				turnLimit: null,
				onStopCommand: null,
				graceMs: 20_000,
				notes: ["grace:20s replaces grace:10s."],
			},
		],
		['turns:2 -- echo "a  b" -- c', { timeLimitMs: null, turnLimit: 2, onStopCommand: 'echo "a  b" -- c' }],
		[
			"15m --",
			{
				timeLimitMs: 900_000,
				turnLimit: null,
				onStopCommand: null,
				notes: ["Nothing follows --, so no on-stop command was set."],
			},
		],
		[
			"15m --   ",
			{
				timeLimitMs: 900_000,
				turnLimit: null,
				onStopCommand: null,
				notes: ["Nothing follows --, so no on-stop command was set."],
			},
		],
		["30d", null],
	])("reads %j", (input, expected) => {
		if (expected === null) {
			expect(parseCommand(input).kind).toBe("invalid");
			return;
		}
		expect(parseCommand(input)).toEqual({ kind: "set", ...expected });
	});

	it.each([
		["off", "off"],
		["OFF", "off"],
		["disable", "off"],
		["cancel", "off"],
		[" status ", "status"],
		["Status", "status"],
	])("reads the sub-command %j", (input, kind) => {
		expect(parseCommand(input)).toEqual({ kind });
	});

	it.each([
		["", "No budget given."],
		["   ", "No budget given."],
		["--", "No budget given."],
		["-- say done", "A command after -- needs a budget before it."],
		[
			"15x",
			'"15x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"15m turn:3",
			'"turn:3" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"15m --x",
			'"--x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		["0m", '"0m" is out of range: a time budget is 1s to 30 days.'],
		["aware", "No budget given."],
		["grace:30s", "No budget given."],
		["15m grace:soon", '"grace:soon" is not a grace period: write grace:30s or grace:2m.'],
		["15m grace:0s", '"grace:0s" is out of range: a grace period is 1s to 10m.'],
		["15m grace:11m", '"grace:11m" is out of range: a grace period is 1s to 10m.'],
		[
			"15m awareness",
			'"awareness" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		["0", '"0" is out of range: a time budget is 1s to 30 days.'],
		["0.4s", '"0.4s" is out of range: a time budget is 1s to 30 days.'],
		["43201m", '"43201m" is out of range: a time budget is 1s to 30 days.'],
		["turns:0", '"turns:0" is out of range: a turn budget is 1 to 1,000,000 turns.'],
		["turns:1000001", '"turns:1000001" is out of range: a turn budget is 1 to 1,000,000 turns.'],
		[
			"turns:-1",
			'"turns:-1" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"-5m",
			'"-5m" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"1e3m",
			'"1e3m" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"0x10m",
			'"0x10m" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"NaNm",
			'"NaNm" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"１５m",
			'"１５m" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		["15m status", '"status" takes nothing else with it.'],
		["15m off", '"off" takes nothing else with it.'],
	])("rejects %j and says why", (input, reason) => {
		expect(parseCommand(input)).toEqual({ kind: "invalid", reason });
	});

	it.each([
		["off now", { kind: "off", ignored: "now" }],
		["off 15m", { kind: "off", ignored: "15m" }],
		["cancel 15m turns:3", { kind: "off", ignored: "15m turns:3" }],
		["off -- rm -rf /", { kind: "off", ignored: "-- rm -rf /" }],
		["status  off", { kind: "status", ignored: "off" }],
		["status", { kind: "status" }],
	])("lets off and status short-circuit what follows them: %j", (input, command) => {
		expect(parseCommand(input)).toEqual(command);
	});

	it("accepts the largest budgets and rejects one more", () => {
		expect(parseCommand("43200m turns:1000000")).toEqual({
			kind: "set",
			timeLimitMs: 2_592_000_000,
			turnLimit: 1_000_000,
			onStopCommand: null,
		});
		expect(parseCommand("720h 1s").kind).toBe("set");
	});

	it("shortens a huge offending token in its reason", () => {
		const result = parseCommand(`15m ${"x".repeat(100_000)}`);
		expect(result).toEqual({
			kind: "invalid",
			reason: `"${"x".repeat(40)}…" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.`,
		});
	});

	it("treats a non-string argument as no budget", () => {
		expect(parseCommand(undefined as unknown as string)).toEqual({ kind: "invalid", reason: "No budget given." });
	});
});

describe("extend, pause and resume", () => {
	it.each([
		["+10m", { addTimeMs: 600_000, addTurns: null }],
		["+turns:2", { addTimeMs: null, addTurns: 2 }],
		["+10m +turns:2", { addTimeMs: 600_000, addTurns: 2 }],
		["extend 10m", { addTimeMs: 600_000, addTurns: null }],
		["add turns:2", { addTimeMs: null, addTurns: 2 }],
		["EXTEND 1h30m turns:3", { addTimeMs: 5_400_000, addTurns: 3 }],
		[
			"+1h +30m",
			{ addTimeMs: 1_800_000, addTurns: null, notes: ["30m replaces 1h; for the sum, write 1h30m as one word."] },
		],
	])("reads %j as an extension", (input, expected) => {
		expect(parseCommand(input)).toEqual({ kind: "extend", ...expected });
	});

	it.each([
		["extend", "Nothing to add: give a time, turns:<n>, tokens:<n> or cost:<dollars>."],
		["+10m -- say", "An extension keeps the budget's on-stop command: nothing goes after --."],
		[
			"+10x",
			'"10x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		["+turns:0", '"turns:0" is out of range: a turn budget is 1 to 1,000,000 turns.'],
		["+10m +aware", "An extension adds to the limits only; set aware, grace, steps or loop with a new budget."],
		["extend 10m grace:5s", "An extension adds to the limits only; set aware, grace, steps or loop with a new budget."],
		[
			"+10m turns:2",
			'"+10m" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. To add to the budget, put + before every word: +10m +turns:2.',
		],
	])("rejects %j and says why", (input, reason) => {
		expect(parseCommand(input)).toEqual({ kind: "invalid", reason });
	});

	it.each([
		["pause", "pause"],
		["RESUME", "resume"],
	])("reads %j", (input, kind) => {
		expect(parseCommand(input)).toEqual({ kind });
	});

	it("takes nothing else with pause or resume", () => {
		expect(parseCommand("pause 10m")).toEqual({ kind: "invalid", reason: '"pause" takes nothing else with it.' });
	});

	it("hints at -- only for a word that is all dashes", () => {
		for (const word of ["—x", "x—"]) {
			expect(parseCommand(`15m ${word}`)).toEqual({
				kind: "invalid",
				reason: `"${word}" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.`,
			});
		}
		expect(parseCommand("15m –– say")).toMatchObject({ reason: expect.stringContaining("Did you mean --") });
	});

	it("hints at -- when a dash was typed for it", () => {
		expect(parseCommand("15m — say done")).toEqual({
			kind: "invalid",
			reason:
				'"—" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. Did you mean -- before the on-stop command?',
		});
	});
});

describe("quoteInput", () => {
	it("quotes short input whole and cuts long input at 40 characters without splitting a character", () => {
		expect(quoteInput("15x")).toBe('"15x"');
		expect(quoteInput("😀".repeat(50))).toBe(`"${"😀".repeat(40)}…"`);
		expect(quoteInput("x".repeat(40))).toBe(`"${"x".repeat(40)}"`);
		expect(quoteInput("x".repeat(41))).toBe(`"${"x".repeat(40)}…"`);
	});
});
