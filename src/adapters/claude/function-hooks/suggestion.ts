// A project's past sessions in Claude Code's hooks module, which has no Node to read files with: the hook script the
// plugin ships beside the module reads them as `npm run report -- --suggest --json` does, started through
// `$.process.run` (once for a default of `suggested`, at the session's start, and once per `/timebox suggest`).

import type { ProjectHistory } from "../../../core/index.ts";
import type { Engine } from "./engine.ts";
import { hookScriptLine, pluginRoot } from "./report-page.ts";

/** The shell line that prints the past sessions of project `$1` as JSON, with the plugin's hook script. */
export const SUGGEST_LINE = hookScriptLine('report --suggest --json --project "$1"');

/** The past sessions of `project()` (the session's working folder), leaving out this session, `current()`. */
export function engineProjectHistory(
	engine: () => Engine,
	project: () => string | null,
	current: () => Promise<string>,
): () => Promise<ProjectHistory> {
	return async () => {
		const folder = project();
		if (folder === null) throw new Error("Claude Code did not say which folder the session runs in");
		const root = pluginRoot(import.meta.url);
		const { exitCode, stdout, stderr } = await engine().process.run(["sh", "-c", SUGGEST_LINE, "sh", folder, root]);
		if (exitCode !== 0) throw new Error(stderr.trim().split("\n")[0] || `the hook script exited with ${exitCode}`);
		const read: unknown = JSON.parse(stdout);
		const sessions = typeof read === "object" && read !== null && "sessions" in read ? read.sessions : null;
		if (!Array.isArray(sessions)) throw new Error("the hook script printed no sessions");
		// The hook script's own JSON, written by this version from the core's PastSession.
		return { sessions: sessions as ProjectHistory["sessions"], current: await current() };
	};
}
