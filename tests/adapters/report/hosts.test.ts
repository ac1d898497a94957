// `/timebox report page` on every host that writes one: pi and opencode through their live session, the hook hosts
// through the hook script, Claude Code's hooks module through the hook script it starts with `$.process.run`; each
// answers with the page's file:// link, or why it could not be written, and changes nothing of the budget.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pluginRoot, REPORT_LINE } from "../../../src/adapters/claude/function-hooks/report-page.ts";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { geminiCliHost } from "../../../src/adapters/gemini/hook-host.ts";
import type { ReportPageWriter } from "../../../src/adapters/report/writer.ts";
import {
	type DailyLedger,
	NO_ADJUSTMENT,
	type ReportPageInput,
	reportData,
	type TeamView,
	teamOfPage,
} from "../../../src/core/index.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { RecordingStarter } from "../../support/memory-host.ts";
import { FakeClaude, settle } from "../claude/function-hooks/fake-engine.ts";
import { createWorld, FakeOpencode, MAIN, removeWorld } from "../opencode/fake-opencode.ts";
import { FakePi } from "../pi/fake-pi.ts";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-report-hosts-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A writer that records what it was given and answers with a path of the session's id. */
function recording(): {
	write: ReportPageWriter;
	pages: { input: ReportPageInput; session: { id: string; host: string } }[];
} {
	const pages: { input: ReportPageInput; session: { id: string; host: string } }[] = [];
	return {
		pages,
		write: async (input, session) => {
			pages.push({ input, session });
			return `/tmp/reports/${session.id}.html`;
		},
	};
}

describe("/timebox report page on pi", () => {
	it("writes the session's page with its report and answers with its link; without a writer, says where to write one", async () => {
		const { write, pages } = recording();
		const pi = new FakePi();
		pi.reportPage = write;
		await pi.start();
		await pi.timebox("15m turns:3");
		await pi.timebox("report page");
		expect(pi.screen.messages().at(-1)).toBe(`Timebox report page: file:///tmp/reports/${pi.file.id}.html`);
		expect(pages[0]?.session).toEqual({ id: pi.file.id, host: "pi", project: "/nonexistent/project" });
		expect(pages[0]?.input.report.budgets[0]?.words).toBe("15m and 3 turns");
		const plain = await new FakePi().start();
		await plain.timebox("report page");
		expect(plain.screen.messages().at(-1)).toContain("npm run report");
	});
});

describe("/timebox report page of a session that counts in a team's store", () => {
	const TEAM = { name: "platform", zone: "UTC" };
	const VIEW: TeamView = {
		stored: { limits: { timeMs: null, turns: 200, tokens: null, cost: null }, setBy: "root@hq (codex)", setAt: 0 },
		asks: [
			{
				id: "1-s",
				member: "bob@desk (claude)",
				adjustment: { ...NO_ADJUSTMENT, addTimeMs: 30 * 60_000 },
				why: "the release needs a last test run",
				at: 0,
			},
		],
	};

	it("hands the page the team and its store's view, and nothing of a team that cannot be used or read", () => {
		const ledger = (team: DailyLedger["team"], view?: TeamView) =>
			({ team, ...(view ? { teamView: () => view } : {}) }) as unknown as DailyLedger;
		expect(teamOfPage(ledger(TEAM, VIEW))).toEqual({ team: TEAM, view: VIEW, unread: null });
		// Why today could not be read goes with it: the page says so, not an empty day.
		const unreadable = { ...ledger(TEAM, VIEW), dayUnread: () => "today's use could not be read (x)" } as DailyLedger;
		expect(teamOfPage(unreadable)).toEqual({ team: TEAM, view: VIEW, unread: "today's use could not be read (x)" });
		expect(teamOfPage(undefined)).toBeUndefined();
		expect(teamOfPage(ledger(undefined, VIEW))).toBeUndefined();
		expect(teamOfPage(ledger({ unusable: "Timebox: no." }, VIEW))).toBeUndefined();
		expect(teamOfPage(ledger(TEAM))).toBeUndefined();
	});

	it("shows the team's limits and its members' open requests, as npm run report does", async () => {
		const { writeHostPage } = await import("../../../src/entries/report/entry.ts");
		const out = join(dir, "page.html");
		const report = reportData([], () => ({ spent: null, off: false, nudged: false }), 0);
		writeHostPage(
			{ report, standings: [], team: { team: TEAM, view: VIEW } },
			{ env: { XDG_STATE_HOME: join(dir, "state"), HOME: dir }, now: 0, session: { id: "s", host: "pi" }, out },
		);
		const page = readFileSync(out, "utf8");
		expect(page).toContain("The team platform");
		expect(page).toContain("the release needs a last test run");
		expect(page).toContain("bob@desk (claude)");
		expect(page).toContain("root@hq (codex)");
		expect(page).toContain("No daily budget of the team covers this session today.");
		// A day that could not be read is said so on the page, never shown as an empty one.
		writeHostPage(
			{ report, standings: [], team: { team: TEAM, view: VIEW, unread: "today's use could not be read (ERR x)" } },
			{ env: { XDG_STATE_HOME: join(dir, "state"), HOME: dir }, now: 0, session: { id: "s", host: "pi" }, out },
		);
		const unread = readFileSync(out, "utf8");
		expect(unread).toContain(
			"Today&#39;s use could not be read (ERR x), so the team&#39;s standing today is not known.",
		);
		expect(unread).not.toContain("No daily budget of the team covers this session today.");
	});
});

describe("/timebox report page on opencode", () => {
	it("writes the session's page and answers with its link", async () => {
		const world = createWorld();
		try {
			const { write, pages } = recording();
			const opencode = await FakeOpencode.start(world, { interactive: true, reportPage: write });
			await opencode.timebox("report page");
			expect(opencode.shown.at(-1)).toEqual({
				message: `Timebox report page: file:///tmp/reports/${MAIN}.html`,
				level: "info",
			});
			expect(pages[0]?.session).toEqual({ id: MAIN, host: "opencode", project: null });
		} finally {
			removeWorld(world);
		}
	});
});

describe("/timebox report page on the hook hosts", () => {
	const time = new FakeTime();
	function deps(overrides: Partial<CliDeps> = {}): CliDeps {
		return {
			hosts: [claudeCodeHost, geminiCliHost],
			clock: time,
			onStop: new RecordingStarter(),
			runStatusLine: () => "",
			script: "/plugin/bin/timebox.mjs",
			startWatcher: () => {},
			entry: import.meta.url,
			importReport: () => import("../../../src/entries/report/entry.ts"),
			sleep: async () => {},
			...overrides,
		};
	}
	const prompt = (text: string, promptId: string) =>
		JSON.stringify({
			session_id: "hook-session",
			transcript_path: "/nonexistent",
			cwd: "/nonexistent",
			hook_event_name: "UserPromptSubmit",
			prompt: text,
			prompt_id: promptId,
		});

	it("writes the page through the hook script with today's standings, and blocks the line from the model", async () => {
		const { write, pages } = recording();
		const env = { CLAUDE_PLUGIN_DATA: dir, TIMEBOX_DAILY: "1h", XDG_STATE_HOME: join(dir, "state") };
		await runCli(["hook"], prompt("/timebox turns:2", "p1"), env, deps({ reportPage: write }));
		const { stdout } = await runCli(["hook"], prompt("/timebox report page", "p2"), env, deps({ reportPage: write }));
		expect(JSON.parse(stdout)).toMatchObject({
			decision: "block",
			reason: expect.stringContaining("Timebox report page: file:///tmp/reports/hook-session.html"),
		});
		expect(pages[0]?.session).toEqual({ id: "hook-session", host: "claude", project: "/nonexistent" });
		expect(pages[0]?.input.standings).toHaveLength(1);
		expect(pages[0]?.input.report.measured).toEqual({ tokens: true, cost: false });
		await runCli(
			["hook"],
			prompt("/timebox report page", "p3"),
			{ CLAUDE_PLUGIN_DATA: dir },
			deps({ reportPage: write }),
		);
		expect(pages[1]?.input.standings).toEqual([]);
		const none = await runCli(["hook"], prompt("/timebox report page", "p4"), { CLAUDE_PLUGIN_DATA: dir }, deps());
		expect(JSON.parse(none.stdout).reason).toContain("npm run report");
	});

	it("runs `report` from a terminal with its exit code, loading the page's code only then", async () => {
		const env = { HOME: join(dir, "home"), XDG_STATE_HOME: join(dir, "state") };
		const out = join(dir, "page.html");
		const done = await runCli(["report", "--out", out], "", env, deps());
		expect(done).toEqual({ stdout: `Timebox report page: file://${out}\n`, stderr: "", exitCode: 0 });
		expect(readFileSync(out, "utf8")).toContain("<!doctype html>");
		const failed = await runCli(["report", "--days", "0"], "", { HOME: join(dir, "home") }, deps());
		expect(failed.exitCode).toBe(1);
		expect(failed.stderr).toContain("--days takes a whole number");
	});
});

describe("/timebox report page in Claude Code's hooks module", () => {
	it("saves the session, starts the plugin's hook script for it, and answers with the page it wrote", async () => {
		const claude = new FakeClaude();
		await claude.start();
		await claude.command("turns:3");
		claude.$.runResults.push(async () => ({
			exitCode: 0,
			stdout: "Timebox report page: file:///tmp/a%20b.html\n",
			stderr: "",
		}));
		expect(await claude.command("report page")).toBe("Timebox report page: file:///tmp/a%20b.html");
		const ran = claude.$.ran.at(-1);
		expect(ran?.slice(0, 3)).toEqual(["sh", "-c", REPORT_LINE]);
		expect(ran?.[4]).toBe(await claude.$.session.id());
		// Where the engine sets no CLAUDE_PLUGIN_ROOT for the script, the module's own folder names the plugin's.
		expect(ran?.[5]).toBe(
			pluginRoot(new URL("../../../src/adapters/claude/function-hooks/report-page.ts", import.meta.url).href),
		);
		// The script read the session from the store: it was saved before the script started.
		expect([...claude.$.values.keys()].some((key) => key.startsWith("session:"))).toBe(true);
		await settle();
	});

	it("finds the plugin's folder from the module's own file, where the engine says it", () => {
		expect(pluginRoot("file:///home/u/my%20plugin/hooks/timebox-module.js")).toBe("/home/u/my plugin");
		expect(pluginRoot(undefined)).toBe("");
		expect(pluginRoot("blob:abc")).toBe("");
	});

	it("says why when the script fails or prints no page", async () => {
		const claude = new FakeClaude();
		await claude.start();
		claude.$.runResults.push(async () => ({ exitCode: 2, stdout: "", stderr: "the plugin folder is not known\nmore" }));
		expect(await claude.command("report page")).toBe(
			"Timebox: the report page could not be written (the plugin folder is not known).",
		);
		claude.$.runResults.push(async () => ({ exitCode: 0, stdout: "nothing", stderr: "" }));
		expect(await claude.command("report page")).toBe(
			"Timebox: the report page could not be written (the hook script exited with 0).",
		);
	});
});
