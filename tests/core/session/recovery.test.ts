// The recovery of an on-stop command that a stop claimed and no process started, as a table: the command is started
// late, once, only when the ledger says nobody started it, nobody recovered it, and its claimant is gone or the claim
// is older than the bound; and a load carries the recovery out whatever became of the budget.

import { describe, expect, it } from "vitest";
import { ON_STOP_RECOVERY_MS } from "../../../src/core/constants.ts";
import type { Effect, LedgerView, OnStopIntent, OnStopOutcome, SessionEvent } from "../../../src/core/model/events.ts";
import { EMPTY_SESSION, type RecoveryLoad, recoverOnStop, transition } from "../../../src/core/session/index.ts";
import { recoveredStart } from "../../../src/core/session/recovery.ts";
import { ON_STOP_RAN_LATE } from "../../../src/core/text/messages.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import { loadEvent, once, SPENT } from "../../support/session.ts";

const SUMMARY = { usedTurns: 1, elapsedMs: MINUTE, timeRanOut: false };

/** A ledger that holds a spent budget whose claim recorded `echo stopped`, with the intent changed by `intent`. */
function ledger(intent: Partial<OnStopIntent> = {}): LedgerView {
	return {
		spent: { ...SUMMARY, prompt: "p2" },
		off: false,
		nudged: false,
		onStop: {
			claim: { budgetId: "budget-1", kind: "spent" },
			command: "echo stopped",
			claimedAt: START,
			started: false,
			claimantAlive: false,
			recovered: false,
			...intent,
		},
	};
}

/**
 * What a recovery carries out: the start through the same mark, as a recovery, whose report then takes the claim only
 * one process wins (below).
 */
function recovered(kind: "spent" | "ended" = "spent") {
	return [
		{ kind: "startOnStop", command: "echo stopped", claim: { budgetId: "budget-1", kind }, recovery: "budget-1" },
	];
}

describe("the recovery of an on-stop command whose claimant ended before it started it", () => {
	const justAfter = START + 1_000;
	const rows: [string, LedgerView, number, boolean][] = [
		["pending, no mark, claimant gone: recovered", ledger(), justAfter, true],
		[
			"pending, no mark, claimant alive, claim young: left to the claimant",
			ledger({ claimantAlive: true }),
			justAfter,
			false,
		],
		[
			"pending, no mark, claimant alive one moment before the bound: left to it",
			ledger({ claimantAlive: true }),
			START + ON_STOP_RECOVERY_MS - 1,
			false,
		],
		[
			"pending, no mark, claimant alive at the bound (its pid reused, or frozen): recovered",
			ledger({ claimantAlive: true }),
			START + ON_STOP_RECOVERY_MS,
			true,
		],
		["mark present (a wrapper ran it): nothing", ledger({ started: true }), justAfter, false],
		["mark present, long after: nothing", ledger({ started: true }), START + 10 * ON_STOP_RECOVERY_MS, false],
		["recovered already by another process: nothing", ledger({ recovered: true }), justAfter, false],
		["recovered already, long after: nothing", ledger({ recovered: true }), START + 10 * ON_STOP_RECOVERY_MS, false],
		[
			"no command recorded with the claim: nothing",
			{ spent: { ...SUMMARY, prompt: null }, off: false, nudged: false },
			justAfter,
			false,
		],
		["a ledger that knows nothing: nothing", { spent: null, off: false, nudged: false }, justAfter, false],
		[
			"a claim from a clock ahead of this one, claimant alive: left to it",
			ledger({ claimantAlive: true, claimedAt: justAfter + MINUTE }),
			justAfter,
			false,
		],
	];
	it.each(rows)("%s", (_, view, now, recovers) => {
		expect(recoverOnStop(view, now)).toEqual(recovers ? recovered() : []);
	});

	it("starts the command of the end of a run that wrapped up through that claim's mark", () => {
		const view = ledger({ claim: { budgetId: "budget-1", kind: "ended" } });
		expect(recoverOnStop(view, START + 1_000)).toEqual(recovered("ended"));
	});
});

describe("what a late start's report adds", () => {
	const late = once({ kind: "onStopRecovered", budgetId: "budget-1" }, [
		{ kind: "notify", message: ON_STOP_RAN_LATE, level: "warning" },
	]);
	const rows: [string, OnStopOutcome, string | undefined, Effect[]][] = [
		["started: the claim, whose winner says it ran late", { kind: "started" }, "budget-1", [late]],
		["started by another process's wrapper: the same", { kind: "alreadyStarted" }, "budget-1", [late]],
		[
			"could not start: the claim, so no later event tries again, and no word of running late",
			{ kind: "failed", problem: "spawn E2BIG" },
			"budget-1",
			[once({ kind: "onStopRecovered", budgetId: "budget-1" }, [])],
		],
		["exited after its start: nothing more", { kind: "exited", problem: "exit 1" }, "budget-1", []],
		["the stop's own start: nothing", { kind: "started" }, undefined, []],
	];
	it.each(rows)("%s", (_, outcome, recovery, effects) => {
		const event: Extract<SessionEvent, { type: "onStopReport" }> = { type: "onStopReport", command: "x", outcome };
		if (recovery !== undefined) event.recovery = recovery;
		expect(recoveredStart(event)).toEqual(effects);
	});

	it("is told after the start's own words, through the rules", () => {
		const spentState = transition(EMPTY_SESSION, loadEvent({ budget: budget({ turnLimit: 1 }), usedTurns: 1 }), START);
		const report = { type: "onStopReport", command: "x", outcome: { kind: "failed", problem: "E2BIG" } } as const;
		const effects = transition(spentState.state, { ...report, recovery: "budget-1" }, START).effects;
		expect(effects.slice(0, 2)).toEqual([
			{ kind: "notify", message: "Timebox on-stop command failed: E2BIG", level: "warning" },
			once({ kind: "onStopRecovered", budgetId: "budget-1" }, []),
		]);
	});
});

describe("a load that finds an on-stop command nobody started", () => {
	const spent = budget({ turnLimit: 1, onStopCommand: "echo stopped" });

	it("carries the recovery out after what the load says, on a host whose every hook loads (continue)", () => {
		const event = loadEvent({ budget: spent, usedTurns: 1 }, { ledger: ledger(), mode: "continue" });
		const result = transition(EMPTY_SESSION, event, START + 1_000);
		expect(result.effects).toEqual([{ kind: "status", text: SPENT }, ...recovered()]);
	});

	it("carries it out when pi reopens the session (restore), after the expired budget's notice", () => {
		const event = loadEvent({ budget: spent, usedTurns: 1 }, { ledger: ledger(), mode: "restore", announce: true });
		const result = transition(EMPTY_SESSION, event, START + 1_000);
		expect(result.effects.slice(-1)).toEqual(recovered());
		// It was not restored; its command, which no process started, starts now: the notice no longer says it does not.
		expect(result.effects[0]).toEqual({
			kind: "notify",
			message: "Timebox budget of this session was already spent (all 1 turn used), so it was not restored.",
			level: "warning",
		});
	});

	it("carries it out for a budget turned off since, and adds nothing where nothing is pending", () => {
		const off = loadEvent({ budget: spent }, { ledger: { ...ledger(), off: true }, mode: "continue" });
		expect(transition(EMPTY_SESSION, off, START + 1_000).effects.slice(-1)).toEqual(recovered());
		const started = loadEvent({ budget: spent }, { ledger: ledger({ started: true }), mode: "continue" });
		expect(transition(EMPTY_SESSION, started, START + 1_000).effects).toEqual([{ kind: "status", text: SPENT }]);
	});
});

describe("the recovery of the on-stop command of a run that wrapped up, whose end no process claimed", () => {
	/** The run was to end by then: its stop gave it 30 s to wrap up. */
	const ENDS_BY = START + 30_000;
	const waiting = (intent: Partial<OnStopIntent> = {}): LedgerView => ({
		spent: { ...SUMMARY, wrapUpUntil: ENDS_BY, prompt: "p2" },
		off: false,
		nudged: false,
		onStop: {
			claim: { budgetId: "budget-1", kind: "ended" },
			command: "echo stopped",
			claimedAt: START,
			started: false,
			claimantAlive: false,
			recovered: false,
			endsBy: ENDS_BY,
			...intent,
		},
	});
	/** The end claimed with its command, the command started behind the end's mark, the user told once. */
	const ended = [
		once({ kind: "ended", budgetId: "budget-1", onStopCommand: "echo stopped" }, [
			{
				kind: "startOnStop",
				command: "echo stopped",
				claim: { budgetId: "budget-1", kind: "ended" },
				recovery: "budget-1",
			},
		]),
	];
	const hook = { continuesRun: false, atStart: false };
	const ofTheRun = { continuesRun: true, atStart: false };
	const newProcess = { continuesRun: false, atStart: true };
	const rows: [string, LedgerView, RecoveryLoad | undefined, number, boolean][] = [
		[
			"a new process, the one that ran it gone, within the wrap-up: the run is over",
			waiting(),
			newProcess,
			START + 1,
			true,
		],
		["a new process after the wrap-up: recovered", waiting(), newProcess, ENDS_BY + MINUTE, true],
		["an event of the run itself: its rules end it", waiting(), ofTheRun, ENDS_BY + MINUTE, false],
		["another hook within the wrap-up: the run may go on", waiting(), hook, ENDS_BY - 1, false],
		["another hook once the wrap-up is over: recovered", waiting(), hook, ENDS_BY, true],
		[
			"the process that runs it alive, just after the wrap-up: left to it",
			waiting({ claimantAlive: true }),
			newProcess,
			ENDS_BY + ON_STOP_RECOVERY_MS - 1,
			false,
		],
		[
			"the process that runs it alive, the bound after the wrap-up: recovered",
			waiting({ claimantAlive: true }),
			hook,
			ENDS_BY + ON_STOP_RECOVERY_MS,
			true,
		],
		["its end's mark present: nothing", waiting({ started: true }), newProcess, ENDS_BY + MINUTE, false],
		["recovered already: nothing", waiting({ recovered: true }), newProcess, ENDS_BY + MINUTE, false],
		["a caller that says nothing of its load: nothing", waiting(), undefined, ENDS_BY + MINUTE, false],
	];
	it.each(rows)("%s", (_, view, load, now, recovers) => {
		expect(recoverOnStop(view, now, load)).toEqual(recovers ? ended : []);
	});

	it("is carried out by a load of another prompt, and left to the rules by a hook of the run that wraps up", () => {
		const spent = budget({ turnLimit: 1, onStopCommand: "echo stopped" });
		// A hook of another prompt: once the wrap-up is over.
		const later = loadEvent(
			{ budget: spent, usedTurns: 1, lastPrompt: "p3" },
			{ ledger: waiting(), mode: "continue", runningPrompt: "p3" },
		);
		expect(transition(EMPTY_SESSION, later, ENDS_BY - 1).effects).not.toContainEqual(ended[0]);
		expect(transition(EMPTY_SESSION, later, ENDS_BY).effects.slice(-1)).toEqual(ended);
		// A host's start (Claude Code's module, opencode: they load as `continue`, naming no running prompt): at once.
		const started = loadEvent({ budget: spent, usedTurns: 1 }, { ledger: waiting(), mode: "continue" });
		expect(transition(EMPTY_SESSION, started, START + 1_000).effects.slice(-1)).toEqual(ended);
		const reopened = loadEvent({ budget: spent, usedTurns: 1 }, { ledger: waiting(), mode: "restore", announce: true });
		expect(transition(EMPTY_SESSION, reopened, START + 1_000).effects.slice(-1)).toEqual(ended);
		const ofTheRun = loadEvent(
			{ budget: spent, usedTurns: 1, lastPrompt: "p2" },
			{ ledger: waiting(), mode: "continue", runningPrompt: "p2" },
		);
		const wrapping = transition(EMPTY_SESSION, ofTheRun, ENDS_BY + 1);
		expect(wrapping.effects).not.toContainEqual(ended[0]);
		expect(wrapping.state.standing?.wrapUp).toMatchObject({
			prompt: "p2",
			until: ENDS_BY,
			onStopCommand: "echo stopped",
		});
	});
});
