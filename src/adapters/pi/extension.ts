// Wires pi's events and the /timebox command to a live session of the core rulebook. Registration only: each handler
// (in a file beside it for each kind of event) translates one pi event into a session event and the answer back into
// pi's return value. A pi process that runs a subagent (named in its environment by the parent that started it)
// budgets itself as that subagent; a tool call that starts one names it, and its result carries what the subagent's
// process said of its end. The session's budget spent while a subagent runs is passed on to its process (the rules'
// `stopSubagents`), whose rules then stop it.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { COMMAND_NAME } from "../../core/index.ts";
import { createTimeboxCommand } from "./command.ts";
import { DEFAULT_FLAG } from "./defaults.ts";
import type { TimeboxExtensionDeps } from "./extension-deps.ts";
import { registerModelEvents } from "./model-events.ts";
import { registerSessionEvents } from "./session-events.ts";
import { registerToolEvents } from "./tool-events.ts";
import { registerTurnEvents } from "./turn-events.ts";
import { PiWiring } from "./wiring.ts";

export type { TimeboxExtensionDeps } from "./extension-deps.ts";

/** Builds the pi extension factory. pi calls it once per session (again after /new, /resume, /fork and /reload). */
export function createTimeboxExtension(deps: TimeboxExtensionDeps): (pi: ExtensionAPI) => void {
	return (pi) => {
		const w = new PiWiring(pi, deps);
		pi.registerFlag(DEFAULT_FLAG, {
			type: "string",
			description: 'A budget for new sessions, e.g. --timebox "30m turns:10"',
		});
		registerSessionEvents(w);
		registerTurnEvents(w);
		registerModelEvents(w);
		registerToolEvents(w);
		pi.registerCommand(
			COMMAND_NAME,
			createTimeboxCommand((args, ctx) => {
				w.context.bind(ctx);
				return w.session.command(args);
			}),
		);
	};
}
