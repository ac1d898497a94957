// The report page as written: its tables (the figures of /timebox report, with JavaScript off), its data and script
// inlined under a policy that allows them by hash only, the day's sessions and the last days read from the daily
// ledger's folders, every host's sessions found on disk, and `npm run report` with its options and its bad input.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ledgerView } from "../../../src/adapters/hooks/load.ts";
import {
	createDailyLedger,
	dailyStateDir,
	localDay,
	nodeDailyFiles,
	scopeFolder,
} from "../../../src/adapters/node/daily-ledger.ts";
import { createFileLedger } from "../../../src/adapters/node/file-ledger.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import { lastDays, sessionsOfDay, useOfDays } from "../../../src/adapters/report/day-use.ts";
import { dataScriptText, type PageData } from "../../../src/adapters/report/page-data.ts";
import { cspHash, PAGE_CSS, renderPage } from "../../../src/adapters/report/page-html.ts";
import { budgetEvents, clockTime, escapeHtml } from "../../../src/adapters/report/tables.ts";
import { teamSection } from "../../../src/adapters/report/team-section.ts";
import { defaultPagePath, pageData, writePageFile, writeReportPage } from "../../../src/adapters/report/write-page.ts";
import {
	type BudgetData,
	type DailyBudget,
	type DailyStanding,
	type HistoryItem,
	LEDGER_FOLDER,
	NO_ADJUSTMENT,
	NOTHING_RECORDED,
	type ReportData,
	reportData,
	teamTime,
	todayData,
} from "../../../src/core/index.ts";
import { MAX_PAGE_DAYS, REPORT_USAGE, readOptions, runReport } from "../../../src/entries/report/cli.ts";
import { allSessions, logSessions, moduleSessions, piBranch, piSessions } from "../../../src/entries/report/sources.ts";
import { nodeReportPageWriter } from "../../../src/entries/report/writer.ts";
import { MemoryStore, teamLedgerOn } from "../team/memory-store.ts";

const MINUTE = 60_000;
const NOW = new Date(2026, 10, 22, 15, 0, 0).getTime();
const START = NOW - 20 * MINUTE;
const clock = { now: () => NOW };
let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-report-"));
	env = { HOME: join(dir, "home"), XDG_STATE_HOME: join(dir, "state") };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ASSETS = { script: "window.drawn = 1;", css: ".u{}" };

function items(): HistoryItem[] {
	return [
		{
			kind: "record",
			record: {
				kind: "active",
				budget: {
					version: 2,
					id: "b1",
					timeLimitMs: 15 * MINUTE,
					turnLimit: 3,
					startTime: START,
					onStopCommand: "say <done>",
				},
			},
		},
		{ kind: "prompt", key: "p1", at: START + MINUTE },
		{ kind: "usage", tokens: 1_200, cost: 0.25, at: START + 2 * MINUTE },
		{
			kind: "record",
			record: {
				kind: "subagent",
				agent: {
					id: "a1",
					parent: null,
					agentType: "explore",
					task: "find <it>",
					budget: { timeLimitMs: MINUTE },
					startedAt: START + 3 * MINUTE,
					steps: 2,
					spend: { tokens: 10, cost: 0 },
					warned: false,
					told: true,
					spent: null,
					wrapUp: null,
					ended: "answered",
					closed: true,
					endedAt: START + 4 * MINUTE,
				},
			},
		},
		{
			kind: "record",
			record: {
				kind: "subagent",
				agent: {
					id: "a2",
					parent: "a1",
					agentType: "review",
					task: "look",
					budget: null,
					startedAt: START + 5 * MINUTE,
					steps: 1,
					spend: { tokens: 0, cost: 0 },
					warned: false,
					told: false,
					spent: null,
					wrapUp: null,
					ended: null,
					closed: false,
					endedAt: null,
				},
			},
		},
	];
}

const report = (): ReportData => reportData(items(), () => NOTHING_RECORDED, NOW);
const daily: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: 60 * MINUTE, turns: 10, tokens: 5_000, cost: 2 },
};
const standing = () => ({
	budget: daily,
	use: { agentMs: 30 * MINUTE, prompts: 3, tokens: 2_000, cost: 1, sessions: 2 },
	adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
	dayStart: NOW - 15 * 60 * MINUTE,
});

function page(overrides: Partial<PageData> = {}): PageData {
	return {
		writtenAt: NOW,
		session: { id: "s<1>", host: "pi" },
		report: report(),
		today: todayData(
			[standing()],
			[
				{ session: "s1", host: "pi", member: null, agentMs: 20 * MINUTE, prompts: 2, tokens: 1_500, cost: 0.75 },
				{ session: "s2", host: null, member: null, agentMs: 10 * MINUTE, prompts: 1, tokens: 500, cost: 0.25 },
			],
		),
		days: {
			limits: daily.limits,
			rows: [{ day: "2026-11-22", agentMs: 30 * MINUTE, prompts: 3, tokens: 2_000, cost: 1 }],
		},
		...overrides,
	};
}

/** The text of the page's tables, tags left out, as a reader with JavaScript off reads it. */
function text(html: string): string {
	return html
		.replace(/<script[\s\S]*?<\/script>/g, "")
		.replace(/<[^>]+>/g, " ")
		.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code)))
		.replace(/\s+/g, " ");
}

describe("the report page's HTML", () => {
	it("shows the figures of /timebox report in tables beside a chart for each part, escaped", () => {
		const html = renderPage(page(), ASSETS);
		const shown = text(html);
		expect(shown).toContain("Time 15m 0s 20m 0s 0s");
		expect(shown).toContain("Turns 3 1 2");
		expect(shown).toContain("Tokens – 1.2k –");
		expect(shown).toContain("Cost – $0.25 –");
		expect(shown).toContain("On-stop command: say <done>");
		expect(shown).toContain("find <it> (explore) 1m 14:43:00 1m 0s 2 10 $0.00 Answered.");
		expect(shown).toContain("none of its own");
		expect(shown).toContain("Agent time 1h 0m 30m 0s 30m 0s");
		// A time left counts up to the whole second, as /timebox today says it: a moment used leaves the whole hour.
		const moment = { ...standing(), use: { ...standing().use, agentMs: 500 } };
		expect(text(renderPage(page({ today: todayData([moment], []) }), ASSETS))).toContain("Agent time 1h 0m 0s 1h 0m");
		expect(shown).toContain("s2 – 10m 0s 1 500 $0.25");
		expect(shown).toContain("Daily limit 1h 0m 10 5k $2.00");
		expect(shown).toContain(report().text.split("\n")[1]);
		expect(html).toContain("Session s&#60;1&#62; on pi");
		for (const chart of ["budget", "subagents", "today", "days"]) expect(html).toContain(`data-chart="${chart}"`);
		expect(html).not.toContain("<done>");
	});

	it("allows its one script and style by hash under a policy that loads nothing, with the data in a JSON element", () => {
		const html = renderPage(page(), ASSETS);
		const style = `${ASSETS.css}\n${PAGE_CSS}`;
		expect(html).toContain(`script-src ${cspHash(ASSETS.script)}`);
		expect(html).toContain(`style-src ${cspHash(style)}`);
		expect(cspHash("a")).toBe(`'sha256-${createHash("sha256").update("a").digest("base64")}'`);
		expect(html).toContain("default-src 'none'");
		const json = /<script type="application\/json" id="timebox-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
		expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(page())));
		expect(html).not.toMatch(/\son[a-z]+=/);
	});

	it("keeps the data from closing its element", () => {
		const data = page({ session: { id: "</script><b>\u2028\u2029", host: "pi" } });
		const json = dataScriptText(data);
		expect(json).not.toContain("</script");
		expect(json).not.toMatch(/[\u2028\u2029]/);
		expect(JSON.parse(json)).toEqual(data);
	});

	it("says what is missing: no session, no subagents, nothing today, no daily budget, no days", () => {
		const bare = renderPage(
			page({ session: null, report: null, today: null, days: { limits: null, rows: [] } }),
			ASSETS,
		);
		expect(text(bare)).toContain("No session was found.");
		expect(text(bare)).toContain("Nothing was used today.");
		expect(bare).not.toContain('data-chart="days"');
		expect(bare).toContain("<title>Timebox report</title>");
		const sessionsOnly = todayData(
			[],
			[{ session: "s9", host: "gemini", member: null, agentMs: 0, prompts: 1, tokens: 0, cost: 0 }],
		);
		const noBudget = renderPage(page({ today: sessionsOnly, report: { ...report(), subagents: [] } }), ASSETS);
		expect(text(noBudget)).toContain("No daily budget is set.");
		expect(text(noBudget)).toContain("s9 gemini");
		expect(noBudget).not.toContain('data-chart="subagents"');
		const noSessions = renderPage(page({ today: todayData([], []) }), ASSETS);
		expect(noSessions).not.toContain("Today's sessions");
		const project = {
			...standing(),
			budget: {
				scope: "project:/p",
				source: "settings.json",
				limits: { timeMs: null, turns: 5, tokens: null, cost: null },
			},
		};
		const promptsOnly = text(renderPage(page({ today: todayData([project], []) }), ASSETS));
		expect(promptsOnly).toContain("This project (settings.json) Limit today Used Left Prompts 5 3 2");
		expect(promptsOnly).not.toContain("Agent time 1h");
		const oneDay = renderPage(page({ days: { limits: null, rows: page().days.rows } }), ASSETS);
		expect(text(oneDay)).toContain("The last day");
		expect(text(oneDay)).not.toContain("Daily limit");
	});

	it("shows a team's day by member, and a budget's pause, extensions, grace period and stop", () => {
		const team = todayData(
			[{ ...standing(), adjustment: { ...standing().adjustment, off: true } }],
			[
				{ session: "s1", host: "pi", member: "ana", agentMs: 1, prompts: 1, tokens: 1, cost: 1 },
				{ session: "s2", host: "claude", member: null, agentMs: 1, prompts: 1, tokens: 1, cost: 1 },
			],
		);
		const html = renderPage(page({ today: team }), ASSETS);
		expect(text(html)).toContain("Session Member Host");
		expect(text(html)).toContain("s1 ana pi");
		expect(text(html)).toContain("s2 – claude");
		expect(text(html)).toContain("off until midnight");
		expect(html).toContain("stacked by member");
		const base = report().budgets[0] as BudgetData;
		const budget: BudgetData = {
			...base,
			limits: { ...base.limits, steps: 4, loop: 3, tokens: 2_000, cost: 1 },
			extensions: 2,
			pausedMs: MINUTE,
			pausedAt: START + 6 * MINUTE,
			graceMs: 30_000,
			onStopCommand: null,
			ending: { kind: "spent", text: "Spent: the time ran out." },
		};
		const shown = text(
			renderPage(page({ report: { ...report(), budgets: [budget, { ...budget, extensions: 1 }] } }), ASSETS),
		);
		for (const line of [
			"Extended 2 times.",
			"Extended once.",
			"Paused for 1m 0s in all.",
			"Grace period: 30s.",
			"No on-stop command.",
			"Model calls per turn 4",
			"Identical tool calls per run (loop guard) 3",
			"Tokens 2k 1.2k 800",
		]) {
			expect(shown).toContain(line);
		}
		expect(budgetEvents(budget).map((event) => event.what)).toEqual([
			"Budget set: 15m and 3 turns",
			"Turn 1",
			"Paused",
			"80% of the time used",
			"95% of the time used",
			"Spent: the time ran out.",
		]);
		const unmeasured = renderPage(page({ report: { ...report(), measured: { tokens: false, cost: false } } }), ASSETS);
		expect(text(unmeasured)).not.toContain("Tokens – 1.2k");
		expect(text(unmeasured)).not.toContain("Cost – $0.25");
	});

	it("writes times of day and escapes every character HTML reads", () => {
		expect(clockTime(new Date(2026, 0, 1, 9, 5, 7).getTime())).toBe("09:05:07");
		expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
	});
});

function dayFolder(scope: string, day: string): string {
	const folder = join(dailyStateDir(env), "daily", scopeFolder(scope), day);
	mkdirSync(folder, { recursive: true });
	return folder;
}

describe("the day's sessions and the last days, from the daily ledger's folders", () => {
	it("gives each session its share of the day, by the same files the ledger writes, and a team member's name", () => {
		const a = createDailyLedger(dailyStateDir(env), "s-a", clock);
		const b = createDailyLedger(dailyStateDir(env), "s-b", clock);
		a.countPrompt([daily], [10]);
		b.countPrompt([daily], [10]);
		a.countPrompt([daily], [10]);
		a.addUse([daily], { agentMs: MINUTE, tokens: 100, cost: 0.5 });
		b.addUse([daily], { agentMs: 2 * MINUTE });
		const folder = join(dailyStateDir(env), "daily", "user", localDay(NOW));
		writeFileSync(
			join(folder, "use.jsonl"),
			`${readFileSync(join(folder, "use.jsonl"), "utf8")}{"session":"s-c","member":"ana","tokens":-5}\nnot json\n5\n{"agentMs":3}\n`,
		);
		writeFileSync(join(folder, "prompt-99"), "torn");
		writeFileSync(join(folder, "prompt-100"), "");
		const sessions = sessionsOfDay(nodeDailyFiles, folder, (id) => (id === "s-a" ? "pi" : null));
		expect(sessions).toEqual([
			{ session: "s-a", host: "pi", member: null, agentMs: MINUTE, prompts: 2, tokens: 100, cost: 0.5 },
			{ session: "s-b", host: null, member: null, agentMs: 2 * MINUTE, prompts: 1, tokens: 0, cost: 0 },
			{ session: "s-c", host: null, member: "ana", agentMs: 0, prompts: 0, tokens: 0, cost: 0 },
		]);
		expect(sessionsOfDay(nodeDailyFiles, join(dir, "missing"), () => null)).toEqual([]);
	});

	it("adds up each of the last days, a day with no folder as nothing used", () => {
		const today = localDay(NOW);
		writeFileSync(join(dayFolder("user", today), "use.jsonl"), '{"session":"x","agentMs":60000,"tokens":5,"cost":1}\n');
		const days = lastDays(NOW, 3, localDay);
		expect(days).toHaveLength(3);
		expect(days[2]).toBe(today);
		expect(useOfDays(nodeDailyFiles, join(dailyStateDir(env), "daily", "user"), days)).toEqual([
			{ day: days[0], agentMs: 0, prompts: 0, tokens: 0, cost: 0 },
			{ day: days[1], agentMs: 0, prompts: 0, tokens: 0, cost: 0 },
			{ day: today, agentMs: MINUTE, prompts: 0, tokens: 5, cost: 1 },
		]);
	});
});

describe("writing a page", () => {
	it("writes the session's page under the state folder, with today's sessions and the last days of its budget's scope", () => {
		const ledger = createDailyLedger(dailyStateDir(env), "s1", clock);
		ledger.countPrompt([daily], [10]);
		const input = { report: report(), standings: [standing()] };
		const path = writeReportPage(input, { env, now: NOW, session: { id: "s1/../x", host: "pi" } });
		expect(path).toBe(join(dailyStateDir(env), "reports", "s1_.._x.html"));
		expect(readFileSync(path, "utf8")).toContain("<!doctype html>");
		const data = pageData(input, { env, now: NOW, session: { id: "s1", host: "pi" } });
		expect(data.today?.sessions).toEqual([
			{ session: "s1", host: "pi", member: null, agentMs: 0, prompts: 1, tokens: 0, cost: 0 },
		]);
		expect(data.days.rows).toHaveLength(7);
		expect(data.days.limits).toEqual(daily.limits);
	});

	it("shows the user's days with no daily budget, names hosts it is told of, and writes where it is told", () => {
		createDailyLedger(dailyStateDir(env), "other", clock).countPrompt([daily], [10]);
		const data = pageData(
			{ report: null, standings: [] },
			{ env, now: NOW, session: null, hostOf: () => "codex", days: 2 },
		);
		expect(data.today?.sessions[0]?.host).toBe("codex");
		expect(data.today?.budgets).toEqual([]);
		expect(data.days).toMatchObject({ limits: null });
		expect(data.days.rows).toHaveLength(2);
		const quiet = pageData(
			{ report: null, standings: [] },
			{ env: { XDG_STATE_HOME: join(dir, "empty") }, now: NOW, session: null },
		);
		expect(quiet.today).toBeNull();
		const out = join(dir, "out", "page.html");
		expect(writeReportPage({ report: null, standings: [] }, { env, now: NOW, session: null, out })).toBe(out);
		expect(defaultPagePath(env, null)).toBe(join(dailyStateDir(env), "reports", "timebox.html"));
		expect(writePageFile(page(), join(dir, "p.html"))).toBe(join(dir, "p.html"));
		expect(writeReportPage({ report: null, standings: [] }, { env, now: NOW, session: null })).toBe(
			defaultPagePath(env, null),
		);
	});

	it("loads the page's code only when a page is asked for, and writes it", async () => {
		let loads = 0;
		const write = nodeReportPageWriter(env, clock, () => {
			loads++;
			return import("../../../src/entries/report/entry.ts");
		});
		expect(loads).toBe(0);
		const path = await write({ report: report(), standings: [] }, { id: "s7", host: "opencode" });
		expect(loads).toBe(1);
		expect(path).toBe(join(dailyStateDir(env), "reports", "s7.html"));
		expect(readFileSync(path, "utf8")).toContain("Session s7 on opencode");
	});
});

/** A pi session file: its header, then entries, each the child of the one before. */
function piFile(
	agentDir: string,
	name: string,
	entries: Record<string, unknown>[],
	header: Record<string, unknown> | null,
): string {
	const folder = join(agentDir, "sessions", "--work--");
	mkdirSync(folder, { recursive: true });
	const path = join(folder, name);
	const lines = [...(header ? [header] : []), ...entries].map((line) => JSON.stringify(line));
	writeFileSync(path, `${lines.join("\n")}\n`);
	return path;
}

const user = (id: string, parentId: string | null, text: string, timestamp: number) => ({
	type: "message",
	id,
	parentId,
	message: { role: "user", content: text, timestamp },
});

describe("every host's sessions on the machine", () => {
	it("reads pi's session files on the branch of their last entry, under PI_CODING_AGENT_DIR when it is set", () => {
		const agentDir = join(dir, "pi-agent");
		const budget = {
			version: 2,
			id: "pb",
			timeLimitMs: null,
			turnLimit: 2,
			startTime: START,
			startTurn: 0,
			softNudgeSent: false,
			active: true,
			onStopCommand: null,
		};
		piFile(
			agentDir,
			"2026_abc.jsonl",
			[
				{ type: "custom", customType: "timebox-active", id: "e1", parentId: null, data: budget },
				user("e2", "e1", "left behind", START + 1),
				user("e3", "e1", "kept", START + 2),
			],
			{ type: "session", id: "pi-session" },
		);
		piFile(agentDir, "2026_noheader.jsonl", [user("f1", null, "hi", START)], null);
		const emptyFile = piFile(agentDir, "2026_empty.jsonl", [], null);
		writeFileSync(emptyFile, "5\nnull\n");
		const sessions = piSessions(agentDir);
		const found = sessions.find((session) => session.id === "pi-session");
		expect(found?.history()).toEqual([
			{ kind: "record", record: { kind: "active", budget } },
			{ kind: "prompt", key: expect.stringContaining("kept"), at: START + 2 },
		]);
		expect(
			found?.ledger(
				reportData(found.history(), () => NOTHING_RECORDED, NOW).budgets[0] ? { ...budget, id: "pb" } : budget,
			),
		).toEqual(NOTHING_RECORDED);
		expect(sessions.map((session) => session.id).sort()).toEqual(["empty", "noheader", "pi-session"]);
		const all = allSessions({ ...env, PI_CODING_AGENT_DIR: agentDir }, join(dir, "home"));
		expect(all.map((session) => session.host)).toEqual(["pi", "pi", "pi"]);
	});

	it("follows a branch no further than its entries, whatever loop their parents make", () => {
		const looped = [
			{ type: "message", id: "a", parentId: "b" },
			{ type: "message", id: "b", parentId: "a" },
		];
		expect(piBranch(looped)).toHaveLength(3);
		expect(piBranch([])).toEqual([]);
	});

	it("reads the hook hosts' and opencode's session logs, and the hooks module's store, each with its ledger", () => {
		const home = join(dir, "home");
		const claudeData = join(home, ".claude", "plugins", "data", "timebox-inline");
		const log = new SessionLog(claudeData, "claude-1");
		log.append({
			kind: "active",
			budget: { version: 2, id: "cb", timeLimitMs: null, turnLimit: 1, startTime: START, onStopCommand: null },
		});
		log.appendPrompt("p1", START + 1);
		createFileLedger(join(claudeData, LEDGER_FOLDER)).claim({ kind: "off", budgetId: "cb" });
		new SessionLog(join(home, ".gemini", "timebox"), "gemini-1").appendPrompt("p", START);
		new SessionLog(join(dir, "codex-home", "timebox"), "codex-1").appendPrompt("p", START);
		new SessionLog(join(dailyStateDir(env), "opencode"), "opencode-1").appendPrompt("p", START);
		const store = join(home, ".claude", "plugins", "store");
		mkdirSync(store, { recursive: true });
		const claims = [
			{ kind: "spent", budgetId: "mb", summary: { usedTurns: 1, elapsedMs: 5, timeRanOut: true }, prompt: null },
		];
		writeFileSync(
			join(store, "timebox_x.json"),
			JSON.stringify({ "session:module-1": { history: [{ kind: "prompt", key: "k" }], claims }, sessions: {} }),
		);
		writeFileSync(join(store, "timebox_bad.json"), "{");
		writeFileSync(join(store, "timebox_null.json"), "null");
		writeFileSync(join(store, "other_plugin.json"), JSON.stringify({ "session:not-ours": {} }));
		const found = allSessions({ ...env, CODEX_HOME: join(dir, "codex-home") }, home);
		expect(found.map((session) => `${session.host}:${session.id}`).sort()).toEqual([
			"claude:claude-1",
			"claude:module-1",
			"codex:codex-1",
			"gemini:gemini-1",
			"opencode:opencode-1",
		]);
		const claude = found.find((session) => session.id === "claude-1");
		expect(claude?.history()).toHaveLength(2);
		expect(claude?.terms.cost).toBe(false);
		const files = { store: log, ledger: createFileLedger(join(claudeData, LEDGER_FOLDER)) };
		const budget = {
			id: "cb",
			timeLimitMs: null,
			turnLimit: 1,
			startTime: START,
			startTurn: 0,
			softNudgeSent: false,
			active: true,
			onStopCommand: null,
		};
		expect(claude?.ledger(budget)).toEqual(ledgerView(budget, files));
		const module = moduleSessions(store)[0];
		expect(module?.history()).toEqual([{ kind: "prompt", key: "k" }]);
		expect(module?.ledger({ ...budget, id: "mb" }).spent).toMatchObject({ timeRanOut: true });
		expect(logSessions(join(dir, "nowhere"), "gemini", found[0]?.terms ?? ({} as never))).toEqual([]);
		const named = allSessions({ ...env, CLAUDE_PLUGIN_DATA: claudeData }, home);
		expect(
			named
				.filter((session) => session.host === "claude")
				.map((session) => session.id)
				.sort(),
		).toEqual(["claude-1", "module-1"]);
	});

	it("lists the sessions newest first", () => {
		const data = join(dir, "home", ".gemini", "timebox");
		new SessionLog(data, "old").appendPrompt("p", START);
		new SessionLog(data, "new").appendPrompt("p", START);
		utimesSync(join(data, "sessions", "old.jsonl"), new Date(START), new Date(START));
		expect(allSessions(env, join(dir, "home")).map((session) => session.id)).toEqual(["new", "old"]);
	});
});

describe("npm run report", () => {
	it("reads its options, and says what is wrong with bad ones", () => {
		expect(readOptions([])).toEqual({ session: null, days: 7, out: null, daily: null });
		expect(readOptions(["--session", "s", "--days", "30", "--out", "o.html", "--daily", "1h"])).toEqual({
			session: "s",
			days: 30,
			// From the folder it is typed in: the link printed is the page's.
			out: resolve("o.html"),
			daily: "1h",
		});
		expect(readOptions(["--out", "/tmp/r.html"])).toMatchObject({ out: "/tmp/r.html" });
		expect(readOptions(["--days"])).toEqual({ problem: "--days needs a value." });
		expect(readOptions(["--out", "--days"])).toEqual({ problem: "--out needs a value." });
		expect(readOptions(["--days", "0"])).toEqual({
			problem: `--days takes a whole number from 1 to ${MAX_PAGE_DAYS}, not "0".`,
		});
		expect(readOptions(["--days", "2.5"])).toHaveProperty("problem");
		expect(readOptions(["--days", "91"])).toHaveProperty("problem");
		expect(readOptions(["--colour", "red"])).toEqual({ problem: '"--colour" is not an option.' });
	});

	it("answers --help and -h with its usage, writing no page", () => {
		const home = join(dir, "home");
		for (const help of [["--help"], ["-h"], ["--days", "3", "--help"]]) {
			expect(runReport(help, { HOME: home }, home, { now: () => START })).toEqual({
				stdout: `${REPORT_USAGE}\n`,
				stderr: "",
				failed: false,
			});
		}
		expect(existsSync(join(home, ".local"))).toBe(false);
	});

	it("writes the latest session's page, or a named one's, with the daily budget of TIMEBOX_DAILY or --daily", () => {
		const home = join(dir, "home");
		const data = join(home, ".gemini", "timebox");
		const log = new SessionLog(data, "g-1");
		log.append({
			kind: "active",
			budget: { version: 2, id: "gb", timeLimitMs: null, turnLimit: 2, startTime: START, onStopCommand: null },
		});
		log.appendPrompt("p1", START + MINUTE);
		const out = join(dir, "g.html");
		const named = runReport(["--session", "g-1", "--out", out], { ...env, TIMEBOX_DAILY: "1h turns:10" }, home, clock);
		expect(named).toEqual({ stdout: `Timebox report page: file://${out}\n`, stderr: "", failed: false });
		const html = readFileSync(out, "utf8");
		expect(html).toContain("Session g-1 on gemini");
		expect(text(html)).toContain("Every session (TIMEBOX_DAILY)");
		const latest = runReport(["--daily", "2h"], env, home, clock);
		expect(latest.stdout).toContain(`file://${join(dailyStateDir(env), "reports", "g-1.html")}`);
		expect(text(readFileSync(join(dailyStateDir(env), "reports", "g-1.html"), "utf8"))).toContain(
			"Every session (--daily)",
		);
	});

	it("writes the days alone where no session is found, and refuses what it cannot do, writing nothing", () => {
		const home = join(dir, "home");
		createDailyLedger(dailyStateDir(env), "unknown-session", clock).countPrompt([daily], [10]);
		expect(runReport([], env, home, clock).stdout).toContain("timebox.html");
		const shown = text(readFileSync(join(dailyStateDir(env), "reports", "timebox.html"), "utf8"));
		expect(shown).toContain("unknown-session – 0s 1");
		const missing = runReport(["--session", "nope"], env, home, clock);
		expect(missing).toMatchObject({ failed: true, stdout: "" });
		expect(missing.stderr).toContain('no session "nope" was found');
		// With --or-day (Claude Code's hooks module, whose session keeps nothing before a budget): the day alone, named as
		// the session's page.
		const day = runReport(["--session", "nope", "--or-day"], env, home, clock);
		expect(day).toMatchObject({ failed: false, stderr: "" });
		expect(day.stdout).toContain(join(dailyStateDir(env), "reports", "nope.html"));
		expect(text(readFileSync(join(dailyStateDir(env), "reports", "nope.html"), "utf8"))).toContain(
			"unknown-session – 0s 1",
		);
		expect(runReport(["--or-day"], env, home, clock).stderr).toContain("--or-day goes with --session.");
		expect(runReport(["--daily", "15m -- say hi"], env, home, clock).stderr).toContain("a daily budget takes");
		expect(runReport(["--days", "x"], env, home, clock).failed).toBe(true);
	});

	it("shows a team's day from the team's store, by member, with the days it keeps and a note of those it does not", () => {
		const home = join(dir, "home");
		const store = new MemoryStore(clock);
		const teamState = join(dir, "team-state");
		const ann = teamLedgerOn(store, teamState, "s1", clock);
		ann.countPrompt([daily], [10]);
		ann.addUse([daily], { agentMs: 20 * MINUTE, tokens: 4_000, cost: 1.5 });
		teamLedgerOn(store, teamState, "s2", clock, { member: "bob@m2 (codex)" }).countPrompt([daily], [10]);
		// A session of this machine's own ledger is not the team's: it is not shown.
		createDailyLedger(dailyStateDir(env), "mine", clock).countPrompt([daily], [10]);
		const out = join(dir, "team.html");
		const opened: string[] = [];
		const result = runReport(
			["--out", out, "--days", "5"],
			{ ...env, TIMEBOX_DAILY: "1h turns:10" },
			home,
			clock,
			(given) => {
				opened.push(given.XDG_STATE_HOME ?? "");
				return teamLedgerOn(store, teamState, "report", clock);
			},
		);
		expect(result).toEqual({ stdout: `Timebox report page: file://${out}\n`, stderr: "", failed: false });
		expect(opened).toEqual([join(dir, "state")]);
		const html = readFileSync(out, "utf8");
		const shown = text(html);
		expect(shown).toContain("The team platform (TIMEBOX_DAILY)");
		expect(shown).toContain("Prompts 10 2 8");
		expect(shown).toContain("Today's members Member Sessions ann@m1 (pi) 1 bob@m2 (codex) 1");
		expect(shown).not.toContain("mine");
		expect(shown).toContain(
			"Use per day Day Agent time Prompts Tokens Cost 2026-11-21 0s 0 0 $0.00 2026-11-22 20m 0s 2",
		);
		expect(shown).toContain("the 3 days before yesterday are not kept, so not shown.");
		expect(html).toContain('data-chart="days"');
		// The store down: said, and the page has today's figures from this machine, and no days of the team's.
		store.down = "connect ECONNREFUSED";
		const down = runReport(["--out", out], { ...env, TIMEBOX_DAILY: "1h turns:10" }, home, clock, () =>
			teamLedgerOn(store, teamState, "report", clock),
		);
		expect(down.stderr).toContain("the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached");
		expect(down.failed).toBe(false);
		const downHtml = readFileSync(out, "utf8");
		expect(downHtml).not.toContain('data-chart="days"');
		expect(text(downHtml)).toContain("The last days");
	});

	it("shows the limits the admin keeps in the team's store, who set them and when, and the open requests", () => {
		const home = join(dir, "home");
		const store = new MemoryStore(clock);
		const teamState = join(dir, "team-state");
		const admin = teamLedgerOn(store, teamState, "s-admin", clock, { member: "root@hq (codex)" });
		const open = () => teamLedgerOn(store, teamState, "report", clock);
		const out = join(dir, "store.html");
		// No limits in the store, and no daily budget given: the page says so, and lists no request.
		expect(runReport(["--out", out], env, home, clock, open).failed).toBe(false);
		expect(text(readFileSync(out, "utf8"))).toContain(
			"The team platform Its store keeps no limits: each machine's TIMEBOX_DAILY is the team's. No open requests.",
		);
		admin.setTeamLimits({ timeMs: 4 * 60 * MINUTE, turns: 200, tokens: 2_000_000, cost: 50 });
		teamLedgerOn(store, teamState, "s-bob", clock, { member: "bob@m2 (claude)" }).askTeam(
			{ ...NO_ADJUSTMENT, addTimeMs: 30 * MINUTE },
			"a <release> to finish",
		);
		admin.countPrompt(
			admin.standings([]).map((standing) => standing.budget),
			[200],
		);
		expect(runReport(["--out", out], env, home, clock, open)).toMatchObject({ stderr: "", failed: false });
		const html = readFileSync(out, "utf8");
		const shown = text(html);
		expect(shown).toContain(
			`The team's limits, a day Limit Value Agent time 4h 0m Turns 200 Tokens 2m Cost $50.00 Set by root@hq (codex) Set on ${teamTime(NOW)}`,
		);
		expect(shown).toContain(
			`Open requests Asked Member For Why ${teamTime(NOW)} bob@m2 (claude) 30m of agent time a <release> to finish`,
		);
		expect(html).toContain("a &#60;release&#62; to finish");
		expect(shown).toContain(
			"The team platform (set in its store): 0s of 4h of agent time used, 4h 0m left; 1 of 200 turns used",
		);
		expect(shown).toContain("What /timebox team says Timebox team platform: 4h of agent time and 200 turns");
		// Only the limits the admin set are shown.
		expect(
			text(
				teamSection({
					name: "platform",
					stored: { limits: { timeMs: null, turns: null, tokens: null, cost: 9 }, setBy: "x", setAt: 0 },
					asks: [],
					text: "",
				}),
			),
		).toContain("Limit Value Cost $9.00 Set by x Set on 1970-01-01 00:00 UTC");
		const turns = { limits: { timeMs: null, turns: 3, tokens: null, cost: null }, setBy: "x", setAt: 0 };
		expect(text(teamSection({ name: "platform", stored: turns, asks: [], text: "" }))).toContain(
			"Value Turns 3 Set by",
		);
		// A store that cannot be read shows no team's section, and says why.
		store.down = "connect ECONNREFUSED";
		const down = runReport(["--out", out], env, home, clock, open);
		expect(down.stderr).toContain("cannot be reached");
		expect(readFileSync(out, "utf8")).not.toContain('id="team"');
	});

	it("says where a live host's page leaves a team's last days, and which days a short range shows", () => {
		const team = { ...daily, team: { name: "platform", zone: "UTC" } };
		const standing: DailyStanding = {
			budget: team,
			use: { agentMs: 0, prompts: 1, tokens: 0, cost: 0, sessions: 1, members: [{ name: "ann@m1 (pi)", sessions: 1 }] },
			adjustment: NO_ADJUSTMENT,
			dayStart: NOW - MINUTE,
		};
		const live = pageData({ report: null, standings: [standing] }, { env, now: NOW, session: null });
		expect(live.today?.sessions).toEqual([]);
		expect(live.days).toEqual({
			limits: team.limits,
			rows: [],
			note: "The team platform's last days are shown by npm run report, which reads them from the team's store.",
		});
		const short = pageData(
			{ report: null, standings: [standing] },
			{ env, now: NOW, session: null, days: 2, teamDays: () => [] },
		);
		expect(short.days.note).toBe("The team platform's days, as its store keeps them.");
	});
});
