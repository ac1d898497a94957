// What the user and the model read: status text, budget labels, the nudge block and every notification text.

import { describe, expect, it } from "vitest";
import {
	describeBudget,
	formatBudgetLabel,
	formatRemaining,
	formatStatus,
	pluralTurns,
	SPENT_STATUS,
} from "../../src/core/format.ts";
import { parseCommand } from "../../src/core/grammar/command.ts";
import {
	activeStatusMessage,
	budgetSetMessage,
	COMMAND_AFTER_RELOAD,
	expiredMessage,
	internalErrorMessage,
	invalidMessage,
	noBudgetStatusMessage,
	nudgeMessage,
	onStopProblemMessage,
	onStopStartedMessage,
	restoredMessage,
	spentMessage,
	spentStatusMessage,
	USAGE,
} from "../../src/core/text/messages.ts";
import { formatNudgePrompt } from "../../src/core/text/model-notes.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

describe("formatStatus", () => {
	const both = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5 });
	const thirtySeconds = budget({ timeLimitMs: 30_000 });
	it.each([
		["both dimensions", both, START + 146_000, 2, "Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)"],
		["turns alone", budget({ turnLimit: 5 }), START, 2, "Timebox: no time limit | 3 turns left (2/5)"],
		[
			"time alone",
			budget({ timeLimitMs: 15 * MINUTE }),
			START + 146_000,
			0,
			"Timebox: 12m 34s left (15m budget) | no turn limit",
		],
		["the singular for one turn", budget({ turnLimit: 5 }), START, 4, "Timebox: no time limit | 1 turn left (4/5)"],
		["time left rounded up", thirtySeconds, START + 29_001, 0, "Timebox: 1s left (30s budget) | no turn limit"],
		["0s only when the time is up", thirtySeconds, START + 30_000, 0, "Timebox: 0s left (30s budget) | no turn limit"],
		[
			"nothing negative past the limits",
			budget({ timeLimitMs: 30_000, turnLimit: 2 }),
			START + 99 * MINUTE,
			7,
			"Timebox: 0s left (30s budget) | 0 turns left (7/2)",
		],
		[
			"nothing NaN",
			budget({ timeLimitMs: 30_000, turnLimit: 2 }),
			Number.NaN,
			Number.NaN,
			"Timebox: 30s left (30s budget) | 2 turns left (0/2)",
		],
		[
			"a clock that went back as nothing used",
			both,
			START - MINUTE,
			0,
			"Timebox: 15m 0s left (15m budget) | 5 turns left (0/5)",
		],
	])("shows %s", (_name, b, now, usedTurns, text) => {
		expect(formatStatus(b, now, usedTurns)).toBe(text);
	});

	it("names the spent status", () => {
		expect(SPENT_STATUS).toBe("Timebox: budget spent");
	});

	it("is made again whenever anything it shows changes, though it is kept between calls of the same second", () => {
		const b = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5, tokenLimit: 1_000, stepLimit: 3 });
		const at = START + 10_000;
		const shown = (...args: Parameters<typeof formatStatus>) => formatStatus(...args);
		const first = shown(b, at, 1, { tokens: 10, cost: 0 }, { used: 1, allowed: 3 });
		expect(first).toBe("Timebox: 14m 50s left (15m budget) | 4 turns left (1/5) | 10 of 1k tokens | step 1/3");
		expect(shown(b, at + 999, 1, { tokens: 10, cost: 0 }, { used: 1, allowed: 3 })).toBe(first);
		expect(shown(b, at + 1_000, 1, { tokens: 10, cost: 0 }, { used: 1, allowed: 3 })).toContain("14m 49s left");
		expect(shown(b, at, 2, { tokens: 10, cost: 0 }, { used: 1, allowed: 3 })).toContain("(2/5)");
		expect(shown(b, at, 2, { tokens: 20, cost: 0 }, { used: 1, allowed: 3 })).toContain("20 of 1k tokens");
		expect(shown(b, at, 2, { tokens: 20, cost: 0 }, { used: 2, allowed: 3 })).toContain("step 2/3");
		expect(shown(b, at, 2, { tokens: 20, cost: 0 }, { used: 2, allowed: 4 })).toContain("step 2/4");
		expect(shown(b, at, 2, { tokens: 20, cost: 0 }, null)).toContain("3 steps per prompt");
		const costly = { ...b, costLimit: 1 };
		expect(shown(costly, at, 2, { tokens: 20, cost: 0.5 }, null)).toContain("$0.50 of $1.00");
		expect(shown(costly, at, 2, { tokens: 20, cost: 0.25 }, null)).toContain("$0.25 of $1.00");
		// Another budget of the same limits, paused: its own text.
		expect(shown({ ...costly, pausedAt: at }, at, 2, { tokens: 20, cost: 0.25 }, null)).toMatch(/^Timebox: paused \| /);
		expect(shown(budget({ turnLimit: 5 }), at, 2)).toBe("Timebox: no time limit | 3 turns left (2/5)");
	});
});

describe("budget labels", () => {
	it.each([
		[15 * MINUTE, "15m"],
		[30_000, "30s"],
		[120 * MINUTE, "2h"],
		[90 * MINUTE, "1h 30m"],
		[90_000, "1m 30s"],
		[3_601_000, "1h 1s"],
		[0, "0s"],
	])("labels %d ms as %j", (ms, label) => {
		expect(formatBudgetLabel(ms)).toBe(label);
	});

	it.each([
		[15 * MINUTE, 3, "15m and 3 turns"],
		[null, 1, "1 turn"],
		[2 * MINUTE, null, "2m"],
	])("describes a budget of %j ms and %j turns as %j", (timeLimitMs, turnLimit, text) => {
		expect(describeBudget({ timeLimitMs, turnLimit, onStopCommand: null })).toBe(text);
	});

	it.each([
		[0, "0 turns"],
		[1, "1 turn"],
		[2, "2 turns"],
	])("counts %d as %j", (count, text) => {
		expect(pluralTurns(count)).toBe(text);
	});

	it("formats the remaining part alone", () => {
		expect(formatRemaining(budget({ turnLimit: 3 }), START, 1)).toBe("no time limit | 2 turns left (1/3)");
	});
});

describe("formatNudgePrompt", () => {
	it("warns with the time and turns left and tells the model to wrap up and stop", () => {
		const b = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5 });
		expect(formatNudgePrompt(b, START + 12 * MINUTE, 4, "warning")).toBe(
			[
				"IMPORTANT TIMEBOX WARNING",
				"The user gave this session a budget and it is nearly spent.",
				"Time left: 3m 0s of 15m.",
				"Turns: this is the last prompt the budget allows (4 of 5 used).",
				"Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.",
				"When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished.",
			].join("\n"),
		);
	});

	it("says CRITICAL at the critical urgency and counts the prompts left", () => {
		const text = formatNudgePrompt(budget({ turnLimit: 20 }), START, 16, "critical");
		expect(text.split("\n")[0]).toBe("CRITICAL TIMEBOX WARNING");
		expect(text).toContain("Turns left: 4 prompts, this one included (16 of 20 used).");
		expect(text).not.toContain("Time left");
	});
});

describe("notification texts", () => {
	it.each([
		[
			"the hard stop",
			spentMessage(3, 899_000),
			"Timebox budget spent. Used 3 turns, 14m 59s. The agent stops for this turn. The chat continues.",
		],
		[
			"the hard stop after one turn",
			spentMessage(1, 5_000),
			"Timebox budget spent. Used 1 turn, 5s. The agent stops for this turn. The chat continues.",
		],
		[
			"a new budget",
			budgetSetMessage({ timeLimitMs: 15 * MINUTE, turnLimit: 3, onStopCommand: null }, false),
			"Timebox set: 15m and 3 turns.",
		],
		[
			"a replacing budget with an on-stop command",
			budgetSetMessage({ timeLimitMs: null, turnLimit: 3, onStopCommand: "lmk done" }, true),
			"Timebox set: 3 turns. It replaces the previous budget. On stop it runs: lmk done",
		],
		[
			"a budget the model always knows, with a grace period",
			budgetSetMessage(
				{ timeLimitMs: 15 * MINUTE, turnLimit: 5, onStopCommand: null, awareness: "always", graceMs: 30_000 },
				false,
			),
			"Timebox set: 15m and 5 turns; the model is told what is left at every call; 30s to wrap up at the limit.",
		],
		["invalid input", invalidMessage("No budget given."), `Timebox: No budget given. Nothing changed.\n${USAGE}`],
		["status without a budget", noBudgetStatusMessage(), "No active timebox.\nSet one with /timebox 15m turns:3."],
		["status with an on-stop command", activeStatusMessage("Timebox: x", "lmk"), "Timebox: x\nOn stop it runs: lmk"],
		["status without an on-stop command", activeStatusMessage("Timebox: x", null), "Timebox: x"],
		[
			"status after the stop",
			spentStatusMessage(2, 60_000),
			"Timebox budget spent. Used 2 turns, 1m 0s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.",
		],
		[
			"the warning",
			nudgeMessage("warning", "3m 0s left of 15m"),
			"Timebox: 3m 0s left of 15m — the model is asked to wrap up.",
		],
		[
			"the critical warning",
			nudgeMessage("critical", "30s left of 10m and 1 prompt left of 5"),
			"Timebox: 30s left of 10m and 1 prompt left of 5 — the model is asked to wrap up now.",
		],
		[
			"a restored budget with an on-stop command",
			restoredMessage("Timebox: 5m 0s left (15m budget) | no turn limit", "lmk"),
			"Timebox restored: 5m 0s left (15m budget) | no turn limit. On stop it runs: lmk",
		],
		[
			"a restored budget",
			restoredMessage("Timebox: no time limit | 2 turns left (1/3)", null),
			"Timebox restored: no time limit | 2 turns left (1/3).",
		],
		[
			"a budget whose time ran out before a restore",
			expiredMessage(budget({ timeLimitMs: MINUTE }), { usedTurns: 0, elapsedMs: MINUTE, timeRanOut: true }),
			"Timebox budget of this session was already spent (time ran out), so it was not restored.",
		],
		[
			"a budget whose turns ran out before a restore",
			expiredMessage(budget({ turnLimit: 3, onStopCommand: "lmk" }), { usedTurns: 3, elapsedMs: 0, timeRanOut: false }),
			"Timebox budget of this session was already spent (all 3 turns used), so it was not restored. Its on-stop command is not run on restore: lmk",
		],
		[
			"a budget whose tokens ran out before a restore",
			expiredMessage(budget({ tokenLimit: 200_000 }), {
				usedTurns: 1,
				elapsedMs: 0,
				timeRanOut: false,
				limit: "tokens",
			}),
			"Timebox budget of this session was already spent (the token limit was reached), so it was not restored.",
		],
		[
			"a budget whose cost ran out before a restore",
			expiredMessage(budget({ costLimit: 2 }), { usedTurns: 1, elapsedMs: 0, timeRanOut: false, limit: "cost" }),
			"Timebox budget of this session was already spent (the cost limit was reached), so it was not restored.",
		],
		["the on-stop command started", onStopStartedMessage("lmk"), "Timebox ran the on-stop command: lmk"],
		[
			"a command that a reload overtook",
			COMMAND_AFTER_RELOAD,
			"Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.",
		],
		[
			"the on-stop command failing",
			onStopProblemMessage('"lmk" exited with code 127'),
			'Timebox on-stop command failed: "lmk" exited with code 127',
		],
		[
			"an internal error",
			internalErrorMessage("turn start", new Error("boom")),
			"Timebox hit an internal error (turn start): boom. Your session goes on; check the budget with /timebox status.",
		],
		[
			"an internal error that is not an Error",
			internalErrorMessage("x", "plain"),
			"Timebox hit an internal error (x): plain. Your session goes on; check the budget with /timebox status.",
		],
	])("words %s", (_name, text, expected) => {
		expect(text).toBe(expected);
	});

	it("gives the usage with every invalid input", () => {
		expect(USAGE.split("\n").slice(0, 2)).toEqual([
			"Usage: /timebox <budget> [-- <command>] | status | off",
			"       /timebox +<budget> (extend) | pause | resume | report | suggest",
		]);
		expect(USAGE.split("\n")[2]).toBe(
			"       /timebox subagents [<budget> | off] (a budget for each subagent: a time, steps:30, tokens:200k, cost:0.50, loop:3)",
		);
	});

	it("names in its budget and options lines every word a bad word's message names", () => {
		const parsed = parseCommand("turn:3");
		if (parsed.kind !== "invalid") throw new Error(`"turn:3" parsed as ${parsed.kind}`);
		const named = parsed.reason.replace(/^.*is not a budget word: a time \([^)]*\), /, "").replace(/\.$/, "");
		const words = named.split(/, | or /);
		expect(words).toEqual(["turns:5", "tokens:200k", "cost:2.50", "steps:25", "loop:3", "aware", "grace:30s"]);
		const [budgetLine, optionsLine] = USAGE.split("\n").slice(3, 5);
		expect(budgetLine).toBe(
			"  budget: 30s 15m 2h 1h30m (a bare number is minutes), turns:5 (prompts you send), steps:25 (model calls per prompt), tokens:200k, cost:2.50, loop:3 (identical tool calls per prompt)",
		);
		for (const word of words) expect(`${budgetLine}\n${optionsLine}`).toContain(word);
	});
});
