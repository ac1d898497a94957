// The hook script's command line, for every hook host: `hook [--host <name>]` answers a hook event from stdin,
// `statusline` prints the status, `setup-statusline` sets it up, `watch` stops a time budget on time while the agent is
// idle. Never fails the host: bad input gets one clear stderr line and exit code 0, with nothing changed. A team's
// daily ledger is read ahead in a hook (the day read before the event, what it wrote sent after it); a prompt the
// store refused then (another machine took the day's last turn) is refused in the reply.

import { homedir } from "node:os";
import { join } from "node:path";
import { type HookDeps, handleHook, readAheadOf } from "../adapters/hooks/handle.ts";
import { parseHookInput } from "../adapters/hooks/input.ts";
import type { HookHost } from "../adapters/hooks/roles.ts";
import { statusLineText, WATCH_GONE_LOOKS, WATCH_INTERVAL_MS, watchOnce } from "../adapters/hooks/watcher.ts";
import { createFileLedger } from "../adapters/node/file-ledger.ts";
import { FoldedSessionLog } from "../adapters/node/folded-session-log.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../adapters/report/writer.ts";
import type { ReadAheadDailyLedger } from "../adapters/team/read-ahead.ts";
import { fileSessionTold } from "../adapters/team/session-told.ts";
import type { SessionTold } from "../adapters/team/told.ts";
import { NO_DAILY_LEDGER } from "../adapters/team/unusable.ts";
import {
	type Clock,
	DAILY_ENV,
	DAILY_STORE_ENV,
	type DailyBudget,
	type DailyLedger,
	DEFAULT_ENV,
	inHostTerms,
	internalErrorMessage,
	LEDGER_FOLDER,
	type OnStopStarter,
	parseDailyBudget,
	type ReportPageInput,
	SUBAGENTS_ENV,
	TEAM_ENV,
	TOLD_FOLDER,
} from "../core/index.ts";
import { type DailyLedgerOptions, openDailyLedger, openHookDailyLedger } from "./daily-ledgers.ts";
import type { ReportLoader } from "./report/writer.ts";

/** Runs the user's own status line command with the same stdin, and returns its first line ("" on any failure). */
export type StatusLineRunner = (command: string, stdin: string) => string;

export interface CliDeps {
	/** The hosts `--host` names; the first is the one used when none is named. */
	hosts: readonly HookHost[];
	clock: Clock;
	onStop: OnStopStarter;
	runStatusLine: StatusLineRunner;
	newBudgetId?: () => string;
	/** The path of the script, which a status line set up by `setup-statusline` runs. */
	script: string;
	/** Starts `timebox watch` for a budget of a session, detached (a hook never waits for it). */
	startWatcher: (dataDir: string, sessionId: string, budget: string) => void;
	/** Waits between two looks of a watcher; a real timer in production. */
	sleep: (ms: number) => Promise<void>;
	/** Writes the report page (`/timebox report page`); absent where none is written. */
	reportPage?: ReportPageWriter;
	/** Reads the past sessions of a project (`/timebox suggest`, a default of `suggested`); absent where none are. */
	projectHistory?: ProjectHistoryReader;
	/** The URL of the hook script's entry, beside which the team store's worker is (a host package's `bin/`). */
	entry: string;
	/** Loads the report page's module (`timebox report`), only when it is asked for. */
	importReport: ReportLoader;
	/** Opens a hook's daily ledger (`openHookDailyLedger`, unless a test gives its own). */
	openDaily?: (options: DailyLedgerOptions, budgets: readonly DailyBudget[]) => DailyLedger | ReadAheadDailyLedger;
}

export interface CliResult {
	stdout: string;
	stderr: string;
	/** The process's exit code: 0 unless a command typed in a terminal (`report`) failed. */
	exitCode?: number;
}

const USAGE =
	"usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id> | timebox report [--session <id>] [--days <n>] [--out <file>]";

/** Joins the user's own status line and Timebox's, leaving out whichever is empty. */
export function joinStatusLines(theirs: string, ours: string): string {
	return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}

function option(args: readonly string[], name: string): string | undefined {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
}

/**
 * The daily budget from `TIMEBOX_DAILY`, with the ledger every host shares (`open`: read ahead in a hook, called as it
 * goes in a watcher, which runs for a long time), or why it cannot be read. A team's store set (`TIMEBOX_DAILY_STORE`,
 * `TIMEBOX_TEAM`) opens the team's ledger even with no daily budget here: the limits the team keeps in its store cover
 * the session, and so they do where `TIMEBOX_DAILY` cannot be read (it is named, and counts for nothing). `told`: what
 * the session was told by its ledger before, each hook a process of its own (a watcher's time check asks the daily
 * ledger nothing).
 */
function dailyOf(
	env: NodeJS.ProcessEnv,
	sessionId: string,
	clock: Clock,
	host: string,
	entry: string,
	open: (options: DailyLedgerOptions, budgets: readonly DailyBudget[]) => DailyLedger,
	told?: SessionTold,
): Pick<HookDeps, "daily"> {
	const text = env[DAILY_ENV]?.trim();
	const options = { env, sessionId, clock, host, entry, ...(told === undefined ? {} : { told }) };
	const budget = text ? parseDailyBudget(text, "user", DAILY_ENV) : null;
	const team = Boolean(env[DAILY_STORE_ENV]?.trim() || env[TEAM_ENV]?.trim());
	if (budget === null) return team ? { daily: { ledger: open(options, []), budgets: [] } } : {};
	if (!("warning" in budget)) return { daily: { ledger: open(options, [budget]), budgets: [budget] } };
	// Named as the session starts, and by `/timebox today`; it counts for nothing, and opens no ledger of its own.
	const ledger = team ? open(options, []) : NO_DAILY_LEDGER;
	return { daily: { ledger, budgets: [], unreadable: [budget.warning] } };
}

/** The report page of a hook host's session (in working folder `project`), written by `write`. */
function pageOf(
	write: ReportPageWriter,
	id: string,
	host: string,
	project: string | null,
): (page: ReportPageInput) => Promise<string> {
	return (page) => write(page, { id, host, project });
}

/** The working folder a hook's host names (`cwd`, which Claude Code, Gemini CLI and Codex give every hook), or null. */
function cwdOf(fields: Readonly<Record<string, unknown>>): string | null {
	return typeof fields.cwd === "string" && fields.cwd.length > 0 ? fields.cwd : null;
}

/** The subagent budget from `TIMEBOX_SUBAGENTS`, as the rules read it at every load; nothing when it is unset. */
function subagentsOf(env: NodeJS.ProcessEnv): Pick<HookDeps, "subagents"> {
	const value = env[SUBAGENTS_ENV];
	return value !== undefined && value.trim().length > 0 ? { subagents: { value, source: SUBAGENTS_ENV } } : {};
}

/** `timebox watch`: looks at a session every second until its time budget is spent or it has nothing to watch. */
async function watch(rest: readonly string[], env: NodeJS.ProcessEnv, deps: CliDeps): Promise<CliResult> {
	const dataDir = option(rest, "--data");
	const sessionId = option(rest, "--session");
	const budget = option(rest, "--budget");
	if (!dataDir || !sessionId || !budget) return { stdout: "", stderr: `timebox: ${USAGE}\n` };
	const hookDeps: HookDeps = {
		store: new FoldedSessionLog(dataDir, sessionId, deps.clock),
		ledger: createFileLedger(join(dataDir, LEDGER_FOLDER), { clock: deps.clock }),
		clock: deps.clock,
		onStop: deps.onStop,
		...dailyOf(env, sessionId, deps.clock, option(rest, "--host") ?? "watcher", deps.entry, openDailyLedger),
		...subagentsOf(env),
	};
	try {
		// The watcher leaves once nothing is left to watch, or its session's log was missing at enough looks in a row.
		for (let missed = 0; ; await deps.sleep(WATCH_INTERVAL_MS)) {
			const look = await watchOnce(hookDeps, budget, deps.clock.now());
			missed = look === "missing" ? missed + 1 : 0;
			if (look === "done" || missed >= WATCH_GONE_LOOKS) return { stdout: "", stderr: "" };
		}
	} catch (error) {
		// A watcher runs detached: it ends quietly, and the next hook enforces the budget as before.
		return { stdout: "", stderr: `timebox: the watcher stopped: ${String(error)}\n` };
	}
}

/** Runs one invocation: `args` after the program name, the whole stdin, and the environment. */
export async function runCli(
	args: readonly string[],
	stdin: string,
	env: NodeJS.ProcessEnv,
	deps: CliDeps,
): Promise<CliResult> {
	const [mode, ...rest] = args;
	const home = env.HOME ?? homedir();
	const hostName = option(rest, "--host") ?? deps.hosts[0]?.name;
	const host = deps.hosts.find((candidate) => candidate.name === hostName);
	if (mode === "watch") return watch(rest, env, deps);
	if (mode === "report") {
		// The page's code (its chart library among it) is loaded only here.
		const { runReport } = await deps.importReport();
		const result = runReport(rest, env, home, deps.clock);
		return { stdout: result.stdout, stderr: result.stderr, exitCode: result.failed ? 1 : 0 };
	}
	if (mode !== "hook" && mode !== "statusline" && mode !== "setup-statusline") {
		return { stdout: "", stderr: `timebox: ${USAGE}\n` };
	}
	if (!host) return { stdout: "", stderr: `timebox: unknown host "${hostName}": ${USAGE}\n` };
	const statusLine = host.statusLine;
	if (mode === "setup-statusline") {
		if (!statusLine) return { stdout: "", stderr: `timebox: ${host.name} has no status line to set up\n` };
		const settings = option(rest, "--settings") ?? statusLine.settings(home);
		return { stdout: `${statusLine.setup(settings, deps.script)}\n`, stderr: "" };
	}
	const parsed = parseHookInput(stdin, mode === "statusline" ? "statusline" : undefined);
	if ("error" in parsed) return { stdout: "", stderr: `timebox: ignored this ${mode} call: ${parsed.error}\n` };
	const event = host.read(parsed);
	// A status line is not told the plugin's data folder: it is found by the session's log.
	const dataDir =
		option(rest, "--data") ??
		env.CLAUDE_PLUGIN_DATA ??
		host.dataDir(env, home) ??
		(mode === "statusline" ? (statusLine?.findDataDir(home, event.sessionId) ?? null) : null);
	if (!dataDir) return { stdout: "", stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n" };
	// One hook reads the session's log once (from its kept summary where that holds), and keeps what it writes folded;
	// each prompt's line keeps the working folder.
	const cwd = cwdOf(parsed.fields);
	const store = new FoldedSessionLog(dataDir, event.sessionId, deps.clock).setCwd(cwd);
	const ledger = createFileLedger(join(dataDir, LEDGER_FOLDER), { clock: deps.clock });
	try {
		if (mode === "statusline") {
			const wrapped = option(rest, "--wrap");
			const theirs = wrapped ? deps.runStatusLine(wrapped, stdin) : "";
			return {
				stdout: `${joinStatusLines(theirs, statusLineText({ store, ledger }, deps.clock.now()))}\n`,
				stderr: "",
			};
		}
		const script = statusLine?.script(env) ?? null;
		const read = deps.projectHistory;
		const daily = dailyOf(
			env,
			event.sessionId,
			deps.clock,
			host.name,
			deps.entry,
			deps.openDaily ?? openHookDailyLedger,
			fileSessionTold(join(dataDir, TOLD_FOLDER), event.sessionId, deps.clock),
		);
		const readAhead = readAheadOf(daily);
		// A daily command's reads and writes on the team's store are prepared before the rules answer it.
		await (event.command === null ? readAhead?.refresh() : readAhead?.prepare(event.command));
		// What the event wrote to a team's day is sent before the reply: a prompt the store refused then is refused.
		const reply = await handleHook(event, {
			store,
			ledger,
			clock: deps.clock,
			onStop: deps.onStop,
			...(deps.newBudgetId ? { newBudgetId: deps.newBudgetId } : {}),
			...(env[DEFAULT_ENV] ? { defaultBudget: env[DEFAULT_ENV] } : {}),
			...daily,
			...subagentsOf(env),
			...(statusLine && script !== null
				? { setupStatusLine: () => statusLine.setup(statusLine.settings(home), script) }
				: {}),
			startWatcher: (budget) => deps.startWatcher(dataDir, event.sessionId, budget),
			...(host.unnamedPrompts ? { unnamedPrompts: true } : {}),
			...(host.readUsage ? { readUsage: host.readUsage } : {}),
			...(host.transcriptSize ? { transcriptSize: host.transcriptSize } : {}),
			terms: host.terms,
			...(deps.reportPage ? { reportPage: pageOf(deps.reportPage, event.sessionId, host.name, cwd) } : {}),
			...(read && cwd !== null ? { projectHistory: () => read(cwd, event.sessionId) } : {}),
		});
		const answer = reply === null ? null : host.write(reply, event);
		return { stdout: answer ? `${JSON.stringify(answer)}\n` : "", stderr: "" };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const stderr = `timebox: internal error, nothing enforced for this ${event.hostEvent}: ${message}\n`;
		// A /timebox line must never reach the model as text, even when Timebox itself fails.
		if (event.command === null) return { stdout: "", stderr };
		const blocked = host.write(
			{
				notices: [inHostTerms(internalErrorMessage("/timebox", error), host.terms)],
				context: [],
				refusal: null,
				stop: false,
				answered: true,
			},
			event,
		);
		return { stdout: `${JSON.stringify(blocked)}\n`, stderr };
	}
}
