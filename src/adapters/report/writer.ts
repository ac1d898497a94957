// How a host writes the report page and reads a project's past sessions: the ports the host's wiring takes (their Node
// implementations are the report's entry's: src/entries/report/writer.ts).

import type { ProjectHistory, ReportPageInput } from "../../core/index.ts";

/**
 * Writes the page of a session (its id and host, and the working folder it runs in, whose suggested budget the page
 * shows) and today; resolves to the file's path.
 */
export type ReportPageWriter = (
	input: ReportPageInput,
	session: { id: string; host: string; project?: string | null },
) => Promise<string>;

/** Reads the past sessions of a project (a working folder) on this machine, leaving out the session `current`. */
export type ProjectHistoryReader = (project: string, current: string | null) => Promise<ProjectHistory>;
