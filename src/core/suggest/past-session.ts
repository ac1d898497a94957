// What one past session used, for the suggested budget: its time (from its first prompt to the end of its last run),
// its turns, and the model calls, tokens and cost its host measured, folded from the history every host hands the core.

import type { HistoryItem } from "../model/history.ts";
import { safeAmount } from "../model/measure.ts";

/** One past session of a project, as the suggestion counts it; null figures are those its host does not measure. */
export interface PastSession {
	id: string;
	/** The host it ran on, in its users' words (`pi`, `Claude Code`). */
	host: string;
	/** Its first prompt and the end of its last run, epoch ms. */
	startedAt: number;
	endedAt: number;
	/** The prompts the user sent (each counted once). */
	turns: number;
	steps: number | null;
	tokens: number | null;
	cost: number | null;
}

/** What a host's history says of a session besides its items. */
export interface SessionFacts {
	id: string;
	host: string;
	/** The end of its last run where the host's history says (the last line written), epoch ms. */
	endedAt?: number;
	/** Its model calls where the host's history counts them, else null. */
	steps: number | null;
	/** Whether the host measures tokens and cost. */
	tokens: boolean;
	cost: boolean;
}

/**
 * A past session's figures from its history, or null for one that does not count: no prompt ran in it, or its prompts
 * carry no time. Its time runs from its first prompt to the latest of its items and `facts.endedAt`.
 * @example pastSession([{ kind: "prompt", key: "p", at: 0 }, { kind: "usage", tokens: 9, cost: 0, at: 60_000 }], facts)?.endedAt // 60_000
 */
export function pastSession(items: readonly HistoryItem[], facts: SessionFacts): PastSession | null {
	const prompts = new Set<string>();
	let startedAt = Number.POSITIVE_INFINITY;
	let endedAt = facts.endedAt ?? Number.NEGATIVE_INFINITY;
	let tokens = 0;
	let cost = 0;
	for (const item of items) {
		if (item.kind === "record") continue;
		const at = item.at;
		if (at !== undefined && Number.isFinite(at)) endedAt = Math.max(endedAt, at);
		if (item.kind === "usage") {
			tokens += safeAmount(item.tokens);
			cost += safeAmount(item.cost);
			continue;
		}
		prompts.add(item.key);
		if (at !== undefined && Number.isFinite(at)) startedAt = Math.min(startedAt, at);
	}
	if (prompts.size === 0 || startedAt === Number.POSITIVE_INFINITY) return null;
	return {
		id: facts.id,
		host: facts.host,
		startedAt,
		endedAt: Math.max(startedAt, endedAt),
		turns: prompts.size,
		steps: facts.steps,
		tokens: facts.tokens ? tokens : null,
		cost: facts.cost ? cost : null,
	};
}
