// A budget's outcomes in the ledger: their names there, what the ledger holds, and the claim a host makes once.

import type { BudgetTerms } from "../model/budget.ts";
import type { Effect, LedgerClaim, LedgerView } from "../model/events.ts";
import { budgetIdOf } from "../model/records.ts";

/**
 * The ledger name of a budget's stop and warning: its id, then one name per extension, so an extended budget can stop
 * and warn again, once each time. Turning a budget off is recorded under its id, for every extension.
 */
export function outcomeId(budget: BudgetTerms): string {
	const id = budgetIdOf(budget);
	return budget.extensions ? `${id}.e${budget.extensions}` : id;
}

/** What the ledger holds for a budget as it stands now (its current extension). */
export function readLedger(ledger: { read(budgetId: string): LedgerView }, budget: BudgetTerms): LedgerView {
	const outcomes = ledger.read(outcomeId(budget));
	return budget.extensions ? { ...outcomes, off: ledger.read(budgetIdOf(budget)).off } : outcomes;
}

export function once(claim: LedgerClaim, then: Effect[]): Effect {
	return { kind: "once", claim, then };
}

/**
 * The claim of a stop (`spent`) or of the end of a run that wrapped up (`ended`), with the on-stop command it starts
 * written into it, and that start named by the claim: a process that finds the claim with no start can start it.
 */
export function claimWithOnStop<C extends Extract<LedgerClaim, { kind: "spent" | "ended" }>>(
	claim: C,
	command: string | null,
	then: Effect[],
): Effect {
	if (command === null) return once(claim, then);
	const start: Effect = { kind: "startOnStop", command, claim: { budgetId: claim.budgetId, kind: claim.kind } };
	return once({ ...claim, onStopCommand: command }, [...then, start]);
}
