// The Claude Code plugin's command line: `hook` answers any hook event from stdin, `statusline` prints the status.
// Never fails Claude Code: bad input gets one clear stderr line and exit code 0, with nothing changed.

import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import {
	type Clock,
	internalErrorMessage,
	LEDGER_FOLDER,
	type OnStopStarter,
	parseDailyBudget,
} from "../../core/index.ts";
import { fromCodex, toCodex } from "../codex/mapping.ts";
import { fromGemini, toGemini } from "../gemini/mapping.ts";
import { createDailyLedger, dailyStateDir } from "../node/daily-ledger.ts";
import { createFileLedger } from "../node/file-ledger.ts";
import { SessionLog } from "../node/session-log.ts";
import { type HookInput, parseHookInput } from "./hook-input.ts";
import {
	DEFAULT_ENV,
	type HookDeps,
	type HookOutput,
	handleHook,
	statusLineText,
	timeboxArguments,
	WATCH_INTERVAL_MS,
	watchOnce,
} from "./hooks.ts";
import { findDataDir, setupStatusLine } from "./setup.ts";
import { joinStatusLines } from "./statusline.ts";

/** Runs the user's own status line command with the same stdin, and returns its first line ("" on any failure). */
export type StatusLineRunner = (command: string, stdin: string) => string;

export interface CliDeps {
	clock: Clock;
	onStop: OnStopStarter;
	runStatusLine: StatusLineRunner;
	newBudgetId?: () => string;
	/** The path of the plugin's script, which a status line set up by `setup-statusline` runs. */
	script: string;
	/** Starts `timebox watch` for a budget of a session, detached (a hook never waits for it). */
	startWatcher: (dataDir: string, sessionId: string, budget: string) => void;
	/** Waits between two looks of a watcher; a real timer in production. */
	sleep: (ms: number) => Promise<void>;
}

export interface CliResult {
	stdout: string;
	stderr: string;
}

/** What sets one hook host apart: how its events and answers map, where its data lives, what its hooks can see. */
interface HookHost {
	fromHost: (input: HookInput) => HookInput;
	toHost: (output: HookOutput, event: string) => HookOutput;
	/** The data folder when the host does not name one (Claude Code and Codex plugins get `CLAUDE_PLUGIN_DATA`). */
	dataDir: (env: NodeJS.ProcessEnv, home: string) => string | null;
	traits: Pick<HookDeps, "unnamedPrompts" | "tokensSeen">;
}

/** The hosts `timebox hook --host <name>` serves; Claude Code when no host is named. */
const HOOK_HOSTS: Readonly<Record<string, HookHost>> = {
	claude: { fromHost: (input) => input, toHost: (output) => output, dataDir: () => null, traits: {} },
	gemini: {
		fromHost: fromGemini,
		toHost: toGemini,
		dataDir: (_env, home) => join(home, ".gemini", "timebox"),
		traits: { unnamedPrompts: true, tokensSeen: false },
	},
	codex: {
		fromHost: fromCodex,
		toHost: toCodex,
		dataDir: (env, home) => join(env.CODEX_HOME ?? join(home, ".codex"), "timebox"),
		traits: { tokensSeen: false },
	},
};

const USAGE =
	"usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id>";
const WRAPPED_TIMEOUT_MS = 2_000;

/** The default status line runner: `<shell> -c <command>`, bounded in time; "" when it cannot run. */
export function runStatusLineCommand(command: string, stdin: string, shell = "/bin/sh"): string {
	const result = spawnSync(shell, ["-c", command], { input: stdin, encoding: "utf8", timeout: WRAPPED_TIMEOUT_MS });
	return typeof result.stdout === "string" ? result.stdout.replace(/\n[\s\S]*$/, "") : "";
}

function option(args: readonly string[], name: string): string | undefined {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
}

function newId(deps: CliDeps): { newBudgetId?: () => string } {
	return deps.newBudgetId ? { newBudgetId: deps.newBudgetId } : {};
}

/** The environment variable of the daily budget every Claude Code session of the user shares with pi's. */
export const DAILY_ENV = "TIMEBOX_DAILY";

/** The daily budget from `TIMEBOX_DAILY`, with the ledger pi shares, or why it cannot be read. */
function dailyOf(env: NodeJS.ProcessEnv, sessionId: string, clock: Clock): Pick<HookDeps, "daily" | "dailyWarning"> {
	const text = env[DAILY_ENV]?.trim();
	if (!text) return {};
	const budget = parseDailyBudget(text, "user", DAILY_ENV);
	if ("warning" in budget) return { dailyWarning: budget.warning };
	return { daily: { ledger: createDailyLedger(dailyStateDir(env), sessionId, clock), budgets: [budget] } };
}

/** `/timebox statusline` in Claude Code: sets up the status line for the plugin's script where Claude Code runs it. */
function statusLineSetupOf(env: NodeJS.ProcessEnv, home: string): Pick<HookDeps, "setupStatusLine"> {
	const root = env.CLAUDE_PLUGIN_ROOT;
	if (!root) return {};
	const settings = join(home, ".claude", "settings.json");
	return { setupStatusLine: () => setupStatusLine(settings, join(root, "bin", "timebox.mjs")) };
}

/**
 * `timebox watch`: looks at a session every second until its time budget is spent (then the rules stop it, run its
 * on-stop command and keep the notice for the next prompt) or it has nothing to watch any more.
 */
async function watch(rest: readonly string[], env: NodeJS.ProcessEnv, deps: CliDeps): Promise<CliResult> {
	const dataDir = option(rest, "--data");
	const sessionId = option(rest, "--session");
	const budget = option(rest, "--budget");
	if (!dataDir || !sessionId || !budget) return { stdout: "", stderr: `timebox: ${USAGE}\n` };
	const hookDeps: HookDeps = {
		store: new SessionLog(dataDir, sessionId),
		ledger: createFileLedger(join(dataDir, LEDGER_FOLDER)),
		clock: deps.clock,
		onStop: deps.onStop,
		...dailyOf(env, sessionId, deps.clock),
	};
	try {
		while ((await watchOnce(hookDeps, budget, deps.clock.now())) === "watching") await deps.sleep(WATCH_INTERVAL_MS);
		return { stdout: "", stderr: "" };
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
	if (mode === "setup-statusline") {
		const settings = option(rest, "--settings") ?? join(home, ".claude", "settings.json");
		return { stdout: `${setupStatusLine(settings, deps.script)}\n`, stderr: "" };
	}
	if (mode === "watch") return watch(rest, env, deps);
	if (mode !== "hook" && mode !== "statusline") return { stdout: "", stderr: `timebox: ${USAGE}\n` };
	const hostName = option(rest, "--host") ?? "claude";
	const host = Object.hasOwn(HOOK_HOSTS, hostName) ? HOOK_HOSTS[hostName] : undefined;
	if (!host) return { stdout: "", stderr: `timebox: unknown host "${hostName}": ${USAGE}\n` };
	const parsed = parseHookInput(stdin, mode === "statusline" ? "statusline" : undefined);
	if ("error" in parsed) return { stdout: "", stderr: `timebox: ignored this ${mode} call: ${parsed.error}\n` };
	const input = host.fromHost(parsed);
	// A status line is not told the plugin's data folder: it is found by the session's log.
	const dataDir =
		option(rest, "--data") ??
		env.CLAUDE_PLUGIN_DATA ??
		host.dataDir(env, home) ??
		(mode === "statusline" ? findDataDir(home, input.sessionId) : null);
	if (!dataDir) return { stdout: "", stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n" };
	const store = new SessionLog(dataDir, input.sessionId);
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
		const defaults = env[DEFAULT_ENV] ? { defaultBudget: env[DEFAULT_ENV] } : {};
		const output = await handleHook(input, {
			store,
			ledger,
			clock: deps.clock,
			onStop: deps.onStop,
			...newId(deps),
			...defaults,
			...dailyOf(env, input.sessionId, deps.clock),
			// Only Claude Code has a status line to set up (Codex sets CLAUDE_PLUGIN_ROOT for its plugins too).
			...(hostName === "claude" ? statusLineSetupOf(env, home) : {}),
			startWatcher: (budget) => deps.startWatcher(dataDir, input.sessionId, budget),
			...host.traits,
		});
		const answer = host.toHost(output, parsed.event);
		return { stdout: answer ? `${JSON.stringify(answer)}\n` : "", stderr: "" };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const stderr = `timebox: internal error, nothing enforced for this ${input.event}: ${message}\n`;
		// A /timebox line must never reach the model as text, even when Timebox itself fails.
		if (input.event !== "UserPromptSubmit" || input.prompt === null || timeboxArguments(input.prompt) === null) {
			return { stdout: "", stderr };
		}
		const reply = { decision: "block", reason: internalErrorMessage("/timebox", error) };
		return { stdout: `${JSON.stringify(reply)}\n`, stderr };
	}
}
