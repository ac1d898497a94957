// The report page's code as one module, which hosts load only when a page or a suggested budget is asked for: `npm run
// build` bundles it into a file of its own beside each host's bundle, so that the chart library never weighs on a
// host's start-up. It wires the page and the past sessions to every host's sessions on this machine (sources.ts).

import { teamPageData } from "../../adapters/report/team-section.ts";
import type { PageContext, PageInput } from "../../adapters/report/write-page.ts";
import { writeReportPage } from "../../adapters/report/write-page.ts";
import type { ReportPageInput } from "../../core/index.ts";
import { pastSessionsOf } from "./sources.ts";

export { runReport } from "./cli.ts";
export { pastSessionsOf } from "./sources.ts";

/** A host's `/timebox report page`: the page of the session and today, with its project's past sessions; its path. */
export function writeHostPage(input: ReportPageInput, context: Omit<PageContext, "pastSessions">): string {
	// A team's store the session counts in: its limits and open requests, as `npm run report` shows them.
	const team = input.team && teamPageData(input.team.team, input.team.view, input.standings, input.team.unread);
	const page: PageInput = { report: input.report, standings: input.standings, ...(team === undefined ? {} : { team }) };
	return writeReportPage(page, { ...context, pastSessions: pastSessionsOf(context.env) });
}
