// Token and cost budgets in the core: the words, the decision over four dimensions, the texts, the running totals of
// the rulebook, and the report of a session's budgets. Guards a cost limit that never fires, or fires on the wrong
// figure, and a decision that gets milder as usage grows.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decide, decideMidRun } from "../../src/core/decide.ts";
import { formatCost, formatStatus, formatTokens } from "../../src/core/format.ts";
import { parseCommand } from "../../src/core/grammar/command.ts";
import { foldHistory, type HistoryItem } from "../../src/core/model/history.ts";
import { budgetRecord, parseBudget } from "../../src/core/model/records.ts";
import {
	type Effect,
	EMPTY_SESSION,
	NOTHING_RECORDED,
	type SessionEvent,
	type SessionState,
	statusText,
	transition,
} from "../../src/core/session/index.ts";
import { spentUsage } from "../../src/core/text/messages.ts";
import { sessionReport } from "../../src/core/text/report.ts";
import { budget, MINUTE, START } from "../support/budgets.ts";
import { session } from "../support/session.ts";

const call = (prompt: string | null): SessionEvent => ({ type: "modelCall", prompt });
const response = (tokens: number, cost = 0): SessionEvent => ({ type: "modelResponse", tokens, cost });
const notices = (effects: readonly Effect[]): string[] =>
	effects.flatMap((effect) => {
		if (effect.kind === "notify") return [effect.message];
		if (effect.kind === "once") return notices(effect.then);
		return [];
	});

describe("token and cost words", () => {
	it.each([
		["tokens:200k", { tokenLimit: 200_000 }],
		["tokens:1.5m", { tokenLimit: 1_500_000 }],
		["tokens:50000", { tokenLimit: 50_000 }],
		["TOKENS:2K", { tokenLimit: 2_000 }],
		["tokens: 300k", { tokenLimit: 300_000 }],
		["cost:2.50", { costLimit: 2.5 }],
		["$2.50", { costLimit: 2.5 }],
		["cost:$3", { costLimit: 3 }],
		["cost: 1", { costLimit: 1 }],
		["30m turns:10 cost:2", { timeLimitMs: 30 * MINUTE, turnLimit: 10, costLimit: 2 }],
		["tokens:1k tokens:2k", { tokenLimit: 2_000, notes: ["tokens:2k replaces tokens:1k."] }],
		["$1 cost:2", { costLimit: 2, notes: ["cost:2 replaces $1."] }],
	])("reads %j", (input, expected) => {
		expect(parseCommand(input)).toEqual({
			kind: "set",
			timeLimitMs: null,
			turnLimit: null,
			onStopCommand: null,
			...expected,
		});
	});

	it.each([
		["tokens:0", '"tokens:0" is out of range: a token budget is 1 to 1,000,000,000 tokens.'],
		["tokens:2000m", '"tokens:2000m" is out of range: a token budget is 1 to 1,000,000,000 tokens.'],
		["cost:0", '"cost:0" is out of range: a cost budget is $0.01 to $10,000.'],
		["$20000", '"$20000" is out of range: a cost budget is $0.01 to $10,000.'],
		[
			"cost:two",
			'"cost:two" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
		[
			"tokens:lots",
			'"tokens:lots" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s.',
		],
	])("rejects %j and says why", (input, reason) => {
		expect(parseCommand(input)).toEqual({ kind: "invalid", reason });
	});

	it("extends by tokens and cost", () => {
		expect(parseCommand("+tokens:100k +$1")).toEqual({
			kind: "extend",
			addTimeMs: null,
			addTurns: null,
			addTokens: 100_000,
			addCost: 1,
		});
	});

	it("reads the report word alone, and refuses it with anything else", () => {
		expect(parseCommand("report")).toEqual({ kind: "report" });
		expect(parseCommand("report 15m")).toEqual({ kind: "invalid", reason: '"report" takes nothing else with it.' });
	});

	it("writes and reads token and cost limits, and what was used before a budget was written again", () => {
		const limited = budget({ tokenLimit: 200_000, costLimit: 2 });
		expect(parseBudget(budgetRecord(limited))).toEqual(limited);
		expect(budgetRecord(limited, 2, { tokens: 1_200, cost: 0.5 })).toMatchObject({
			turnsBefore: 2,
			tokensBefore: 1_200,
			costBefore: 0.5,
		});
		expect(parseBudget({ ...budgetRecord(limited), tokenLimit: 0.5, costLimit: 0 })).toBeNull();
		expect(parseBudget({ ...budgetRecord(limited), timeLimitMs: MINUTE, tokenLimit: "200k" })).toEqual({
			...budget({ costLimit: 2 }),
			timeLimitMs: MINUTE,
		});
	});
});

describe("the decision over four dimensions", () => {
	const four = budget({ timeLimitMs: 10 * MINUTE, turnLimit: 5, tokenLimit: 1_000, costLimit: 0.01 });

	it("stops on tokens, naming them, with the figures the stop message shows", () => {
		expect(decide(four, START, 1, { tokens: 1_200, cost: 0.004 })).toEqual({
			kind: "stop",
			usedTurns: 1,
			elapsedMs: 0,
			onStopCommand: null,
			summary: { usedTurns: 1, elapsedMs: 0, timeRanOut: false, limit: "tokens", tokens: 1_200, cost: 0.004 },
		});
		expect(spentUsage({ usedTurns: 1, elapsedMs: 0, timeRanOut: false, tokens: 1_200, cost: 0.012 }, four)).toBe(
			", 1,200 of 1,000 tokens, $0.012 of $0.01",
		);
	});

	it("stops on cost, and on time or turns as before", () => {
		expect(decide(four, START, 0, { tokens: 0, cost: 0.012 })).toMatchObject({
			kind: "stop",
			summary: { limit: "cost", cost: 0.012 },
		});
		expect(decide(four, START + 10 * MINUTE, 0, { tokens: 2_000, cost: 1 })).toMatchObject({
			summary: { timeRanOut: true },
		});
		expect(decide(four, START, 5).kind).toBe("stop");
		expect(decideMidRun(four, START, 5).kind).toBe("ok");
	});

	it("nudges on the worst ratio, naming what is left of each limit", () => {
		expect(decide(four, START, 0, { tokens: 850, cost: 0 })).toEqual({
			kind: "nudge",
			urgency: "warning",
			detail: "10m 0s left of 10m and 5 prompts left of 5 and 150 tokens left of 1k and $0.01 left of $0.01",
		});
		expect(decide(four, START, 0, { tokens: 0, cost: 0.0096 })).toMatchObject({ urgency: "critical" });
	});

	it("never gets milder as time, prompts, tokens or cost grow (property)", () => {
		const severity = (kind: string) => ({ ok: 0, nudge: 1, stop: 2 })[kind] ?? -1;
		const usage = fc.record({
			minutes: fc.integer({ min: 0, max: 15 }),
			turns: fc.integer({ min: 0, max: 7 }),
			tokens: fc.integer({ min: 0, max: 1_500 }),
			cost: fc.double({ min: 0, max: 0.02, noNaN: true }),
		});
		fc.assert(
			fc.property(usage, usage, (a, b) => {
				const low = {
					minutes: Math.min(a.minutes, b.minutes),
					turns: Math.min(a.turns, b.turns),
					tokens: Math.min(a.tokens, b.tokens),
					cost: Math.min(a.cost, b.cost),
				};
				const high = {
					minutes: Math.max(a.minutes, b.minutes),
					turns: Math.max(a.turns, b.turns),
					tokens: Math.max(a.tokens, b.tokens),
					cost: Math.max(a.cost, b.cost),
				};
				const at = (u: typeof low) =>
					severity(decide(four, START + u.minutes * MINUTE, u.turns, { tokens: u.tokens, cost: u.cost }).kind);
				expect(at(high)).toBeGreaterThanOrEqual(at(low));
			}),
			{ numRuns: 300 },
		);
	});
});

describe("texts", () => {
	it.each([
		[950, "950"],
		[1_500, "1.5k"],
		[150_000, "150k"],
		[1_250_000, "1.2m"],
	])("shows %d tokens as %j", (tokens, text) => {
		expect(formatTokens(tokens)).toBe(text);
	});

	it.each([
		[1.234, "$1.23"],
		[2, "$2.00"],
		[0.0042, "$0.0042"],
		[0, "$0.00"],
	])("shows $%d as %j", (dollars, text) => {
		expect(formatCost(dollars)).toBe(text);
	});

	it("shows what is set in the status, compactly", () => {
		const all = budget({ timeLimitMs: 15 * MINUTE, turnLimit: 5, tokenLimit: 200_000, costLimit: 2 });
		expect(formatStatus(all, START + 2 * MINUTE + 26_000, 2, { tokens: 150_000, cost: 1.23 })).toBe(
			"Timebox: 12m 34s left (15m budget) | 3 turns left (2/5) | $1.23 of $2.00 | 150k of 200k tokens",
		);
	});
});

describe("the rulebook's running totals", () => {
	const tokens1k = budget({ tokenLimit: 1_000, onStopCommand: "lmk" });

	function running(b = tokens1k): SessionState {
		return transition(session({ budget: b }), call("p1"), START).state;
	}

	it("lets the next call go while the budget is not reached, and stops the run after the response that reaches it", () => {
		const first = transition(running(), response(600), START);
		expect(first.state.standing?.spend).toEqual({ tokens: 600, cost: 0 });
		expect(first.effects).toEqual([
			{ kind: "status", text: "Timebox: no time limit | no turn limit | 600 of 1k tokens" },
		]);
		expect(transition(first.state, call(null), START).effects.some((effect) => effect.kind === "abort")).toBe(false);
		const second = transition(first.state, response(600), START);
		expect(notices(second.effects)).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, 1,200 of 1,000 tokens. The agent stops for this turn. The chat continues.",
		]);
		expect(second.effects).toContainEqual({ kind: "abort" });
		const claimed = second.effects.flatMap((effect) => (effect.kind === "once" ? effect.then : []));
		expect(claimed).toContainEqual({
			kind: "startOnStop",
			command: "lmk",
			claim: { budgetId: "budget-1", kind: "spent" },
		});
		expect(transition(second.state, call(null), START).effects).toContainEqual({ kind: "abort" });
	});

	it("counts nothing without a budget, while paused, or once spent", () => {
		expect(transition(EMPTY_SESSION, response(600), START)).toEqual({ state: EMPTY_SESSION, effects: [] });
		const paused = session({ budget: { ...tokens1k, pausedAt: START } });
		expect(transition(paused, response(600), START).state).toBe(paused);
	});

	it("stops a new prompt before its call is sent once the budget is used up", () => {
		const used = session({ budget: tokens1k, spend: { tokens: 1_000, cost: 0 }, lastPrompt: "p1" });
		const result = transition(used, call("p2"), START);
		expect(result.effects).toContainEqual({ kind: "abort" });
		expect(result.effects.at(-1)).toEqual({
			kind: "refuse",
			reason:
				"Timebox budget spent. Used 0 turns, 0s, 1,000 of 1,000 tokens. The agent stops for this turn. The chat continues.",
		});
	});

	it("keeps the totals through an extension, writing them into the record, and starts a new budget from zero", () => {
		const first = transition(running(), response(900), START).state;
		const extended = transition(first, { type: "command", args: "+tokens:1k", newBudgetId: "x" }, START);
		expect(statusText(extended.state, START)).toBe("Timebox: no time limit | no turn limit | 900 of 2k tokens");
		expect(extended.effects[0]).toMatchObject({ kind: "append", record: { budget: { tokensBefore: 900 } } });
		const replaced = transition(first, { type: "command", args: "tokens:5k", newBudgetId: "b2" }, START).state;
		expect(replaced.standing?.spend).toEqual({ tokens: 0, cost: 0 });
	});

	it("says when a cost limit cannot be enforced, and sets it all the same", () => {
		const set = (cost: "reported" | "model reports none" | "host cannot see") =>
			notices(transition(EMPTY_SESSION, { type: "command", args: "cost:2", newBudgetId: "b1", cost }, START).effects);
		expect(set("reported")).toEqual(["Timebox set: $2.00."]);
		expect(set("model reports none")).toEqual([
			"Timebox set: $2.00.\nTimebox: this model reports no cost: the cost limit cannot be enforced.",
		]);
		expect(set("host cannot see")).toEqual([
			"Timebox set: $2.00.\nTimebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.",
		]);
	});

	it("says when a token limit cannot be enforced on this host, and sets it all the same", () => {
		const set = (args: string, tokensSeen?: boolean) =>
			notices(
				transition(
					EMPTY_SESSION,
					{ type: "command", args, newBudgetId: "b1", ...(tokensSeen === undefined ? {} : { tokensSeen }) },
					START,
				).effects,
			);
		expect(set("tokens:1k")).toEqual(["Timebox set: 1k tokens."]);
		expect(set("tokens:1k", true)).toEqual(["Timebox set: 1k tokens."]);
		expect(set("tokens:1k", false)).toEqual([
			"Timebox set: 1k tokens.\nTimebox: this host does not tell Timebox what a model call used: the token limit cannot be enforced here.",
		]);
		expect(set("10m", false)).toEqual(["Timebox set: 10m."]);
	});

	it("restores the totals from the history: usage after the budget's record counts, before it and while paused not", () => {
		const items: HistoryItem[] = [
			{ kind: "usage", tokens: 5_000, cost: 1 },
			{ kind: "record", record: { kind: "active", budget: budgetRecord(tokens1k) } },
			{ kind: "prompt", key: "p1" },
			{ kind: "usage", tokens: 300, cost: 0.002 },
			{ kind: "usage", tokens: 200, cost: 0.001 },
		];
		expect(foldHistory(items).spend).toEqual({ tokens: 500, cost: 0.003 });
		const written = budgetRecord({ ...tokens1k, pausedAt: START }, 1, { tokens: 500, cost: 0.003 });
		const paused = [
			...items,
			{ kind: "record", record: { kind: "active", budget: written } },
			{ kind: "usage", tokens: 9, cost: 9 },
		];
		expect(foldHistory(paused as HistoryItem[]).spend).toEqual({ tokens: 500, cost: 0.003 });
		const loaded = transition(
			EMPTY_SESSION,
			{ type: "load", history: foldHistory(items), ledger: NOTHING_RECORDED, mode: "restore", announce: true },
			START,
		);
		expect(notices(loaded.effects)).toEqual([
			"Timebox restored: no time limit | no turn limit | 500 of 1k tokens. On stop it runs: lmk",
		]);
	});
});

describe("the report of a session's budgets", () => {
	const record = (b: ReturnType<typeof budget>, turnsBefore = 0): HistoryItem => ({
		kind: "record",
		record: { kind: "active", budget: budgetRecord(b, turnsBefore) },
	});
	const nothing = () => NOTHING_RECORDED;

	it("says when no budget was set", () => {
		expect(sessionReport([{ kind: "prompt", key: "p1" }], nothing, START)).toBe(
			"Timebox report: no budget was set in this session.",
		);
	});

	it("lists each budget with its limits, what it used and how it ended", () => {
		const first = budget({ id: "b1", timeLimitMs: 15 * MINUTE, turnLimit: 3 });
		const second = budget({ id: "b2", turnLimit: 5, costLimit: 2, startTime: START + 10 * MINUTE });
		const third = budget({ id: "b3", tokenLimit: 1_000, startTime: START + 20 * MINUTE });
		const fourth = budget({ id: "b4", timeLimitMs: MINUTE, startTime: START + 30 * MINUTE });
		const items: HistoryItem[] = [
			record(first),
			{ kind: "prompt", key: "p1" },
			{ kind: "usage", tokens: 150_000, cost: 1.234, at: START + MINUTE },
			record(second),
			{ kind: "prompt", key: "p2" },
			{ kind: "record", record: { kind: "off", version: 2, budgetId: "b2", disabledAt: START + 12 * MINUTE } },
			record(third),
			{ kind: "prompt", key: "p3" },
			{ kind: "usage", tokens: 1_200, cost: 0, at: START + 21 * MINUTE },
			{ kind: "usage", tokens: 5_000, cost: 0, at: START + 25 * MINUTE },
			record({ ...fourth, extensions: 1, timeLimitMs: 2 * MINUTE }),
			record({ ...fourth, extensions: 1, timeLimitMs: 2 * MINUTE, pausedAt: START + 31 * MINUTE }),
			{ kind: "prompt", key: "paused prompt" },
		];
		const lookup = (b: ReturnType<typeof budget>) =>
			b.id === "b3"
				? {
						...NOTHING_RECORDED,
						spent: { usedTurns: 1, elapsedMs: 2 * MINUTE, timeRanOut: false, limit: "tokens" as const, prompt: "p3" },
					}
				: NOTHING_RECORDED;
		expect(sessionReport(items, lookup, START + 40 * MINUTE).split("\n")).toEqual([
			"Timebox report: 4 budgets in this session.",
			"1. 15m and 3 turns, set 40m 0s ago: used 10m 0s, 1 turn, 150k tokens, $1.23. Replaced by a new budget.",
			"2. 5 turns and $2.00, set 30m 0s ago: used 2m 0s, 1 turn, 0 tokens, $0.00. Turned off.",
			"3. 1k tokens, set 20m 0s ago: used 2m 0s, 1 turn, 1.2k tokens, $0.00. Spent: the tokens were used up.",
			"4. 2m, set 10m 0s ago, extended once: used 1m 0s, 0 turns, 0 tokens, $0.00. Still active.",
		]);
	});
});

describe("token and cost limits in every text and command", () => {
	const both = budget({ tokenLimit: 10_000, costLimit: 2 });
	const spend = { tokens: 4_000, cost: 0.5 };

	it("extends the token and cost limits, or starts them from what is used", async () => {
		const { planCommand } = await import("../../src/core/grammar/command-plan.ts");
		const view = { budget: both, spent: null, usedTurns: 0, now: START, newBudgetId: "x", spend };
		expect(planCommand(parseCommand("+tokens:5k +$1"), view)).toMatchObject({
			change: "update",
			reply: { message: expect.stringMatching(/^Timebox extended by 5k tokens and \$1\.00\. /) },
			budget: { tokenLimit: 15_000, costLimit: 3, extensions: 1 },
		});
		const timeOnly = { ...view, budget: budget({ timeLimitMs: MINUTE }) };
		expect(planCommand(parseCommand("+tokens:5k +$1"), timeOnly)).toMatchObject({
			budget: { tokenLimit: 9_000, costLimit: 1.5 },
		});
		expect(planCommand(parseCommand("+$10000"), view)).toMatchObject({ change: "none", reply: { level: "warning" } });
		expect(planCommand(parseCommand("+tokens:1000m"), view)).toMatchObject({ change: "none" });
		expect(planCommand(parseCommand("report"), view)).toEqual({
			change: "none",
			reply: { message: "No budget was set in this session.", level: "info" },
		});
		expect(planCommand(parseCommand("$2"), { ...view, budget: null })).toMatchObject({
			reply: { message: "Timebox set: $2.00." },
		});
	});

	it("names the token and cost limits in the warning block, the aware line and the replace question", async () => {
		const { formatLeft } = await import("../../src/core/format.ts");
		const { formatAwareLine, formatNudgePrompt } = await import("../../src/core/text/model-notes.ts");
		expect(formatNudgePrompt(both, START, 0, "warning", 0, spend).split("\n").slice(2, 4)).toEqual([
			"Tokens left: 6k of 10k.",
			"Cost left: $1.50 of $2.00.",
		]);
		expect(formatAwareLine(both, START, 0, spend)).toBe("Timebox: 6k tokens and $1.50 left of 10k tokens / $2.00.");
		expect(formatLeft(both, START, 0, spend)).toBe("6k tokens left | $1.50 left");
		expect(formatAwareLine(both, START, 0)).toBe("Timebox: 10k tokens and $2.00 left of 10k tokens / $2.00.");
	});

	it("reads figures it cannot use as nothing used", async () => {
		const { worstRatio } = await import("../../src/core/model/measure.ts");
		expect(worstRatio(both, START, 0, { tokens: Number.NaN, cost: Number.POSITIVE_INFINITY })).toBe(0);
		expect(spentUsage({ usedTurns: 0, elapsedMs: 0, timeRanOut: false }, both)).toBe(
			", 0 of 10,000 tokens, $0.00 of $2.00",
		);
	});

	it("counts a report's budgets in words, and tells every ending apart", () => {
		const b1 = budget({ id: "b1", timeLimitMs: MINUTE, extensions: 3 });
		const items: HistoryItem[] = [
			{ kind: "record", record: { kind: "off", version: 2, budgetId: "none", disabledAt: START } },
			{ kind: "record", record: { kind: "active", budget: budgetRecord(b1) } },
			{ kind: "usage", tokens: 10, cost: 0.5 },
		];
		const spentAs = (summary: { timeRanOut: boolean; limit?: "tokens" | "cost"; noRoom?: true }) => () => ({
			...NOTHING_RECORDED,
			spent: { usedTurns: 2, elapsedMs: 30_000, prompt: null, ...summary },
		});
		expect(sessionReport(items, spentAs({ timeRanOut: true }), START + MINUTE).split("\n")).toEqual([
			"Timebox report: 1 budget in this session.",
			"1. 1m, set 1m 0s ago, extended 3 times: used 30s, 2 turns, 10 tokens, $0.50. Spent: the time ran out.",
		]);
		expect(sessionReport(items, spentAs({ timeRanOut: false, limit: "cost" }), START)).toContain(
			"Spent: the cost limit was reached.",
		);
		expect(sessionReport(items, spentAs({ timeRanOut: false, limit: "tokens", noRoom: true }), START)).toContain(
			"Spent: too little of the tokens was left for the next model call.",
		);
		expect(sessionReport(items, spentAs({ timeRanOut: false, limit: "cost", noRoom: true }), START)).toContain(
			"Spent: too little of the cost was left for the next model call.",
		);
	});
});
