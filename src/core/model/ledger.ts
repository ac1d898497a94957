// What the ledger (outside any one session) holds about a budget's outcomes: the claims a process makes, once per budget
// and kind anywhere, and the view a load reads. A leaf beside budget.ts and on-stop.ts.

import type { SpentSummary } from "./budget.ts";
import type { OnStopIntent } from "./on-stop.ts";

/** What the ledger (outside any one session) holds about a budget. */
export interface LedgerView {
	spent: (SpentSummary & { prompt: string | null }) | null;
	off: boolean;
	nudged: boolean;
	/** The on-stop command a claim of the budget recorded, where a ledger keeps it (see `OnStopIntent`). */
	onStop?: OnStopIntent;
}

/** A ledger that knows nothing of a budget. */
export const NOTHING_RECORDED: LedgerView = { spent: null, off: false, nudged: false };

/**
 * What a ledger claim writes: the outcome of a budget, once per budget and kind, anywhere. `ended`: the run a spent
 * budget let wrap up has ended, and the on-stop command ran. A claim whose effects start the on-stop command carries it
 * (`onStopCommand`), so that another process can start it if the claiming one ends first; `onStopRecovered`: another
 * process did so, once. A stop that lets its run wrap up carries the command that run's end starts (`onStopAtEnd`), so
 * that another process can end it if the process that runs it ends first.
 */
export type LedgerClaim =
	| {
			kind: "spent";
			budgetId: string;
			summary: SpentSummary;
			prompt: string | null;
			onStopCommand?: string;
			onStopAtEnd?: string;
	  }
	| { kind: "off"; budgetId: string }
	| { kind: "nudged"; budgetId: string }
	| { kind: "ended"; budgetId: string; onStopCommand?: string }
	| { kind: "onStopRecovered"; budgetId: string };
