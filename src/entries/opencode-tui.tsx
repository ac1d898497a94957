/** @jsxImportSource @opentui/solid */
// The opencode TUI plugin (the package's `./tui` export): Timebox's status beside the prompt of a session, as pi shows
// it in the footer. The server plugin writes each session's status text to a file; this reads it once a second. It
// marks each session it shows, for the server plugin to load it (opencode tells that plugin nothing of it).

import { readFileSync } from "node:fs";
import { createSignal, onCleanup } from "solid-js";
import { opencodeDataDir } from "../adapters/opencode/data-dir.ts";
import { markOpened } from "../adapters/opencode/opened.ts";
import { statusFile } from "../adapters/opencode/ui.ts";
import { STATUS_REFRESH_INTERVAL_MS } from "../core/index.ts";

/** The part of opencode's TUI plugin API this plugin uses (`@opencode-ai/plugin/tui`, 1.18.33). */
interface TuiPluginApi {
	slots: {
		register(plugin: {
			order: number;
			slots: { session_prompt_right: (context: unknown, props: { session_id: string }) => unknown };
		}): string;
	};
}

/** The session's status text, or "" while it has none. */
function statusOf(sessionId: string): string {
	try {
		return readFileSync(statusFile(opencodeDataDir(process.env), sessionId), "utf8");
	} catch {
		return "";
	}
}

export default {
	id: "timebox",
	tui: async (api: TuiPluginApi) => {
		api.slots.register({
			order: 50,
			slots: {
				session_prompt_right: (_context, props) => {
					try {
						markOpened(opencodeDataDir(process.env), props.session_id, process.pid);
					} catch {
						// Unmarked, the session is loaded at its first prompt, as before.
					}
					const [text, setText] = createSignal(statusOf(props.session_id));
					const timer = setInterval(() => setText(statusOf(props.session_id)), STATUS_REFRESH_INTERVAL_MS);
					onCleanup(() => clearInterval(timer));
					return <text>{text()}</text>;
				},
			},
		});
	},
};
