// The words of a budget as the user types them (a time, turns:, tokens:, cost:, steps:, loop:, aware, grace:), each read and
// checked against its range, and how user input is quoted back in a message.

import {
	AWARE_WORD,
	MAX_COST_LIMIT,
	MAX_GRACE_MS,
	MAX_LOOP_LIMIT,
	MAX_QUOTED_INPUT_CHARS,
	MAX_STEP_LIMIT,
	MAX_TIME_LIMIT_MS,
	MAX_TOKEN_LIMIT,
	MAX_TURN_LIMIT,
	MIN_COST_LIMIT,
	MIN_GRACE_MS,
	MIN_LOOP_LIMIT,
	MIN_TIME_LIMIT_MS,
} from "../constants.ts";
import { parseCost, parseTimeToMs, parseTokens, parseTurns, SECOND_MS } from "../parse.ts";

const STEPS_TOKEN = /^steps:(\d+)$/i;
const GRACE_TOKEN = /^grace:(.+)$/i;
/** `loop:3`, and what only looks like one (`loop:`, `loop:x`), which is refused by its name. */
const LOOP_TOKEN = /^loop:/i;

/** A word of a session's budget only, written well or not (`steps:`, `loop:x`, `grace:`, `aware`). */
const SESSION_ONLY = /^(steps|loop|grace):|^aware$/i;

/** Whether a word is one of a session's budget only (steps:, loop:, grace:, aware), written well or not. */
export function isSessionWord(token: string): boolean {
	return SESSION_ONLY.test(token);
}

/** Quotes user input back in a message, shortened so a huge argument cannot flood the screen. */
export function quoteInput(text: string): string {
	const chars = Array.from(text);
	const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}…` : text;
	return `"${shown}"`;
}

/** Joins `turns: 5` into `turns:5` and `15 m` into `15m`, so the spacing people type still parses. */
export function joinSplitTokens(budgetText: string): string {
	return budgetText
		.replace(/\b(turns|grace|tokens|cost|steps|loop):\s+(?=[\d$])/gi, "$1:")
		.replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}

/**
 * The words of a budget: a time and/or a turn count, and how the model is treated (`aware`, `grace:30s`), a later word
 * of a kind replacing an earlier one (noted).
 */
export type Words =
	| {
			timeMs: number | null;
			turns: number | null;
			tokens: number | null;
			cost: number | null;
			steps: number | null;
			loop: number | null;
			aware: boolean;
			graceMs: number | null;
			notes: string[];
	  }
	| { invalid: string };

/** The note that a later word replaces an earlier one of its kind (for a time, how to write their sum instead). */
export function replacesNote(token: string, earlier: string, time = false): string {
	const sum = time ? `; for the sum, write ${earlier}${token} as one word` : "";
	return `${token} replaces ${earlier}${sum}.`;
}

export function readWords(tokens: readonly string[], known: string = SESSION_BUDGET_WORDS): Words {
	let timeMs: number | null = null;
	let turns: number | null = null;
	let tokenCount: number | null = null;
	let steps: number | null = null;
	let stepsWord = "";
	let loop: number | null = null;
	let loopWord = "";
	let cost: number | null = null;
	let aware = false;
	let graceMs: number | null = null;
	let timeWord = "";
	let turnsWord = "";
	let tokensWord = "";
	let costWord = "";
	let graceWord = "";
	const notes: string[] = [];
	for (const token of tokens) {
		const stepMatch = STEPS_TOKEN.exec(token);
		if (stepMatch) {
			const count = Number(stepMatch[1]);
			if (count < 1 || count > MAX_STEP_LIMIT) {
				return { invalid: `${quoteInput(token)} is out of range: a step cap is 1 to 10,000 model calls per prompt.` };
			}
			if (steps !== null) notes.push(replacesNote(token, stepsWord));
			steps = count;
			stepsWord = token;
			continue;
		}
		if (LOOP_TOKEN.test(token)) {
			const digits = token.slice(token.indexOf(":") + 1);
			const count = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
			if (Number.isNaN(count)) {
				return {
					invalid: `${quoteInput(token)} is not a loop guard: write loop:3 (the 3rd identical tool call of a run is refused).`,
				};
			}
			if (count < MIN_LOOP_LIMIT || count > MAX_LOOP_LIMIT) {
				return { invalid: `${quoteInput(token)} is out of range: a loop guard is 2 to 1,000 identical calls.` };
			}
			if (loop !== null) notes.push(replacesNote(token, loopWord));
			loop = count;
			loopWord = token;
			continue;
		}
		const tokenBudget = parseTokens(token);
		if (tokenBudget !== null) {
			if (tokenBudget < 1 || tokenBudget > MAX_TOKEN_LIMIT) {
				return { invalid: `${quoteInput(token)} is out of range: a token budget is 1 to 1,000,000,000 tokens.` };
			}
			if (tokenCount !== null) notes.push(replacesNote(token, tokensWord));
			tokenCount = tokenBudget;
			tokensWord = token;
			continue;
		}
		const dollars = parseCost(token);
		if (dollars !== null) {
			if (dollars < MIN_COST_LIMIT || dollars > MAX_COST_LIMIT) {
				return { invalid: `${quoteInput(token)} is out of range: a cost budget is $0.01 to $10,000.` };
			}
			if (cost !== null) notes.push(replacesNote(token, costWord));
			cost = dollars;
			costWord = token;
			continue;
		}
		if (token.toLowerCase() === AWARE_WORD) {
			aware = true;
			continue;
		}
		if (GRACE_TOKEN.test(token)) {
			const ms = parseTimeToMs(token.slice(token.indexOf(":") + 1));
			if (ms === null) return { invalid: `${quoteInput(token)} is not a grace period: write grace:30s or grace:2m.` };
			const wholeSeconds = Math.round(ms / SECOND_MS) * SECOND_MS;
			if (wholeSeconds < MIN_GRACE_MS || wholeSeconds > MAX_GRACE_MS) {
				return { invalid: `${quoteInput(token)} is out of range: a grace period is 1s to 10m.` };
			}
			if (graceMs !== null) notes.push(replacesNote(token, graceWord));
			graceMs = wholeSeconds;
			graceWord = token;
			continue;
		}
		const count = parseTurns(token);
		if (count !== null) {
			if (count < 1 || count > MAX_TURN_LIMIT) {
				return {
					invalid: `${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.`,
				};
			}
			if (turns !== null) notes.push(replacesNote(token, turnsWord));
			turns = count;
			turnsWord = token;
			continue;
		}
		const ms = parseTimeToMs(token);
		if (ms !== null) {
			const wholeSeconds = Math.round(ms / SECOND_MS) * SECOND_MS;
			if (wholeSeconds < MIN_TIME_LIMIT_MS || wholeSeconds > MAX_TIME_LIMIT_MS) {
				return { invalid: `${quoteInput(token)} is out of range: a time budget is 1s to 30 days.` };
			}
			if (timeMs !== null) {
				notes.push(replacesNote(token, timeWord, true));
			}
			timeMs = wholeSeconds;
			timeWord = token;
			continue;
		}
		return { invalid: unknownWord(token, known) };
	}
	return { timeMs, turns, tokens: tokenCount, cost, steps, loop, aware, graceMs, notes };
}

/** The words a session's budget takes, a daily budget's and a subagent's, as a bad word's message lists them. */
export const SESSION_BUDGET_WORDS =
	"a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s";
export const DAILY_BUDGET_WORDS = "a time (30s, 15m, 2h), turns:5, tokens:200k or cost:2.50";
export const TASK_BUDGET_WORDS = "a time (30s, 15m, 2h), steps:25, tokens:200k, cost:2.50 or loop:3";

/** Why a word is no budget word (of those `known` lists), with a hint for the slips people make. */
function unknownWord(token: string, known: string): string {
	const why = `${quoteInput(token)} is not a budget word: ${known}.`;
	// An em or en dash (escaped: the bundles hold ASCII only), which a keyboard or an editor may make of "--".
	if (/^[\u2014\u2013]+$/.test(token)) return `${why} Did you mean -- before the on-stop command?`;
	if (token.startsWith("+")) return `${why} To add to the budget, put + before every word: +10m +turns:2.`;
	return why;
}
