// The hook script's command line, for every hook host: `hook [--host <name>]` answers a hook event from stdin,
// `statusline` prints the status, `setup-statusline` sets it up, `watch` stops a time budget on time while the agent is
// idle, `team <request>` runs a batch of calls on a team's daily ledger for Claude Code's hooks module. Never fails the host: bad input gets one clear stderr line and exit code 0, with nothing changed.

import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import {
	type Clock,
	DAILY_ENV,
	DEFAULT_ENV,
	inHostTerms,
	internalErrorMessage,
	LEDGER_FOLDER,
	type OnStopStarter,
	parseDailyBudget,
	type ReportPageInput,
	SUBAGENTS_ENV,
	TEAM_HOP_WAIT_MS,
} from "../../core/index.ts";
import { createFileLedger } from "../node/file-ledger.ts";
import { SessionLog } from "../node/session-log.ts";
import type { ReportPageWriter } from "../report/writer.ts";
import { parseTeamRequest, runTeamBatch } from "../team/batch.ts";
import { openDailyLedger } from "../team/open.ts";
import { type HookDeps, handleHook } from "./handle.ts";
import { parseHookInput } from "./input.ts";
import type { HookHost } from "./roles.ts";
import { statusLineText, WATCH_INTERVAL_MS, watchOnce } from "./watcher.ts";

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
}

export interface CliResult {
	stdout: string;
	stderr: string;
	/** The process's exit code: 0 unless a command typed in a terminal (`report`) failed. */
	exitCode?: number;
}

const USAGE =
	"usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id> | timebox report [--session <id>] [--days <n>] [--out <file>] | timebox team <request>";
const WRAPPED_TIMEOUT_MS = 2_000;

/** The default status line runner: `<shell> -c <command>`, bounded in time; "" when it cannot run. */
export function runStatusLineCommand(command: string, stdin: string, shell = "/bin/sh"): string {
	const result = spawnSync(shell, ["-c", command], { input: stdin, encoding: "utf8", timeout: WRAPPED_TIMEOUT_MS });
	return typeof result.stdout === "string" ? result.stdout.replace(/\n[\s\S]*$/, "") : "";
}

/** Joins the user's own status line and Timebox's, leaving out whichever is empty. */
export function joinStatusLines(theirs: string, ours: string): string {
	return [theirs.trim(), ours].filter((part) => part.length > 0).join(" | ");
}

function option(args: readonly string[], name: string): string | undefined {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
}

/** The daily budget from `TIMEBOX_DAILY`, with the ledger every host shares, or why it cannot be read. */
function dailyOf(
	env: NodeJS.ProcessEnv,
	sessionId: string,
	clock: Clock,
	host: string,
): Pick<HookDeps, "daily" | "dailyWarning"> {
	const text = env[DAILY_ENV]?.trim();
	if (!text) return {};
	const budget = parseDailyBudget(text, "user", DAILY_ENV);
	if ("warning" in budget) return { dailyWarning: budget.warning };
	const ledger = openDailyLedger({ env, sessionId, clock, host, entry: import.meta.url });
	return { daily: { ledger, budgets: [budget] } };
}

/** The report page of a hook host's session, written by `write`. */
function pageOf(write: ReportPageWriter, id: string, host: string): (page: ReportPageInput) => Promise<string> {
	return (page) => write(page, { id, host });
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
		store: new SessionLog(dataDir, sessionId, deps.clock, true),
		ledger: createFileLedger(join(dataDir, LEDGER_FOLDER)),
		clock: deps.clock,
		onStop: deps.onStop,
		...dailyOf(env, sessionId, deps.clock, option(rest, "--host") ?? "watcher"),
		...subagentsOf(env),
	};
	try {
		while ((await watchOnce(hookDeps, budget, deps.clock.now())) === "watching") await deps.sleep(WATCH_INTERVAL_MS);
		return { stdout: "", stderr: "" };
	} catch (error) {
		// A watcher runs detached: it ends quietly, and the next hook enforces the budget as before.
		return { stdout: "", stderr: `timebox: the watcher stopped: ${String(error)}\n` };
	}
}

/**
 * `timebox team <request>`: a batch of a Claude Code hooks module's calls on its team's daily ledger, opened from the
 * environment as on every Node host, each call bounded so that the process ends in time; one JSON line in reply.
 */
function teamBatch(rest: readonly string[], env: NodeJS.ProcessEnv, clock: Clock): CliResult {
	const request = parseTeamRequest(rest[0]);
	if ("error" in request) return { stdout: `${JSON.stringify({ error: `timebox: ${request.error}` })}\n`, stderr: "" };
	const reply = runTeamBatch(request, (carried) =>
		openDailyLedger({
			env,
			sessionId: request.session,
			clock,
			host: "claude",
			entry: import.meta.url,
			team: { carried, waitMs: TEAM_HOP_WAIT_MS },
		}),
	);
	return { stdout: `${JSON.stringify(reply)}\n`, stderr: "" };
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
	if (mode === "team") return teamBatch(rest, env, deps.clock);
	if (mode === "report") {
		// The page's code (its chart library among it) is loaded only here.
		const { runReport } = await import("../report/entry.ts");
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
	// One hook reads the session's log once, and keeps what it writes.
	const store = new SessionLog(dataDir, event.sessionId, deps.clock, true);
	const ledger = createFileLedger(join(dataDir, LEDGER_FOLDER));
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
		const reply = await handleHook(event, {
			store,
			ledger,
			clock: deps.clock,
			onStop: deps.onStop,
			...(deps.newBudgetId ? { newBudgetId: deps.newBudgetId } : {}),
			...(env[DEFAULT_ENV] ? { defaultBudget: env[DEFAULT_ENV] } : {}),
			...dailyOf(env, event.sessionId, deps.clock, host.name),
			...subagentsOf(env),
			...(statusLine && script !== null
				? { setupStatusLine: () => statusLine.setup(statusLine.settings(home), script) }
				: {}),
			startWatcher: (budget) => deps.startWatcher(dataDir, event.sessionId, budget),
			...(host.unnamedPrompts ? { unnamedPrompts: true } : {}),
			...(host.readUsage ? { readUsage: host.readUsage } : {}),
			...(host.transcriptSize ? { transcriptSize: host.transcriptSize } : {}),
			terms: host.terms,
			...(deps.reportPage ? { reportPage: pageOf(deps.reportPage, event.sessionId, host.name) } : {}),
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
