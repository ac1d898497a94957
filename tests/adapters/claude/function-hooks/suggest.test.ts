// `/timebox suggest` and `TIMEBOX_DEFAULT=suggested` in Claude Code's hooks module, which has no Node to read files
// with: the plugin's hook script prints the past sessions of the session's folder (`report --suggest --json`), started
// with `$.process.run`; the session's entry keeps its folder, and with a default of `suggested` its prompts even before
// any budget, so that it counts in the next suggestion.

import { describe, expect, it } from "vitest";
import { SUGGEST_LINE } from "../../../../src/adapters/claude/function-hooks/suggestion.ts";
import type { PastSession } from "../../../../src/core/index.ts";
import { FakeClaude, settle } from "./fake-engine.ts";

const MINUTE = 60_000;

const FIVE: PastSession[] = [1, 2, 3, 4, 5].map((n) => ({
	id: `past-${n}`,
	host: "Claude Code",
	startedAt: n * 24 * 60 * MINUTE,
	endedAt: n * 24 * 60 * MINUTE + n * 6 * MINUTE,
	turns: n,
	steps: null,
	tokens: n * 30_000,
	cost: null,
}));

/** The hook script's answer: the sessions as `report --suggest --json` prints them. */
function printed(sessions: readonly PastSession[]) {
	return async () => ({ exitCode: 0, stdout: `${JSON.stringify({ sessions, current: null })}\n`, stderr: "" });
}

describe("/timebox suggest in Claude Code's hooks module", () => {
	it("asks the hook script for the session's folder's past sessions, and shows the suggestion, leaving itself out", async () => {
		const claude = new FakeClaude();
		await claude.start();
		const id = await claude.$.session.id();
		claude.$.runResults.push(printed([...FIVE, { ...(FIVE[0] as PastSession), id }]));
		const said = await claude.command("suggest");
		expect(claude.$.ran.at(-1)?.slice(0, 5)).toEqual(["sh", "-c", SUGGEST_LINE, "sh", "/work"]);
		expect(said).toContain("Timebox: your last 5 sessions here (5 Claude Code), median / 90th percentile:");
		expect(said).toContain("Try /timebox 30m turns:5 tokens:150k (the 90th percentile of your last 5 sessions here).");
		await settle();
	});

	it.each([
		[
			"the script fails",
			async () => ({ exitCode: 2, stdout: "", stderr: "the plugin folder is not known\nmore" }),
			"the plugin folder is not known",
		],
		[
			"the script fails silently",
			async () => ({ exitCode: 3, stdout: "", stderr: "" }),
			"the hook script exited with 3",
		],
		[
			"it prints no sessions",
			async () => ({ exitCode: 0, stdout: "{}", stderr: "" }),
			"the hook script printed no sessions",
		],
		[
			"it prints null",
			async () => ({ exitCode: 0, stdout: "null", stderr: "" }),
			"the hook script printed no sessions",
		],
	])("says why where %s", async (_, answer, why) => {
		const claude = new FakeClaude();
		await claude.start();
		claude.$.runResults.push(answer);
		expect(await claude.command("suggest")).toBe(`Timebox: your past sessions could not be read (${why}).`);
		await settle();
	});

	it("says why where Claude Code named no folder", async () => {
		const claude = new FakeClaude();
		await claude.command("status");
		expect(await claude.command("suggest")).toBe(
			"Timebox: your past sessions could not be read (Claude Code did not say which folder the session runs in).",
		);
		expect(claude.$.ran).toEqual([]);
	});
});

describe("TIMEBOX_DEFAULT=suggested in Claude Code's hooks module", () => {
	it("sets the suggested budget as the session opens, and keeps the session's folder with its entry", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DEFAULT", "suggested");
		claude.$.runResults.push(printed(FIVE));
		await claude.start();
		expect(claude.$.ran.at(-1)?.[2]).toBe(SUGGEST_LINE);
		expect(claude.$.logged.join("\n")).toContain(
			"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here): 30m and 5 turns and 150k tokens.",
		);
		await claude.prompt("hello");
		await settle();
		const entry = [...claude.$.values].find(([key]) => key.startsWith("session:"))?.[1] as { cwd?: string };
		expect(entry.cwd).toBe("/work");
	});

	it("keeps the prompts of a session that starts without a budget, so that it counts next time", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DEFAULT", "suggested");
		claude.$.runResults.push(printed(FIVE.slice(0, 1)));
		await claude.start();
		expect(claude.$.logged.join("\n")).toContain(
			"Timebox: TIMEBOX_DEFAULT (suggested): too little history to suggest a budget: 1 session of this project so far, and a suggestion needs 5. The session starts without a budget.",
		);
		await claude.prompt("hello");
		await settle();
		const entry = [...claude.$.values].find(([key]) => key.startsWith("session:"))?.[1] as {
			history: { kind: string }[];
			cwd?: string;
		};
		expect(entry.history.map((item) => item.kind)).toEqual(["prompt"]);
		expect(entry.cwd).toBe("/work");
	});
});
