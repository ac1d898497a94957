// A team's daily budget with its limits in the team's store: which daily budgets are in force (the store's limits, a
// member's own as a personal cap beside them, or, with no limits in the store, each machine's own as the team's), the
// standings a team's ledger reads, which requests a raise answers, and `/timebox team …` (show, set, ask).

import { TEAM_ASK_WHY_CHARS, TEAM_SCOPE } from "../constants.ts";
import { isSessionWord, joinSplitTokens, quoteInput, readWords, replacesNote } from "../grammar/budget-words.ts";
import type {
	DailyAdjustment,
	DailyBudget,
	DailyLimits,
	DailyTeam,
	StoredLimits,
	TeamAsk,
	TeamView,
} from "../model/daily.ts";
import type { Effect } from "../model/events.ts";
import type { DailyStanding, DailyUse } from "./daily-budget.ts";
import {
	keptToday,
	NO_TEAM,
	STORE_SOURCE,
	teamAsked,
	teamHadNoLimits,
	teamLimitsRemoved,
	teamLimitsSet,
	teamReport,
} from "./team-text.ts";
import { parseToday } from "./today-command.ts";

/**
 * The daily budgets in force for a session of a team, from the session's own (`own`, its settings') and the limits
 * the team's store keeps (`stored`, null: none). With limits in the store, the team's day is the store's limits, and
 * each of the session's own is a personal cap counted on this machine beside it (the stricter decides); without, each
 * of the session's own is the team's, counted in the store with its own limits (each machine's TIMEBOX_DAILY).
 */
export function budgetsInForce(
	own: readonly DailyBudget[],
	team: DailyTeam,
	stored: StoredLimits | null,
): DailyBudget[] {
	if (stored === null) return own.map((budget) => ({ ...budget, team }));
	const store: DailyBudget = { scope: TEAM_SCOPE, source: STORE_SOURCE, limits: stored.limits, team, stored };
	return [store, ...own.map((budget): DailyBudget => ({ ...budget, personal: true }))];
}

/** Whether a budget counts in the team's store (the store's own, or a machine's as the team's), not on this machine. */
export function countsInStore(budget: DailyBudget): boolean {
	return budget.personal !== true;
}

/** Some of a call's budgets, with their limits (one per budget). */
export interface BudgetsWithLimits {
	budgets: DailyBudget[];
	limits: (number | null)[];
}

/**
 * A call's budgets (with their `limits`) by where they count: the team's store (`store`), this machine's own ledger
 * (`machine`, personal caps), and of the store's those a machine's own limits set (`own`: counted on this machine
 * while the store cannot be reached; the store's own limits are not this machine's to count).
 */
export function byWhereCounted(
	budgets: readonly DailyBudget[],
	limits: readonly (number | null)[],
): { store: BudgetsWithLimits; machine: BudgetsWithLimits; own: BudgetsWithLimits } {
	const sorted = {
		store: { budgets: [], limits: [] } as BudgetsWithLimits,
		machine: { budgets: [], limits: [] } as BudgetsWithLimits,
		own: { budgets: [], limits: [] } as BudgetsWithLimits,
	};
	budgets.forEach((budget, index) => {
		const limit = limits[index] ?? null;
		const places = countsInStore(budget) ? [sorted.store, ...(budget.stored ? [] : [sorted.own])] : [sorted.machine];
		for (const place of places) {
			place.budgets.push(budget);
			place.limits.push(limit);
		}
	});
	return sorted;
}

/**
 * The standing that refuses new turns while a team's store cannot be reached in the closed mode (`closed`, why), for
 * a session that sets no daily budget of its own: whatever the store keeps, no new turn runs until it answers.
 */
export function closedTeamStanding(team: DailyTeam, closed: string, dayStart: number): DailyStanding {
	const limits: DailyLimits = { timeMs: null, turns: null, tokens: null, cost: null };
	return {
		budget: { scope: TEAM_SCOPE, source: STORE_SOURCE, limits, team },
		use: { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 },
		adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
		dayStart,
		closed,
	};
}

/**
 * Whether a standing stands for limits the store may keep but that could not be read (`closedTeamStanding`'s): a
 * budget of the store with no limits read from it. Every other standing's limits are known.
 */
export function limitsUnread(standing: DailyStanding): boolean {
	return standing.budget.source === STORE_SOURCE && standing.budget.stored === undefined;
}

/** What a team's ledger read of today in the store. */
export interface TeamDayReading {
	use: DailyUse;
	/** The admin's limits, or null. */
	stored: StoredLimits | null;
	/**
	 * Today's raises (kept apart from the day's use, so that only the admin may write them): of the admin's limits, or,
	 * while the store keeps none, of each machine's own limits as the team's.
	 */
	raise: DailyAdjustment;
	dayStart: number;
}

/**
 * Today's standings of a team's session: each budget in force, the team's with the store's use and the admin's raises
 * of the day, a personal cap with this machine's standing (`machine`, asked only for those).
 */
export function teamStandings(
	own: readonly DailyBudget[],
	team: DailyTeam,
	reading: TeamDayReading,
	machine: (budgets: readonly DailyBudget[]) => DailyStanding[],
): DailyStanding[] {
	const budgets = budgetsInForce(own, team, reading.stored);
	const personal = budgets.filter((budget) => !countsInStore(budget));
	const mine = personal.length === 0 ? [] : machine(personal);
	const standings: DailyStanding[] = [];
	for (const budget of budgets) {
		if (countsInStore(budget)) {
			standings.push({ budget, use: reading.use, adjustment: reading.raise, dayStart: reading.dayStart });
			continue;
		}
		// A machine's ledger that cannot be read has said so, and has no standing to give: that cap is not enforced.
		const standing = mine[personal.indexOf(budget)];
		if (standing) standings.push({ ...standing, budget });
	}
	return standings;
}

/**
 * The open requests a raise answers: with the day off, all; else each whose every amount asked for the raise adds at
 * least (a request for 30m is answered by +30m or +1h, not by +turns:20).
 */
export function requestsAnswered(asks: readonly TeamAsk[], raise: DailyAdjustment): string[] {
	if (raise.off) return asks.map((ask) => ask.id);
	const covers = (asked: number, added: number) => asked <= 0 || added >= asked;
	return asks
		.filter(
			(ask) =>
				covers(ask.adjustment.addTimeMs, raise.addTimeMs) &&
				covers(ask.adjustment.addPrompts, raise.addPrompts) &&
				covers(ask.adjustment.addTokens, raise.addTokens) &&
				covers(ask.adjustment.addCost, raise.addCost),
		)
		.map((ask) => ask.id);
}

/** `/timebox team …`: what the words ask of the team's store. */
export type TeamCommand =
	| { kind: "show" }
	| { kind: "set"; limits: DailyLimits; notes?: string[] }
	| { kind: "unset" }
	| { kind: "ask"; adjustment: DailyAdjustment; grant: string; why: string }
	| { kind: "invalid"; reason: string };

const TEAM_USAGE = "After /timebox team: nothing, set <limits> (set 4h turns:200 $50), set off, or ask +30m <why>.";
const SET_WORDS = "a time (4h), turns:200, tokens:2m and cost ($50)";
/** The words `team set` takes, as a word it does not know is answered with. */
const SET_KNOWN = `team set takes ${SET_WORDS}`;

/** The four limits of a daily budget, as a budget's words read them. */
const LIMIT_KINDS = ["timeMs", "turns", "tokens", "cost"] as const;

/** The limits of `team set <words>`: the daily budget's words only, each other word refused by name. */
function parseLimits(text: string): TeamCommand {
	const tokens = joinSplitTokens(text)
		.split(/\s+/)
		.filter((token) => token.length > 0);
	if (tokens.length === 0)
		return { kind: "invalid", reason: `team set takes the team's limits, ${SET_WORDS}, or off.` };
	if (tokens.length === 1 && tokens[0]?.toLowerCase() === "off") return { kind: "unset" };
	const limits: DailyLimits = { timeMs: null, turns: null, tokens: null, cost: null };
	const given = new Map<(typeof LIMIT_KINDS)[number], string>();
	const notes: string[] = [];
	// Each word is read alone, so that a word of a session's budget is named; a later word of a kind replaces an earlier.
	// A word is taken only where it set one of the four limits: any other (steps:, loop:, aware, grace:, a word of
	// a later release) is refused, never dropped, for an ignored word would leave the team with fewer limits than typed.
	for (const token of tokens) {
		if (token.startsWith("+")) {
			const raise = `To raise today's budget: /timebox today ${token}.`;
			return { kind: "invalid", reason: `${quoteInput(token)} is no daily budget word: ${SET_KNOWN}. ${raise}` };
		}
		const word = readWords([token], SET_KNOWN);
		if ("invalid" in word && !isSessionWord(token)) return { kind: "invalid", reason: word.invalid };
		if ("invalid" in word || [word.timeMs, word.turns, word.tokens, word.cost].every((limit) => limit === null)) {
			return { kind: "invalid", reason: `${quoteInput(token)} is no daily budget word: ${SET_KNOWN}.` };
		}
		// A word of a kind given before replaces it, and the reply says so, as a session's budget does.
		for (const kind of LIMIT_KINDS) {
			if (word[kind] === null) continue;
			const earlier = given.get(kind);
			if (earlier !== undefined) notes.push(replacesNote(token, earlier, kind === "timeMs"));
			given.set(kind, token);
			limits[kind] = word[kind];
		}
	}
	return notes.length > 0 ? { kind: "set", limits, notes } : { kind: "set", limits };
}

/** `team ask +30m +turns:5 <why>`: the words to add (each with its `+`), then the reason. */
function parseAsk(text: string): TeamCommand {
	const tokens = text.split(/\s+/).filter((token) => token.length > 0);
	const count = tokens.findIndex((token) => !token.startsWith("+"));
	const amount = (count < 0 ? tokens : tokens.slice(0, count)).join(" ");
	const asked = amount === "" ? null : parseToday(amount);
	if (asked === null || asked.kind !== "add") {
		const why = asked?.kind === "invalid" ? `${quoteInput(amount)} is not an amount to add: ` : "";
		return { kind: "invalid", reason: `${why}team ask takes what to add first (+30m, +turns:20, +$5), then why.` };
	}
	const why = Array.from(count < 0 ? "" : tokens.slice(count).join(" "))
		.slice(0, TEAM_ASK_WHY_CHARS)
		.join("");
	return { kind: "ask", adjustment: asked.adjustment, grant: amount, why };
}

/** Reads the words after `/timebox team`. */
export function parseTeam(words: string): TeamCommand {
	const text = words.trim();
	if (text === "") return { kind: "show" };
	const [first = "", ...rest] = text.split(/\s+/);
	const after = rest.join(" ");
	if (first.toLowerCase() === "set") return parseLimits(after);
	if (first.toLowerCase() === "ask") return parseAsk(after);
	return { kind: "invalid", reason: TEAM_USAGE };
}

/** What `/timebox team …` answers now (null: the effects say it), with what it writes to the team's store. */
export interface TeamAnswer {
	message: string | null;
	level: "info" | "warning";
	effects: Effect[];
}

/** What `/timebox team` reads of the team's store, asked only to show it. */
export interface TeamReads {
	view(): TeamView;
	standings(): DailyStanding[];
	/** Why the day could not be read at the reading of `standings` (the ledger's `dayUnread`), or null. */
	dayUnread?(): string | null;
}

/** `/timebox team …` for a session whose daily ledger is `team`'s (absent: no team; unusable: said why). */
export function teamCommand(
	team: DailyTeam | { unusable: string } | undefined,
	words: string,
	reads: TeamReads,
): TeamAnswer {
	if (team === undefined) return { message: NO_TEAM, level: "info", effects: [] };
	if ("unusable" in team) return { message: team.unusable, level: "warning", effects: [] };
	const command = parseTeam(words);
	const notify = (message: string): Effect[] => [{ kind: "notify", message, level: "info" }];
	switch (command.kind) {
		case "invalid":
			return { message: `Timebox: ${command.reason} Nothing changed.`, level: "warning", effects: [] };
		case "show": {
			const view = reads.view();
			if ("unreadable" in view) return { message: view.unreadable, level: "warning", effects: [] };
			const standings = reads.standings();
			const unread = reads.dayUnread?.() ?? null;
			return {
				message: teamReport(team, view, standings, unread),
				level: unread === null ? "info" : "warning",
				effects: [],
			};
		}
		case "set": {
			const done = notify(teamLimitsSet(team, command, [...(command.notes ?? []), ...keptToday(reads.standings())]));
			return { message: null, level: "info", effects: [{ kind: "setTeamLimits", limits: command.limits, done }] };
		}
		case "unset": {
			// Written whatever the store holds (a member is refused as for any change); none there is said as such.
			const view = reads.view();
			const none = "stored" in view && view.stored === null;
			const done = notify(none ? teamHadNoLimits(team) : teamLimitsRemoved(team));
			return { message: null, level: "info", effects: [{ kind: "setTeamLimits", limits: null, done }] };
		}
		case "ask": {
			const { adjustment, why, grant } = command;
			const done = notify(teamAsked(team, adjustment, why, grant));
			return { message: null, level: "info", effects: [{ kind: "askTeam", adjustment, why, done }] };
		}
	}
}
