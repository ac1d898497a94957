// The loop guard's rule, pure: a call asked for the Nth time in its run is refused, once more stops the run, and a run
// stopped that way runs nothing more. Different calls never count together; a new run starts from nothing.

import { callHash, hashOfKey, type ToolCallSeen } from "./calls.ts";
import { countCall, noCalls, type RunCalls } from "./run-calls.ts";

/**
 * What becomes of a call: it `runs`; it is `refused` (the Nth identical one of its run); it `stops` the run (asked for
 * once more after that); or its run was `stopped` already by an earlier call, and nothing more runs in it.
 */
export type LoopVerdict = "runs" | "refused" | "stops" | "stopped";

/** The guard's answer: the run's calls with this one counted, how many times this call was asked for, and what to do. */
export interface LoopCheck {
	readonly calls: RunCalls;
	readonly count: number;
	readonly verdict: LoopVerdict;
}

/**
 * Checks one call of run `run` against a loop guard of `limit` (the Nth identical call is refused). `calls` is what the
 * run asked for so far, as the rules kept it (null: nothing kept, or another run's); `earlier` are the keys of the run's
 * calls before this one as a host read them from its own log, which win over `calls` when given.
 * @example checkCall(null, "p1", { tool: "bash", input: { command: "ls" } }, 3).verdict // "runs"
 */
export function checkCall(
	calls: RunCalls | null,
	run: string,
	call: ToolCallSeen,
	limit: number,
	earlier?: readonly string[],
): LoopCheck {
	const before =
		earlier === undefined ? (calls !== null && calls.run === run ? calls : noCalls(run)) : replay(run, earlier);
	// A run the guard stopped runs nothing more: the call is not counted.
	if (before.peak > limit) return { calls: before, count: 0, verdict: "stopped" };
	const counted = countCall(before, callHash(call));
	const verdict = counted.count < limit ? "runs" : counted.count === limit ? "refused" : "stops";
	return { calls: counted.calls, count: counted.count, verdict };
}

/** The calls of a run from their keys, oldest first. */
export function replay(run: string, keys: readonly string[]): RunCalls {
	let calls = noCalls(run);
	for (const key of keys) calls = countCall(calls, hashOfKey(key)).calls;
	return calls;
}
