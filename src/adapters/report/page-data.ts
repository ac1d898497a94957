// What one report page shows, as the JSON it carries: the session's report (as the core computes it), today's daily
// budgets with the day's sessions, and the use of the last days. The page's tables and its charts read the same data.

import type { DailyLimits, DayUseRow, ReportData, Suggestion, TodayData } from "../../core/index.ts";

/** One report page's data. */
export interface PageData {
	/** When the page was written, epoch ms. */
	writtenAt: number;
	/** The session the report is of, and the host that ran it; null when no session was found. */
	session: { id: string; host: string } | null;
	report: ReportData | null;
	today: TodayData | null;
	/** The use of each of the last days, oldest first, against the daily limits (null: no daily budget). */
	days: {
		limits: DailyLimits | null;
		rows: DayUseRow[];
		/** What the page says of the days it cannot show (a team's store keeps only its last two). */
		note?: string;
	};
	/**
	 * The budget suggested from the past sessions of the session's project (its working folder), with what `/timebox
	 * suggest` says of it; absent where the project is not known.
	 */
	suggestion?: { project: string; suggestion: Suggestion; text: string };
}

/** The page's data as the text of a `<script type="application/json">`: nothing in it can close the element. */
export function dataScriptText(data: PageData): string {
	return JSON.stringify(data)
		.replace(/</g, "\\u003c")
		.replace(/\u2028/g, "\\u2028")
		.replace(/\u2029/g, "\\u2029");
}
