// The report page in a real browser (the system's Chromium, headless, driven by playwright-core; nothing downloads a
// browser), on pages written from real sessions: pi with a subagent (`/timebox report page` in pi itself), Claude Code
// on its hooks module, a team's day from the daily ledger, and a team's day kept in a real Redis (`npm run report`). Each page draws every chart, logs no
// error, loads nothing, shows the figures `/timebox report` printed, and keeps its tables with JavaScript off. A
// screenshot of each is kept under reports/.

import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeChat } from "../../demo/fakes/chat.ts";
import { DAILY_ENV, parseDailyBudget } from "../../src/core/index.ts";
import { openDailyLedger } from "../../src/entries/daily-ledgers.ts";
import { runProcess } from "../support/processes.ts";
import { createSandbox, ensureClaudeCode, FakeAnthropic, PLUGIN_DIR, runClaude } from "./claude/support/claude.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "./opencode/support.ts";
import { BUNDLED_PI } from "./support/pi-hosts.ts";
import { PiProcess } from "./support/pi-process.ts";
import { PACKAGE_ENTRY, RedisServer } from "./support/redis.ts";

const REPO = resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.TIMEBOX_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = join(REPO, "reports");
const SCRIPT = join(REPO, "plugins/claude-code/bin/timebox.mjs");
const SUBAGENT_EXAMPLE = join(BUNDLED_PI.cli, "../../examples/extensions/subagent");
/** Timebox's extension from the source: its entry, which runs extension.ts itself. */
const TIMEBOX_ENTRY = join(REPO, "src/entries/pi/timebox/index.ts");
const SCRIPTED_MODEL_FILE = join(REPO, "tests/e2e/support/scripted-model.ts");

let browser: Browser;

beforeAll(async () => {
	mkdirSync(SHOTS, { recursive: true });
	// Each launch has a fresh profile of its own, which playwright removes at close.
	browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			"--no-first-run",
		],
	});
}, 60_000);

afterAll(async () => {
	await browser?.close();
});

/** The `file://` link a reply names, as a path. */
function pathOf(text: string): string {
	const link = /file:\/\/(\S+\.html)/.exec(text);
	if (!link?.[1]) throw new Error(`no page link in: ${text}`);
	return decodeURIComponent(link[1]);
}

/**
 * A report's text with its moving figures left out: how long ago each budget was set, and the time an active one and a
 * running subagent used so far (the page and the printed report were made seconds apart).
 */
const steady = (text: string) =>
	text
		.replace(/set (\d+[hms] ?)+ago/g, "set … ago")
		.replace(/used (\d+[hms] ?)+,/g, "used …,")
		.trim();

interface Looked {
	errors: string[];
	requests: string[];
	charts: { name: string; drawn: boolean }[];
	reportText: string;
	/** The "Used" column of each budget's figures table: time, turns, tokens, cost where shown. */
	used: Record<string, string>[];
	loadMs: number;
}

/** Opens a page with JavaScript on, as a user does, and reads what it drew and what it shows. */
async function look(path: string, shot: string): Promise<Looked> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const page = await context.newPage();
	const errors: string[] = [];
	const requests: string[] = [];
	page.on("console", (message) => {
		if (message.type() === "error") errors.push(message.text());
	});
	page.on("pageerror", (error) => errors.push(error.message));
	await page.route("**/*", (route) => {
		const url = route.request().url();
		if (url === `file://${path}`) return route.continue();
		requests.push(url);
		return route.abort();
	});
	const started = Date.now();
	await page.goto(`file://${path}`, { waitUntil: "load" });
	const loadMs = Date.now() - started;
	const charts = await page.$$eval("figure[data-chart]", (figures) =>
		figures.map((figure) => {
			const canvas = figure.querySelector("canvas");
			let drawn = false;
			if (canvas && canvas.width > 0 && canvas.height > 0) {
				const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
				for (let index = 3; index < pixels.length; index += 4) {
					if ((pixels[index] ?? 0) > 0) {
						drawn = true;
						break;
					}
				}
			}
			return { name: `${(figure as HTMLElement).dataset.chart}-${(figure as HTMLElement).dataset.index}`, drawn };
		}),
	);
	const shown = page.locator("#session pre.report");
	const reportText = (await shown.count()) === 0 ? "" : ((await shown.textContent()) ?? "");
	const used = await page.$$eval("#session table:has(caption:text-matches('^Budget'))", (tables) =>
		tables.map((table) => {
			const rows: Record<string, string> = {};
			for (const row of table.querySelectorAll("tbody tr")) {
				const cells = [...row.children].map((cell) => cell.textContent ?? "");
				rows[cells[0] ?? ""] = cells[2] ?? "";
			}
			return rows;
		}),
	);
	await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
	// The top of the page, as the docs show it (docs/images/report-page.png is a copy of the pi one).
	await page.screenshot({
		path: join(SHOTS, shot.replace(/\.png$/, "-top.png")),
		clip: { x: 0, y: 0, width: 1280, height: 1080 },
	});
	await context.close();
	return { errors, requests, charts, reportText, used, loadMs };
}

/** Opens a page with JavaScript off: the tables are there, and no chart drew. */
async function lookWithoutScript(path: string): Promise<{ tables: number; canvases: number; text: string }> {
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await page.goto(`file://${path}`);
	const found = {
		tables: await page.locator("table").count(),
		canvases: await page.locator("canvas").count(),
		text: (await page.locator("main").textContent()) ?? "",
	};
	await context.close();
	return found;
}

/** What every page must do: draw each chart, log no error, load nothing, and show the figures of its report. */
async function checkPage(path: string, shot: string, reportText: string | null): Promise<Looked> {
	expect(statSync(path).size).toBeLessThan(500_000);
	const looked = await look(path, shot);
	expect(looked.errors).toEqual([]);
	expect(looked.requests).toEqual([]);
	expect(looked.charts.length).toBeGreaterThan(0);
	expect(looked.charts.filter((chart) => !chart.drawn)).toEqual([]);
	if (reportText !== null) {
		expect(steady(looked.reportText)).toBe(steady(reportText));
		// Each budget's used figures are those its line of the report says.
		for (const [index, used] of looked.used.entries()) {
			const line = reportText.split("\n").find((text) => text.startsWith(`${index + 1}. `)) ?? "";
			const said = /used (.*?)\. (Still|Spent|Turned|Replaced)/.exec(line)?.[1] ?? "";
			const turns = used.Turns ?? "";
			expect(said).toContain(`${turns} ${turns === "1" ? "turn" : "turns"}`);
			if (!line.endsWith("Still active.")) expect(said.startsWith(used.Time ?? "")).toBe(true);
			if (used.Tokens !== undefined) expect(said).toContain(`${used.Tokens} tokens`);
			if (used.Cost !== undefined) expect(said, JSON.stringify(used)).toContain(used.Cost);
		}
	}
	const off = await lookWithoutScript(path);
	expect(off.tables).toBeGreaterThan(1);
	expect(off.canvases).toBe(0);
	return looked;
}

/** The text of `/timebox report` in a print run's stderr: its notice and the lines that follow it. */
function reportIn(stderr: string): string {
	const lines = stderr.split("\n");
	const start = lines.findIndex((line) => line.startsWith("[timebox] info: Timebox report:"));
	const rest = lines.slice(start + 1);
	const end = rest.findIndex((line) => line.startsWith("[timebox]") || line.trim() === "");
	return [lines[start]?.slice("[timebox] info: ".length), ...rest.slice(0, end < 0 ? rest.length : end)].join("\n");
}

describe("the report page in a real browser", () => {
	it("pi with a subagent: /timebox report page writes a page that draws the budget, the subagent's lane and the day", async () => {
		const pi = new PiProcess(BUNDLED_PI);
		try {
			const agentDir = join(pi.home, ".pi/agent");
			mkdirSync(join(agentDir, "agents"), { recursive: true });
			writeFileSync(
				join(agentDir, "settings.json"),
				JSON.stringify({
					extensions: [TIMEBOX_ENTRY, SCRIPTED_MODEL_FILE, SUBAGENT_EXAMPLE],
					timebox: { daily: "2h turns:40" },
				}),
			);
			writeFileSync(
				join(agentDir, "agents", "worker.md"),
				"---\nname: worker\ndescription: Works on a task\nmodel: timebox-e2e/scripted\n---\nYou are a worker.\n",
			);
			writeFileSync(
				join(pi.root, "script.json"),
				JSON.stringify([
					{ tool: "subagent", args: { agent: "worker", task: "find the flaky test" } },
					{ tool: "bash", args: { command: "echo one" } },
					{ tool: "bash", args: { command: "echo two" } },
					{ text: "CHILD FINAL" },
					{ text: "PARENT FINAL" },
				]),
			);
			const messages = [
				"/timebox 15m turns:4",
				"/timebox subagents 30s steps:5",
				"delegate",
				"/timebox report",
				"/timebox report page",
			];
			const result = await pi.run(["--model", "timebox-e2e/scripted", "-p", ...messages]);
			expect(result.stdout).toContain("PARENT FINAL");
			const link = result.stderr.split("\n").find((line) => line.includes("Timebox report page: file://")) ?? "";
			const path = pathOf(link);
			expect(path.startsWith(join(pi.home, ".local/state/timebox/reports/"))).toBe(true);
			const looked = await checkPage(path, "report-page-pi.png", reportIn(result.stderr));
			expect(looked.charts.map((chart) => chart.name).sort()).toEqual(["budget-0", "days-0", "subagents-0", "today-0"]);
			expect(looked.reportText).toContain('"find the flaky test" (worker)');
			expect(looked.loadMs).toBeLessThan(3_000);
			// npm run report finds the same session where pi keeps it, and writes the same figures.
			const out = join(pi.root, "again.html");
			execFileSync(process.execPath, [SCRIPT, "report", "--out", out], { env: pi.env() });
			expect(steady((await look(out, "report-page-pi-npm.png")).reportText)).toBe(steady(looked.reportText));
		} finally {
			pi.dispose();
		}
	}, 240_000);

	it.each([
		["function hooks", "report-page-claude.png"],
		["classic hooks", "report-page-claude-classic.png"],
	] as const)(
		"Claude Code on its %s: /timebox report page answers with a page of the session",
		async (mode, shot) => {
			await ensureClaudeCode();
			const api = await FakeAnthropic.start();
			const box = await createSandbox(mode);
			try {
				const options = { home: box.home, cwd: box.cwd, apiUrl: api.url, env: { TIMEBOX_DAILY: "1h turns:20" } };
				const claude = (prompt: string, resume = true) =>
					runClaude(["-p", ...(resume ? ["--continue"] : []), "--plugin-dir", PLUGIN_DIR, prompt], options);
				// A session that never had a budget has a page too: the day's.
				api.reply({ text: "NO-BUDGET" });
				expect((await claude("hello", false)).stdout).toContain("NO-BUDGET");
				const early = await claude("/timebox report page");
				expect(readFileSync(pathOf(early.stdout + early.stderr), "utf8")).toContain("Today");
				await claude("/timebox 15m turns:3 tokens:50k", false);
				api.reply({ text: "ANSWER-ONE" });
				expect((await claude("question one")).stdout).toContain("ANSWER-ONE");
				const said = (text: string) =>
					text
						.replace(/^timebox: /, "")
						.replace(/^.*blocked by hook[^\n]*\n?/m, "")
						.trim();
				const printed = await claude("/timebox report");
				// The module prints the reply; the classic hooks print it as the reason the prompt was blocked.
				const report = said(`${printed.stdout}\n${printed.stderr}`);
				const page = await claude("/timebox report page");
				const path = pathOf(page.stdout + page.stderr);
				const looked = await checkPage(
					path,
					shot,
					report.slice(report.indexOf("Timebox report:")).split("\n\n")[0] ?? "",
				);
				expect(looked.charts.map((chart) => chart.name)).toContain("budget-0");
			} finally {
				await api.close();
				await box.cleanup();
			}
		},
		240_000,
	);

	it("opencode: /timebox report page answers with a page of the session", async () => {
		await ensureOpencode();
		const api = await FakeChat.start();
		const root = mkdtempSync(join(tmpdir(), "timebox-report-opencode-"));
		try {
			const home = join(root, "home");
			mkdirSync(join(root, "work"));
			writeOpencodeHome(home, api.url);
			const run = (args: string[]) =>
				runProcess(OPENCODE, ["run", ...args], {
					cwd: join(root, "work"),
					env: opencodeEnv(home, {}),
					timeoutMs: 120_000,
				});
			await run(["--command", "timebox", "10m", "turns:5"]);
			const printed = await run(["-c", "--command", "timebox", "report"]);
			const page = await run(["-c", "--command", "timebox", "report", "page"]);
			const path = pathOf(page.stderr);
			const report = reportIn(stripVTControlCharacters(printed.stderr));
			const looked = await checkPage(path, "report-page-opencode.png", report);
			expect(looked.charts.map((chart) => chart.name)).toContain("budget-0");
		} finally {
			await api.close();
			rmSync(root, { recursive: true, force: true });
		}
	}, 300_000);

	it("a team's day: npm run report shows the day's use by member against the daily limit", async () => {
		const root = mkdtempSync(join(tmpdir(), "timebox-team-day-"));
		try {
			const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(root, "home"), XDG_STATE_HOME: join(root, "state") };
			delete env.PI_CODING_AGENT_DIR;
			const day = new Date();
			const pad = (value: number) => String(value).padStart(2, "0");
			const folder = (back: number) => {
				const date = new Date(day.getFullYear(), day.getMonth(), day.getDate() - back, 12);
				const name = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
				const path = join(root, "state", "timebox", "daily", "user", name);
				mkdirSync(path, { recursive: true });
				return path;
			};
			const members = ["ana", "ben", "chloé"];
			let prompt = 0;
			for (let back = 0; back < 5; back++) {
				const path = folder(back);
				for (const [index, member] of members.entries()) {
					const session = `${member}-${back}`;
					const line = {
						session,
						member,
						agentMs: (index + 1) * (5 - back) * 240_000,
						tokens: 20_000 * (index + 1),
						cost: 0.4 * (index + 1),
					};
					appendFileSync(join(path, "use.jsonl"), `${JSON.stringify(line)}\n`);
					for (let n = 0; n <= index + back; n++)
						writeFileSync(join(path, `prompt-${++prompt}`), `${JSON.stringify({ session, at: Date.now() })}\n`);
				}
			}
			const out = join(root, "team.html");
			const printed = execFileSync(
				process.execPath,
				[SCRIPT, "report", "--out", out, "--days", "5", "--daily", "3h turns:40 cost:10"],
				{
					env,
					encoding: "utf8",
				},
			);
			expect(printed).toBe(`Timebox report page: file://${out}\n`);
			const looked = await checkPage(out, "report-page-team.png", null);
			expect(looked.charts.map((chart) => chart.name).sort()).toEqual(["days-0", "today-0"]);
			const off = await lookWithoutScript(out);
			expect(off.text).toContain("chloé");
			expect(off.text).toContain("Member");
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	}, 120_000);

	it("a team's day in a real Redis: npm run report shows the team's figures of /timebox today, by member", async () => {
		const redis = await RedisServer.start();
		const root = mkdtempSync(join(tmpdir(), "timebox-team-redis-"));
		try {
			const team = `platform-${process.pid}`;
			// No cost limit: Claude Code, whose /timebox today is asked here, does not track cost.
			const daily = "3h turns:40 tokens:200k";
			const teamEnv = { TIMEBOX_DAILY: daily, TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: team };
			// Two members' sessions through the team's ledger as pi and Codex open it, each on a machine folder of its own.
			for (const [host, turns, minutes, tokens, cost] of [
				["pi", 3, 12, 30_000, 0.6],
				["codex", 2, 7, 18_000, 0.35],
			] as const) {
				const ledger = openDailyLedger({
					env: { ...teamEnv, XDG_STATE_HOME: join(root, host) },
					sessionId: `${host}-session`,
					clock: { now: () => Date.now() },
					host,
					entry: PACKAGE_ENTRY,
				});
				// No limits in the store: the team's day is each machine's TIMEBOX_DAILY, counted in the store as the rules
				// count it (the budgets of the standings).
				expect(ledger.standings([])[0]?.budget).toBeUndefined();
				const own = parseDailyBudget(daily, "user", DAILY_ENV);
				if ("warning" in own) throw new Error(own.warning);
				const budgets = ledger.standings([own]).map((standing) => standing.budget);
				expect(budgets.map((budget) => budget.team?.name)).toEqual([team]);
				for (let turn = 0; turn < turns; turn++) expect(ledger.countPrompt(budgets, [40])).toBe(true);
				ledger.addUse(budgets, { agentMs: minutes * 60_000, tokens, cost });
				expect(ledger.problem()).toBeNull();
			}
			// A third member: Claude Code's hook script, on a machine of its own, sends a prompt and asks /timebox today.
			const claudeEnv = {
				...teamEnv,
				HOME: join(root, "claude-home"),
				XDG_STATE_HOME: join(root, "claude-state"),
				CLAUDE_PLUGIN_DATA: join(root, "claude-data"),
				PATH: process.env.PATH,
			};
			const hook = (prompt: string, id: string) =>
				execFileSync(process.execPath, [SCRIPT, "hook"], {
					env: claudeEnv,
					encoding: "utf8",
					input: JSON.stringify({
						hook_event_name: "UserPromptSubmit",
						session_id: "claude-session",
						prompt_id: id,
						prompt,
					}),
				});
			hook("hello", "p-1");
			const today = hook("/timebox today", "p-2");
			const member = (host: string) => `${userInfo().username}@${hostname()} (${host})`;
			expect(today).toContain(`The team ${team} (TIMEBOX_DAILY): 19m 0s of 3h of agent time used`);
			expect(today).toContain("6 of 40 turns used, 34 left");
			expect(today).toContain(
				`By ${member("claude")} 1 session, ${member("codex")} 1 session, ${member("pi")} 1 session.`,
			);
			// Yesterday, as the team's store still keeps it (a day's keys outlive it by one day).
			const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
			redis.cli(["HSET", `timebox:{${team}}:${yesterday}:use`, "prompts", "5", "agentMs", "600000", "tokens", "9000"]);
			const out = join(root, "team-redis.html");
			const printed = execFileSync(process.execPath, [SCRIPT, "report", "--out", out, "--days", "7"], {
				env: { ...process.env, ...teamEnv, HOME: join(root, "reader"), XDG_STATE_HOME: join(root, "reader-state") },
				encoding: "utf8",
			});
			expect(printed).toBe(`Timebox report page: file://${out}\n`);
			const looked = await checkPage(out, "report-page-team-redis.png", null);
			expect(looked.charts.map((chart) => chart.name).sort()).toEqual(["days-0", "today-0"]);
			const context = await browser.newContext({ javaScriptEnabled: false });
			const page = await context.newPage();
			await page.goto(`file://${out}`);
			const rows = async (caption: string) =>
				page.$$eval(`table:has(caption:text-is("${caption}")) tbody tr`, (found) =>
					found.map((row) => [...row.children].map((cell) => cell.textContent ?? "")),
				);
			const figures = await rows(`The team ${team} (TIMEBOX_DAILY)`);
			// Each figure of the table is the one /timebox today printed: used of the limit, and what is left.
			expect(figures.map((row) => row[0])).toEqual(["Agent time", "Prompts", "Tokens"]);
			for (const [name, limit, used, left] of figures) {
				const said =
					name === "Agent time"
						? `${used} of 3h of agent time used, ${left} left`
						: name === "Prompts"
							? `${used} of ${limit} turns used, ${left} left`
							: `${used} of ${limit} tokens used, ${left} left`;
				expect(today).toContain(said);
			}
			expect(await rows("Today's members")).toEqual([
				[member("claude"), "1"],
				[member("codex"), "1"],
				[member("pi"), "1"],
			]);
			const days = await rows("Use per day");
			expect(days.map((row) => row.slice(0, 3))).toEqual([
				[yesterday, "10m 0s", "5"],
				[new Date().toISOString().slice(0, 10), figures[0]?.[2], "6"],
				["Daily limit", "3h 0m", "40"],
			]);
			const text = (await page.locator("main").textContent()) ?? "";
			expect(text).toContain("the 5 days before yesterday are not kept, so not shown.");
			await context.close();
		} finally {
			await redis.dispose();
			rmSync(root, { recursive: true, force: true });
		}
	}, 120_000);
});
