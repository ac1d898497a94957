// What the live session shows through pi's UI: shown as it is in a session of the user's own; in a subagent's process
// also kept, to tell its parent at its end.

import type { UIBridge } from "../../core/index.ts";
import type { SubagentIdentity, SubagentOutcome } from "./subagents.ts";
import type { PiUIBridge } from "./ui-bridge.ts";

/** The live session's UI in this process: pi's, or pi's and what the subagent it runs tells its parent. */
export function sessionUI(ui: PiUIBridge, self: SubagentIdentity | null, told: SubagentOutcome): UIBridge {
	if (self === null) return ui;
	return {
		notify: (message, level) => {
			told.notices.push({ message, level });
			ui.notify(message, level);
		},
		setStatus: (text) => ui.setStatus(text),
	};
}
