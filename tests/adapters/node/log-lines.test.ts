// The session log's lines read back as the typed lines they are: every kind as written, the first version's marks,
// and torn, hand-edited or unknown lines skipped rather than misread.

import { describe, expect, it } from "vitest";
import { readLogLine } from "../../../src/adapters/node/log-lines.ts";

describe("reading a line of the session's log", () => {
	it.each([
		[
			{ kind: "active", budget: { id: "b" } },
			{ kind: "active", budget: { id: "b" } },
		],
		[
			{ kind: "off", budgetId: "b" },
			{ kind: "off", budgetId: "b" },
		],
		[
			{ kind: "prompt", promptId: "p", at: 5 },
			{ kind: "prompt", promptId: "p", at: 5 },
		],
		[
			{ kind: "prompt", promptId: "p", at: 5, cwd: "/work/app" },
			{ kind: "prompt", promptId: "p", at: 5, cwd: "/work/app" },
		],
		[
			{ kind: "prompt", promptId: "p", at: 5, cwd: 7 },
			{ kind: "prompt", promptId: "p", at: 5 },
		],
		[
			{ kind: "call", promptId: "p" },
			{ kind: "call", promptId: "p", at: 0 },
		],
		[
			{ kind: "ended", promptId: "p", at: 1 },
			{ kind: "ended", promptId: "p", at: 1 },
		],
		[
			{ kind: "daily-stopped", promptId: "p", at: 1 },
			{ kind: "daily-stopped", promptId: "p", at: 1 },
		],
		[
			{ kind: "daily-ended", promptId: "p", at: 1 },
			{ kind: "daily-ended", promptId: "p", at: 1 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, cost: 0.5, at: 2, offset: 10 },
			{ kind: "usage", responseId: "r", tokens: 9, cost: 0.5, at: 2, offset: 10 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, prompt: { input: 100, from: 40 } },
			{ kind: "usage", responseId: "r", tokens: 9, prompt: { input: 100, from: 40 } },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, prompt: { input: "100", from: 40 } },
			{ kind: "usage", responseId: "r", tokens: 9 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, prompt: 100 },
			{ kind: "usage", responseId: "r", tokens: 9 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, prompt: null },
			{ kind: "usage", responseId: "r", tokens: 9 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, prompt: { input: 100, from: "40" } },
			{ kind: "usage", responseId: "r", tokens: 9 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: "9" },
			{ kind: "usage", responseId: "r", tokens: 0 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: null, cost: 0.5, at: 2, offset: 10 },
			{ kind: "usage", responseId: "r", tokens: 0, cost: 0.5, at: 2, offset: 10 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, cost: "0.5", at: 2 },
			{ kind: "usage", responseId: "r", tokens: 9, at: 2 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, at: "2" },
			{ kind: "usage", responseId: "r", tokens: 9 },
		],
		[
			{ kind: "usage", responseId: "r", tokens: 9, offset: null },
			{ kind: "usage", responseId: "r", tokens: 9 },
		],
		[
			{ kind: "transcript", offset: 4 },
			{ kind: "transcript", offset: 4 },
		],
		[
			{ kind: "transcript-unreadable", at: 3 },
			{ kind: "transcript-unreadable", at: 3 },
		],
		[
			{ kind: "default-said", at: 3 },
			{ kind: "default-said", at: 3 },
		],
		[
			{ kind: "default-said", at: "3" },
			{ kind: "default-said", at: 0 },
		],
		[
			{ kind: "told", at: 3 },
			{ kind: "told", at: 3 },
		],
		[
			{ kind: "untold", notices: ["a", 1], at: 3 },
			{ kind: "untold", notices: ["a", "1"], at: 3 },
		],
		[
			{ kind: "untold", at: 3 },
			{ kind: "untold", notices: [], at: 3 },
		],
		[
			{ kind: "daily-warned", level: "user:warning", at: 3 },
			{ kind: "daily-warned", level: "user:warning", at: 3 },
		],
		[
			{ kind: "claim", claim: { kind: "ended", budgetId: "b" }, at: 3 },
			{ kind: "claim", claim: { kind: "ended", budgetId: "b" }, at: 3 },
		],
		[
			{ kind: "claim", claim: { kind: "ended", budgetId: "b", onStopCommand: "lmk" }, at: 3 },
			{ kind: "claim", claim: { kind: "ended", budgetId: "b", onStopCommand: "lmk" }, at: 3 },
		],
		[
			{ kind: "claim", claim: { kind: "onStopRecovered", budgetId: "b" }, at: 3 },
			{ kind: "claim", claim: { kind: "onStopRecovered", budgetId: "b" }, at: 3 },
		],
		[
			{ kind: "spent", budgetStart: 1, usedTurns: 2, elapsedMs: 3, promptId: "p" },
			{ kind: "spent", budgetStart: 1, usedTurns: 2, elapsedMs: 3, promptId: "p" },
		],
		[
			{ kind: "spent", budgetStart: 1 },
			{ kind: "spent", budgetStart: 1, usedTurns: 0, elapsedMs: 0, promptId: null },
		],
		[
			{ kind: "nudged", budgetStart: 1 },
			{ kind: "nudged", budgetStart: 1 },
		],
		[
			{ kind: "spawn", id: "toolu_1", agent: "a1", agentType: "Explore", task: "find it", at: 4 },
			{ kind: "spawn", id: "toolu_1", agent: "a1", agentType: "Explore", task: "find it", at: 4 },
		],
		[
			{ kind: "spawn", agentType: "Explore", task: "" },
			{ kind: "spawn", id: null, agent: null, agentType: "Explore", task: "", at: 0 },
		],
		[
			{ kind: "spawn-taken", index: 0, agent: "a1", at: 4 },
			{ kind: "spawn-taken", index: 0, agent: "a1", at: 4 },
		],
		[
			{ kind: "spawn-refused", agent: "a1", reason: "spent" },
			{ kind: "spawn-refused", agent: "a1", reason: "spent", at: 0 },
		],
		[
			{ kind: "owed", to: "a1", lines: ["stopped", 1], at: 2 },
			{ kind: "owed", to: "a1", lines: ["stopped", "1"], at: 2 },
		],
		[
			{ kind: "owed", lines: [] },
			{ kind: "owed", to: null, lines: [], at: 0 },
		],
		[
			{ kind: "paid", to: "a1", at: 2 },
			{ kind: "paid", to: "a1", at: 2 },
		],
		[
			{ kind: "paid", to: 3 },
			{ kind: "paid", to: null, at: 0 },
		],
		[
			{ kind: "tool", promptId: "p", agent: null, key: "00000000000000a1", at: 3 },
			{ kind: "tool", promptId: "p", agent: null, key: "00000000000000a1", at: 3 },
		],
		[
			{ kind: "tool", promptId: "p", agent: "a1", key: "k" },
			{ kind: "tool", promptId: "p", agent: "a1", key: "k", at: 0 },
		],
	])("reads %j", (written, read) => {
		expect(readLogLine(written)).toEqual(read);
	});

	it.each([
		{ kind: "tool", promptId: "p", key: "k" },
		{ kind: "tool", promptId: "p", agent: 1, key: "k" },
		{ kind: "tool", agent: null, key: "k" },
		{ kind: "tool", promptId: "p", agent: null },
		{ kind: "prompt" },
		{ kind: "ended", at: 1 },
		{ kind: "usage", tokens: 5 },
		{ kind: "transcript", offset: "4" },
		{ kind: "daily-warned", level: 1 },
		{ kind: "claim", claim: "spent" },
		{ kind: "claim", claim: { kind: "spent" } },
		{ kind: "claim", claim: { kind: "won", budgetId: "b" } },
		{ kind: "spent", budgetStart: "1" },
		{ kind: "nudged" },
		{ kind: "spawn", agentType: 1, task: "t" },
		{ kind: "spawn", agentType: "t" },
		{ kind: "spawn-taken", index: "0", agent: "a1" },
		{ kind: "spawn-taken", index: 0 },
		{ kind: "spawn-refused", agent: "a1" },
		{ kind: "spawn-refused", reason: "spent" },
		{ kind: "owed", to: "a1", lines: "stopped" },
		{ kind: "something new" },
		{},
	])("skips %j", (written) => {
		expect(readLogLine(written)).toBeNull();
	});
});
