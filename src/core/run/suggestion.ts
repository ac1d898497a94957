// `/timebox suggest` and `TIMEBOX_DEFAULT=suggested` at work, for every host: the project's past sessions read through
// the host (which reads them where the report does), made into the suggestion, and what became of the reading.

import type { PastSession } from "../suggest/past-session.ts";
import { type Suggestion, suggestionOf } from "../suggest/statistics.ts";
import { isSuggestedDefault, suggestedDefault, unreadableDefault } from "../text/suggestion.ts";

/** The past sessions of the project a session runs in, and that session's id (left out: it has not ended). */
export interface ProjectHistory {
	sessions: readonly PastSession[];
	current: string | null;
}

/** What became of a suggestion: made, or why the history could not be read. */
export type SuggestOutcome = { suggestion: Suggestion } | { problem: string };

/** Reads the history through the host's `read`, where it reads one, and makes the suggestion of it. */
export async function readSuggestion(
	read: (() => Promise<ProjectHistory>) | undefined,
): Promise<SuggestOutcome | undefined> {
	return read === undefined ? undefined : suggest(read);
}

/** The suggestion of the history `read` reads, or why it could not be read. */
async function suggest(read: () => Promise<ProjectHistory>): Promise<SuggestOutcome> {
	try {
		const history = await read();
		return { suggestion: suggestionOf(history.sessions, history.current) };
	} catch (error) {
		return { problem: error instanceof Error ? error.message : String(error) };
	}
}

/** A default budget as a host read it, and where it came from. */
export interface DefaultText {
	text: string;
	source: string;
}

/** A default budget to load, or for `suggested` with too little history, why there is none (`unavailable`). */
export type ResolvedDefault = DefaultText & { unavailable?: string };

/**
 * The default budget to load: as it is, or, for `suggested`, the suggested budget (with where it came from), or why
 * there is none (too little history, a history that cannot be read). A host that reads no history leaves `suggested`
 * as it is, and the load names it as a default that is no budget.
 */
export async function resolveDefault(
	given: DefaultText | null,
	read: (() => Promise<ProjectHistory>) | undefined,
): Promise<ResolvedDefault | null> {
	if (given === null || read === undefined || !isSuggestedDefault(given.text)) return given;
	const outcome = await suggest(read);
	return "problem" in outcome
		? unreadableDefault(given.source, outcome.problem)
		: suggestedDefault(given.source, outcome.suggestion);
}
