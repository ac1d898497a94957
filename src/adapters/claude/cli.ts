// The Claude Code plugin's command line: `hook` answers any hook event from stdin, `statusline` prints the status.
// Never fails Claude Code: bad input gets one clear stderr line and exit code 0, with nothing changed.

import { spawnSync } from "node:child_process";
import { internalErrorMessage } from "../../core/messages.ts";
import type { Clock, OnStopRunner } from "../../core/ports.ts";
import { parseHookInput } from "./hook-input.ts";
import { handleHook, timeboxArguments } from "./hooks.ts";
import { ClaudeSessionStore } from "./session-store.ts";
import { joinStatusLines, statusLineText } from "./statusline.ts";

/** Runs the user's own status line command with the same stdin, and returns its first line ("" on any failure). */
export type StatusLineRunner = (command: string, stdin: string) => string;

export interface CliDeps {
	clock: Clock;
	onStop: OnStopRunner;
	runStatusLine: StatusLineRunner;
}

export interface CliResult {
	stdout: string;
	stderr: string;
}

const USAGE = "usage: timebox hook | timebox statusline [--data <folder>] [--wrap <command>]";
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

/** Runs one invocation: `args` after the program name, the whole stdin, and the environment. */
export function runCli(args: readonly string[], stdin: string, env: NodeJS.ProcessEnv, deps: CliDeps): CliResult {
	const [mode, ...rest] = args;
	if (mode !== "hook" && mode !== "statusline") return { stdout: "", stderr: `timebox: ${USAGE}\n` };
	const input = parseHookInput(stdin, mode === "statusline" ? "statusline" : undefined);
	if ("error" in input) return { stdout: "", stderr: `timebox: ignored this ${mode} call: ${input.error}\n` };
	const dataDir = option(rest, "--data") ?? env.CLAUDE_PLUGIN_DATA;
	if (!dataDir) return { stdout: "", stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n" };
	const store = new ClaudeSessionStore(dataDir, input.sessionId);
	try {
		if (mode === "statusline") {
			const wrapped = option(rest, "--wrap");
			const theirs = wrapped ? deps.runStatusLine(wrapped, stdin) : "";
			return { stdout: `${joinStatusLines(theirs, statusLineText(store.lines(), deps.clock.now()))}\n`, stderr: "" };
		}
		const output = handleHook(input, { store, clock: deps.clock, onStop: deps.onStop });
		return { stdout: output ? `${JSON.stringify(output)}\n` : "", stderr: "" };
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
