// The hook adapter as Claude Code's classic hooks run it, through its command line: `/timebox` typed in Claude Code
// (answered without a model call), the status line and setting it up.
// Fixtures and helpers: claude-hooks.ts.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runStatusLineCommand } from "../../../src/adapters/hooks/cli.ts";
import { USAGE } from "../../../src/core/index.ts";
import {
	base,
	CLASSIC,
	clock,
	dataDir,
	deps,
	ledgerDir,
	promptPayload,
	RAN,
	SPENT,
	shell,
	statusLine,
	submit,
	useClaudeHooks,
	wrappedCalls,
} from "./claude-hooks.ts";

useClaudeHooks();

describe("/timebox typed in Claude Code", () => {
	it("sets a budget and answers with decision block, so no model call happens", async () => {
		expect(await submit("/timebox 15m turns:3", "p0")).toEqual({
			decision: "block",
			reason: "Timebox set: 15m and 3 turns.",
		});
		expect(await statusLine()).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)\n");
	});

	it("accepts the namespaced form /timebox:timebox", async () => {
		expect(await submit("/timebox:timebox turns:2", "p0")).toEqual({
			decision: "block",
			reason: "Timebox set: 2 turns.",
		});
	});

	it("answers status and off without the usage, and bad input with it, changing nothing on bad input", async () => {
		expect(await submit("/timebox status", "p0")).toEqual({
			decision: "block",
			reason: `No active timebox.\nSet one with /timebox 15m turns:3.${CLASSIC}`,
		});
		await submit("/timebox 10m -- say done", "p1");
		expect(await submit("/timebox status", "p2")).toEqual({
			decision: "block",
			reason: `Timebox: 10m 0s left (10m budget) | no turn limit\nOn stop it runs: say done${CLASSIC}`,
		});
		expect(await submit("/timebox 15m turn:3", "p3")).toEqual({
			decision: "block",
			reason: `Timebox: "turn:3" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. Nothing changed.\n${USAGE}`,
		});
		expect(await statusLine()).toBe("Timebox: 10m 0s left (10m budget) | no turn limit\n");
		expect(await submit("/timebox off", "p4")).toEqual({ decision: "block", reason: "Timebox off." });
		expect(await submit("/timebox off", "p5")).toEqual({ decision: "block", reason: "No active timebox." });
		expect(await statusLine()).toBe("\n");
	});

	it("answers a bare /timebox with the usage", async () => {
		expect(await submit("/timebox", "p0")).toEqual({
			decision: "block",
			reason: `Timebox: No budget given. Nothing changed.\n${USAGE}`,
		});
	});

	it("says when a new budget replaces a running one", async () => {
		await submit("/timebox turns:2", "p0");
		expect(await submit("/timebox 5m", "p1")).toEqual({
			decision: "block",
			reason: "Timebox set: 5m. It replaces the previous budget.",
		});
		expect(await statusLine()).toBe("Timebox: 5m 0s left (5m budget) | no turn limit\n");
	});

	it("does not count /timebox lines as turns", async () => {
		await submit("/timebox turns:2", "p0");
		await submit("/timebox status", "p1");
		expect(await submit("first", "p2")).toEqual({});
		expect(await statusLine()).toBe("Timebox: no time limit | 1 turn left (1/2)\n");
	});

	it("does not count the prompt being answered in a /timebox status typed mid-turn", async () => {
		await submit("/timebox turns:3", "p0");
		await submit("one", "p1");
		expect(await submit("/timebox status", "p1")).toEqual({
			decision: "block",
			reason: `Timebox: no time limit | 3 turns left (0/3)${CLASSIC}`,
		});
		expect(await submit("/timebox status", "p2")).toEqual({
			decision: "block",
			reason: `Timebox: no time limit | 2 turns left (1/3)${CLASSIC}`,
		});
	});
});

describe("status line", () => {
	it("wraps the user's own status line command with the same stdin", async () => {
		await submit("/timebox turns:3", "p0");
		expect(await statusLine(["--wrap", "my-status"])).toBe(
			"main ~/project | Timebox: no time limit | 3 turns left (0/3)\n",
		);
		expect(wrappedCalls).toEqual([{ command: "my-status", stdin: JSON.stringify({ ...base, model: { id: "m" } }) }]);
	});

	it("reads the data folder from --data when the environment has none", async () => {
		await submit("/timebox turns:3", "p0");
		const result = await runCli(["statusline", "--data", dataDir], JSON.stringify(base), {}, deps());
		expect(result).toEqual({ stdout: "Timebox: no time limit | 3 turns left (0/3)\n", stderr: "" });
	});

	it("shows the budget spent at the deadline without claiming the stop or running anything", async () => {
		await submit("/timebox 30s -- lmk", "p0");
		clock.advance(24_000);
		expect(await statusLine()).toBe("Timebox: 6s left (30s budget) | no turn limit\n");
		clock.advance(7_000);
		expect(await statusLine()).toBe("Timebox: budget spent\n");
		expect(shell.ran).toEqual([]);
		expect(existsSync(ledgerDir())).toBe(false);
		expect(await submit("hello?", "p1")).toEqual({
			decision: "block",
			reason: `${SPENT("0 turns", "31s")}\n${RAN("lmk")}`,
		});
	});

	it("runs the user's status line command through /bin/sh with the given stdin", () => {
		expect(runStatusLineCommand("read line; printf 'got %s\\nsecond' \"$line\"", "hello\n")).toBe("got hello");
		expect(runStatusLineCommand("exit 3", "")).toBe("");
		expect(runStatusLineCommand("echo hi", "", "/nonexistent/shell")).toBe("");
	});
});

describe("setting up the status line from Claude Code, and a status line without --data", () => {
	it("answers /timebox statusline by merging the status line into the user's settings", async () => {
		const home = join(dataDir, "home");
		const env = { CLAUDE_PLUGIN_DATA: dataDir, CLAUDE_PLUGIN_ROOT: "/plugin/root", HOME: home };
		const { stdout } = await runCli(["hook"], JSON.stringify(promptPayload("/timebox statusline", "p1")), env, deps());
		expect(JSON.parse(stdout)).toEqual({
			decision: "block",
			reason: "Timebox's status line is set up: it shows the budget of each session.",
		});
		expect(JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")).statusLine.command).toBe(
			"node '/plugin/root/bin/timebox.mjs' statusline",
		);
		expect(await submit("/timebox statusline", "p2")).toEqual({
			decision: "block",
			reason: "Timebox: run the plugin's script with setup-statusline to set up the status line.",
		});
	});

	it("finds the data folder of a plugin installed from a marketplace for a status line call", async () => {
		const home = join(dataDir, "home");
		const data = join(home, ".claude", "plugins", "data", "timebox-timebox");
		await runCli(
			["hook"],
			JSON.stringify(promptPayload("/timebox turns:3", "p0")),
			{ CLAUDE_PLUGIN_DATA: data },
			deps(),
		);
		const { stdout } = await runCli(
			["statusline"],
			JSON.stringify({ ...base, model: { id: "m" } }),
			{ HOME: home },
			deps(),
		);
		expect(stdout).toBe("Timebox: no time limit | 3 turns left (0/3)\n");
	});
});
