// The Node implementations of the report's ports (a host's page, a project's past sessions), which load the page's
// code (its chart library among it, and every host's session readers) only when a page or a suggestion is asked for,
// so that no host pays for it at start-up.

import type { ProjectHistoryReader, ReportPageWriter } from "../../adapters/report/writer.ts";
import type { Clock } from "../../core/index.ts";

/** The writer of the page on Node's files, under Timebox's state folder of `env`. */
export function nodeReportPageWriter(env: NodeJS.ProcessEnv, clock: Clock): ReportPageWriter {
	return async (input, { id, host, project = null }) => {
		const { writeHostPage } = await import("./entry.ts");
		return writeHostPage(input, { env, now: clock.now(), session: { id, host }, project });
	};
}

/** The reader of every host's sessions on Node's files, as `npm run report` finds them under `env`'s folders. */
export function nodeProjectHistory(env: NodeJS.ProcessEnv): ProjectHistoryReader {
	return async (project, current) => {
		const { pastSessionsOf } = await import("./entry.ts");
		return pastSessionsOf(env)(project, current);
	};
}
