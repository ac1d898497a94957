// The /timebox command on pi: description, argument completions and the handler that hands input to the session.

import type { ExtensionCommandContext, RegisteredCommand } from "@mariozechner/pi-coding-agent";
import { STATIC_COMPLETIONS, STATUS_WORD, SUBAGENT_COMPLETIONS, SUBAGENTS_WORD } from "../../core/index.ts";

type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;
type Completion = { value: string; label: string };

export const COMMAND_DESCRIPTION =
	"Cap this session by time and/or turns: /timebox 15m turns:3 [-- cmd] | status | off | subagents 5m steps:30";

const SUB_COMMANDS = new Set(["off", STATUS_WORD, SUBAGENTS_WORD]);

/**
 * Completes the word being typed from the static list; earlier words are kept, and `off`/`status`/`subagents` are
 * offered only as the first word. After `subagents`, a subagent budget's words, and `off` as its only word. Returns
 * null when nothing matches or an on-stop command is being typed.
 * @example argumentCompletions("tu") // [{ value: "turns:3", label: "turns:3" }, …]
 */
export function argumentCompletions(prefix: string): Completion[] | null {
	if (/(?:^|\s)--(?:\s|$)/.test(prefix)) return null;
	const wordStart = prefix.search(/\S*$/);
	const head = prefix.slice(0, wordStart);
	const word = prefix.slice(wordStart).toLowerCase();
	const earlier = head.trim().toLowerCase().split(/\s+/);
	const [list, firstWord] =
		earlier[0] === SUBAGENTS_WORD
			? [SUBAGENT_COMPLETIONS, earlier.length === 1]
			: [STATIC_COMPLETIONS, head.trim().length === 0];
	const items = list.filter((value) => value.startsWith(word) && (firstWord || !SUB_COMMANDS.has(value)));
	return items.length > 0 ? items.map((value) => ({ value: `${head}${value}`, label: value })) : null;
}

/** The options `pi.registerCommand("timebox", …)` takes; `run` hands the arguments to the session. */
export function createTimeboxCommand(
	run: (args: string, ctx: ExtensionCommandContext) => Promise<void>,
): CommandOptions {
	return {
		description: COMMAND_DESCRIPTION,
		getArgumentCompletions: argumentCompletions,
		handler: async (args, ctx) => run(args, ctx),
	};
}
