// The /timebox command on pi: description, argument completions and the handler that hands input to the session.

import type { ExtensionCommandContext, RegisteredCommand } from "@mariozechner/pi-coding-agent";
import { argumentCompletions } from "../../core/index.ts";

type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;

export const COMMAND_DESCRIPTION =
	"Cap this session by time and/or turns: /timebox 15m turns:3 [-- cmd] | status | off | report | today | team | subagents 5m steps:30";

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
