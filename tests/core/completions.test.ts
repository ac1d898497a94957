// Argument completions for `/timebox …`. Guards two faults of pi's TUI, where Enter on the completion menu applies its
// item and does not send: `/timebox turns:1` and Enter became `/timebox turns:10` (and `/timebox 1`, one minute, became
// `1h`); and a line typed in full needed a second Enter. A word typed in full gets no menu.

import { describe, expect, it } from "vitest";
import { argumentCompletions } from "../../src/core/index.ts";

const values = (prefix: string) => argumentCompletions(prefix)?.map((item) => item.value) ?? null;

describe("argument completions", () => {
	it("offers the static completions filtered by prefix", () => {
		expect(values("")).toEqual([
			"off",
			"status",
			"subagents",
			"today",
			"team",
			"suggest",
			"15m",
			"30m",
			"1h",
			"turns:3",
			"turns:5",
			"turns:10",
			"loop:3",
		]);
		expect(values("lo")).toEqual(["loop:3"]);
		expect(values("su")).toEqual(["subagents", "suggest"]);
		expect(values("tu")).toEqual(["turns:3", "turns:5", "turns:10"]);
		expect(values("ST")).toEqual(["status"]);
		expect(argumentCompletions("o")).toEqual([{ value: "off", label: "off" }]);
	});

	it("offers today and team as first words, then the team's set and ask, its limits and what to ask for", () => {
		expect(values("t")).toEqual(["today", "team", "turns:3", "turns:5", "turns:10"]);
		expect(argumentCompletions("15m te")).toBeNull();
		expect(values("team ")).toEqual(["team set", "team ask"]);
		expect(values("team s")).toEqual(["team set"]);
		expect(values("team set ")).toEqual(["team set off", "team set 4h", "team set turns:200", "team set $50"]);
		expect(values("team set 4h ")).toEqual(["team set 4h 4h", "team set 4h turns:200", "team set 4h $50"]);
		expect(values("team set 4h t")).toEqual(["team set 4h turns:200"]);
		expect(values("team ask ")).toEqual(["team ask +30m", "team ask +1h", "team ask +turns:20", "team ask +$5"]);
		expect(values("team ask +30m +t")).toEqual(["team ask +30m +turns:20"]);
		// The reason is free text: nothing is offered in it.
		expect(argumentCompletions("team ask +30m a release ")).toBeNull();
		expect(argumentCompletions("team x ")).toBeNull();
	});

	it.each([
		["team set"],
		["team ask"],
		["team set off"],
		["team set turns:2"],
		["team set 4h $5"],
		["team set 4"],
		["team set 4h turns:200 $50"],
		["team set TURNS:2"],
		["team ask +1"],
		["team ask +turns:2"],
		["team ask +30m"],
		["team ask +30m +$5"],
	])("offers no menu after %j, whose last word is typed in full: one Enter sends it as typed", (typed) => {
		expect(argumentCompletions(typed)).toBeNull();
	});

	it("still offers what a team word only begins, and `off` only as the only limit", () => {
		expect(values("team se")).toEqual(["team set"]);
		expect(values("team set t")).toEqual(["team set turns:200"]);
		expect(values("team set of")).toEqual(["team set off"]);
		expect(values("team set 4h o")).toBeNull();
		expect(argumentCompletions("team set 4h off")).toBeNull();
		expect(values("team ask +")).toEqual(["team ask +30m", "team ask +1h", "team ask +turns:20", "team ask +$5"]);
		expect(values("team ask +t")).toEqual(["team ask +turns:20"]);
	});

	it("returns null when nothing matches", () => {
		expect(argumentCompletions("x")).toBeNull();
		expect(argumentCompletions("15m -- ")).toBeNull();
	});

	it("completes the last word and keeps the earlier ones, offering no sub-command after a budget", () => {
		expect(argumentCompletions("15m tu")).toEqual([
			{ value: "15m turns:3", label: "turns:3" },
			{ value: "15m turns:5", label: "turns:5" },
			{ value: "15m turns:10", label: "turns:10" },
		]);
		expect(values("15m ")).toEqual([
			"15m 15m",
			"15m 30m",
			"15m 1h",
			"15m turns:3",
			"15m turns:5",
			"15m turns:10",
			"15m loop:3",
		]);
		expect(argumentCompletions("15m o")).toBeNull();
		expect(argumentCompletions("15m su")).toBeNull();
	});

	it.each([
		["turns:1"],
		["turns:2"],
		["TURNS:1"],
		["turns:7"],
		["1"],
		["3"],
		["15m"],
		["2h"],
		["$2.50"],
		["cost:2"],
		["tokens:200k"],
		["steps:25"],
		["aware"],
		["grace:30s"],
		["15m turns:1"],
		["15m 1"],
		["15m aware"],
		["off"],
		["OFF"],
		["status"],
		["report"],
		["today"],
		["suggest"],
		["pause"],
		["resume"],
		["subagents"],
		["+10m"],
		["subagents steps:1"],
		["subagents 5m 2"],
		["subagents Off"],
	])("offers no menu for %s, a word typed in full: one Enter sends it", (prefix) => {
		expect(argumentCompletions(prefix)).toBeNull();
	});

	it("completes a word that is not complete yet, whose completions are all longer", () => {
		expect(values("sta")).toEqual(["status"]);
		expect(values("sug")).toEqual(["suggest"]);
		expect(values("turns:")).toEqual(["turns:3", "turns:5", "turns:10"]);
		expect(values("15m turns:")).toEqual(["15m turns:3", "15m turns:5", "15m turns:10"]);
		expect(values("subagents steps:")).toEqual(["subagents steps:15", "subagents steps:30"]);
	});

	it("offers no sub-command as typed after a budget word", () => {
		expect(argumentCompletions("15m status")).toBeNull();
		expect(argumentCompletions("15m suggest")).toBeNull();
		expect(argumentCompletions("15m turns:0")).toBeNull();
	});

	it("offers a subagent budget's words after subagents, off only as its one word, and never turns:", () => {
		expect(values("subagents ")).toEqual([
			"subagents off",
			"subagents 2m",
			"subagents 5m",
			"subagents 15m",
			"subagents steps:15",
			"subagents steps:30",
			"subagents tokens:200k",
			"subagents loop:3",
		]);
		expect(values("subagents 5m lo")).toEqual(["subagents 5m loop:3"]);
		expect(argumentCompletions("Subagents o")).toEqual([{ value: "Subagents off", label: "off" }]);
		expect(values("subagents 5m st")).toEqual(["subagents 5m steps:15", "subagents 5m steps:30"]);
		expect(argumentCompletions("subagents 5m o")).toBeNull();
		expect(argumentCompletions("subagents tu")).toBeNull();
	});

	it("offers nothing after subagents for a word a subagent budget refuses", () => {
		expect(argumentCompletions("subagents turns:1")).toBeNull();
		expect(argumentCompletions("subagents 5m off")).toBeNull();
	});
});
