// The grammar of `/timebox` arguments: a budget's words, the sub-commands and the extensions, each word's amount read
// by amounts.ts; and how user input is quoted back.

import { parseCost, parseTimeToMs, parseTokens, parseTurns, SECOND_MS } from "./amounts.ts";
import type { BudgetLimits, TaskBudget } from "./budget.ts";
import {
	AWARE_WORD,
	EXTEND_WORDS,
	MAX_COST_LIMIT,
	MAX_GRACE_MS,
	MAX_QUOTED_INPUT_CHARS,
	MAX_STEP_LIMIT,
	MAX_TIME_LIMIT_MS,
	MAX_TOKEN_LIMIT,
	MAX_TURN_LIMIT,
	MIN_COST_LIMIT,
	MIN_GRACE_MS,
	MIN_TIME_LIMIT_MS,
	OFF_WORDS,
	PAUSE_WORD,
	REPORT_WORD,
	RESUME_WORD,
	STATUS_WORD,
	SUBAGENTS_WORD,
	TODAY_WORD,
} from "./constants.ts";

export { formatTime, parseTimeToMs, parseTurns } from "./amounts.ts";

/** What `/timebox <args>` asks for. `notes` say which word replaced an earlier one of the same kind. */
export type TimeboxCommand =
	| ({ kind: "set"; notes?: string[] } & BudgetLimits)
	| {
			kind: "extend";
			addTimeMs: number | null;
			addTurns: number | null;
			addTokens?: number;
			addCost?: number;
			notes?: string[];
	  }
	| { kind: "off" }
	| { kind: "status" }
	| { kind: "pause" }
	| { kind: "resume" }
	| { kind: "report" }
	/** The daily budgets: `words` is what follows `today` (nothing, `off`, `+30m` …), read by the daily rules. */
	| { kind: "today"; words: string }
	/** The subagent budget: show it, turn it off, or set it (`budget`, written as `words`). */
	| { kind: "subagents"; action: "show" | "off" }
	| { kind: "subagents"; action: "set"; budget: TaskBudget; words: string }
	| { kind: "invalid"; reason: string };

const STEPS_TOKEN = /^steps:(\d+)$/i;
const GRACE_TOKEN = /^grace:(.+)$/i;
/** `today`, alone or with the words of a daily command after it. */
const TODAY_COMMAND = new RegExp(`^${TODAY_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
const STOP_COMMAND_DELIMITER = /(?:^|\s)--(?:\s|$)/;
/** `subagents`, alone or with the words of a subagent budget after it. */
const SUBAGENTS_COMMAND = new RegExp(`^${SUBAGENTS_WORD}(?:\\s+([\\s\\S]*))?$`, "i");

/** Quotes user input back in a message, shortened so a huge argument cannot flood the screen. */
export function quoteInput(text: string): string {
	const chars = Array.from(text);
	const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}…` : text;
	return `"${shown}"`;
}

/** Joins `turns: 5` into `turns:5` and `15 m` into `15m`, so the spacing people type still parses. */
function joinSplitTokens(budgetText: string): string {
	return budgetText
		.replace(/\b(turns|grace|tokens|cost|steps):\s+(?=[\d$])/gi, "$1:")
		.replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}

function invalid(reason: string): TimeboxCommand {
	return { kind: "invalid", reason };
}

const SUB_COMMANDS: Record<string, "status" | "off" | "pause" | "resume" | "report"> = {
	[STATUS_WORD]: "status",
	[REPORT_WORD]: "report",
	[PAUSE_WORD]: "pause",
	[RESUME_WORD]: "resume",
	...Object.fromEntries(OFF_WORDS.map((word) => [word, "off"])),
};

/**
 * The words of a budget: a time and/or a turn count, and how the model is treated (`aware`, `grace:30s`), a later word
 * of a kind replacing an earlier one (noted).
 */
type Words =
	| {
			timeMs: number | null;
			turns: number | null;
			tokens: number | null;
			cost: number | null;
			steps: number | null;
			aware: boolean;
			graceMs: number | null;
			notes: string[];
	  }
	| { invalid: string };

function readWords(tokens: readonly string[]): Words {
	let timeMs: number | null = null;
	let turns: number | null = null;
	let tokenCount: number | null = null;
	let steps: number | null = null;
	let stepsWord = "";
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
			if (steps !== null) notes.push(`${token} replaces ${stepsWord}.`);
			steps = count;
			stepsWord = token;
			continue;
		}
		const tokenBudget = parseTokens(token);
		if (tokenBudget !== null) {
			if (tokenBudget < 1 || tokenBudget > MAX_TOKEN_LIMIT) {
				return { invalid: `${quoteInput(token)} is out of range: a token budget is 1 to 1,000,000,000 tokens.` };
			}
			if (tokenCount !== null) notes.push(`${token} replaces ${tokensWord}.`);
			tokenCount = tokenBudget;
			tokensWord = token;
			continue;
		}
		const dollars = parseCost(token);
		if (dollars !== null) {
			if (dollars < MIN_COST_LIMIT || dollars > MAX_COST_LIMIT) {
				return { invalid: `${quoteInput(token)} is out of range: a cost budget is $0.01 to $10,000.` };
			}
			if (cost !== null) notes.push(`${token} replaces ${costWord}.`);
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
			if (graceMs !== null) notes.push(`${token} replaces ${graceWord}.`);
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
			if (turns !== null) notes.push(`${token} replaces ${turnsWord}.`);
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
				notes.push(`${token} replaces ${timeWord}; for the sum, write ${timeWord}${token} as one word.`);
			}
			timeMs = wholeSeconds;
			timeWord = token;
			continue;
		}
		return { invalid: unknownWord(token) };
	}
	return { timeMs, turns, tokens: tokenCount, cost, steps, aware, graceMs, notes };
}

/** Why a word is no budget word, with a hint for the slips people make. */
function unknownWord(token: string): string {
	const why = `${quoteInput(token)} is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s.`;
	if (/^[—–]+$/.test(token)) return `${why} Did you mean -- before the on-stop command?`;
	if (token.startsWith("+")) return `${why} To add to the budget, put + before every word: +10m +turns:2.`;
	return why;
}

function withNotes<T extends object>(command: T, notes: readonly string[]): T | (T & { notes: string[] }) {
	return notes.length > 0 ? { ...command, notes: [...notes] } : command;
}

/** `extend 10m`, `add turns:2`, or every word prefixed with `+`: the words to add, else null. */
function extensionWords(tokens: readonly string[]): string[] | null {
	const [first, ...rest] = tokens;
	if (first !== undefined && EXTEND_WORDS.includes(first.toLowerCase())) return rest;
	if (tokens.length > 0 && tokens.every((token) => token.startsWith("+"))) return tokens.map((token) => token.slice(1));
	return null;
}

/**
 * Parses the text after `/timebox`. Never throws: anything it cannot read is `invalid` with a reason naming the problem.
 * @example parseCommand("15m turns:3 -- say done") // { kind: "set", timeLimitMs: 900_000, turnLimit: 3, onStopCommand: "say done" }
 * @example parseCommand("+10m +turns:2") // { kind: "extend", addTimeMs: 600_000, addTurns: 2 }
 * @example parseCommand("15m aware grace:30s") // { kind: "set", timeLimitMs: 900_000, …, awareness: "always", graceMs: 30_000 }
 */
export function parseCommand(input: string): TimeboxCommand {
	const text = typeof input === "string" ? input : "";
	const today = TODAY_COMMAND.exec(text.trim());
	if (today) return { kind: "today", words: today[1] ?? "" };
	const subagents = SUBAGENTS_COMMAND.exec(text.trim());
	if (subagents) return subagentsCommand((subagents[1] ?? "").trim());
	const delimiter = STOP_COMMAND_DELIMITER.exec(text);
	const budgetText = delimiter ? text.slice(0, delimiter.index) : text;
	const stopCommand = delimiter ? text.slice(delimiter.index + delimiter[0].length).trim() : "";
	const tokens = joinSplitTokens(budgetText)
		.split(/\s+/)
		.filter((token) => token.length > 0);

	for (const token of tokens) {
		const kind = SUB_COMMANDS[token.toLowerCase()];
		if (kind === undefined) continue;
		if (tokens.length > 1 || delimiter) return invalid(`${quoteInput(token)} takes nothing else with it.`);
		return { kind };
	}

	const extension = extensionWords(tokens);
	if (extension !== null) {
		if (delimiter) return invalid("An extension keeps the budget's on-stop command: nothing goes after --.");
		const words = readWords(extension);
		if ("invalid" in words) return invalid(words.invalid);
		if (words.aware || words.graceMs !== null || words.steps !== null) {
			return invalid("An extension adds to the limits only; set aware, grace or steps with a new budget.");
		}
		if (words.timeMs === null && words.turns === null && words.tokens === null && words.cost === null) {
			return invalid("Nothing to add: give a time, turns:<n>, tokens:<n> or cost:<dollars>.");
		}
		return withNotes(
			{
				kind: "extend",
				addTimeMs: words.timeMs,
				addTurns: words.turns,
				...(words.tokens === null ? {} : { addTokens: words.tokens }),
				...(words.cost === null ? {} : { addCost: words.cost }),
			},
			words.notes,
		);
	}

	const words = readWords(tokens);
	if ("invalid" in words) return invalid(words.invalid);
	const noLimit = words.tokens === null && words.cost === null && words.steps === null;
	if (words.timeMs === null && words.turns === null && noLimit) {
		return invalid(stopCommand ? "A command after -- needs a budget before it." : "No budget given.");
	}
	if (delimiter && stopCommand.length === 0) {
		// `15m --` with nothing after it: set the budget, and say that no on-stop command was given.
		words.notes.push("Nothing follows --, so no on-stop command was set.");
	}
	return withNotes(
		{
			kind: "set",
			timeLimitMs: words.timeMs,
			turnLimit: words.turns,
			...(words.tokens === null ? {} : { tokenLimit: words.tokens }),
			...(words.cost === null ? {} : { costLimit: words.cost }),
			...(words.steps === null ? {} : { stepLimit: words.steps }),
			onStopCommand: stopCommand.length > 0 ? stopCommand : null,
			...(words.aware ? { awareness: "always" as const } : {}),
			...(words.graceMs === null ? {} : { graceMs: words.graceMs }),
		},
		words.notes,
	);
}

/** `/timebox subagents [<budget> | off]`. */
function subagentsCommand(words: string): TimeboxCommand {
	if (words.length === 0) return { kind: "subagents", action: "show" };
	if (OFF_WORDS.includes(words.toLowerCase())) return { kind: "subagents", action: "off" };
	const budget = parseTaskBudget(words);
	return "invalid" in budget ? invalid(budget.invalid) : { kind: "subagents", action: "set", budget, words };
}

/**
 * A subagent's budget for its task: a time, `steps:`, `tokens:` and `cost:` words. `turns:` is refused (a subagent
 * is given one task, not prompts), as are the words that belong to the session (an on-stop command, aware, grace).
 * @example parseTaskBudget("5m steps:30") // { timeLimitMs: 300_000, stepLimit: 30 }
 */
export function parseTaskBudget(text: string): TaskBudget | { invalid: string } {
	if (STOP_COMMAND_DELIMITER.test(text)) {
		return { invalid: "A subagent budget runs no on-stop command: the session's runs when the session stops." };
	}
	const tokens = joinSplitTokens(text)
		.split(/\s+/)
		.filter((token) => token.length > 0);
	const words = readWords(tokens);
	if ("invalid" in words) return words;
	if (words.turns !== null) {
		return {
			invalid:
				"turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n> or cost:<dollars>.",
		};
	}
	if (words.aware || words.graceMs !== null) {
		return {
			invalid: "aware and grace belong to the session's budget: a subagent budget takes a time, steps, tokens or cost.",
		};
	}
	if (words.timeMs === null && words.steps === null && words.tokens === null && words.cost === null) {
		return { invalid: "No budget given: give a time, steps:<n>, tokens:<n> or cost:<dollars>." };
	}
	return {
		timeLimitMs: words.timeMs,
		...(words.steps === null ? {} : { stepLimit: words.steps }),
		...(words.tokens === null ? {} : { tokenLimit: words.tokens }),
		...(words.cost === null ? {} : { costLimit: words.cost }),
	};
}
