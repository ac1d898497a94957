// What a session's state shows in the rulebook: the status, whether timers run, when the next time check is due, and
// the ledger names of a budget's outcomes.

import { describe, expect, it } from "vitest";
import { MAX_TIMER_DELAY_MS } from "../../../src/core/constants.ts";
import {
	EMPTY_SESSION,
	isActive,
	type LedgerView,
	nextTimeCheckIn,
	outcomeId,
	readLedger,
	shownTurns,
	statusText,
} from "../../../src/core/session/index.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import { DAY, fiveTurns, SPENT, tenMinutes, withBudget } from "../../support/session.ts";

describe("nextTimeCheckIn", () => {
	it.each([
		["the 80% point first", tenMinutes, START, 8 * MINUTE],
		["the 80% point from part way", tenMinutes, START + MINUTE, 7 * MINUTE],
		["the 95% point after 80%", tenMinutes, START + 8 * MINUTE, 1.5 * MINUTE],
		["the 100% point after 95%", tenMinutes, START + 9.5 * MINUTE, 0.5 * MINUTE],
		["at least 1 ms at the limit", tenMinutes, START + 10 * MINUTE, 1],
		["at least 1 ms past the limit", tenMinutes, START + 12 * MINUTE, 1],
		["whole milliseconds, rounded up", budget({ timeLimitMs: 1_001 }), START, 801],
		["the 80% point when the clock went back", tenMinutes, START - MINUTE, 8 * MINUTE],
		["no more than a timer holds", budget({ timeLimitMs: 40 * DAY }), START, MAX_TIMER_DELAY_MS],
	])("asks for %s", (_name, b, now, delay) => {
		expect(nextTimeCheckIn(withBudget(b), now)).toBe(delay);
	});

	it.each([
		["without a budget", EMPTY_SESSION],
		["without a time limit", withBudget(fiveTurns)],
		["once spent", withBudget(tenMinutes, { spent: { usedTurns: 0, elapsedMs: 0, timeRanOut: true } })],
	])("asks for nothing %s", (_name, state) => {
		expect(nextTimeCheckIn(state, START)).toBeNull();
	});
});

describe("what a session shows", () => {
	it.each([
		[3, false, false, 3],
		[3, true, true, 2],
		[3, true, false, 3],
		[3, false, true, 3],
	])("shows %d used (running: %s, counted: %s) as %d", (usedTurns, running, runningCounted, shown) => {
		expect(shownTurns(withBudget(tenMinutes, { usedTurns, running, runningCounted }))).toBe(shown);
	});

	it.each([
		["no budget", EMPTY_SESSION, false],
		["an active budget", withBudget(fiveTurns), true],
		["a spent budget", withBudget(fiveTurns, { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }), false],
	])("counts %s as active: %s", (_name, state, active) => {
		expect(isActive(state)).toBe(active);
	});

	it.each([
		["nothing without a budget", EMPTY_SESSION, undefined],
		[
			"the spent marker once spent",
			withBudget(fiveTurns, { spent: { usedTurns: 5, elapsedMs: 0, timeRanOut: false } }),
			SPENT,
		],
		[
			"what is left, without the prompt being answered",
			withBudget(fiveTurns, { usedTurns: 2, running: true, runningCounted: true }),
			"Timebox: no time limit | 4 turns left (1/5)",
		],
	])("shows %s", (_name, state, text) => {
		expect(statusText(state, START)).toBe(text);
	});
});

describe("the ledger name of a budget's outcomes", () => {
	it("is its id, then one name per extension; off stays under the id", () => {
		expect(outcomeId(tenMinutes)).toBe("budget-1");
		expect(outcomeId({ ...tenMinutes, extensions: 2 })).toBe("budget-1.e2");
		const reads: string[] = [];
		const ledger = {
			read(budgetId: string): LedgerView {
				reads.push(budgetId);
				return { spent: null, off: budgetId === "budget-1", nudged: budgetId === "budget-1.e2" };
			},
		};
		expect(readLedger(ledger, { ...tenMinutes, extensions: 2 })).toEqual({ spent: null, off: true, nudged: true });
		expect(reads).toEqual(["budget-1.e2", "budget-1"]);
		expect(readLedger(ledger, tenMinutes)).toEqual({ spent: null, off: true, nudged: false });
	});
});
