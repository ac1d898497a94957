// Parsing of `/timebox` arguments and of time and turn tokens, plus the time formatter.

import type { BudgetLimits } from "./budget.ts";
import {
	MAX_QUOTED_INPUT_CHARS,
	MAX_TIME_LIMIT_MS,
	MAX_TURN_LIMIT,
	MIN_TIME_LIMIT_MS,
	OFF_WORDS,
	STATUS_WORD,
} from "./constants.ts";

/** What `/timebox <args>` asks for. */
export type TimeboxCommand =
	| ({ kind: "set" } & BudgetLimits)
	| { kind: "off" }
	| { kind: "status" }
	| { kind: "invalid"; reason: string };

const TIME_TOKEN = /^(\d+(?:\.\d+)?)\s*([smh])?$/i;
const TURNS_TOKEN = /^turns:\s*(\d+)$/i;
const STOP_COMMAND_DELIMITER = /(?:^|\s)--(?:\s|$)/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;
const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Parses a time token; a bare number means minutes. Returns null when the token is not a time.
 * @example parseTimeToMs("15m") // 900_000
 * @example parseTimeToMs("90") // 5_400_000
 */
export function parseTimeToMs(token: string): number | null {
	const match = TIME_TOKEN.exec(token.trim());
	if (!match) return null;
	const unit = (match[2] ?? "m").toLowerCase() as keyof typeof UNIT_MS;
	const ms = Number(match[1]) * UNIT_MS[unit];
	return Number.isFinite(ms) ? ms : null;
}

/**
 * Parses a turn token such as `turns:5`. Returns null when the token is not a turn count.
 * @example parseTurns("TURNS: 10") // 10
 */
export function parseTurns(token: string): number | null {
	const match = TURNS_TOKEN.exec(token.trim());
	if (!match) return null;
	const turns = Number(match[1]);
	return Number.isFinite(turns) ? turns : null;
}

/**
 * Formats a duration for people: seconds under a minute, minutes and seconds under an hour, else hours and minutes.
 * @example formatTime(60_000) // "1m 0s"
 * @example formatTime(3_661_000) // "1h 1m"
 */
export function formatTime(ms: number): string {
	const safeMs = Number.isFinite(ms) ? Math.max(0, ms) : 0;
	const totalSeconds = Math.floor(safeMs / SECOND_MS);
	if (safeMs < MINUTE_MS) return `${totalSeconds}s`;
	if (safeMs < HOUR_MS) return `${Math.floor(totalSeconds / 60)}m ${totalSeconds % 60}s`;
	const totalMinutes = Math.floor(totalSeconds / 60);
	return `${Math.floor(totalMinutes / 60)}h ${totalMinutes % 60}m`;
}

/** Quotes user input back in a message, shortened so a huge argument cannot flood the screen. */
export function quoteInput(text: string): string {
	const chars = Array.from(text);
	const shown = chars.length > MAX_QUOTED_INPUT_CHARS ? `${chars.slice(0, MAX_QUOTED_INPUT_CHARS).join("")}…` : text;
	return `"${shown}"`;
}

/** Joins `turns: 5` into `turns:5` and `15 m` into `15m`, so the spacing people type still parses. */
function joinSplitTokens(budgetText: string): string {
	return budgetText.replace(/\bturns:\s+(?=\d)/gi, "turns:").replace(/(\d)\s+([smh])(?=\s|$)/gi, "$1$2");
}

function invalid(reason: string): TimeboxCommand {
	return { kind: "invalid", reason };
}

function isSubCommand(word: string): boolean {
	const lower = word.toLowerCase();
	return lower === STATUS_WORD || OFF_WORDS.includes(lower);
}

/**
 * Parses the text after `/timebox`. Never throws: anything it cannot read is `invalid` with a reason naming the problem.
 * @example parseCommand("15m turns:3 -- say done") // { kind: "set", timeLimitMs: 900_000, turnLimit: 3, onStopCommand: "say done" }
 */
export function parseCommand(input: string): TimeboxCommand {
	const text = typeof input === "string" ? input : "";
	const delimiter = STOP_COMMAND_DELIMITER.exec(text);
	const budgetText = delimiter ? text.slice(0, delimiter.index) : text;
	const stopCommand = delimiter ? text.slice(delimiter.index + delimiter[0].length).trim() : "";
	const tokens = joinSplitTokens(budgetText)
		.split(/\s+/)
		.filter((token) => token.length > 0);

	const subCommand = tokens.find(isSubCommand);
	if (subCommand !== undefined) {
		if (tokens.length > 1 || delimiter) return invalid(`${quoteInput(subCommand)} takes nothing else with it.`);
		return subCommand.toLowerCase() === STATUS_WORD ? { kind: "status" } : { kind: "off" };
	}

	let timeLimitMs: number | null = null;
	let turnLimit: number | null = null;
	for (const token of tokens) {
		const turns = parseTurns(token);
		if (turns !== null) {
			if (turns < 1 || turns > MAX_TURN_LIMIT) {
				return invalid(
					`${quoteInput(token)} is out of range: a turn budget is 1 to ${MAX_TURN_LIMIT.toLocaleString("en-US")} turns.`,
				);
			}
			turnLimit = turns;
			continue;
		}
		const ms = parseTimeToMs(token);
		if (ms !== null) {
			const wholeSeconds = Math.round(ms / SECOND_MS) * SECOND_MS;
			if (wholeSeconds < MIN_TIME_LIMIT_MS || wholeSeconds > MAX_TIME_LIMIT_MS) {
				return invalid(`${quoteInput(token)} is out of range: a time budget is 1s to 30 days.`);
			}
			timeLimitMs = wholeSeconds;
			continue;
		}
		return invalid(`${quoteInput(token)} is neither a time (30s, 15m, 2h) nor a turn count (turns:5).`);
	}

	if (timeLimitMs === null && turnLimit === null) {
		return invalid(stopCommand ? "A command after -- needs a budget before it." : "No budget given.");
	}
	return { kind: "set", timeLimitMs, turnLimit, onStopCommand: stopCommand.length > 0 ? stopCommand : null };
}
