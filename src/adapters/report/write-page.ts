// Writes a report page: the session's report (from the core), today's daily budgets with the day's sessions and the
// last days (from the daily ledger's folders), rendered with the inlined chart library into one HTML file. Hosts load
// this module only when `/timebox report page` asks for it.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type DailyStanding, type ReportData, todayData } from "../../core/index.ts";
import { localDay } from "../daily/ledger.ts";
import { dailyStateDir, nodeDailyFiles, scopeFolder } from "../node/daily-ledger.ts";
import { PAGE_SCRIPT, UPLOT_CSS } from "./assets.ts";
import { lastDays, sessionsOfDay, useOfDays } from "./day-use.ts";
import type { PageData } from "./page-data.ts";
import { renderPage } from "./page-html.ts";

/** How many days the page of `/timebox report page` shows. */
export const PAGE_DAYS = 7;
/** The folder of the report pages under Timebox's state folder. */
export const REPORTS_FOLDER = "reports";

/** Where a page is written, who it is of, and how the day's sessions are told apart. */
export interface PageContext {
	env: NodeJS.ProcessEnv;
	now: number;
	session: { id: string; host: string } | null;
	/** The host of a session of the day, where it is known. */
	hostOf?: (session: string) => string | null;
	/** How many days to show. */
	days?: number;
	/** The file to write; a page per session under the state folder when absent. */
	out?: string;
}

/** `<state>/reports/<session>.html`: the page of a session, written again each time it is asked for. */
export function defaultPagePath(env: NodeJS.ProcessEnv, session: string | null): string {
	const name = (session ?? "timebox").replace(/[^A-Za-z0-9._-]/g, "_");
	return join(dailyStateDir(env), REPORTS_FOLDER, `${name}.html`);
}

/** What a page is made of: the session's report (none when no session was found) and today's standings. */
export interface PageInput {
	report: ReportData | null;
	standings: readonly DailyStanding[];
}

/** The page's data: the report, today's budgets with the day's sessions, and the last days of the first budget. */
export function pageData(input: PageInput, context: PageContext): PageData {
	const state = dailyStateDir(context.env);
	const day = localDay(context.now);
	const standing: DailyStanding | undefined = input.standings[0];
	const hostOf = context.hostOf ?? ((id: string) => (id === context.session?.id ? context.session.host : null));
	// With no daily budget, the days of every session of the user are shown all the same.
	const scopeDir = nodeDailyFiles.join(state, "daily", scopeFolder(standing?.budget.scope ?? "user"));
	const sessions = sessionsOfDay(nodeDailyFiles, nodeDailyFiles.join(scopeDir, day), hostOf);
	const days = lastDays(context.now, context.days ?? PAGE_DAYS, localDay);
	return {
		writtenAt: context.now,
		session: context.session,
		report: input.report,
		today: input.standings.length === 0 && sessions.length === 0 ? null : todayData(input.standings, sessions),
		days: { limits: standing?.budget.limits ?? null, rows: useOfDays(nodeDailyFiles, scopeDir, days) },
	};
}

/** Writes a page's data as one HTML file; resolves to its path. */
export function writePageFile(data: PageData, path: string): string {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, renderPage(data, { script: PAGE_SCRIPT, css: UPLOT_CSS }));
	return path;
}

/** `/timebox report page` in a host: the page of the session and today, written; resolves to its path. */
export function writeReportPage(input: PageInput, context: PageContext): string {
	const path = context.out ?? defaultPagePath(context.env, context.session?.id ?? null);
	return writePageFile(pageData(input, context), path);
}
