// The past sessions of one project (a working folder) on this machine, of every host, for a suggested budget: found as
// `npm run report` finds sessions, newest first, and read only until the suggestion has as many as it counts.

import { type PastSession, type ProjectHistory, SUGGEST_SESSIONS } from "../../core/index.ts";
import { allSessions, type FoundSession, sameFolder } from "./sources.ts";

/**
 * What the latest sessions of `project` used, leaving out `current` (the session asking, which has not ended). pi's and
 * oh-my-pi's sessions of other folders are not read at all; the other hosts' logs are read to find their folder.
 */
export function readProjectHistory(
	env: NodeJS.ProcessEnv,
	home: string,
	project: string,
	current: string | null,
): ProjectHistory {
	const sessions: PastSession[] = [];
	for (const session of allSessions(env, home, project)) {
		if (session.id === current) continue;
		const past = pastOf(session, project);
		if (past === null) continue;
		sessions.push(past);
		if (sessions.length === SUGGEST_SESSIONS) break;
	}
	return { sessions, current };
}

/** What a session of `project` used; null for another folder's, or one that cannot be read (a suggestion goes on without it). */
function pastOf(session: FoundSession, project: string): PastSession | null {
	try {
		return sameFolder(session.project(), project) ? session.past() : null;
	} catch {
		return null;
	}
}
