// What a session's store is given of its history, decided once for every store: a prompt that ran and what a response
// used are kept where something reads them back, and not where nothing does. A store keeps what it is given; this rule
// decides what to give it.

import type { Effect } from "../model/events.ts";
import type { SessionState } from "../session/index.ts";

/**
 * The effects to carry out. A store is given every prompt (`recordPrompt`) and usage (`recordUsage`) where they are read
 * back: a hook host's log carries the session from one event to the next (which prompt a run belongs to, the step it
 * is at, when it started), and a project's past sessions, read from every host's store, make a suggested budget. A
 * store read back only when the session loads again, where only a budget counts them (`whileBudgeted`: Claude Code's
 * hooks module, whose store writes its whole entry at each change and holds 4 MiB for every session, unless budgets
 * are suggested from its sessions), is given them while a budget is in force (active or spent), and nothing at each
 * prompt and answer of a session without one.
 */
export function keptForStore(
	effects: readonly Effect[],
	state: SessionState,
	whileBudgeted: boolean,
): readonly Effect[] {
	if (!whileBudgeted || state.standing !== null || !effects.some(isHistory)) return effects;
	return effects.filter((effect) => !isHistory(effect));
}

function isHistory(effect: Effect): boolean {
	return effect.kind === "recordPrompt" || effect.kind === "recordUsage";
}
