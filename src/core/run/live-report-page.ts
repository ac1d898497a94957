// `/timebox report page`: the report and today's standings handed to the host, which writes the page, and what became
// of it. Every host that writes pages (live sessions and hook hosts alike) goes through here.

import type { DailyBudget, DailyLedger, DailyStanding } from "../daily/daily-budget.ts";
import type { HistoryItem } from "../model/history.ts";
import { readLedger } from "../session/index.ts";
import type { HostTerms } from "../text/host-terms.ts";
import type { LedgerLookup } from "../text/report.ts";
import { reportData } from "../text/report-data.ts";
import type { ReportPageOutcome } from "../text/report-page.ts";
import type { LiveSessionPorts, ReportPageInput } from "./live-ports.ts";

/** What the page is made of: the session's history, its ledger, the time, the host's terms and today's standings. */
export interface ReportPageSource {
	history(): readonly HistoryItem[];
	ledger: LedgerLookup;
	now: number;
	terms?: HostTerms;
	standings(): readonly DailyStanding[];
	/** The team's store the session counts in, and what `/timebox team` reads of it; undefined without one. */
	team(): ReportPageInput["team"];
}

/** What a live session's page is made of: its store's history, its ledger, and today's standings of `budgets`. */
export function livePageSource(
	ports: Pick<LiveSessionPorts, "store" | "ledger" | "clock" | "terms" | "daily">,
	budgets: readonly DailyBudget[],
): ReportPageSource {
	const daily = ports.daily;
	return {
		history: () => ports.store.history(),
		ledger: (budget) => readLedger(ports.ledger, budget),
		now: ports.clock.now(),
		terms: ports.terms,
		standings: () => (daily && (budgets.length > 0 || daily.team !== undefined) ? daily.standings(budgets) : []),
		team: () => teamOfPage(daily),
	};
}

/** The team a daily ledger counts in, with its store's view, for the page; nothing for a team that cannot be used. */
export function teamOfPage(daily: DailyLedger | undefined): ReportPageInput["team"] {
	const team = daily?.team;
	if (team === undefined || "unusable" in team || daily?.teamView === undefined) return undefined;
	return { team, view: daily.teamView(), unread: daily.dayUnread?.() ?? null };
}

/** Writes the report page through the host's `write`, where it writes one: the file, or why there is none. */
export async function writeReportPage(
	write: ((page: ReportPageInput) => Promise<string>) | undefined,
	source: ReportPageSource,
): Promise<ReportPageOutcome | undefined> {
	if (write === undefined) return undefined;
	try {
		const report = reportData(source.history(), source.ledger, source.now, source.terms);
		// Today read first: the team's part says why, where it could not be read.
		const standings = source.standings();
		const team = source.team();
		return { path: await write({ report, standings, ...(team === undefined ? {} : { team }) }) };
	} catch (error) {
		return { problem: error instanceof Error ? error.message : String(error) };
	}
}
