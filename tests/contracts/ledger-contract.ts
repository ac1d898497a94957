// The contract every BudgetLedger keeps, as one suite run against each implementation (unstorage style).

import { describe, expect, it } from "vitest";
import type { BudgetLedger } from "../../src/core/index.ts";

const SUMMARY = { usedTurns: 2, elapsedMs: 61_000, timeRanOut: false };

/** Runs the ledger contract against `make`, which returns a fresh, empty ledger and a way to open it again. */
export function ledgerContract(name: string, make: () => { ledger: BudgetLedger; reopen: () => BudgetLedger }): void {
	describe(`the ${name} ledger`, () => {
		it("knows nothing of a budget nobody claimed", () => {
			expect(make().ledger.read("budget-1")).toEqual({ spent: null, off: false, nudged: false });
		});

		it("lets the first claim of each kind win, and every later one lose", () => {
			const { ledger } = make();
			expect(ledger.claim({ kind: "spent", budgetId: "budget-1", summary: SUMMARY, prompt: "p3" })).toBe(true);
			expect(ledger.claim({ kind: "spent", budgetId: "budget-1", summary: SUMMARY, prompt: "p4" })).toBe(false);
			expect(ledger.claim({ kind: "nudged", budgetId: "budget-1" })).toBe(true);
			expect(ledger.claim({ kind: "nudged", budgetId: "budget-1" })).toBe(false);
			expect(ledger.claim({ kind: "off", budgetId: "budget-1" })).toBe(true);
			expect(ledger.claim({ kind: "off", budgetId: "budget-1" })).toBe(false);
		});

		it("reads back what the winning claim recorded, from another instance too", () => {
			const { ledger, reopen } = make();
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary: SUMMARY, prompt: "p3" });
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary: { ...SUMMARY, usedTurns: 9 }, prompt: "p9" });
			ledger.claim({ kind: "nudged", budgetId: "budget-1" });
			const expected = { spent: { ...SUMMARY, prompt: "p3" }, off: false, nudged: true };
			expect(ledger.read("budget-1")).toEqual(expected);
			expect(reopen().read("budget-1")).toEqual(expected);
		});

		it("reads back until when a stopped run may wrap up, and lets the end of that run be claimed once", () => {
			const { ledger, reopen } = make();
			const summary = { ...SUMMARY, timeRanOut: true, wrapUpUntil: 1_764_000_030_000 };
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary, prompt: "p3" });
			expect(reopen().read("budget-1").spent).toEqual({ ...summary, prompt: "p3" });
			expect(ledger.claim({ kind: "ended", budgetId: "budget-1" })).toBe(true);
			expect(reopen().claim({ kind: "ended", budgetId: "budget-1" })).toBe(false);
		});

		it("reads back which limit a stop met, with the tokens and cost used by then", () => {
			const { ledger, reopen } = make();
			const summary = { ...SUMMARY, limit: "cost" as const, tokens: 1_200, cost: 2.07 };
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary, prompt: null });
			expect(reopen().read("budget-1").spent).toEqual({ ...summary, prompt: null });
		});

		it("keeps budgets apart, whatever their ids look like", () => {
			const { ledger } = make();
			ledger.claim({ kind: "off", budgetId: "legacy-1764000000000" });
			expect(ledger.read("legacy-1764000000000").off).toBe(true);
			expect(ledger.read("legacy-1764000000001").off).toBe(false);
			expect(ledger.claim({ kind: "off", budgetId: "legacy-1764000000001" })).toBe(true);
		});
	});
}
