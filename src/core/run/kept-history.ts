// What a session's store is given of its history, decided once for every store: a prompt that ran and what a response
// used are kept where something reads them back, and not where nothing does. A store keeps what it is given; this rule
// decides what to give it.

import type { Effect } from "../model/events.ts";
import type { SessionState } from "../session/index.ts";

/**
 * The effects to carry out. A host whose store carries the session from one event to the next (the hook hosts: which
 * prompt a run belongs to, the step it is at, when it started) is given every prompt (`recordPrompt`) and usage
 * (`recordUsage`). A host that keeps the session in memory (`inMemory`: pi, opencode, Claude Code's hooks module) reads
 * its store back only when the session loads again, where only a budget counts them: it is given them while a budget
 * is in force (active or spent), and nothing at each prompt and answer of a session without one (Claude Code's hooks
 * module, whose store writes its whole entry at each change and holds 4 MiB for every session, least of all).
 */
export function keptForStore(effects: readonly Effect[], state: SessionState, inMemory: boolean): readonly Effect[] {
	if (!inMemory || state.standing !== null || !effects.some(isHistory)) return effects;
	return effects.filter((effect) => !isHistory(effect));
}

function isHistory(effect: Effect): boolean {
	return effect.kind === "recordPrompt" || effect.kind === "recordUsage";
}
