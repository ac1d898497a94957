// The contract every BudgetLedger keeps, as one suite run against each implementation (unstorage style), those that
// open or write asynchronously included.

import { describe, expect, it } from "vitest";
import type { BudgetLedger } from "../../src/core/index.ts";

const SUMMARY = { usedTurns: 2, elapsedMs: 61_000, timeRanOut: false };

/** A fresh, empty ledger, and a way to open it again (after what was claimed is written, for an asynchronous one). */
export interface LedgerUnderTest {
	ledger: BudgetLedger;
	reopen(): BudgetLedger | Promise<BudgetLedger>;
}

/** Runs the ledger contract against `make`. */
export function ledgerContract(name: string, make: () => LedgerUnderTest | Promise<LedgerUnderTest>): void {
	describe(`the ${name} ledger`, () => {
		it("knows nothing of a budget nobody claimed", async () => {
			expect((await make()).ledger.read("budget-1")).toEqual({ spent: null, off: false, nudged: false });
		});

		it("lets the first claim of each kind win, and every later one lose", async () => {
			const { ledger } = await make();
			expect(ledger.claim({ kind: "spent", budgetId: "budget-1", summary: SUMMARY, prompt: "p3" })).toBe(true);
			expect(ledger.claim({ kind: "spent", budgetId: "budget-1", summary: SUMMARY, prompt: "p4" })).toBe(false);
			expect(ledger.claim({ kind: "nudged", budgetId: "budget-1" })).toBe(true);
			expect(ledger.claim({ kind: "nudged", budgetId: "budget-1" })).toBe(false);
			expect(ledger.claim({ kind: "off", budgetId: "budget-1" })).toBe(true);
			expect(ledger.claim({ kind: "off", budgetId: "budget-1" })).toBe(false);
		});

		it("reads back what the winning claim recorded, from another instance too", async () => {
			const { ledger, reopen } = await make();
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary: SUMMARY, prompt: "p3" });
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary: { ...SUMMARY, usedTurns: 9 }, prompt: "p9" });
			ledger.claim({ kind: "nudged", budgetId: "budget-1" });
			const expected = { spent: { ...SUMMARY, prompt: "p3" }, off: false, nudged: true };
			expect(ledger.read("budget-1")).toEqual(expected);
			expect((await reopen()).read("budget-1")).toEqual(expected);
		});

		it("reads back until when a stopped run may wrap up, and lets the end of that run be claimed once", async () => {
			const { ledger, reopen } = await make();
			const summary = { ...SUMMARY, timeRanOut: true, wrapUpUntil: 1_764_000_030_000 };
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary, prompt: "p3" });
			expect((await reopen()).read("budget-1").spent).toEqual({ ...summary, prompt: "p3" });
			expect(ledger.claim({ kind: "ended", budgetId: "budget-1" })).toBe(true);
			expect((await reopen()).claim({ kind: "ended", budgetId: "budget-1" })).toBe(false);
		});

		it("reads back which limit a stop met, with the tokens and cost used by then", async () => {
			const { ledger, reopen } = await make();
			const summary = { ...SUMMARY, limit: "cost" as const, tokens: 1_200, cost: 2.07 };
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary, prompt: null });
			expect((await reopen()).read("budget-1").spent).toEqual({ ...summary, prompt: null });
			// A limit not reached, whose room could not hold the next model call.
			const noRoom = { ...SUMMARY, limit: "tokens" as const, tokens: 196_000, noRoom: true as const };
			ledger.claim({ kind: "spent", budgetId: "budget-2", summary: noRoom, prompt: null });
			expect((await reopen()).read("budget-2").spent).toEqual({ ...noRoom, prompt: null });
		});

		it("keeps budgets apart, whatever their ids look like", async () => {
			const { ledger } = await make();
			ledger.claim({ kind: "off", budgetId: "legacy-1764000000000" });
			expect(ledger.read("legacy-1764000000000").off).toBe(true);
			expect(ledger.read("legacy-1764000000001").off).toBe(false);
			expect(ledger.claim({ kind: "off", budgetId: "legacy-1764000000001" })).toBe(true);
		});
	});
}
