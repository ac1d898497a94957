// The contract every DailyLedger keeps (this machine's files, a team's Redis), as one suite run against each: prompts
// are counted exactly, never past a limit, however the sessions interleave; what one session uses and adjusts reaches
// every other; the sessions that used the day are counted.

import { describe, expect, it } from "vitest";
import { type DailyBudget, type DailyLedger, NO_ADJUSTMENT } from "../../src/core/index.ts";

/** The budget the contract uses: 3 prompts, 1k tokens, $1, 1h of agent time a day. */
export const CONTRACT_BUDGET: DailyBudget = {
	scope: "user",
	source: "contract",
	limits: { timeMs: 3_600_000, turns: 3, tokens: 1_000, cost: 1 },
};

/**
 * Runs the daily ledger contract against `make`, which gives a fresh, empty day and a way to open a session's ledger
 * on it (each a separate instance, as another process would open it).
 */
export function dailyLedgerContract(name: string, make: () => { session: (id: string) => DailyLedger }): void {
	const budgets = [CONTRACT_BUDGET];

	describe(`the ${name} daily ledger`, () => {
		it("starts a day with nothing used and nothing added", () => {
			const [standing] = make().session("a").standings(budgets);
			expect(standing?.use).toMatchObject({ agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 });
			expect(standing?.adjustment).toEqual(NO_ADJUSTMENT);
		});

		it("counts prompts exactly across sessions, and never past the limit", () => {
			const day = make();
			const sessions = ["a", "b", "c"].map((id) => day.session(id));
			const taken = [0, 1, 2, 0, 1, 2].map((index) => sessions[index]?.countPrompt(budgets, [3]));
			expect(taken).toEqual([true, true, true, false, false, false]);
			expect(day.session("d").standings(budgets)[0]?.use).toMatchObject({ prompts: 3, sessions: 3 });
		});

		it("counts without a limit", () => {
			const day = make();
			const a = day.session("a");
			for (let count = 0; count < 5; count++) expect(a.countPrompt(budgets, [null])).toBe(true);
			expect(day.session("b").standings(budgets)[0]?.use.prompts).toBe(5);
		});

		it("adds each session's agent time, tokens and cost for every other to read", () => {
			const day = make();
			day.session("a").addUse(budgets, { agentMs: 1_000, tokens: 300, cost: 0.25 });
			day.session("b").addUse(budgets, { agentMs: 500, tokens: 200, cost: 0.5 });
			const [standing] = day.session("c").standings(budgets);
			expect(standing?.use).toMatchObject({ agentMs: 1_500, tokens: 500, cost: 0.75, sessions: 2 });
		});

		it("raises today's limits and turns the day off, for every session", () => {
			const day = make();
			day.session("a").adjust(CONTRACT_BUDGET, { ...NO_ADJUSTMENT, addPrompts: 2, addCost: 1.5 });
			day.session("b").adjust(CONTRACT_BUDGET, { ...NO_ADJUSTMENT, addTimeMs: 60_000, addTokens: 100 });
			expect(day.session("c").standings(budgets)[0]?.adjustment).toEqual({
				addTimeMs: 60_000,
				addPrompts: 2,
				addTokens: 100,
				addCost: 1.5,
				off: false,
			});
			day.session("a").adjust(CONTRACT_BUDGET, { ...NO_ADJUSTMENT, off: true });
			expect(day.session("c").standings(budgets)[0]?.adjustment.off).toBe(true);
		});

		it("reports no problem while it works", () => {
			const a = make().session("a");
			a.countPrompt(budgets, [3]);
			a.standings(budgets);
			expect(a.problem()).toBeNull();
		});
	});
}
