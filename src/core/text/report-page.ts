// The texts of the report page: where it was written, as a link, or why there is none.

/** What became of writing the report page: the file written, or why it could not be. */
export type ReportPageOutcome = { path: string } | { problem: string };

/** Where a host cannot write the report page itself. */
export const NO_REPORT_PAGE =
	"Timebox: the report page cannot be written from here. From a checkout of Timebox: npm run report -- --session <id>.";

/** A path as a `file://` link: `file:///tmp/timebox%20report.html`. */
export function fileLink(path: string): string {
	const absolute = path.startsWith("/") ? path : `/${path}`;
	return `file://${encodeURI(absolute).replace(/[?#]/g, (c) => encodeURIComponent(c))}`;
}

/** The report page written to `path`, as a link. */
export function reportPageWritten(path: string): string {
	return `Timebox report page: ${fileLink(path)}`;
}

/** The answer to `/timebox report page`: the page's link, or why there is none. */
export function reportPageReply(outcome: ReportPageOutcome | undefined): {
	message: string;
	level: "info" | "warning";
} {
	if (outcome === undefined) return { message: NO_REPORT_PAGE, level: "info" };
	if ("problem" in outcome) {
		return { message: `Timebox: the report page could not be written (${outcome.problem}).`, level: "warning" };
	}
	return { message: reportPageWritten(outcome.path), level: "info" };
}
