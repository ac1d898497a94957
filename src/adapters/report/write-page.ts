// Writes a report page: the session's report (from the core), today's daily budgets with the day's sessions and the
// last days (from the daily ledger's folders), rendered with the inlined chart library into one HTML file. Hosts load
// this module only when `/timebox report page` asks for it.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
	type DailyStanding,
	type DayUseRow,
	type ReportData,
	suggestionOf,
	suggestionText,
	TEAM_DAYS_KEPT,
	todayData,
} from "../../core/index.ts";
import { localDay } from "../daily/ledger.ts";
import { dailyStateDir, nodeDailyFiles, scopeFolder } from "../node/daily-ledger.ts";
import { PAGE_SCRIPT, UPLOT_CSS } from "./assets.ts";
import { lastDays, sessionsOfDay, useOfDays } from "./day-use.ts";
import type { PageData } from "./page-data.ts";
import { renderPage } from "./page-html.ts";
import { fileCache } from "./past-sessions-cache.ts";
import { readProjectHistory } from "./project-history.ts";
import { homeOf } from "./sources.ts";

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
	/** For a team's day: the team's last days its store keeps (`npm run report` reads them through the team's ledger). */
	teamDays?: (count: number) => DayUseRow[];
	/** The session's working folder: the page shows the budget suggested from that project's past sessions. */
	project?: string | null;
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
	const count = context.days ?? PAGE_DAYS;
	const team = standing?.budget.team;
	// A team's day is the store's: who used it comes with the standings (members by sessions), and its days from the
	// store, which keeps no day's use by session and no day older than yesterday.
	const sessions = team ? [] : sessionsOfDay(nodeDailyFiles, nodeDailyFiles.join(scopeDir, day), hostOf);
	const rows = team
		? (context.teamDays?.(count) ?? [])
		: useOfDays(nodeDailyFiles, scopeDir, lastDays(context.now, count, localDay));
	const project = context.project ?? null;
	const history =
		project === null
			? null
			: readProjectHistory(
					context.env,
					homeOf(context.env),
					project,
					context.session?.id ?? null,
					fileCache(context.env),
				);
	const suggestion = history === null ? null : suggestionOf(history.sessions, history.current);
	return {
		writtenAt: context.now,
		session: context.session,
		...(project === null || suggestion === null
			? {}
			: { suggestion: { project, suggestion, text: suggestionText(suggestion) } }),
		report: input.report,
		today: input.standings.length === 0 && sessions.length === 0 ? null : todayData(input.standings, sessions),
		days: {
			limits: standing?.budget.limits ?? null,
			rows,
			...(team ? { note: teamDaysNote(team.name, count, context.teamDays !== undefined) } : {}),
		},
	};
}

/** What the page says of a team's last days: which its store keeps, and where they are shown. */
export function teamDaysNote(team: string, count: number, read: boolean): string {
	if (!read) return `The team ${team}'s last days are shown by npm run report, which reads them from the team's store.`;
	return count <= TEAM_DAYS_KEPT
		? `The team ${team}'s days, as its store keeps them.`
		: `The team ${team}'s store keeps each day until the end of the next: the ${count - TEAM_DAYS_KEPT} days before yesterday are not kept, so not shown.`;
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
