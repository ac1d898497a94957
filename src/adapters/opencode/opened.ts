// The sessions opencode's TUI shows. opencode tells a server plugin nothing when a TUI opens a session (`opencode -c`,
// one picked from the list), so Timebox's TUI plugin marks each session it shows, by the process it runs in, and the
// server plugin of that process loads the session from the mark: its budget restored, its status shown and refreshed,
// its deadline kept while no prompt comes, and an on-stop command left to start late started.

import { mkdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OPENED_FOLDER } from "../../core/index.ts";

/** The mark of a session a TUI shows: the process the TUI runs in. */
function markOf(dataDir: string, sessionId: string): string {
	return join(dataDir, OPENED_FOLDER, encodeURIComponent(sessionId));
}

/** Marks `sessionId` as shown by the TUI of process `pid` (the TUI plugin's). */
export function markOpened(dataDir: string, sessionId: string, pid: number): void {
	mkdirSync(join(dataDir, OPENED_FOLDER), { recursive: true });
	writeFileSync(markOf(dataDir, sessionId), String(pid));
}

/** Watches a folder, calling `listener` with the name of each file changed in it (Node's `fs.watch`). */
export type WatchFolder = (
	folder: string,
	listener: (event: string, name: string | null) => void,
) => { on(event: "error", listener: () => void): unknown; close(): void };

/**
 * Calls `opened` with each session the TUI of process `pid` marks from now on (the server plugin's), until the function
 * returned is called. A mark that cannot be read, or that another process's TUI made, is not this process's session.
 */
export function watchOpened(
	dataDir: string,
	pid: number,
	opened: (sessionId: string) => void,
	watchFolder: WatchFolder = watch,
): () => void {
	const folder = join(dataDir, OPENED_FOLDER);
	mkdirSync(folder, { recursive: true });
	const watcher = watchFolder(folder, (_event, name) => {
		try {
			if (name === null || readFileSync(join(folder, name), "utf8") !== String(pid)) return;
			opened(decodeURIComponent(name));
		} catch {
			// A mark removed or being written, or a name that is none of ours: nothing to load.
		}
	});
	// A watch that fails later (its folder removed) stops seeing marks; the session still loads at its first prompt.
	watcher.on("error", () => watcher.close());
	return () => watcher.close();
}
