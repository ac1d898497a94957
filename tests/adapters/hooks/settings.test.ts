// The subagent budget on the hook hosts, from TIMEBOX_SUBAGENTS: read by every hook (each one loads the session
// afresh), shown by `/timebox subagents` with its source, a budget set with the command winning over it, and a bad value
// named when the session starts. Guards a setting that reaches one hook and not the next.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { NO_SUBAGENT_BUDGET } from "../../../src/core/subagents/messages.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-hook-settings-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const deps = (): CliDeps => ({
	hosts: [claudeCodeHost, codexCliHost],
	clock: { now: () => Date.UTC(2026, 10, 22, 9, 0, 0) },
	onStop: { start: () => {} },
	runStatusLine: () => "",
	newBudgetId: () => "budget-1",
	script: "/x/timebox.mjs",
	startWatcher: () => {},
	entry: import.meta.url,
	importReport: () => import("../../../src/entries/report/entry.ts"),
	sleep: async () => {},
});

/** One Claude Code hook with TIMEBOX_SUBAGENTS set (or not), and what it printed. */
async function claude(payload: object, subagents?: string): Promise<Record<string, unknown>> {
	const env = { CLAUDE_PLUGIN_DATA: dataDir, ...(subagents === undefined ? {} : { TIMEBOX_SUBAGENTS: subagents }) };
	const { stdout, stderr } = await runCli(["hook"], JSON.stringify({ session_id: "s1", ...payload }), env, deps());
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>);
}
const start = (subagents: string) => claude({ hook_event_name: "SessionStart", source: "startup" }, subagents);
const prompt = (text: string, id: string, subagents?: string) =>
	claude({ hook_event_name: "UserPromptSubmit", prompt: text, prompt_id: id }, subagents);

const TURNS_IN_IT =
	'Timebox: TIMEBOX_SUBAGENTS: "5m turns:2" has a bad budget for "*" (turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>), so it is ignored.';

describe("TIMEBOX_SUBAGENTS in Claude Code", () => {
	it("is the subagent budget every hook sees, shown with its source, and says nothing when the session starts", async () => {
		expect(await start("5m steps:30")).toEqual({});
		expect(await prompt("/timebox subagents", "p1", "5m steps:30")).toEqual({
			decision: "block",
			reason: "Timebox: subagent budget (TIMEBOX_SUBAGENTS): every subagent: 5m and 30 model calls.",
		});
		expect(await prompt("/timebox subagents", "p2")).toEqual({ decision: "block", reason: NO_SUBAGENT_BUDGET });
	});

	it("gives way to a budget set with /timebox subagents, which the session keeps", async () => {
		await prompt("/timebox subagents steps:10", "p1", "5m steps:30");
		expect(await prompt("/timebox subagents", "p2", "5m steps:30")).toEqual({
			decision: "block",
			reason: "Timebox: subagent budget (/timebox subagents): every subagent: 10 model calls.",
		});
	});

	it("is named when the session starts if it cannot be read, and gives no subagent a budget", async () => {
		expect(await start("5m turns:2")).toEqual({ systemMessage: TURNS_IN_IT });
		// Asked, it is named again: no subagent gets a budget, and not because none was set.
		expect(await prompt("/timebox subagents", "p1", "5m turns:2")).toEqual({ decision: "block", reason: TURNS_IN_IT });
		expect(await start("  ")).toEqual({});
	});
});

describe("TIMEBOX_SUBAGENTS in Codex CLI", () => {
	it("is shown by `timebox subagents` in Codex's words", async () => {
		const env = { HOME: dataDir, TIMEBOX_SUBAGENTS: "2m tokens:200k" };
		const payload = {
			session_id: "c1",
			hook_event_name: "UserPromptSubmit",
			turn_id: "t1",
			prompt: "timebox subagents",
		};
		const { stdout } = await runCli(["hook", "--host", "codex"], JSON.stringify(payload), env, deps());
		expect(JSON.parse(stdout)).toEqual({
			decision: "block",
			reason: "Timebox: subagent budget (TIMEBOX_SUBAGENTS): every subagent: 2m and 200k tokens.",
		});
	});
});

describe("a team's store on the hook hosts, with no TIMEBOX_DAILY", () => {
	const hook = async (env: NodeJS.ProcessEnv, prompt: string, turn: string) => {
		const payload = { session_id: "c1", hook_event_name: "UserPromptSubmit", turn_id: turn, prompt };
		const { stdout, stderr } = await runCli(
			["hook", "--host", "codex"],
			JSON.stringify(payload),
			{ HOME: dataDir, XDG_STATE_HOME: join(dataDir, "state"), ...env },
			deps(),
		);
		expect(stderr).toBe("");
		return stdout === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>);
	};
	const SPACE =
		'Timebox: TIMEBOX_TEAM "plat form" is not a team name (letters, digits, ".", "_", "-"). The daily budget is this machine\'s alone.';

	it("names a team name with a space once, lets the prompt through, and shows it for `timebox team`", async () => {
		const env = { TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1", TIMEBOX_TEAM: "plat form" };
		expect(await hook(env, "hello", "t1")).toEqual({ systemMessage: SPACE });
		expect(await hook(env, "timebox team", "t2")).toEqual({ decision: "block", reason: SPACE });
		// With no daily budget of its own, /timebox today says what is wrong with the team, not how to set one.
		expect(await hook(env, "timebox today", "t3")).toEqual({ decision: "block", reason: SPACE });
		// Neither a store nor a team: the daily budgets have nothing to say.
		expect(await hook({}, "timebox team", "t4")).toEqual({
			decision: "block",
			reason:
				"Timebox: no team is set here. A team shares one daily budget through a store: set TIMEBOX_DAILY_STORE and TIMEBOX_TEAM.",
		});
	});
});
