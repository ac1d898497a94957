// The Node implementations of the report's ports (a host's page, a project's past sessions), which load the page's
// code (its chart library among it, and every host's session readers) only when a page or a suggestion is asked for,
// so that no host pays for it at start-up.

import type { ProjectHistoryReader, ReportPageWriter } from "../../adapters/report/writer.ts";
import type { Clock } from "../../core/index.ts";

/** The report page's module. */
export type ReportModule = typeof import("./entry.ts");

/**
 * Loads the report page's module: each entry's own `import()` of it (the build points it at the page's bundle beside
 * the entry's), so that the code pi's entry runs from V8's code cache holds no `import()`.
 */
export type ReportLoader = () => Promise<ReportModule>;

/** The writer of the page on Node's files, under Timebox's state folder of `env`. */
export function nodeReportPageWriter(env: NodeJS.ProcessEnv, clock: Clock, load: ReportLoader): ReportPageWriter {
	return async (input, { id, host, project = null }) => {
		const { writeHostPage } = await load();
		return writeHostPage(input, { env, now: clock.now(), session: { id, host }, project });
	};
}

/** The reader of every host's sessions on Node's files, as `npm run report` finds them under `env`'s folders. */
export function nodeProjectHistory(env: NodeJS.ProcessEnv, load: ReportLoader): ProjectHistoryReader {
	return async (project, current) => {
		const { pastSessionsOf } = await load();
		return pastSessionsOf(env)(project, current);
	};
}
