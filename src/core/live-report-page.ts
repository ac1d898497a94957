// `/timebox report page` in a live session: the report and today's standings handed to the host, which writes the
// page, and what became of it.

import type { DailyBudget } from "./daily.ts";
import type { LiveSessionPorts } from "./live-ports.ts";
import type { ReportPageOutcome } from "./messages.ts";
import { reportData } from "./report-data.ts";
import { readLedger } from "./session/index.ts";

/** Writes the report page through the host, where it writes one: the file, or why there is none. */
export async function writeReportPage(
	ports: LiveSessionPorts,
	dailyBudgets: readonly DailyBudget[],
): Promise<ReportPageOutcome | undefined> {
	const write = ports.reportPage;
	if (write === undefined) return undefined;
	try {
		const report = reportData(
			ports.store.history(),
			(budget) => readLedger(ports.ledger, budget),
			ports.clock.now(),
			ports.terms,
		);
		const standings = ports.daily && dailyBudgets.length > 0 ? ports.daily.standings(dailyBudgets) : [];
		return { path: await write.call(ports, { report, standings }) };
	} catch (error) {
		return { problem: error instanceof Error ? error.message : String(error) };
	}
}
