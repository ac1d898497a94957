// `npm run report -- [--session <id>] [--days 7] [--out file.html] [--daily "<budget>"]`: the report page of any
// session of any host on this machine (the latest when none is named), with today's sessions and the last days of the
// daily ledger, written as one HTML file whose path is printed as a file:// link. With a team's store set
// (TIMEBOX_DAILY_STORE and TIMEBOX_TEAM), today and the last days are the team's, read through the team's own ledger.
// `--suggest [--project <folder>] [--json]` prints the budget suggested from a project's past sessions instead.

import { resolve } from "node:path";
import type { FoundSession } from "../../adapters/report/found-session.ts";
import { teamPageData } from "../../adapters/report/team-section.ts";
import { defaultPagePath, PAGE_DAYS, writeReportPage } from "../../adapters/report/write-page.ts";
import { TeamLedger } from "../../adapters/team/ledger.ts";
import {
	type Clock,
	DAILY_ENV,
	type DailyBudget,
	type DailyLedger,
	parseDailyBudget,
	reportData,
	reportPageWritten,
	suggestionOf,
	suggestionText,
} from "../../core/index.ts";
import { openDailyLedger } from "../daily-ledgers.ts";
import { allSessions, pastSessionsOf } from "./sources.ts";

export const REPORT_USAGE =
	'usage: npm run report -- [--session <id> [--or-day]] [--days <1-90>] [--out <file.html>] [--daily "<daily budget>"] | --suggest [--project <folder>] [--json]';
/** The most days a page shows. */
export const MAX_PAGE_DAYS = 90;

interface Options {
	session: string | null;
	days: number;
	out: string | null;
	daily: string | null;
	/**
	 * `--or-day`: a `--session` that is not found (a session that never had a budget keeps nothing to find, as in Claude
	 * Code's hooks module) gives the page of the day alone, named as that session's, instead of failing.
	 */
	orDay?: boolean;
	/** `--suggest`: the suggested budget of a project, printed; with `--json`, the past sessions it is made of. */
	suggest?: { project: string | null; json: boolean };
}

/** The options that take no value. */
const FLAGS = new Set(["--suggest", "--json", "--or-day"]);

/** The options, or what is wrong with them. */
export function readOptions(args: readonly string[]): Options | { problem: string } {
	const options: Options = { session: null, days: PAGE_DAYS, out: null, daily: null };
	const flags = new Set(args.filter((arg) => FLAGS.has(arg)));
	let project: string | null = null;
	const valued = args.filter((arg) => !FLAGS.has(arg));
	for (let index = 0; index < valued.length; index += 2) {
		const name = valued[index];
		const value = valued[index + 1];
		if (value === undefined || value.startsWith("--")) return { problem: `${name} needs a value.` };
		if (name === "--session") options.session = value;
		else if (name === "--project") project = value;
		// Taken from the folder it is typed in, so that the link printed opens the page written.
		else if (name === "--out") options.out = resolve(value);
		else if (name === "--daily") options.daily = value;
		else if (name === "--days") {
			const days = Number(value);
			if (!Number.isInteger(days) || days < 1 || days > MAX_PAGE_DAYS) {
				return { problem: `--days takes a whole number from 1 to ${MAX_PAGE_DAYS}, not "${value}".` };
			}
			options.days = days;
		} else return { problem: `"${name}" is not an option.` };
	}
	if (flags.has("--suggest")) {
		const other = valued.find((arg, index) => index % 2 === 0 && arg !== "--project");
		if (other !== undefined) return { problem: `--suggest takes --project and --json, not ${other}.` };
		return { ...options, suggest: { project, json: flags.has("--json") } };
	}
	if (project !== null || flags.has("--json"))
		return { problem: `${project !== null ? "--project" : "--json"} goes with --suggest.` };
	if (flags.has("--or-day")) {
		if (options.session === null) return { problem: "--or-day goes with --session." };
		options.orDay = true;
	}
	return options;
}

/**
 * `--suggest`: the suggestion for the project (`--project`, else the folder npm was run from, else this one), or with
 * `--json` the past sessions it is made of, as a host that reads no history itself takes them.
 */
function suggest(options: Required<Pick<Options, "suggest">>["suggest"], env: NodeJS.ProcessEnv, home: string) {
	const project = options.project ?? env.INIT_CWD ?? process.cwd();
	const history = pastSessionsOf(env, home)(project, null);
	const stdout = options.json
		? JSON.stringify(history)
		: suggestionText(suggestionOf(history.sessions, history.current), project);
	return { stdout: `${stdout}\n`, stderr: "", failed: false };
}

/** The daily budget the page measures the days against: `--daily`, else TIMEBOX_DAILY, else none. */
function dailyBudget(options: Options, env: NodeJS.ProcessEnv): DailyBudget | { problem: string } | null {
	const text = options.daily ?? env[DAILY_ENV]?.trim();
	if (!text) return null;
	const budget = parseDailyBudget(text, "user", options.daily === null ? DAILY_ENV : "--daily");
	return "warning" in budget ? { problem: budget.warning } : budget;
}

/** The daily ledger the page reads today from: the team's when a store and a team are set, else this machine's. */
export type ReportLedgerOpener = (env: NodeJS.ProcessEnv, clock: Clock) => DailyLedger;

const openReportLedger: ReportLedgerOpener = (env, clock) =>
	openDailyLedger({ env, sessionId: "report", clock, host: "report", entry: import.meta.url });

/** Writes the page; the text to print and whether it failed. */
export function runReport(
	args: readonly string[],
	env: NodeJS.ProcessEnv,
	home: string,
	clock: Clock,
	openLedger: ReportLedgerOpener = openReportLedger,
): { stdout: string; stderr: string; failed: boolean } {
	const fail = (problem: string) => ({
		stdout: "",
		stderr: `timebox report: ${problem}\n${REPORT_USAGE}\n`,
		failed: true,
	});
	// Asked how to use it: the usage, and nothing written.
	if (args.some((arg) => arg === "--help" || arg === "-h"))
		return { stdout: `${REPORT_USAGE}\n`, stderr: "", failed: false };
	const options = readOptions(args);
	if ("problem" in options) return fail(options.problem);
	if (options.suggest !== undefined) return suggest(options.suggest, env, home);
	const budget = dailyBudget(options, env);
	if (budget !== null && "problem" in budget) return fail(budget.problem);
	const sessions = allSessions(env, home);
	let chosen: FoundSession | null = sessions[0] ?? null;
	if (options.session !== null) {
		chosen = sessions.find((session) => session.id === options.session) ?? null;
		if (chosen === null && options.orDay !== true)
			return fail(`no session "${options.session}" was found in any host's sessions here.`);
	}
	const now = clock.now();
	const hosts = new Map(sessions.map((session) => [session.id, session.host]));
	const ledger = openLedger(env, clock);
	const budgets = budget === null ? [] : [budget];
	// A team's limits may be in its store: its ledger is read with no daily budget given too.
	const standings = budget === null && !(ledger instanceof TeamLedger) ? [] : ledger.standings(budgets);
	// A team's store that cannot be reached (or a team set wrongly) is said; the page then shows this machine's day.
	const problem = ledger.problem();
	const team = ledger instanceof TeamLedger && standings[0]?.budget.team !== undefined ? ledger : null;
	const store =
		ledger instanceof TeamLedger
			? teamPageData(ledger.team, ledger.teamView(), standings, ledger.dayUnread())
			: undefined;
	const report = chosen === null ? null : reportData(chosen.history(), chosen.ledger, now, chosen.terms);
	const session = chosen === null ? null : { id: chosen.id, host: chosen.host };
	const project = chosen === null ? null : chosen.project();
	const path = writeReportPage(
		// With no session found, the page shows the days alone.
		{ report, standings, team: store },
		{
			env,
			now,
			session,
			hostOf: (id) => hosts.get(id) ?? null,
			days: options.days,
			project,
			pastSessions: pastSessionsOf(env, home),
			out: options.out ?? defaultPagePath(env, session?.id ?? options.session),
			...(team === null ? {} : { teamDays: (count: number) => team.keptDays(count) }),
		},
	);
	return {
		stdout: `${reportPageWritten(path)}\n`,
		stderr: problem === null ? "" : `${problem}\n`,
		failed: false,
	};
}
