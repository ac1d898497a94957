// The on-stop command a stop claimed but never started: the process that claimed it ended first (a kill between the
// claim and the start). Any later event that reads the ledger finds it there with the claim and starts it, once.

import { ON_STOP_RECOVERY_MS } from "../constants.ts";
import type { Effect, LedgerView } from "../model/events.ts";
import { ON_STOP_RAN_LATE } from "../text/messages.ts";
import { once } from "./outcomes.ts";

/**
 * The recovery of an on-stop command the ledger holds with its claim: nothing while its start mark exists (a wrapper
 * ran it, or runs it now), once a process recovered it, or while the process that claimed it still runs and the claim
 * is younger than `ON_STOP_RECOVERY_MS`. Otherwise the command is started through the same wrapper and mark (if the
 * claimant's own start got as far as its wrapper after all, the mark lets one of the two run it), and then the
 * `onStopRecovered` claim is taken: its winner tells the user, once, and no later event starts it again.
 *
 * The start comes before that claim, not after it: a process killed between a claim and a start would lose the command
 * again, while one killed after its start has started it, and two processes that both start it run it once.
 */
export function recoverOnStop(ledger: LedgerView, now: number): Effect[] {
	const intent = ledger.onStop;
	if (!intent || intent.started || intent.recovered) return [];
	if (intent.claimantAlive && now - intent.claimedAt < ON_STOP_RECOVERY_MS) return [];
	return [
		{ kind: "startOnStop", command: intent.command, claim: intent.claim },
		once({ kind: "onStopRecovered", budgetId: intent.claim.budgetId }, [
			{ kind: "notify", message: ON_STOP_RAN_LATE, level: "warning" },
		]),
	];
}
