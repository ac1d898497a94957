// The report page's code as one module, which hosts load only when a page or a suggested budget is asked for: `npm run
// build` bundles it into a file of its own beside each host's bundle, so that the chart library never weighs on a
// host's start-up. It wires the page and the past sessions to every host's sessions on this machine (sources.ts).

import type { PageContext, PageInput } from "../../adapters/report/write-page.ts";
import { writeReportPage } from "../../adapters/report/write-page.ts";
import { pastSessionsOf } from "./sources.ts";

export { runReport } from "./cli.ts";
export { pastSessionsOf } from "./sources.ts";

/** A host's `/timebox report page`: the page of the session and today, with its project's past sessions; its path. */
export function writeHostPage(input: PageInput, context: Omit<PageContext, "pastSessions">): string {
	return writeReportPage(input, { ...context, pastSessions: pastSessionsOf(context.env) });
}
