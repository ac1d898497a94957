// The marks of the sessions opencode's TUI shows, on the real file system: the TUI plugin's mark reaches the server
// plugin of its own process only, and a watch stopped hears nothing more.

import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markOpened, watchOpened } from "../../../src/adapters/opencode/opened.ts";
import { OPENED_FOLDER } from "../../../src/core/index.ts";

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-opened-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the sessions the TUI shows", () => {
	it("reach the watch of the TUI's own process, by session, and not another process's", async () => {
		const heard = new Set<string>();
		const waiting = new Map<string, () => void>();
		const stop = watchOpened(dataDir, 41, (sessionId) => {
			heard.add(sessionId);
			waiting.get(sessionId)?.();
		});
		/** Resolves once the watch heard the session (a write may be heard more than once). */
		const heardOf = (sessionId: string) => new Promise<void>((resolve) => void waiting.set(sessionId, resolve));
		// Another opencode's TUI shows a session first: not this process's, whose marks the watch hears in order after it.
		markOpened(dataDir, "ses_theirs", 42);
		const ours = heardOf("ses/ours");
		markOpened(dataDir, "ses/ours", 41);
		await ours;
		expect(readFileSync(join(dataDir, OPENED_FOLDER, "ses%2Fours"), "utf8")).toBe("41");
		// A name that is no session's mark (not an encoded id) loads nothing, and the watch goes on.
		writeFileSync(join(dataDir, OPENED_FOLDER, "%E0%A4%A"), "41");
		const again = heardOf("ses_again");
		markOpened(dataDir, "ses_again", 41);
		await again;
		expect([...heard].sort()).toEqual(["ses/ours", "ses_again"]);
		stop();
	});

	it("hears no name where the system gives none, and stops watching when the watch fails", () => {
		const heard: string[] = [];
		const events = new EventEmitter();
		let listener: (event: string, name: string | null) => void = () => {};
		let closed = 0;
		const watcher = Object.assign(events, { close: () => void closed++ });
		watchOpened(
			dataDir,
			41,
			(sessionId) => heard.push(sessionId),
			(_folder, heardBy) => {
				listener = heardBy;
				return watcher;
			},
		);
		markOpened(dataDir, "ses_one", 41);
		listener("rename", null);
		expect(heard).toEqual([]);
		listener("rename", "ses_one");
		expect(heard).toEqual(["ses_one"]);
		events.emit("error", new Error("the folder went"));
		expect(closed).toBe(1);
		// A later process watches the folder an earlier one made, and stops its watch when it is done.
		const stop = watchOpened(
			dataDir,
			42,
			() => {},
			() => watcher,
		);
		stop();
		expect(closed).toBe(2);
	});
});
