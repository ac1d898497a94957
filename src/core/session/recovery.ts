// The on-stop command a stop claimed but never started: the process that claimed it ended first (a kill between the
// claim and the start). Any later event that reads the ledger finds it there with the claim and starts it, once. So too
// the command of a stop that let its run wrap up, when the process that ran that run ended before the run did.

import { ON_STOP_RECOVERY_MS } from "../constants.ts";
import type { Effect, LedgerView, SessionEvent } from "../model/events.ts";
import type { OnStopIntent } from "../model/on-stop.ts";
import { ON_STOP_RAN_LATE } from "../text/messages.ts";
import { once } from "./outcomes.ts";

/** What the recovery asks of the load that reads the ledger. */
export interface RecoveryLoad {
	/** The load's event is one of the run that wraps up after the stop: the rules end that run, and claim its end. */
	continuesRun: boolean;
	/**
	 * The load names no running prompt: a host's own start, in the process its runs go on in (pi, oh-my-pi, opencode,
	 * Claude Code's module), where no run goes on yet.
	 */
	atStart: boolean;
}

/**
 * The recovery of an on-stop command the ledger holds with its claim: nothing while its start mark exists (a wrapper
 * ran it, or runs it now), once a process recovered it, or while the process that claimed it still runs and the claim
 * is younger than `ON_STOP_RECOVERY_MS`. Otherwise the command is started through the same wrapper and mark (if the
 * claimant's own start got as far as its wrapper after all, the mark lets one of the two run it), and once its
 * starter says what became of it, the `onStopRecovered` claim is taken (recoveredStart): its winner tells the user,
 * once, that it ran late (never for a start that failed), and no later event starts it again.
 *
 * The start comes before that claim, not after it: a process killed between a claim and a start would lose the command
 * again, while one killed after its start has started it, and two processes that both start it run it once.
 *
 * The command of a run that wraps up is recovered with `load` alone (runEnded).
 */
export function recoverOnStop(ledger: LedgerView, now: number, load?: RecoveryLoad): Effect[] {
	const intent = ledger.onStop;
	if (!intent || intent.started || intent.recovered) return [];
	if (intent.endsBy !== undefined) return load === undefined ? [] : runEnded(intent, intent.endsBy, now, load);
	if (intent.claimantAlive && now - intent.claimedAt < ON_STOP_RECOVERY_MS) return [];
	return [{ kind: "startOnStop", command: intent.command, claim: intent.claim, recovery: intent.claim.budgetId }];
}

/**
 * What a late start's report adds: once the command started (here, or by another process's wrapper a moment before),
 * the `onStopRecovered` claim, whose winner tells the user once that it ran late; a start that failed takes the claim
 * too, so that no later event starts it again, but says only that it failed. Nothing for any other start.
 */
export function recoveredStart(event: Extract<SessionEvent, { type: "onStopReport" }>): Effect[] {
	if (event.recovery === undefined || event.outcome.kind === "exited") return [];
	const told: Effect[] =
		event.outcome.kind === "failed" ? [] : [{ kind: "notify", message: ON_STOP_RAN_LATE, level: "warning" }];
	return [once({ kind: "onStopRecovered", budgetId: event.recovery }, told)];
}

/**
 * A stop let its run wrap up, and no process has claimed that run's end: the one that ran it ended first (a kill, a
 * closed terminal, or a host that sends nothing when its user interrupts), and the command its end starts waits. It is
 * the rules' while the load's event belongs to that run. Otherwise the run is over: at once at a host's start, where
 * the process that ran it is gone; once its time to wrap up is over, at a hook of a host whose every event is a process
 * of its own (its next hook would cut the run there); and, where the process that ran it still runs,
 * `ON_STOP_RECOVERY_MS` after that.
 * Then the end is claimed with the command, which starts behind the end's mark, and the user is told once that it ran
 * late; a process killed between that claim and the start leaves the command to the recovery above.
 */
function runEnded(intent: OnStopIntent, endsBy: number, now: number, load: RecoveryLoad): Effect[] {
	if (load.continuesRun) return [];
	const over = intent.claimantAlive ? endsBy + ON_STOP_RECOVERY_MS : load.atStart ? Number.NEGATIVE_INFINITY : endsBy;
	if (now < over) return [];
	const budgetId = intent.claim.budgetId;
	return [
		once({ kind: "ended", budgetId, onStopCommand: intent.command }, [
			{ kind: "startOnStop", command: intent.command, claim: { budgetId, kind: "ended" }, recovery: budgetId },
		]),
	];
}
