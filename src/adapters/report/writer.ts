// How a host writes the report page and reads a project's past sessions: ports the host's wiring takes, and the Node
// implementations that load the page's code (its chart library among it) only when a page or a suggestion is asked
// for, so that no host pays for it at start-up.

import type { Clock, ProjectHistory, ReportPageInput } from "../../core/index.ts";

/**
 * Writes the page of a session (its id and host, and the working folder it runs in, whose suggested budget the page
 * shows) and today; resolves to the file's path.
 */
export type ReportPageWriter = (
	input: ReportPageInput,
	session: { id: string; host: string; project?: string | null },
) => Promise<string>;

/** The writer of the page on Node's files, under Timebox's state folder of `env`. */
export function nodeReportPageWriter(env: NodeJS.ProcessEnv, clock: Clock): ReportPageWriter {
	return async (input, { id, host, project = null }) => {
		const { writeReportPage } = await import("./entry.ts");
		return writeReportPage(input, { env, now: clock.now(), session: { id, host }, project });
	};
}

/** Reads the past sessions of a project (a working folder) on this machine, leaving out the session `current`. */
export type ProjectHistoryReader = (project: string, current: string | null) => Promise<ProjectHistory>;

/** The reader of every host's sessions on Node's files, as `npm run report` finds them under `env`'s folders. */
export function nodeProjectHistory(env: NodeJS.ProcessEnv): ProjectHistoryReader {
	return async (project, current) => {
		const { fileCache, homeOf, readProjectHistory } = await import("./entry.ts");
		return readProjectHistory(env, homeOf(env), project, current, fileCache(env));
	};
}
