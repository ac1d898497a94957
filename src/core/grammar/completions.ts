// Argument completions for `/timebox …`: the word being typed completed from the static lists, and no menu at all once
// the word typed is complete, so that one Enter sends the line.

import {
	STATIC_COMPLETIONS,
	STATUS_WORD,
	SUBAGENT_COMPLETIONS,
	SUBAGENTS_WORD,
	SUGGEST_WORD,
	TEAM_ASK_COMPLETIONS,
	TEAM_ASK_WORD,
	TEAM_SET_COMPLETIONS,
	TEAM_SET_WORD,
	TEAM_WORD,
	TODAY_WORD,
} from "../constants.ts";
import { parseTeam } from "../daily/team.ts";
import { readWords } from "./budget-words.ts";
import { parseCommand, parseTaskBudget } from "./command.ts";

/** One completion: the whole argument text it leaves, and the word shown in the menu. */
export interface Completion {
	value: string;
	label: string;
}

const SUB_COMMANDS = new Set(["off", STATUS_WORD, SUBAGENTS_WORD, SUGGEST_WORD, TODAY_WORD, TEAM_WORD]);

/**
 * Completes the word being typed from the static list; earlier words are kept, and `off`/`status`/`subagents`/`suggest`/
 * `today`/`team` are offered only as the first word. After `subagents`, a subagent budget's words, and `off` as its only
 * word; after `team`, `set` and `ask`, then the team's limits (`off` as the only one) or what to ask for. Returns null
 * when nothing matches, an on-stop command or a request's reason is being typed.
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
	if (earlier[0] === TEAM_WORD) return teamCompletions(head, word, earlier.slice(1));
	const forSubagents = earlier[0] === SUBAGENTS_WORD;
	const [list, firstWord] = forSubagents
		? [SUBAGENT_COMPLETIONS, earlier.length === 1]
		: [STATIC_COMPLETIONS, head.trim().length === 0];
	if (word.length > 0 && isWholeWord(word, forSubagents, firstWord)) return null;
	const offered = list.filter((value) => value.startsWith(word) && (firstWord || !SUB_COMMANDS.has(value)));
	return offered.length > 0 ? offered.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}

/** After `team`: `set` and `ask`; after `team set`, the limits (`off` alone); after `team ask`, what to ask for. */
function teamCompletions(head: string, typed: string, earlier: readonly string[]): Completion[] | null {
	const word = typed.toLowerCase();
	const [sub, ...rest] = earlier;
	let list: readonly string[] = [];
	if (sub === undefined) list = [TEAM_SET_WORD, TEAM_ASK_WORD];
	else if (sub === TEAM_SET_WORD) list = TEAM_SET_COMPLETIONS.filter((value) => value !== "off" || rest.length === 0);
	// What to ask for comes first, each word with its +; the reason after it is free text.
	else if (sub === TEAM_ASK_WORD && rest.every((value) => value.startsWith("+"))) list = TEAM_ASK_COMPLETIONS;
	if (isWholeTeamWord(word, sub)) return null;
	const offered = list.filter((value) => value.startsWith(word));
	return offered.length > 0 ? offered.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}

/**
 * Whether a word after `team` means something already, as `isWholeWord` asks of a budget's: `set` or `ask` where the
 * sub-command stands, a limit (`turns:2`, `4`, `$5`, or `off` alone) after `set`, an amount (`+1`, `+turns:5`) after
 * `ask`. The menu would otherwise change it (`turns:2` into `turns:200`, `$5` into `$50`, `+1` into `+1h`).
 */
function isWholeTeamWord(word: string, sub: string | undefined): boolean {
	if (sub === undefined) return word === TEAM_SET_WORD || word === TEAM_ASK_WORD;
	// `off` is whole where it stands alone; after a limit it is no word at all, and nothing is offered for it either.
	if (sub === TEAM_SET_WORD) return word === "off" || parseTeam(`${sub} ${word}`).kind === "set";
	return parseTeam(`${sub} ${word}`).kind === "ask";
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
