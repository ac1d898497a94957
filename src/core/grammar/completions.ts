// Argument completions for `/timebox …`: the word being typed completed from the static lists, never changing the
// meaning of a word the user already typed in full.

import {
	STATIC_COMPLETIONS,
	STATUS_WORD,
	SUBAGENT_COMPLETIONS,
	SUBAGENTS_WORD,
	TEAM_ASK_COMPLETIONS,
	TEAM_ASK_WORD,
	TEAM_SET_COMPLETIONS,
	TEAM_SET_WORD,
	TEAM_WORD,
	TODAY_WORD,
} from "../constants.ts";
import { readWords } from "./budget-words.ts";
import { parseCommand, parseTaskBudget } from "./command.ts";

/** One completion: the whole argument text it leaves, and the word shown in the menu. */
export interface Completion {
	value: string;
	label: string;
}

const SUB_COMMANDS = new Set(["off", STATUS_WORD, SUBAGENTS_WORD, TODAY_WORD, TEAM_WORD]);

/**
 * Completes the word being typed from the static list; earlier words are kept, and `off`/`status`/`subagents`/`today`/
 * `team` are offered only as the first word. After `subagents`, a subagent budget's words, and `off` as its only word;
 * after `team`, `set` and `ask`, then the team's limits (`off` as the only one) or what to ask for. Returns null when
 * nothing matches, an on-stop command or a request's reason is being typed.
 *
 * A word typed in full that is a budget word already (`turns:1`, `1`, `status`) is offered first, as typed, so that
 * Enter, which takes the menu's first item in pi's TUI, keeps it: `turns:1` never becomes `turns:10`, nor `1` (one
 * minute) `1h`.
 * @example argumentCompletions("tu") // [{ value: "turns:3", label: "turns:3" }, …]
 * @example argumentCompletions("turns:1") // [{ value: "turns:1", label: "turns:1" }, { value: "turns:10", … }]
 */
export function argumentCompletions(prefix: string): Completion[] | null {
	if (/(?:^|\s)--(?:\s|$)/.test(prefix)) return null;
	const wordStart = prefix.search(/\S*$/);
	const head = prefix.slice(0, wordStart);
	const typed = prefix.slice(wordStart);
	const word = typed.toLowerCase();
	const earlier = head.trim().toLowerCase().split(/\s+/);
	if (earlier[0] === TEAM_WORD) return teamCompletions(head, typed, earlier.slice(1));
	const forSubagents = earlier[0] === SUBAGENTS_WORD;
	const [list, firstWord] = forSubagents
		? [SUBAGENT_COMPLETIONS, earlier.length === 1]
		: [STATIC_COMPLETIONS, head.trim().length === 0];
	const offered = list.filter((value) => value.startsWith(word) && (firstWord || !SUB_COMMANDS.has(value)));
	const complete = word.length > 0 && isWholeWord(word, forSubagents, firstWord);
	const items = complete ? [typed, ...offered.filter((value) => value !== word)] : offered;
	return items.length > 0 ? items.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}

/** After `team`: `set` and `ask`; after `team set`, the limits (`off` alone); after `team ask`, what to ask for. */
function teamCompletions(head: string, typed: string, earlier: readonly string[]): Completion[] | null {
	const word = typed.toLowerCase();
	const [sub, ...rest] = earlier;
	let list: readonly string[] = [];
	if (sub === undefined || sub === "") list = [TEAM_SET_WORD, TEAM_ASK_WORD];
	else if (sub === TEAM_SET_WORD) list = TEAM_SET_COMPLETIONS.filter((value) => value !== "off" || rest.length === 0);
	// What to ask for comes first, each word with its +; the reason after it is free text.
	else if (sub === TEAM_ASK_WORD && rest.every((value) => value.startsWith("+"))) list = TEAM_ASK_COMPLETIONS;
	const offered = list.filter((value) => value.startsWith(word));
	return offered.length > 0 ? offered.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}

/** Whether a word means something already: a budget word, or a sub-command where one may stand. */
function isWholeWord(word: string, forSubagents: boolean, firstWord: boolean): boolean {
	if (forSubagents) return firstWord ? parseCommand(`${SUBAGENTS_WORD} ${word}`).kind !== "invalid" : valid(word, true);
	if (valid(word, false)) return true;
	return firstWord && parseCommand(word).kind !== "invalid";
}

function valid(word: string, task: boolean): boolean {
	return task ? !("invalid" in parseTaskBudget(word)) : !("invalid" in readWords([word]));
}
