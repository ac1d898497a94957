// The suggested budget: which past sessions count, their figures' median and 90th percentile, the rounding of those
// into words a person types, the reply of `/timebox suggest` and the default of `suggested`, from tables.

import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/core/grammar/command.ts";
import { planCommand } from "../../src/core/grammar/command-plan.ts";
import type { HistoryItem } from "../../src/core/model/history.ts";
import { LiveSession } from "../../src/core/run/live-session.ts";
import { SessionRuntime } from "../../src/core/run/runtime.ts";
import { type ProjectHistory, readSuggestion, resolveDefault } from "../../src/core/run/suggestion.ts";
import { type PastSession, pastSession } from "../../src/core/suggest/past-session.ts";
import {
	budgetWords,
	costWord,
	percentile,
	type SuggestedFigures,
	suggestionOf,
	timeWord,
	tokensWord,
} from "../../src/core/suggest/statistics.ts";
import type { HostTerms } from "../../src/core/text/host-terms.ts";
import { NO_SUGGESTION, suggestedDefault, suggestionText, suggestReply } from "../../src/core/text/suggestion.ts";
import { MINUTE, START } from "../support/budgets.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryLedger, MemoryStore, MemoryUI, RecordingStarter } from "../support/memory-host.ts";

const SECOND = 1_000;
/** Codex's terms: the command typed without its slash, no tokens or cost. */
const CODEX_TERMS: HostTerms = { name: "Codex", command: "timebox", tokens: false, cost: false, dailySetting: "" };
const HOUR = 60 * MINUTE;

/** A past session of `minutes`, `turns`, and the model calls, tokens and cost given (null: not measured). */
function past(
	index: number,
	minutes: number,
	turns: number,
	measured: { steps?: number | null; tokens?: number | null; cost?: number | null; host?: string } = {},
): PastSession {
	const startedAt = START + index * 24 * HOUR;
	return {
		id: `s${index}`,
		host: measured.host ?? "pi",
		startedAt,
		endedAt: startedAt + minutes * MINUTE,
		turns,
		steps: measured.steps === undefined ? turns * 3 : measured.steps,
		tokens: measured.tokens === undefined ? turns * 10_000 : measured.tokens,
		cost: measured.cost === undefined ? turns * 0.1 : measured.cost,
	};
}

describe("the percentiles", () => {
	it.each([
		[[5], 50, 5],
		[[5], 90, 5],
		[[1, 2, 3, 4, 5], 50, 3],
		[[5, 4, 3, 2, 1], 90, 5],
		[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
		[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, 9],
		[[10, 1, 9, 2, 8, 3, 7, 4, 6, 5, 11], 90, 10],
		[[2, 2, 2, 100], 50, 2],
		[[], 90, 0],
	])("of %j at %i%% is %d (nearest rank: a value that was seen)", (values, percent, expected) => {
		expect(percentile(values, percent)).toBe(expected);
	});
});

describe("the words a person would type", () => {
	it.each([
		[3 * SECOND, "1m"],
		[MINUTE, "1m"],
		[MINUTE + SECOND, "2m"],
		[9 * MINUTE + 59 * SECOND, "10m"],
		[10 * MINUTE, "10m"],
		[10 * MINUTE + SECOND, "15m"],
		[41 * MINUTE + 10 * SECOND, "45m"],
		[59 * MINUTE + SECOND, "1h"],
		[HOUR, "1h"],
		[HOUR + 5 * MINUTE, "1h15m"],
		[3 * HOUR + 50 * MINUTE, "4h"],
		[4 * HOUR + 10 * MINUTE, "5h"],
		[40 * 24 * HOUR, "720h"],
	])("a time of %i ms is %s", (ms, word) => {
		expect(timeWord(ms)).toBe(word);
	});

	it.each([
		[0.4, "tokens:1"],
		[950, "tokens:950"],
		[951, "tokens:960"],
		[9_450, "tokens:9.5k"],
		[10_000, "tokens:10k"],
		[183_400, "tokens:190k"],
		[1_234_567, "tokens:1.3m"],
		[2_000_000_000, "tokens:1000m"],
	])("%d tokens are %s", (tokens, word) => {
		expect(tokensWord(tokens)).toBe(word);
	});

	it.each([
		[0.001, "$0.05"],
		[0.05, "$0.05"],
		[0.51, "$0.55"],
		[0.99, "$1.00"],
		[1.0, "$1.00"],
		[2.31, "$2.50"],
		[2.5, "$2.50"],
		[2.504, "$3.00"],
		[9.99, "$10"],
		[12.3, "$13"],
		[50_000, "$10000"],
	])("$%d is %s", (dollars, word) => {
		expect(costWord(dollars)).toBe(word);
	});

	it.each(["1m", "45m", "1h15m", "720h", "tokens:9.5k", "tokens:1.3m", "$0.55", "$2.50", "$13", "$10000"])(
		"%s is a budget word the command reads",
		(word) => {
			expect(parseCommand(word).kind).toBe("set");
		},
	);

	const figure = (median: number, p90: number, sessions = 23) => ({ median, p90, sessions });
	const figures = (changes: Partial<SuggestedFigures>): SuggestedFigures => ({
		timeMs: figure(12 * MINUTE, 41 * MINUTE + 10 * SECOND),
		turns: figure(6, 14),
		steps: figure(30, 88),
		tokens: figure(120_000, 410_000),
		cost: figure(0.6, 2.31),
		...changes,
	});

	it.each([
		["time, turns and cost where cost was measured", {}, "45m turns:14 $2.50"],
		["tokens where cost was not measured", { cost: figure(0, 0, 0) }, "45m turns:14 tokens:410k"],
		["tokens where too few sessions measured cost", { cost: figure(1, 2, 4) }, "45m turns:14 tokens:410k"],
		["tokens where every cost was zero", { cost: figure(0, 0) }, "45m turns:14 tokens:410k"],
		["neither where neither was measured", { cost: figure(0, 0, 0), tokens: figure(0, 0, 0) }, "45m turns:14"],
		["neither where every model reported none", { cost: figure(0, 0), tokens: figure(0, 0) }, "45m turns:14"],
	])("a budget of %s", (_, changes, words) => {
		expect(budgetWords(figures(changes))).toBe(words);
	});
});

describe("a past session's figures from its history", () => {
	const facts = { id: "a", host: "pi", steps: 4, tokens: true, cost: true };

	it("counts each prompt once, adds what the model calls used, and runs from the first prompt to the last item", () => {
		const items: HistoryItem[] = [
			{ kind: "record", record: { kind: "active" } },
			{ kind: "prompt", key: "p1", at: START + MINUTE },
			{ kind: "usage", tokens: 1_000, cost: 0.01, at: START + 2 * MINUTE },
			{ kind: "prompt", key: "p1", at: START + 3 * MINUTE },
			{ kind: "prompt", key: "p2", at: START + 4 * MINUTE },
			{ kind: "usage", tokens: 500, cost: Number.NaN, at: START + 9 * MINUTE },
			{ kind: "usage", tokens: 5, cost: 0 },
		];
		expect(pastSession(items, facts)).toEqual({
			id: "a",
			host: "pi",
			startedAt: START + MINUTE,
			endedAt: START + 9 * MINUTE,
			turns: 2,
			steps: 4,
			tokens: 1_505,
			cost: 0.01,
		});
	});

	it("ends at the end the host read, where that comes later, and leaves out what its host does not measure", () => {
		const items: HistoryItem[] = [{ kind: "prompt", key: "p", at: START }];
		expect(
			pastSession(items, {
				id: "b",
				host: "Gemini CLI",
				endedAt: START + 5 * MINUTE,
				steps: null,
				tokens: false,
				cost: false,
			}),
		).toEqual({
			id: "b",
			host: "Gemini CLI",
			startedAt: START,
			endedAt: START + 5 * MINUTE,
			turns: 1,
			steps: null,
			tokens: null,
			cost: null,
		});
		expect(pastSession(items, { ...facts, endedAt: START - MINUTE })?.endedAt).toBe(START);
	});

	it.each([
		["no prompt", [{ kind: "usage", tokens: 5, cost: 0, at: START }]],
		["no prompt with a time", [{ kind: "prompt", key: "p" }]],
		["nothing", []],
	] as [string, HistoryItem[]][])("counts no session with %s", (_, items) => {
		expect(pastSession(items, facts)).toBeNull();
	});
});

describe("the suggestion from a project's sessions", () => {
	it("is nothing with fewer than 5 sessions, and says how many there are", () => {
		const four = [0, 1, 2, 3].map((index) => past(index, 10, 3));
		const suggestion = suggestionOf(four);
		expect(suggestion).toEqual({ sessions: 4, hosts: [{ host: "pi", sessions: 4 }], figures: null, words: null });
		expect(suggestionText(suggestion)).toBe(
			"Timebox: too little history to suggest a budget: 4 sessions of this project so far, and a suggestion needs 5.",
		);
		expect(suggestionText(suggestionOf([]), "/work/app")).toBe(
			"Timebox: too little history to suggest a budget: no session in /work/app so far, and a suggestion needs 5.",
		);
		expect(suggestionText(suggestionOf([past(0, 1, 1)]))).toContain("1 session of this project so far");
	});

	it("leaves out the session asking, which has not ended", () => {
		const five = [0, 1, 2, 3, 4].map((index) => past(index, 10, 3));
		expect(suggestionOf(five, "s4").figures).toBeNull();
		expect(suggestionOf(five, "other").sessions).toBe(5);
	});

	it("counts the latest 30 sessions by their end, and their hosts, most first", () => {
		const sessions = Array.from({ length: 40 }, (_, index) =>
			past(index, index < 10 ? 600 : 10, 3, { host: index % 3 === 0 ? "Gemini CLI" : "pi" }),
		);
		const suggestion = suggestionOf(sessions.reverse());
		expect(suggestion.sessions).toBe(30);
		// The ten 600-minute sessions are the oldest: none of them is counted.
		expect(suggestion.figures?.timeMs.p90).toBe(10 * MINUTE);
		expect(suggestion.hosts).toEqual([
			{ host: "pi", sessions: 20 },
			{ host: "Gemini CLI", sessions: 10 },
		]);
	});

	it("reads each figure over the sessions that measured it, and suggests the 90th percentiles", () => {
		const sessions = [
			past(0, 5, 2, { host: "Gemini CLI", steps: null, tokens: null, cost: null }),
			past(1, 8, 3, { host: "Gemini CLI", steps: null, tokens: null, cost: null }),
			...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => past(n + 1, n * 4, n, { cost: n * 0.2 })),
		];
		const suggestion = suggestionOf(sessions);
		expect(suggestion.figures).toEqual({
			timeMs: { median: 16 * MINUTE, p90: 36 * MINUTE, sessions: 12 },
			turns: { median: 4, p90: 9, sessions: 12 },
			steps: { median: 15, p90: 27, sessions: 10 },
			tokens: { median: 50_000, p90: 90_000, sessions: 10 },
			cost: { median: 1, p90: 1.8, sessions: 10 },
		});
		expect(suggestion.words).toBe("40m turns:9 $2.00");
		expect(suggestionText(suggestion)).toBe(
			[
				"Timebox: your last 12 sessions here (10 pi, 2 Gemini CLI), median / 90th percentile:",
				"- time: 16m 0s / 36m 0s",
				"- turns: 4 / 9",
				"- model calls: 15 / 27 (10 sessions; the other hosts do not measure it)",
				"- tokens: 50k / 90k (10 sessions; the other hosts do not measure it)",
				"- cost: $1.00 / $1.80 (10 sessions; the other hosts do not measure it)",
				"Try /timebox 40m turns:9 $2.00 (the 90th percentile of your last 12 sessions here).",
			].join("\n"),
		);
	});

	it("says a figure too few sessions measured is not measured, and suggests no word of it", () => {
		const sessions = [
			...[1, 2, 3].map((n) => past(n, 10, n, { tokens: n * 1_000 })),
			...[4, 5, 6].map((n) => past(n, 10, n, { host: "Codex", steps: null, tokens: null, cost: null })),
		];
		const text = suggestionText(suggestionOf(sessions));
		expect(text).toContain("- model calls: not measured (only 3 of these sessions' hosts measure it)");
		expect(text).toContain("- cost: not measured (only 3 of these sessions' hosts measure it)");
		expect(text).toContain("Try /timebox 10m turns:6 (the 90th percentile of your last 6 sessions here).");
		const codex = suggestionOf(
			[4, 5, 6, 7, 8].map((n) => past(n, 10, n, { host: "Codex", steps: null, tokens: null, cost: null })),
		);
		expect(suggestionText(codex)).toContain("- tokens: not measured (none of these sessions' hosts measure it)");
	});
});

describe("/timebox suggest", () => {
	const history: ProjectHistory = { sessions: [0, 1, 2, 3, 4, 5].map((n) => past(n, 10 + n, n + 1)), current: "s5" };

	it("is read as its own command, with no other word beside it", () => {
		expect(parseCommand("suggest")).toEqual({ kind: "suggest" });
		expect(parseCommand(" SUGGEST ")).toEqual({ kind: "suggest" });
		expect(parseCommand("suggest 15m")).toEqual({ kind: "invalid", reason: '"suggest" takes nothing else with it.' });
	});

	it("makes the suggestion of what the host read, leaving out the session asking, or says why it could not", async () => {
		const made = await readSuggestion(async () => history);
		expect(made).toMatchObject({ suggestion: { sessions: 5, words: "15m turns:5 $0.50" } });
		expect(await readSuggestion(undefined)).toBeUndefined();
		expect(await readSuggestion(() => Promise.reject(new Error("EACCES: ~/.pi")))).toEqual({
			problem: "EACCES: ~/.pi",
		});
		expect(await readSuggestion(() => Promise.reject("gone"))).toEqual({ problem: "gone" });
	});

	it("answers with the suggestion, why the history could not be read, or where to ask instead", () => {
		const suggestion = suggestionOf(history.sessions);
		expect(suggestReply({ suggestion })).toEqual({ message: suggestionText(suggestion), level: "info" });
		expect(suggestReply({ problem: "EACCES" })).toEqual({
			message: "Timebox: your past sessions could not be read (EACCES).",
			level: "warning",
		});
		expect(suggestReply(undefined)).toEqual({ message: NO_SUGGESTION, level: "info" });
	});

	it("changes nothing of the budget when planned", () => {
		const view = {
			budget: null,
			spent: null,
			usedTurns: 0,
			now: START,
			newBudgetId: "b",
			spend: { tokens: 0, cost: 0 },
		};
		expect(planCommand({ kind: "suggest" }, view)).toEqual({
			change: "none",
			reply: { message: NO_SUGGESTION, level: "info" },
		});
	});

	it("is answered by the runtime without the session's rules, in the host's words", () => {
		const runtime = (terms?: typeof CODEX_TERMS) =>
			new SessionRuntime({
				store: { append: () => {} },
				ledger: new MemoryLedger(),
				clock: new FakeTime(START),
				onStop: new RecordingStarter(),
				setStatus: () => {},
				abortRun: () => {},
				problem: () => {},
				late: () => {},
				...(terms ? { terms } : {}),
			});
		const suggestion = suggestionOf(history.sessions, history.current);
		const details = { newBudgetId: "b", report: () => "", suggestion: { suggestion } };
		expect(runtime().command("suggest", details).notices).toEqual([
			{ message: suggestionText(suggestion), level: "info" },
		]);
		expect(runtime(CODEX_TERMS).command("suggest", details).notices[0]?.message).toContain(
			"Try timebox 15m turns:5 $0.50 (the 90th percentile of your last 5 sessions here).",
		);
		expect(runtime().command("suggest", { newBudgetId: "b", report: () => "" }).notices).toEqual([
			{ message: NO_SUGGESTION, level: "info" },
		]);
	});

	it("is answered in a live session from the history its host reads", async () => {
		const time = new FakeTime(START);
		const ui = new MemoryUI();
		const session = new LiveSession({
			store: new MemoryStore(),
			ledger: new MemoryLedger(),
			ui,
			clock: time,
			scheduler: time,
			onStop: new RecordingStarter(),
			agent: { abortCurrentTurn: () => {} },
			newBudgetId: () => "b",
			projectHistory: async () => history,
		});
		session.onSessionStart("restore", false);
		await session.command("suggest");
		expect(ui.last).toEqual({ message: suggestionText(suggestionOf(history.sessions, "s5")), level: "info" });
	});
});

describe("a default of suggested", () => {
	const enough: ProjectHistory = { sessions: [0, 1, 2, 3, 4].map((n) => past(n, 20, 4)), current: null };
	const read = (history: ProjectHistory) => async () => history;

	it.each([
		[
			"a default that is not suggested, as it is",
			{ text: "15m", source: "TIMEBOX_DEFAULT" },
			read(enough),
			{ text: "15m", source: "TIMEBOX_DEFAULT" },
		],
		["no default", null, read(enough), null],
		[
			"suggested where the host reads no history, as it is",
			{ text: "suggested", source: "TIMEBOX_DEFAULT" },
			undefined,
			{ text: "suggested", source: "TIMEBOX_DEFAULT" },
		],
		[
			"suggested, as the suggested budget with where it came from",
			{ text: " Suggested ", source: "TIMEBOX_DEFAULT" },
			read(enough),
			{
				text: "20m turns:4 $0.40",
				source: "TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here)",
			},
		],
		[
			"suggested with too little history, as why there is none",
			{ text: "suggested", source: "PI_TIMEBOX" },
			read({ sessions: enough.sessions.slice(1), current: null }),
			{
				text: "suggested",
				source: "PI_TIMEBOX (suggested)",
				unavailable:
					"too little history to suggest a budget: 4 sessions of this project so far, and a suggestion needs 5.",
			},
		],
		[
			"suggested where the history cannot be read, as why there is none",
			{ text: "suggested", source: "TIMEBOX_DEFAULT" },
			() => Promise.reject(new Error("EIO")),
			{
				text: "suggested",
				source: "TIMEBOX_DEFAULT (suggested)",
				unavailable: "your past sessions could not be read (EIO).",
			},
		],
	])("resolves %s", async (_, given, reader, expected) => {
		expect(await resolveDefault(given, reader)).toEqual(expected);
	});

	it("names one session where the history holds one", () => {
		const one = suggestedDefault("TIMEBOX_DEFAULT", { sessions: 1, hosts: [], figures: null, words: "5m turns:1" });
		expect(one.source).toBe("TIMEBOX_DEFAULT (suggested: the 90th percentile of your last session here)");
	});

	async function started(history: ProjectHistory | null) {
		const time = new FakeTime(START);
		const ui = new MemoryUI();
		const store = new MemoryStore();
		const session = new LiveSession({
			store,
			ledger: new MemoryLedger(),
			ui,
			clock: time,
			scheduler: time,
			onStop: new RecordingStarter(),
			agent: { abortCurrentTurn: () => {} },
			newBudgetId: () => "b",
			...(history === null ? {} : { projectHistory: async () => history }),
		});
		const read = history === null ? undefined : async () => history;
		const given = await resolveDefault({ text: "suggested", source: "TIMEBOX_DEFAULT" }, read);
		session.onSessionStart("restore", true, given);
		return { ui, store, session };
	}

	it("sets the suggested budget in a new session, announced with where it came from", async () => {
		const { ui, store } = await started(enough);
		expect(ui.last).toEqual({
			message:
				"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here): 20m and 4 turns and $0.40.",
			level: "info",
		});
		expect(store.records).toEqual([expect.objectContaining({ kind: "active" })]);
	});

	it("starts the session without a budget with too little history, and says why", async () => {
		const { ui, store, session } = await started({ sessions: [], current: null });
		expect(ui.last).toEqual({
			message:
				"Timebox: TIMEBOX_DEFAULT (suggested): too little history to suggest a budget: no session of this project so far, and a suggestion needs 5. The session starts without a budget.",
			level: "warning",
		});
		expect(store.records).toEqual([]);
		expect(session.state.standing).toBeNull();
	});

	it("names suggested as no budget where the host reads no history", async () => {
		const { ui } = await started(null);
		expect(ui.last?.message).toMatch(/^Timebox: TIMEBOX_DEFAULT: "suggested" is not a budget word/);
	});
});
