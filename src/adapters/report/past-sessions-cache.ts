// What each past session used, kept by the file it was read from and that file's time, in one JSON file under Timebox's
// state folder: a suggestion reads again only the sessions written since the last one (a pi session of a thousand
// entries takes milliseconds to read, and a suggested default budget reads up to thirty at a session's start). It is a
// cache: one that cannot be read is empty, one that cannot be written is not kept, and nothing else reads it.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PAST_SESSIONS_FILE, type PastSession } from "../../core/index.ts";
import { dailyStateDir } from "../node/daily-ledger.ts";

/** One session as read: its file's time then, the folder it ran in, and what it used (null: it does not count). */
export interface KeptSession {
	modified: number;
	project: string | null;
	past: PastSession | null;
}

/** The sessions kept, by their key (`FoundSession.key`). */
export interface PastSessionsCache {
	/** What was kept of a session, if its file has not changed since (`modified` the same). */
	get(key: string, modified: number): KeptSession | undefined;
	set(key: string, kept: KeptSession): void;
	/** Writes what was kept of the sessions `listed` (the others are gone), if anything changed. */
	save(listed: ReadonlySet<string>): void;
}

/** A cache that keeps nothing. */
export const NO_CACHE: PastSessionsCache = { get: () => undefined, set: () => {}, save: () => {} };

/** The cache in `<state>/past-sessions.json` of `env`. */
export function fileCache(env: NodeJS.ProcessEnv): PastSessionsCache {
	const path = join(dailyStateDir(env), PAST_SESSIONS_FILE);
	const kept = readKept(path);
	let changed = false;
	return {
		get: (key, modified) => {
			const one = kept.get(key);
			return one !== undefined && one.modified === modified ? one : undefined;
		},
		set: (key, one) => {
			kept.set(key, one);
			changed = true;
		},
		save: (listed) => {
			for (const key of kept.keys()) {
				if (listed.has(key)) continue;
				kept.delete(key);
				changed = true;
			}
			if (changed) writeKept(path, kept);
		},
	};
}

function readKept(path: string): Map<string, KeptSession> {
	try {
		const read: unknown = JSON.parse(readFileSync(path, "utf8"));
		const sessions = typeof read === "object" && read !== null && "sessions" in read ? read.sessions : null;
		if (typeof sessions !== "object" || sessions === null) return new Map();
		// Written by this module from what it read: taken as it was written.
		return new Map(Object.entries(sessions as Record<string, KeptSession>));
	} catch {
		return new Map();
	}
}

/** Writes the cache whole, through a file of its own renamed over it: a reader sees the old one or the new one. */
function writeKept(path: string, kept: ReadonlyMap<string, KeptSession>): void {
	try {
		mkdirSync(dirname(path), { recursive: true });
		const next = `${path}.${process.pid}`;
		writeFileSync(next, JSON.stringify({ sessions: Object.fromEntries(kept) }));
		renameSync(next, path);
	} catch {
		// A cache that cannot be written is not kept: the next suggestion reads the sessions again.
	}
}
