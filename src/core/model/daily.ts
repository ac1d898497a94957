// What a daily budget is, as data: its limits, whose sessions share it (a scope, or a team through its store), what a
// session adds to it, what `/timebox today +…` adds to it, a team's limits as its store keeps them, and a member's
// request for more. A leaf: it imports nothing, so the effects, the ports and the daily rules can all use it.

/** What a daily budget allows, per day. Any limit may be absent, never all. */
export interface DailyLimits {
	/** Agent time: the time runs took, from a prompt to the end of its run, summed over sessions. */
	timeMs: number | null;
	/** Turns: the prompts the user sends (`turns:` in a setting). */
	turns: number | null;
	tokens: number | null;
	cost: number | null;
}

/** A team sharing a daily budget: its name, and the time zone whose midnight starts its day. */
export interface DailyTeam {
	name: string;
	zone: string;
}

/** The limits a team's admin keeps in the team's store (`/timebox team set`), with who set them and when. */
export interface StoredLimits {
	limits: DailyLimits;
	/** Who set them: `user@machine (host)`. */
	setBy: string;
	/** When, epoch ms. */
	setAt: number;
}

/** A daily budget from a setting, or a team's from its store: whose sessions share it, where it was set, its limits. */
export interface DailyBudget {
	/** The sessions that share it: `user` (every session of the user), `project:<path>`, or `team` (the store's). */
	scope: string;
	/** Where it was set, as the user would name it. */
	source: string;
	limits: DailyLimits;
	/** The team whose budget it is, kept in a store every member shares; absent for one user's. */
	team?: DailyTeam;
	/** The team's limits as its store keeps them, where this budget is the store's rather than a setting's. */
	stored?: StoredLimits;
	/**
	 * A member's own daily budget beside the limits of the team's store: a personal cap, counted on this machine's own
	 * daily ledger, not the team's.
	 */
	personal?: true;
}

/** What a session adds to today's use: agent time, tokens, cost. */
export interface DailyUseAdded {
	agentMs?: number;
	tokens?: number;
	cost?: number;
}

/** What `/timebox today +…` and `/timebox today off` changed for the rest of the day. */
export interface DailyAdjustment {
	addTimeMs: number;
	addPrompts: number;
	addTokens: number;
	addCost: number;
	off: boolean;
}

/** A member's request for more of the team's day (`/timebox team ask +30m <why>`), open until it is answered. */
export interface TeamAsk {
	/** The request's id in the store. */
	id: string;
	/** Who asked: `user@machine (host)`. */
	member: string;
	/** What was asked for (never `off`). */
	adjustment: DailyAdjustment;
	why: string;
	/** When, epoch ms. */
	at: number;
}

/** What a team's store holds beside its day: the admin's limits (null: none), and the members' open requests. */
export type TeamView = { stored: StoredLimits | null; asks: readonly TeamAsk[] } | { unreadable: string };

/**
 * What became of a write to the team's store: done; refused by the store for this user (its ACL: a member's user may
 * not write the team's limits or raises); or not done for another reason, `failed` saying why in full.
 */
export type TeamWrite = "done" | "refused" | { failed: string };
