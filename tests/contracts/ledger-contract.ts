// The contract every BudgetLedger keeps, as one suite run against each implementation (unstorage style), those that
// open or write asynchronously included.

import { describe, expect, it } from "vitest";
import type { BudgetLedger, OnStopClaim } from "../../src/core/index.ts";

const SUMMARY = { usedTurns: 2, elapsedMs: 61_000, timeRanOut: false };

/** When every ledger under test makes its claims: its clock stands there. */
export const CLAIMED_AT = 1_764_000_000_000;

/**
 * A fresh, empty ledger whose clock stands at `CLAIMED_AT`, and a way to open it again (after what was claimed is
 * written, for an asynchronous one); `otherProcess` opens it as another process would once the one that made the
 * claims so far has ended, and `takeMark` takes a start mark as the on-stop wrapper does.
 */
export interface LedgerUnderTest {
	ledger: BudgetLedger;
	reopen(): BudgetLedger | Promise<BudgetLedger>;
	otherProcess(): BudgetLedger | Promise<BudgetLedger>;
	takeMark(mark: string): void;
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
			// A stop that ended a prompt running and counted: an extension counts it.
			const midRun = { ...SUMMARY, timeRanOut: true, promptCounted: true as const };
			ledger.claim({ kind: "spent", budgetId: "budget-3", summary: midRun, prompt: "p2" });
			expect((await reopen()).read("budget-3").spent).toEqual({ ...midRun, prompt: "p2" });
		});

		it("keeps the on-stop command a stop claimed with the claim, with who claimed it and when, until its mark", async () => {
			const { ledger, reopen, otherProcess, takeMark } = await make();
			const claim: OnStopClaim = { budgetId: "budget-1", kind: "spent" };
			ledger.claim({
				kind: "spent",
				budgetId: "budget-1",
				summary: SUMMARY,
				prompt: "p3",
				onStopCommand: "echo 'stop'",
			});
			const pending = { claim, command: "echo 'stop'", claimedAt: CLAIMED_AT, started: false, recovered: false };
			expect((await reopen()).read("budget-1")).toEqual({
				spent: { ...SUMMARY, prompt: "p3" },
				off: false,
				nudged: false,
				onStop: { ...pending, claimantAlive: true },
			});
			// The process that claimed it ended: the next one may take it over, once.
			const next = await otherProcess();
			expect(next.read("budget-1").onStop).toEqual({ ...pending, claimantAlive: false });
			expect(next.claim({ kind: "onStopRecovered", budgetId: "budget-1" })).toBe(true);
			expect(next.claim({ kind: "onStopRecovered", budgetId: "budget-1" })).toBe(false);
			const mark = ledger.startMark?.(claim);
			expect(mark).toEqual(next.startMark?.(claim));
			takeMark(String(mark));
			expect((await otherProcess()).read("budget-1").onStop).toMatchObject({ started: true, recovered: true });
			expect(ledger.startMark?.({ budgetId: "budget-1", kind: "ended" })).not.toEqual(mark);
		});

		it("keeps the on-stop command of the end of a run that wrapped up with that claim, apart from the stop's", async () => {
			const { ledger, otherProcess } = await make();
			const summary = { ...SUMMARY, timeRanOut: true, wrapUpUntil: CLAIMED_AT + 30_000 };
			ledger.claim({ kind: "spent", budgetId: "budget-1", summary, prompt: "p3" });
			expect((await otherProcess()).read("budget-1").onStop).toBeUndefined();
			ledger.claim({ kind: "ended", budgetId: "budget-1", onStopCommand: "lmk" });
			expect((await otherProcess()).read("budget-1").onStop).toEqual({
				claim: { budgetId: "budget-1", kind: "ended" },
				command: "lmk",
				claimedAt: CLAIMED_AT,
				started: false,
				claimantAlive: false,
				recovered: false,
			});
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
