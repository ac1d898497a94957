// The past sessions of one project (a working folder) on this machine, of every host, for a suggested budget: found as
// `npm run report` finds sessions, newest first, and read only until the suggestion has as many as it counts; what each
// used is kept in a cache by its file's time, so that a session is read once after it was last written.

import { type PastSession, type ProjectHistory, SUGGEST_SESSIONS } from "../../core/index.ts";
import { type KeptSession, NO_CACHE, type PastSessionsCache } from "./past-sessions-cache.ts";
import { allSessions, type FoundSession, sameFolder } from "./sources.ts";

/**
 * What the latest sessions of `project` used, leaving out `current` (the session asking, which has not ended). pi's and
 * oh-my-pi's sessions of other folders are not read at all; the other hosts' logs are read to find their folder, once.
 */
export function readProjectHistory(
	env: NodeJS.ProcessEnv,
	home: string,
	project: string,
	current: string | null,
	cache: PastSessionsCache = NO_CACHE,
): ProjectHistory {
	const sessions: PastSession[] = [];
	const found = allSessions(env, home, project);
	for (const session of found) {
		if (session.id === current) continue;
		const read = keptOf(session, cache);
		if (read === null || !sameFolder(read.project, project) || read.past === null) continue;
		sessions.push(read.past);
		if (sessions.length === SUGGEST_SESSIONS) break;
	}
	cache.save(new Set(found.map((session) => session.key)));
	return { sessions, current };
}

/** What a session's files say, from the cache while its file is unchanged; null for one that cannot be read. */
function keptOf(session: FoundSession, cache: PastSessionsCache): KeptSession | null {
	const kept = cache.get(session.key, session.modified);
	if (kept !== undefined) return kept;
	try {
		const project = session.project();
		const read = { modified: session.modified, project, past: project === null ? null : session.past() };
		cache.set(session.key, read);
		return read;
	} catch {
		// A session that cannot be read: the suggestion goes on without it, and it is tried again next time.
		return null;
	}
}
