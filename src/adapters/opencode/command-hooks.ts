// The `/timebox` command in opencode: listed in its `/` menu, and answered before any model call.

import { COMMAND_DONE_REFUSAL, COMMAND_NAME } from "../../core/index.ts";
import { COMMAND_TEMPLATE, commandArguments } from "./calls.ts";
import type { Hooks } from "./host.ts";
import type { OpencodeSessions } from "./sessions.ts";

/** The command's line in opencode's `/` list. */
export const COMMAND_DESCRIPTION =
	"Set a Timebox budget: /timebox 15m turns:3 | status | off | report | today | team | subagents 5m steps:30";

export function commandHooks(
	sessions: OpencodeSessions,
	interactive: boolean,
): Pick<Hooks, "config" | "command.execute.before"> {
	return {
		// The `/timebox` command, listed in opencode's `/` menu.
		config: async (config) => {
			config.command = {
				...config.command,
				[COMMAND_NAME]: { template: COMMAND_TEMPLATE, description: COMMAND_DESCRIPTION },
			};
		},
		// `/timebox …`: answered before any model call. In the TUI the answer is a toast and the line ends here; in
		// `opencode run` an error here would read "Unexpected server error", so the line's calls are refused instead.
		"command.execute.before": async (command) => {
			if (command.command !== COMMAND_NAME || sessions.isSubagent(command.sessionID)) return;
			await sessions.sessionOf(command.sessionID).live.command(commandArguments(command.arguments));
			if (interactive) throw new Error(COMMAND_DONE_REFUSAL);
		},
	};
}
