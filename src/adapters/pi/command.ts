// The /timebox command on pi: description, argument completions and the handler that hands input to the session.

import type { ExtensionCommandContext, RegisteredCommand } from "@mariozechner/pi-coding-agent";
import { STATIC_COMPLETIONS, STATUS_WORD } from "../../core/index.ts";

type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;
type Completion = { value: string; label: string };

export const COMMAND_DESCRIPTION =
	"Cap this session by time and/or turns: /timebox 15m turns:3 [-- cmd] | status | off";

const SUB_COMMANDS = new Set(["off", STATUS_WORD]);

/**
 * Completes the word being typed from the static list; earlier words are kept, and `off`/`status` are offered only as
 * the first word. Returns null when nothing matches or an on-stop command is being typed.
 * @example argumentCompletions("tu") // [{ value: "turns:3", label: "turns:3" }, …]
 */
export function argumentCompletions(prefix: string): Completion[] | null {
	if (/(?:^|\s)--(?:\s|$)/.test(prefix)) return null;
	const wordStart = prefix.search(/\S*$/);
	const head = prefix.slice(0, wordStart);
	const word = prefix.slice(wordStart).toLowerCase();
	const firstWord = head.trim().length === 0;
	const items = STATIC_COMPLETIONS.filter((value) => value.startsWith(word) && (firstWord || !SUB_COMMANDS.has(value)));
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
