// The watcher of a time budget: a detached process that looks at a session every second and stops the budget at its
// deadline even while no hook runs (the agent is idle), so the on-stop command runs on time. What it tells nobody is
// kept in the log for the next prompt.

import { outcomeId, sessionLog, statusText, transitionWithSubagents } from "../../core/index.ts";
import { type HookDeps, HookRuntime } from "./hook-runtime.ts";
import { loadState } from "./load.ts";

/** How often a watcher looks at the session's log, to stop at the deadline or to leave once it has nothing to do. */
export const WATCH_INTERVAL_MS = 1_000;

/**
 * How long after the deadline a watcher leaves a run that seems to be going on to the hooks (which stop it at its next
 * tool boundary): a run interrupted without a Stop hook looks like one going on, and must not hold the stop forever.
 */
export const WATCH_RUNNING_MS = 10 * 60_000;

/**
 * How many looks in a row a watcher finds its session's log missing (the file, or its folder with it) before it leaves:
 * a session whose data was removed (a throwaway home, a cleared data folder) has nothing to stop. One look is not
 * enough: the watcher of a live budget must not leave because its log was missing for a moment.
 */
export const WATCH_GONE_LOOKS = 2;

/**
 * One look of the watcher at the session: `done` once there is nothing to watch (no active time budget: off, spent,
 * paused, replaced by one without time); `missing` when the session's log is not there (nothing is checked); else it
 * checks the time, which stops a budget whose time ran out, once anywhere, and runs its on-stop command.
 */
export async function watchOnce(
	deps: HookDeps,
	watched: string,
	now: number,
): Promise<"done" | "watching" | "missing"> {
	// What the hooks wrote since the last look, folded once into this look's runtime.
	deps.store.reread();
	const hook = HookRuntime.of(deps);
	// The watcher recovers no on-stop command: what it would tell of it has no one to hear it; the next hook does.
	const state = hook.load(now, {}, false);
	if (deps.store.missing()) return "missing";
	const budget = state.standing?.budget;
	// Another budget, or this one extended, paused, spent or off: its own watcher (if any) takes over.
	if (!budget || outcomeId(budget) !== watched || state.standing?.spent || budget.pausedAt !== undefined) return "done";
	// A look first, with the rules the runtime composes (the session's and its subagents'): nothing is carried out.
	const spent = transitionWithSubagents(state, { type: "timeCheck" }, now).state.standing?.spent;
	if (!spent) return "watching";
	// A run going on is the hooks' to stop, at its next tool boundary, with the stop message of a running run.
	const running = state.lastPrompt !== null && !deps.store.runEnded(state.lastPrompt);
	const pastDeadline = spent.elapsedMs - Number(budget.timeLimitMs);
	if (running && pastDeadline < WATCH_RUNNING_MS) return "watching";
	// The time check goes to the runtime, as any hook's event does: the session's stop stops its running subagents too,
	// and their records say so.
	const { notices } = await hook.reply(hook.handle({ type: "timeCheck" }));
	// Another hook may have stopped it a moment before: then there is nothing to tell, and the line says so.
	hook.write(sessionLog.keepUntold(notices, now));
	return "done";
}

/** The status line's text: the budget as the rules see it now, read only (nothing is claimed or run). */
export function statusLineText(deps: Pick<HookDeps, "store" | "ledger">, now: number): string {
	const state = transitionWithSubagents(loadState(deps, now), { type: "timeCheck" }, now).state;
	return statusText(state, now) ?? "";
}
