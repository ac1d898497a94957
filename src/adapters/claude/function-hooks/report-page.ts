// `/timebox report page` in Claude Code's hooks module, which has no Node to write files with: the hook script the
// plugin ships beside the module writes the page, started through `$.process.run` once the session's entry is saved,
// and reads the session from the plugin's store as `npm run report` does. The page's code stays out of the module.

import type { Engine } from "./engine.ts";

/**
 * The shell line that runs one of the plugin's Node scripts (`script`, in its `bin/`; the hook script unless said) with
 * `args` (`$1` is the line's first argument): the plugin's folder is `$CLAUDE_PLUGIN_ROOT`, else the line's second
 * argument.
 */
export function hookScriptLine(args: string, script = "timebox.mjs"): string {
	return `root=$CLAUDE_PLUGIN_ROOT; [ -n "$root" ] || root=$2; [ -n "$root" ] || { echo "the plugin folder is not known" >&2; exit 2; }; exec node "$root/bin/${script}" ${args}`;
}

/** The shell line that writes the page of session `$1` with the plugin's hook script. */
export const REPORT_LINE = hookScriptLine('report --session "$1" --or-day');

/** The plugin's folder, where the module knows the file it was loaded from (`<plugin>/hooks/timebox-module.js`). */
export function pluginRoot(moduleUrl: string | undefined): string {
	if (moduleUrl === undefined || !moduleUrl.startsWith("file:")) return "";
	return decodeURIComponent(new URL("..", moduleUrl).pathname).replace(/\/$/, "");
}

/** Writes the page of the engine's session once `saved` resolves (its entry written); resolves to the page's path. */
export function engineReportPage(engine: () => Engine, saved: () => Promise<void>): () => Promise<string> {
	return async () => {
		await saved();
		const id = await engine().session.id();
		const root = pluginRoot(import.meta.url);
		const { exitCode, stdout, stderr } = await engine().process.run(["sh", "-c", REPORT_LINE, "sh", id, root]);
		const link = /file:\/\/(\S+)/.exec(stdout);
		if (exitCode !== 0 || link === null) {
			throw new Error(stderr.trim().split("\n")[0] || `the hook script exited with ${exitCode}`);
		}
		return decodeURIComponent(link[1] as string);
	};
}
