// The report as data for the report page: the same figures as `/timebox report`, with the timeline the page draws
// (turns, model calls, warnings, the stop), the subagents, today's budgets; and `/timebox report page` answered with
// the page's link, or why there is none, on every path a host takes.

import { describe, expect, it } from "vitest";
import type { DailyStanding } from "../../src/core/daily/daily-budget.ts";
import { todayData } from "../../src/core/daily/today-data.ts";
import { parseCommand } from "../../src/core/grammar/command.ts";
import { planCommand } from "../../src/core/grammar/command-plan.ts";
import type { SubagentRun } from "../../src/core/model/budget.ts";
import { NOTHING_RECORDED } from "../../src/core/model/events.ts";
import type { HistoryItem } from "../../src/core/model/history.ts";
import { writeReportPage } from "../../src/core/run/live-report-page.ts";
import { LiveSession, type ReportPageInput } from "../../src/core/run/live-session.ts";
import { SessionRuntime } from "../../src/core/run/runtime.ts";
import { sessionReport } from "../../src/core/text/report.ts";
import { reportData } from "../../src/core/text/report-data.ts";
import { fileLink, NO_REPORT_PAGE, reportPageReply } from "../../src/core/text/report-page.ts";
import { MINUTE, START } from "../support/budgets.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryLedger, MemoryUI, RecordingStarter } from "../support/memory-host.ts";

const nothing = () => NOTHING_RECORDED;

function active(fields: Record<string, unknown>): HistoryItem {
	return {
		kind: "record",
		record: { kind: "active", budget: { version: 2, startTime: START, onStopCommand: null, ...fields } },
	};
}

function agent(fields: Partial<SubagentRun>): HistoryItem {
	const run: SubagentRun = {
		id: "a1",
		parent: null,
		agentType: "explore",
		task: "find the tests",
		budget: null,
		startedAt: START + MINUTE,
		steps: 3,
		spend: { tokens: 1_000, cost: 0.01 },
		warned: false,
		told: false,
		spent: null,
		wrapUp: null,
		ended: null,
		closed: false,
		endedAt: null,
		...fields,
	};
	return { kind: "record", record: { kind: "subagent", agent: run } };
}

/** A budget of 10m, 4 turns, 1k tokens and $1, with a turn a minute and two model calls each. */
function history(): HistoryItem[] {
	const items: HistoryItem[] = [
		active({ id: "b1", timeLimitMs: 10 * MINUTE, turnLimit: 4, tokenLimit: 1_000, costLimit: 1, graceMs: 30_000 }),
	];
	for (let turn = 1; turn <= 4; turn++) {
		items.push({ kind: "prompt", key: `p${turn}`, at: START + turn * MINUTE });
		items.push({ kind: "usage", tokens: 100, cost: 0.1, at: START + turn * MINUTE + 1_000 });
		items.push({ kind: "usage", tokens: 150, cost: 0.15, at: START + turn * MINUTE + 2_000 });
	}
	return items;
}

describe("the report as data", () => {
	it("draws only the turns the budget counted: not the one it refused, nor those after its stop", () => {
		const items: HistoryItem[] = [active({ id: "b2", timeLimitMs: null, turnLimit: 2 })];
		for (let turn = 1; turn <= 4; turn++) items.push({ kind: "prompt", key: `q${turn}`, at: START + turn * MINUTE });
		const spent = {
			...NOTHING_RECORDED,
			spent: { usedTurns: 2, elapsedMs: 3 * MINUTE, timeRanOut: false, prompt: "q3" },
		};
		const [budget] = reportData(items, () => spent, START + 5 * MINUTE).budgets;
		expect(budget?.used.turns).toBe(2);
		expect(budget?.turns).toEqual([START + MINUTE, START + 2 * MINUTE]);
	});

	it("counts for a budget extended after its stop only its own turns and use, not the refused or unbudgeted ones", () => {
		const at = (minutes: number) => START + minutes * MINUTE;
		const usage = (tokens: number, minutes: number): HistoryItem => ({
			kind: "usage",
			tokens,
			cost: 0,
			at: at(minutes),
		});
		const items: HistoryItem[] = [
			active({ id: "b3", timeLimitMs: null, turnLimit: 1 }),
			{ kind: "prompt", key: "q1", at: at(1) },
			usage(100, 1.5),
			// Refused: the budget was spent. Then the chat went on without a budget.
			{ kind: "prompt", key: "q2", at: at(2) },
			{ kind: "prompt", key: "q3", at: at(3) },
			usage(50, 3.5),
			// `/timebox +turns:2`: the same budget written again, with the one prompt it counted.
			active({ id: "b3", timeLimitMs: null, turnLimit: 3, extensions: 1, turnsBefore: 1 }),
			{ kind: "prompt", key: "q4", at: at(5) },
			usage(70, 5.5),
		];
		const [budget] = reportData(items, nothing, at(6)).budgets;
		expect(budget?.used.turns).toBe(2);
		expect(budget?.used.tokens).toBe(170);
		expect(budget?.turns).toEqual([at(1), at(5)]);
		expect(sessionReport(items, nothing, at(6))).toContain(
			"3 turns, set 6m 0s ago, extended once: used 6m 0s, 2 turns, 170 tokens",
		);
		// A pause and a resume count every prompt before them.
		const paused = [
			items[0],
			items[1],
			active({ id: "b3", timeLimitMs: null, turnLimit: 1, turnsBefore: 1 }),
			items[3],
		];
		expect(reportData(paused as HistoryItem[], nothing, at(6)).budgets[0]?.used.turns).toBe(2);
	});

	it("holds the text of /timebox report and the same figures, with every turn, model call and warning on the clock", () => {
		const now = START + 9 * MINUTE;
		const data = reportData(history(), nothing, now);
		expect(data.text).toBe(sessionReport(history(), nothing, now));
		const [budget] = data.budgets;
		expect(budget?.line).toBe(data.text.split("\n")[1]?.slice(3));
		expect(budget).toMatchObject({
			words: expect.stringContaining("10m"),
			startTime: START,
			until: now,
			limits: { timeMs: 10 * MINUTE, turns: 4, tokens: 1_000, cost: 1, steps: null },
			used: { timeMs: 9 * MINUTE, turns: 4, tokens: 1_000, cost: 1 },
			ending: { kind: "active", text: "Still active." },
			extensions: 0,
			pausedMs: 0,
			pausedAt: null,
			graceMs: 30_000,
			onStopCommand: null,
			turns: [1, 2, 3, 4].map((turn) => START + turn * MINUTE),
		});
		expect(budget?.steps).toHaveLength(8);
		expect(budget?.steps[7]).toEqual({ at: START + 4 * MINUTE + 2_000, tokens: 1_000, cost: expect.closeTo(1, 6) });
		expect(budget?.warnings).toEqual(
			[
				{ share: 0.8, limit: "tokens", at: START + 4 * MINUTE + 1_000 },
				{ share: 0.8, limit: "cost", at: START + 4 * MINUTE + 1_000 },
				{ share: 0.95, limit: "tokens", at: START + 4 * MINUTE + 2_000 },
				{ share: 0.95, limit: "cost", at: START + 4 * MINUTE + 2_000 },
				{ share: 0.8, limit: "turns", at: START + 4 * MINUTE },
				{ share: 0.95, limit: "turns", at: START + 4 * MINUTE },
				{ share: 0.8, limit: "time", at: START + 8 * MINUTE },
			].sort((a, b) => a.at - b.at),
		);
		expect(data.measured).toEqual({ tokens: true, cost: true });
		expect(data.subagents).toEqual([]);
	});

	it("ends a spent budget at its stop, leaves out what came after it and what has no time, and keeps its settings", () => {
		const items: HistoryItem[] = [
			active({
				id: "b2",
				timeLimitMs: 5 * MINUTE,
				turnLimit: null,
				onStopCommand: "say done",
				extensions: 2,
				pausedMs: 1_000,
			}),
			{ kind: "prompt", key: "p1" },
			// A prompt the host repeats counts once, at its first time.
			{ kind: "prompt", key: "p1", at: START + 2 * MINUTE },
			{ kind: "usage", tokens: 10, cost: 0 },
			{ kind: "usage", tokens: 20, cost: 0, at: START + MINUTE },
			{ kind: "usage", tokens: 40, cost: 0, at: START + 9 * MINUTE },
		];
		const spent = { usedTurns: 1, elapsedMs: 5 * MINUTE, timeRanOut: true, prompt: null };
		const data = reportData(items, () => ({ ...NOTHING_RECORDED, spent }), START + 10 * MINUTE);
		const [budget] = data.budgets;
		expect(budget).toMatchObject({
			until: START + 1_000 + 5 * MINUTE,
			used: { timeMs: 5 * MINUTE, turns: 1, tokens: 30 },
			ending: { kind: "spent", text: "Spent: the time ran out." },
			extensions: 2,
			pausedMs: 1_000,
			onStopCommand: "say done",
			turns: [],
			steps: [{ at: START + MINUTE, tokens: 20, cost: 0 }],
		});
		expect(budget?.warnings.map((warning) => warning.limit)).toEqual(["time", "time"]);
	});

	it("says what the host cannot measure, and a paused budget's pause", () => {
		const items = [active({ id: "b3", timeLimitMs: null, turnLimit: 2, pausedAt: START + MINUTE, stepLimit: 5 })];
		const terms = { name: "Claude Code", command: "/timebox", tokens: false, cost: false, dailySetting: "" };
		const data = reportData(items, nothing, START + 2 * MINUTE, terms);
		expect(data.measured).toEqual({ tokens: false, cost: false });
		expect(data.budgets[0]).toMatchObject({ pausedAt: START + MINUTE, limits: { steps: 5, timeMs: null } });
		expect(data.budgets[0]?.warnings).toEqual([]);
	});

	it("gives every subagent its budget, times, use, ending and the report's line", () => {
		const items: HistoryItem[] = [
			agent({
				id: "a1",
				budget: { timeLimitMs: MINUTE, stepLimit: 3, tokenLimit: 500, costLimit: 0.5 },
				ended: "answered",
				closed: true,
				endedAt: START + 2 * MINUTE,
			}),
			agent({
				id: "a2",
				parent: "a1",
				spent: { limit: "time", at: START + 3 * MINUTE },
				ended: "stopped",
				budget: { timeLimitMs: MINUTE },
			}),
		];
		const data = reportData(items, nothing, START + 4 * MINUTE);
		expect(data.budgets).toEqual([]);
		expect(data.subagents[0]).toMatchObject({
			id: "a1",
			parent: null,
			budget: "1m and 3 model calls and 500 tokens and $0.50",
			limits: { timeMs: MINUTE, turns: null, tokens: 500, cost: 0.5, steps: 3 },
			endedAt: START + 2 * MINUTE,
			spent: null,
			ended: "answered",
			steps: 3,
			tokens: 1_000,
			cost: 0.01,
		});
		expect(data.subagents[0]?.line).toBe(data.text.split("\n")[2]?.slice(2));
		expect(data.subagents[1]).toMatchObject({
			parent: "a1",
			limits: { timeMs: MINUTE, tokens: null, cost: null, steps: null },
			spent: { at: START + 3 * MINUTE, limit: "time" },
		});
		const unbudgeted = reportData([agent({ budget: null })], nothing, START + 2 * MINUTE).subagents[0];
		expect(unbudgeted).toMatchObject({ budget: null, limits: null });
	});
});

function standing(overrides: Partial<DailyStanding> = {}): DailyStanding {
	return {
		budget: {
			scope: "user",
			source: "TIMEBOX_DAILY",
			limits: { timeMs: 60 * MINUTE, turns: 10, tokens: 1_000, cost: 2 },
		},
		use: { agentMs: 20 * MINUTE, prompts: 4, tokens: 1_500, cost: 0.5, sessions: 2 },
		adjustment: { addTimeMs: 0, addPrompts: 2, addTokens: 0, addCost: 0, off: false },
		dayStart: START - 9 * 60 * MINUTE,
		...overrides,
	};
}

describe("today as data", () => {
	it("gives each daily budget its limits with today's additions, what is left, and the line /timebox today prints", () => {
		const sessions = [{ session: "s1", host: "pi", member: null, agentMs: 1, prompts: 1, tokens: 1, cost: 1 }];
		const data = todayData([standing()], sessions);
		expect(data.text.split("\n")[1]).toBe(data.budgets[0]?.line);
		expect(data.dayStart).toBe(START - 9 * 60 * MINUTE);
		expect(data.budgets[0]).toMatchObject({
			who: "Every session (TIMEBOX_DAILY)",
			limits: { timeMs: 60 * MINUTE, turns: 12, tokens: 1_000, cost: 2 },
			left: { timeMs: 40 * MINUTE, turns: 8, tokens: 0, cost: 1.5 },
			off: false,
		});
		expect(data.sessions).toEqual(sessions);
	});

	it("names a project's budget, one off until midnight, unlimited dimensions, and no budget at all", () => {
		const project = standing({
			budget: {
				scope: "project:/p",
				source: "settings.json",
				limits: { timeMs: null, turns: 3, tokens: null, cost: null },
			},
			adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: true },
		});
		expect(todayData([project], []).budgets[0]).toMatchObject({
			who: "This project (settings.json)",
			off: true,
			left: { timeMs: null, turns: 0, tokens: null, cost: null },
		});
		expect(todayData([], [])).toMatchObject({ budgets: [], dayStart: null });
	});
});

describe("/timebox report page", () => {
	it("is read as its own command, with no other word beside it", () => {
		expect(parseCommand("report page")).toEqual({ kind: "reportPage" });
		expect(parseCommand("  REPORT   Page ")).toEqual({ kind: "reportPage" });
		expect(parseCommand("report pages").kind).toBe("invalid");
	});

	it("answers with the page as a file:// link, why it could not be written, or where it is written instead", () => {
		expect(fileLink("/tmp/a b/report#1?.html")).toBe("file:///tmp/a%20b/report%231%3F.html");
		expect(fileLink("C:/report.html")).toBe("file:///C:/report.html");
		expect(reportPageReply({ path: "/tmp/r.html" })).toEqual({
			message: "Timebox report page: file:///tmp/r.html",
			level: "info",
		});
		expect(reportPageReply({ problem: "disk full" })).toEqual({
			message: "Timebox: the report page could not be written (disk full).",
			level: "warning",
		});
		expect(reportPageReply(undefined)).toEqual({ message: NO_REPORT_PAGE, level: "info" });
	});

	it("changes nothing of the budget when planned, and tells a host that writes no page where to write one", () => {
		const view = {
			budget: null,
			spent: null,
			usedTurns: 0,
			now: START,
			newBudgetId: "b",
			spend: { tokens: 0, cost: 0 },
		};
		expect(planCommand({ kind: "reportPage" }, view)).toEqual({
			change: "none",
			reply: { message: NO_REPORT_PAGE, level: "info" },
		});
	});

	it("is answered by the runtime with what the host made of the page, without the session's rules", () => {
		const time = new FakeTime(START);
		const runtime = new SessionRuntime({
			store: { append: () => {} },
			ledger: new MemoryLedger(),
			clock: time,
			onStop: new RecordingStarter(),
			setStatus: () => {},
			abortRun: () => {},
			problem: () => {},
			late: () => {},
		});
		const answer = runtime.command("report page", {
			newBudgetId: "b",
			report: () => "",
			reportPage: { path: "/tmp/p.html" },
		});
		expect(answer.notices).toEqual([{ message: "Timebox report page: file:///tmp/p.html", level: "info" }]);
		expect(runtime.command("report page", { newBudgetId: "b", report: () => "" }).notices[0]?.message).toBe(
			NO_REPORT_PAGE,
		);
	});

	it("hands the host the report and today's standings, and turns a failure into its reason", async () => {
		const source = {
			history: history,
			ledger: nothing,
			now: START + 5 * MINUTE,
			standings: () => [standing()],
			team: () => undefined,
		};
		let given: ReportPageInput | null = null;
		const written = await writeReportPage(async (page) => {
			given = page;
			return "/tmp/page.html";
		}, source);
		expect(written).toEqual({ path: "/tmp/page.html" });
		expect(given).toMatchObject({ report: { now: START + 5 * MINUTE }, standings: [standing()] });
		expect(given).not.toHaveProperty("team");
		// A team's store the session counts in goes with them: its limits and open requests.
		const team = { team: { name: "platform", zone: "UTC" }, view: { stored: null, asks: [] } };
		await writeReportPage(
			async (page) => {
				given = page;
				return "/tmp/page.html";
			},
			{ ...source, team: () => team },
		);
		expect(given).toMatchObject({ team });
		expect(await writeReportPage(undefined, source)).toBeUndefined();
		const failing = async () => {
			throw new Error("read-only");
		};
		expect(await writeReportPage(failing, source)).toEqual({ problem: "read-only" });
		expect(
			await writeReportPage(() => Promise.reject("no"), {
				...source,
				terms: { name: "x", command: "/timebox", tokens: true, cost: true, dailySetting: "" },
			}),
		).toEqual({ problem: "no" });
	});
});

describe("/timebox report page in a live session", () => {
	function live(reportPage?: LiveSessionPortsPage) {
		const time = new FakeTime(START);
		const ui = new MemoryUI();
		const standings: DailyStanding[] = [standing()];
		const session = new LiveSession({
			store: { append: () => {}, history: () => history() },
			ledger: new MemoryLedger(),
			ui,
			clock: time,
			scheduler: time,
			onStop: new RecordingStarter(),
			agent: { abortCurrentTurn: () => {} },
			newBudgetId: () => "b",
			daily: {
				standings: () => standings,
				countPrompt: () => true,
				addUse: () => {},
				adjust: () => undefined,
				problem: () => null,
			},
			...(reportPage ? { reportPage } : {}),
		});
		return { session, ui };
	}
	type LiveSessionPortsPage = (page: ReportPageInput) => Promise<string>;

	it("writes the page through the host with today's standings once a daily budget is read, and says where it is", async () => {
		const pages: ReportPageInput[] = [];
		const { session, ui } = live(async (page) => {
			pages.push(page);
			return "/tmp/live.html";
		});
		session.onSessionStart("restore", false, null, {
			daily: [{ value: "1h turns:10", scope: "user", source: "settings.json" }],
		});
		await session.command("report page");
		expect(ui.last).toEqual({ message: "Timebox report page: file:///tmp/live.html", level: "info" });
		expect(pages[0]?.standings).toHaveLength(1);
		expect(pages[0]?.report.budgets).toHaveLength(1);
	});

	it("hands no standings where no daily budget is set, and says where to write a page where the host writes none", async () => {
		const pages: ReportPageInput[] = [];
		const { session } = live(async (page) => {
			pages.push(page);
			return "/tmp/live.html";
		});
		session.onSessionStart("restore", false);
		await session.command("report page");
		expect(pages[0]?.standings).toEqual([]);
		const none = live();
		none.session.onSessionStart("restore", false);
		await none.session.command("report page");
		expect(none.ui.last).toEqual({ message: NO_REPORT_PAGE, level: "info" });
	});

	it("writes nothing once disposed while the page was being written", async () => {
		let finish: (path: string) => void = () => {};
		const { session, ui } = live(() => new Promise((done) => (finish = done)));
		session.onSessionStart("restore", false);
		const asked = session.command("report page");
		await Promise.resolve();
		session.onShutdown();
		finish("/tmp/late.html");
		await asked;
		expect(ui.messages()).not.toContain("Timebox report page: file:///tmp/late.html");
	});
});
