// Argument completions for `/timebox …`: the word being typed completed from the static lists, and no menu at all once
// the word typed is complete, so that one Enter sends the line.

import { STATIC_COMPLETIONS, STATUS_WORD, SUBAGENT_COMPLETIONS, SUBAGENTS_WORD, SUGGEST_WORD } from "../constants.ts";
import { readWords } from "./budget-words.ts";
import { parseCommand, parseTaskBudget } from "./command.ts";

/** One completion: the whole argument text it leaves, and the word shown in the menu. */
export interface Completion {
	value: string;
	label: string;
}

const SUB_COMMANDS = new Set(["off", STATUS_WORD, SUBAGENTS_WORD, SUGGEST_WORD]);

/**
 * Completes the word being typed from the static list; earlier words are kept, and `off`/`status`/`subagents`/`suggest`
 * are offered only as the first word. After `subagents`, a subagent budget's words, and `off` as its only word. Returns
 * null when nothing matches or an on-stop command is being typed.
 *
 * A word typed in full that means something already (`turns:1`, `1`, `$2.50`, `status`) gets no menu: in pi's and
 * oh-my-pi's TUI, Enter on a menu applies its item and does not send, so a menu there would take a second Enter, and
 * its first item could change the word (`turns:1` into `turns:10`, `1`, one minute, into `1h`). Tab completes what is
 * not a word yet (`tu`, `sta`).
 * @example argumentCompletions("tu") // [{ value: "turns:3", label: "turns:3" }, …]
 * @example argumentCompletions("turns:1") // null
 */
export function argumentCompletions(prefix: string): Completion[] | null {
	if (/(?:^|\s)--(?:\s|$)/.test(prefix)) return null;
	const wordStart = prefix.search(/\S*$/);
	const head = prefix.slice(0, wordStart);
	const word = prefix.slice(wordStart).toLowerCase();
	const earlier = head.trim().toLowerCase().split(/\s+/);
	const forSubagents = earlier[0] === SUBAGENTS_WORD;
	const [list, firstWord] = forSubagents
		? [SUBAGENT_COMPLETIONS, earlier.length === 1]
		: [STATIC_COMPLETIONS, head.trim().length === 0];
	if (word.length > 0 && isWholeWord(word, forSubagents, firstWord)) return null;
	const offered = list.filter((value) => value.startsWith(word) && (firstWord || !SUB_COMMANDS.has(value)));
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
