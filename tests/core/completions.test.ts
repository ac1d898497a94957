// Argument completions for `/timebox …`. Guards a silent fault: in pi's TUI, Enter takes the menu's first item, so
// `/timebox turns:1` and Enter became `/timebox turns:10`, and `/timebox 1` (one minute) became `/timebox 1h`.

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
			"15m",
			"30m",
			"1h",
			"turns:3",
			"turns:5",
			"turns:10",
		]);
		expect(values("su")).toEqual(["subagents"]);
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
		expect(values("15m ")).toEqual(["15m 15m", "15m 30m", "15m 1h", "15m turns:3", "15m turns:5", "15m turns:10"]);
		expect(argumentCompletions("15m o")).toBeNull();
		expect(argumentCompletions("15m su")).toBeNull();
	});

	it.each([
		["turns:1", ["turns:1", "turns:10"]],
		["1", ["1", "15m", "1h"]],
		["3", ["3", "30m"]],
		["TURNS:1", ["TURNS:1", "turns:10"]],
		["15m turns:1", ["15m turns:1", "15m turns:10"]],
		["15m 1", ["15m 1", "15m 15m", "15m 1h"]],
		["15m", ["15m"]],
		["OFF", ["OFF"]],
		["status", ["status"]],
	])("offers %s first, as typed, when it is a budget word already", (prefix, expected) => {
		expect(values(prefix)).toEqual(expected);
	});

	it("offers a whole word that is in no list as the only item", () => {
		expect(argumentCompletions("turns:7")).toEqual([{ value: "turns:7", label: "turns:7" }]);
		expect(values("15m aware")).toEqual(["15m aware"]);
		expect(values("today")).toEqual(["today"]);
		expect(values("2h")).toEqual(["2h"]);
	});

	it("offers no sub-command as typed after a budget word", () => {
		expect(argumentCompletions("15m status")).toBeNull();
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
		]);
		expect(argumentCompletions("Subagents o")).toEqual([{ value: "Subagents off", label: "off" }]);
		expect(values("subagents 5m st")).toEqual(["subagents 5m steps:15", "subagents 5m steps:30"]);
		expect(argumentCompletions("subagents 5m o")).toBeNull();
		expect(argumentCompletions("subagents tu")).toBeNull();
	});

	it("keeps a subagent budget's whole words as typed", () => {
		expect(values("subagents steps:1")).toEqual(["subagents steps:1", "subagents steps:15"]);
		expect(values("subagents 5m 2")).toEqual(["subagents 5m 2", "subagents 5m 2m"]);
		expect(values("subagents Off")).toEqual(["subagents Off"]);
		expect(argumentCompletions("subagents turns:1")).toBeNull();
		expect(argumentCompletions("subagents 5m off")).toBeNull();
	});
});
