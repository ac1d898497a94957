// Setting up Timebox's status line in Claude Code's settings, and finding the plugin's data folder for a status line
// call: a status line the user has is never overwritten, only wrapped, and bad settings are left alone.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import {
	findDataDir,
	mergeStatusLine,
	setupStatusLine,
	statusLineCommand,
} from "../../../src/adapters/claude/setup.ts";
import { codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import { runCli } from "../../../src/entries/hook-cli.ts";

const SCRIPT = "/plugins/cache/timebox/timebox/0.1.0/bin/timebox.mjs";
let home: string;
beforeEach(() => {
	home = mkdtempSync(join(tmpdir(), "timebox-setup-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("merging the status line into the settings", () => {
	it("adds Timebox's status line to settings without one, keeping every other setting", () => {
		const merged = mergeStatusLine(JSON.stringify({ model: "opus", env: { A: "1" } }), SCRIPT);
		expect(JSON.parse(merged.text ?? "")).toEqual({
			model: "opus",
			env: { A: "1" },
			statusLine: { type: "command", command: `node '${SCRIPT}' statusline`, refreshInterval: 1 },
		});
		expect(merged.message).toBe("Timebox's status line is set up: it shows the budget of each session.");
		expect(JSON.parse(mergeStatusLine(null, SCRIPT).text ?? "")).toMatchObject({ statusLine: { type: "command" } });
		expect(JSON.parse(mergeStatusLine("  ", SCRIPT).text ?? "")).toMatchObject({ statusLine: { type: "command" } });
	});

	it("wraps a status line the user has, never replacing it, and changes nothing the second time", () => {
		const theirs = 'echo "it\'s $(whoami)"';
		const merged = mergeStatusLine(
			JSON.stringify({ statusLine: { type: "command", command: theirs, padding: 2 } }),
			SCRIPT,
		);
		const statusLine = JSON.parse(merged.text ?? "").statusLine;
		expect(statusLine).toEqual({
			type: "command",
			command: `node '${SCRIPT}' statusline --wrap 'echo "it'\\''s $(whoami)"'`,
			padding: 2,
			refreshInterval: 1,
		});
		expect(merged.message).toBe(
			"Timebox's status line is set up after yours: your status line comes first, then Timebox's.",
		);
		expect(mergeStatusLine(merged.text, SCRIPT)).toEqual({
			text: null,
			message: "Timebox's status line is already set up; nothing was changed.",
		});
		// Set up from either of the hook script's entries, the ES module or the CommonJS one the hook gate starts.
		const fromCommonJs = mergeStatusLine(null, SCRIPT.replace(/\.mjs$/, ".cjs")).text;
		expect(mergeStatusLine(fromCommonJs, SCRIPT)).toEqual({
			text: null,
			message: "Timebox's status line is already set up; nothing was changed.",
		});
	});

	it("leaves settings it cannot read alone", () => {
		expect(mergeStatusLine("{ not json", SCRIPT)).toEqual({
			text: null,
			message: "Timebox: the settings file is not valid JSON, so nothing was changed.",
		});
		expect(mergeStatusLine("[1]", SCRIPT).text).toBeNull();
	});

	it("writes the settings file, creating its folder, through the command line", async () => {
		const settings = join(home, ".claude", "settings.json");
		const deps = {
			hosts: [claudeCodeHost, geminiCliHost, codexCliHost],
			clock: { now: () => 0 },
			onStop: { start: () => {} },
			runStatusLine: () => "",
			script: SCRIPT,
			startWatcher: () => {},
			entry: import.meta.url,
			importReport: () => import("../../../src/entries/report/entry.ts"),
			sleep: async () => {},
		};
		const result = await runCli(["setup-statusline"], "", { HOME: home }, deps);
		expect(result).toEqual({
			stdout: "Timebox's status line is set up: it shows the budget of each session.\n",
			stderr: "",
		});
		expect(JSON.parse(readFileSync(settings, "utf8")).statusLine.command).toBe(statusLineCommand(SCRIPT, null));
		const elsewhere = join(home, "elsewhere.json");
		expect((await runCli(["setup-statusline", "--settings", elsewhere], "", {}, deps)).stdout).toMatch(/is set up/);
		expect(JSON.parse(readFileSync(elsewhere, "utf8")).statusLine.command).toBe(statusLineCommand(SCRIPT, null));
		writeFileSync(settings, "broken");
		expect(setupStatusLine(settings, SCRIPT)).toBe(
			"Timebox: the settings file is not valid JSON, so nothing was changed.",
		);
		expect(readFileSync(settings, "utf8")).toBe("broken");
	});
});

describe("finding the data folder of a status line call", () => {
	it("takes Timebox's folder that holds the session, else the only one, else none", () => {
		expect(findDataDir(home, "s1")).toBeNull();
		const data = join(home, ".claude", "plugins", "data");
		mkdirSync(join(data, "timebox-timebox", "sessions"), { recursive: true });
		mkdirSync(join(data, "other-plugin"), { recursive: true });
		expect(findDataDir(home, "s1")).toBe(join(data, "timebox-timebox"));
		mkdirSync(join(data, "timebox-inline", "sessions"), { recursive: true });
		expect(findDataDir(home, "s1")).toBeNull();
		writeFileSync(join(data, "timebox-inline", "sessions", "s1.jsonl"), "");
		expect(findDataDir(home, "s1")).toBe(join(data, "timebox-inline"));
	});
});
