// How a host writes the report page: a port the host's wiring takes, and the Node writer that loads the page's code
// (its chart library among it) only when `/timebox report page` is asked for, so that no host pays for it at start-up.

import type { Clock, ReportPageInput } from "../../core/index.ts";

/** Writes the page of a session (its id and host) and today; resolves to the file's path. */
export type ReportPageWriter = (input: ReportPageInput, session: { id: string; host: string }) => Promise<string>;

/** The writer of the page on Node's files, under Timebox's state folder of `env`. */
export function nodeReportPageWriter(env: NodeJS.ProcessEnv, clock: Clock): ReportPageWriter {
	return async (input, session) => {
		const { writeReportPage } = await import("./entry.ts");
		return writeReportPage(input, { env, now: clock.now(), session });
	};
}
