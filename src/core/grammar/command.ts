// The grammar of `/timebox` arguments: a budget's words, the sub-commands and the extensions, each word's amount read
// by the spec's parse.ts; and how user input is quoted back.

import {
	EXTEND_WORDS,
	OFF_WORDS,
	PAUSE_WORD,
	REPORT_PAGE_WORD,
	REPORT_WORD,
	RESUME_WORD,
	STATUS_WORD,
	SUBAGENTS_WORD,
	SUGGEST_WORD,
	TODAY_WORD,
} from "../constants.ts";
import type { BudgetLimits, TaskBudget } from "../model/budget.ts";
import { joinSplitTokens, quoteInput, readWords, TASK_BUDGET_WORDS } from "./budget-words.ts";

export { quoteInput } from "./budget-words.ts";

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
	/** Off or status; `ignored` is what followed the word, which they do not read (the reply names it). */
	| { kind: "off" | "status"; ignored?: string }
	/** `suggest`: a budget suggested from the user's past sessions of the project, which the host reads. */
	| { kind: "pause" | "resume" | "report" | "suggest" }
	/** `report page`: the report as a page with charts, which the host writes to a file. */
	| { kind: "reportPage" }
	/** The daily budgets: `words` is what follows `today` (nothing, `off`, `+30m` …), read by the daily rules. */
	| { kind: "today"; words: string }
	/** The subagent budget: show it, turn it off, or set it (`budget`, written as `words`). */
	| { kind: "subagents"; action: "show" | "off" }
	| { kind: "subagents"; action: "set"; budget: TaskBudget; words: string }
	| { kind: "invalid"; reason: string };

/** `today`, alone or with the words of a daily command after it. */
const TODAY_COMMAND = new RegExp(`^${TODAY_WORD}(?:\\s+([\\s\\S]*))?$`, "i");
/** `report page`. */
const REPORT_PAGE_COMMAND = new RegExp(`^${REPORT_WORD}\\s+${REPORT_PAGE_WORD}$`, "i");
const STOP_COMMAND_DELIMITER = /(?:^|\s)--(?:\s|$)/;
/** `subagents`, alone or with the words of a subagent budget after it. */
const SUBAGENTS_COMMAND = new RegExp(`^${SUBAGENTS_WORD}(?:\\s+([\\s\\S]*))?$`, "i");

function invalid(reason: string): TimeboxCommand {
	return { kind: "invalid", reason };
}

const SUB_COMMANDS = new Map<string, "status" | "off" | "pause" | "resume" | "report" | "suggest">([
	[STATUS_WORD, "status"],
	[REPORT_WORD, "report"],
	[SUGGEST_WORD, "suggest"],
	[PAUSE_WORD, "pause"],
	[RESUME_WORD, "resume"],
	...OFF_WORDS.map((word): [string, "off"] => [word, "off"]),
]);

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
	const trimmed = text.trim();
	// A sub-command alone (`status`, `off`, the ones typed most) needs none of the budget grammar below.
	const bare = SUB_COMMANDS.get(trimmed.toLowerCase());
	if (bare !== undefined) return { kind: bare };
	const today = TODAY_COMMAND.exec(trimmed);
	if (today) return { kind: "today", words: today[1] ?? "" };
	if (REPORT_PAGE_COMMAND.test(trimmed)) return { kind: "reportPage" };
	const subagents = SUBAGENTS_COMMAND.exec(trimmed);
	if (subagents) return subagentsCommand((subagents[1] ?? "").trim());
	const delimiter = STOP_COMMAND_DELIMITER.exec(text);
	const budgetText = delimiter ? text.slice(0, delimiter.index) : text;
	const stopCommand = delimiter ? text.slice(delimiter.index + delimiter[0].length).trim() : "";
	const tokens = joinSplitTokens(budgetText)
		.split(/\s+/)
		.filter((token) => token.length > 0);

	// Off and status first short-circuit the rest, which is ignored and named in the reply (`off 15m` is off).
	const first = SUB_COMMANDS.get(tokens[0]?.toLowerCase() ?? "");
	if ((first === "off" || first === "status") && (tokens.length > 1 || delimiter)) {
		return { kind: first, ignored: text.trim().replace(/^\S+\s*/, "") };
	}
	// A sub-command alone was taken above: here it has company.
	const sub = tokens.find((token) => SUB_COMMANDS.has(token.toLowerCase()));
	if (sub !== undefined) return invalid(`${quoteInput(sub)} takes nothing else with it.`);

	const extension = extensionWords(tokens);
	if (extension !== null) {
		if (delimiter) return invalid("An extension keeps the budget's on-stop command: nothing goes after --.");
		const words = readWords(extension);
		if ("invalid" in words) return invalid(words.invalid);
		if (words.aware || words.graceMs !== null || words.steps !== null || words.loop !== null) {
			return invalid("An extension adds to the limits only; set aware, grace, steps or loop with a new budget.");
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
	const noLimit = words.tokens === null && words.cost === null && words.steps === null && words.loop === null;
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
			...(words.loop === null ? {} : { loopLimit: words.loop }),
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
 * A subagent's budget for its task: a time, `steps:`, `tokens:`, `cost:` and `loop:` words. `turns:` is refused (a subagent
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
	const words = readWords(tokens, TASK_BUDGET_WORDS);
	if ("invalid" in words) return words;
	if (words.turns !== null) {
		return {
			invalid:
				"turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>.",
		};
	}
	if (words.aware || words.graceMs !== null) {
		return {
			invalid:
				"aware and grace belong to the session's budget: a subagent budget takes a time, steps, tokens, cost or loop.",
		};
	}
	if (
		words.timeMs === null &&
		words.steps === null &&
		words.tokens === null &&
		words.cost === null &&
		words.loop === null
	) {
		return { invalid: "No budget given: give a time, steps:<n>, tokens:<n>, cost:<dollars> or loop:<n>." };
	}
	return {
		timeLimitMs: words.timeMs,
		...(words.steps === null ? {} : { stepLimit: words.steps }),
		...(words.tokens === null ? {} : { tokenLimit: words.tokens }),
		...(words.cost === null ? {} : { costLimit: words.cost }),
		...(words.loop === null ? {} : { loopLimit: words.loop }),
	};
}
