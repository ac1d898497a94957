// What the user and the model read: status text, budget labels, the nudge block and every notification text.

import { describe, expect, it } from "vitest";
import {
	describeBudget,
	formatBudgetLabel,
	formatNudgePrompt,
	formatRemaining,
	formatStatus,
	pluralTurns,
} from "../../src/core/format.ts";
import {
	activeStatusMessage,
	budgetSetMessage,
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
} from "../../src/core/messages.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";

describe("formatStatus", () => {
	it("shows both dimensions", () => {
		const b = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5 });
		expect(formatStatus(b, START + 146_000, 2)).toBe("Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)");
	});

	it("shows a single dimension with the other unset", () => {
		expect(formatStatus(budget({ turnLimit: 5 }), START, 2)).toBe("Timebox: no time limit | 3 turns left (2/5)");
		expect(formatStatus(budget({ timeLimitMs: 15 * MINUTE }), START + 146_000, 0)).toBe(
			"Timebox: 12m 34s left (15m budget) | no turn limit",
		);
	});

	it("uses the singular for one turn", () => {
		expect(formatStatus(budget({ turnLimit: 5 }), START, 4)).toBe("Timebox: no time limit | 1 turn left (4/5)");
	});

	it("rounds the time left up, so it reads 0s only when the time is up", () => {
		const b = budget({ timeLimitMs: 30_000 });
		expect(formatStatus(b, START + 29_001, 0)).toBe("Timebox: 1s left (30s budget) | no turn limit");
		expect(formatStatus(b, START + 30_000, 0)).toBe("Timebox: 0s left (30s budget) | no turn limit");
	});

	it("never shows negative or NaN values", () => {
		const b = budget({ timeLimitMs: 30_000, turnLimit: 2 });
		expect(formatStatus(b, START + 99 * MINUTE, 7)).toBe("Timebox: 0s left (30s budget) | 0 turns left (7/2)");
		expect(formatStatus(b, Number.NaN, Number.NaN)).toBe("Timebox: 30s left (30s budget) | 2 turns left (0/2)");
	});

	it("marks a spent budget", () => {
		expect(formatStatus(budget({ turnLimit: 2, active: false }), START, 2)).toBe("Timebox: budget spent");
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

	it("describes what a budget allows", () => {
		expect(describeBudget({ timeLimitMs: 15 * MINUTE, turnLimit: 3, onStopCommand: null })).toBe("15m and 3 turns");
		expect(describeBudget({ timeLimitMs: null, turnLimit: 1, onStopCommand: null })).toBe("1 turn");
		expect(describeBudget({ timeLimitMs: 2 * MINUTE, turnLimit: null, onStopCommand: null })).toBe("2m");
		expect(pluralTurns(0)).toBe("0 turns");
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
				"When the budget runs out, Timebox stops you mid-step.",
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
	it("states the hard stop exactly, singular and plural", () => {
		expect(spentMessage(3, 899_000)).toBe(
			"Timebox budget spent. Used 3 turns, 14m 59s. The agent stops for this turn. The chat continues.",
		);
		expect(spentMessage(1, 5_000)).toBe(
			"Timebox budget spent. Used 1 turn, 5s. The agent stops for this turn. The chat continues.",
		);
	});

	it("confirms a new budget and names the on-stop command", () => {
		expect(budgetSetMessage({ timeLimitMs: 15 * MINUTE, turnLimit: 3, onStopCommand: null }, false)).toBe(
			"Timebox set: 15m and 3 turns.",
		);
		expect(budgetSetMessage({ timeLimitMs: null, turnLimit: 3, onStopCommand: "lmk done" }, true)).toBe(
			"Timebox set: 3 turns. It replaces the previous budget. On stop it runs: lmk done",
		);
	});

	it("gives the usage with every invalid input", () => {
		expect(invalidMessage("No budget given.")).toBe(`Timebox: No budget given. Nothing changed.\n${USAGE}`);
		expect(noBudgetStatusMessage()).toBe(`No active timebox.\n${USAGE}`);
		expect(USAGE).toContain("Usage: /timebox <budget> [-- <command>] | status | off");
	});

	it("tells what was restored, with the on-stop command", () => {
		expect(restoredMessage("Timebox: 5m 0s left (15m budget) | no turn limit", "lmk")).toBe(
			"Timebox restored: 5m 0s left (15m budget) | no turn limit. On stop it runs: lmk",
		);
	});

	it("tells why a restored budget was already spent", () => {
		expect(expiredMessage(budget({ timeLimitMs: MINUTE }), true)).toBe(
			"Timebox budget of this session was already spent (time ran out), so it was not restored.",
		);
		expect(expiredMessage(budget({ turnLimit: 3, onStopCommand: "lmk" }), false)).toBe(
			"Timebox budget of this session was already spent (all 3 turns used), so it was not restored. Its on-stop command is not run on restore: lmk",
		);
	});

	it("words the status, nudge, on-stop and error texts", () => {
		expect(activeStatusMessage("Timebox: x", "lmk")).toBe("Timebox: x\nOn stop it runs: lmk");
		expect(activeStatusMessage("Timebox: x", null)).toBe("Timebox: x");
		expect(spentStatusMessage(2, 60_000)).toBe(
			"Timebox budget spent. Used 2 turns, 1m 0s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.",
		);
		expect(nudgeMessage("warning", "3m 0s left (15m budget) | no turn limit")).toBe(
			"Timebox warning: 3m 0s left (15m budget) | no turn limit. The agent is now asked to wrap up.",
		);
		expect(nudgeMessage("critical", "d")).toBe("Timebox critical: d. The agent is now asked to wrap up.");
		expect(onStopStartedMessage("lmk")).toBe("Timebox ran the on-stop command: lmk");
		expect(onStopProblemMessage('"lmk" exited with code 127')).toBe(
			'Timebox on-stop command failed: "lmk" exited with code 127',
		);
		expect(internalErrorMessage("turn start", new Error("boom"))).toBe(
			"Timebox hit an internal error (turn start): boom. Your session goes on; check the budget with /timebox status.",
		);
		expect(internalErrorMessage("x", "plain")).toContain("(x): plain.");
	});
});
