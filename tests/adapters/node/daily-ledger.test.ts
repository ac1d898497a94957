// The shared daily ledger on disk, as several sessions (and processes) use it at once: a prompt is counted or refused,
// never both taken by two sessions; use and adjustments reach every session; a new day starts empty and the old one
// is pruned; a ledger that cannot be used says so once and never blocks.

import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDailyLedger, dailyStateDir, localDay } from "../../../src/adapters/node/daily-ledger.ts";
import { type DailyBudget, NO_ADJUSTMENT } from "../../../src/core/index.ts";

let dir: string;
let now: number;
const clock = { now: () => now };
const user: DailyBudget = {
	scope: "user",
	source: "s",
	limits: { timeMs: null, turns: 3, tokens: null, cost: null },
};
const project: DailyBudget = {
	scope: "project:/work/p",
	source: "p",
	limits: { timeMs: null, turns: null, tokens: null, cost: 1 },
};

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "timebox-daily-"));
	now = new Date(2026, 10, 22, 12, 0, 0).getTime();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the daily ledger", () => {
	it("lets two sessions take the prompts of a day, and never more than the limit between them", () => {
		const a = createDailyLedger(dir, "session-a", clock);
		const b = createDailyLedger(dir, "session-b", clock);
		const taken = [a, b, a, b, a].map((ledger) => ledger.countPrompt([user], [3]));
		expect(taken).toEqual([true, true, true, false, false]);
		expect(b.standings([user])[0]?.use).toMatchObject({ prompts: 3, sessions: 2 });
	});

	it("never counts more prompts than the limit, however sessions interleave (property)", () => {
		let runs = 0;
		fc.assert(
			fc.property(fc.array(fc.boolean(), { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (order, limit) => {
				// Each run is a day of its own scope, in the test's folder.
				const scope: DailyBudget = { ...user, scope: `project:/run-${++runs}` };
				const ledgers = [createDailyLedger(dir, "a", clock), createDailyLedger(dir, "b", clock)];
				const taken = order.filter((second) => ledgers[second ? 1 : 0]?.countPrompt([scope], [limit])).length;
				expect(taken).toBe(Math.min(order.length, limit));
			}),
			{ numRuns: 40 },
		);
	});

	it("adds agent time, tokens and cost for every session to see, reading on from where it stopped", () => {
		const a = createDailyLedger(dir, "a", clock);
		const b = createDailyLedger(dir, "b", clock);
		a.addUse([user, project], { agentMs: 1_000, tokens: 500, cost: 0.25 });
		expect(b.standings([user, project]).map((standing) => standing.use)).toEqual([
			{ agentMs: 1_000, prompts: 0, tokens: 500, cost: 0.25, sessions: 1 },
			{ agentMs: 1_000, prompts: 0, tokens: 500, cost: 0.25, sessions: 1 },
		]);
		b.addUse([user], { agentMs: 500 });
		appendFileSync(join(dir, "daily", "user", localDay(now), "use.jsonl"), 'damaged\n{"session":"c","tokens":-5}\n');
		expect(a.standings([user])[0]?.use).toEqual({ agentMs: 1_500, prompts: 0, tokens: 500, cost: 0.25, sessions: 3 });
	});

	it("shares today's additions and a day off with every session", () => {
		const a = createDailyLedger(dir, "a", clock);
		const b = createDailyLedger(dir, "b", clock);
		a.adjust(user, { ...NO_ADJUSTMENT, addPrompts: 2, addTimeMs: 60_000 });
		expect(b.standings([user])[0]?.adjustment).toEqual({ ...NO_ADJUSTMENT, addPrompts: 2, addTimeMs: 60_000 });
		b.adjust(user, { ...NO_ADJUSTMENT, off: true });
		expect(a.standings([user])[0]?.adjustment.off).toBe(true);
	});

	it("keeps the ledger's line format: added prompts are written and read as addTurns, as earlier versions do", () => {
		const a = createDailyLedger(dir, "a", clock);
		a.adjust(user, { ...NO_ADJUSTMENT, addPrompts: 2 });
		const adjust = join(dir, "daily", "user", localDay(now), "adjust.jsonl");
		expect(JSON.parse(readFileSync(adjust, "utf8"))).toEqual({
			session: "a",
			addTimeMs: 0,
			addTurns: 2,
			addTokens: 0,
			addCost: 0,
			off: false,
		});
		appendFileSync(
			adjust,
			`${JSON.stringify({ session: "old", addTimeMs: 0, addTurns: 3, addTokens: 0, addCost: 0 })}\n`,
		);
		expect(createDailyLedger(dir, "b", clock).standings([user])[0]?.adjustment.addPrompts).toBe(5);
	});

	it("starts a new day at local midnight, empty, keeps yesterday, and prunes the days before it", () => {
		const a = createDailyLedger(dir, "a", clock);
		a.countPrompt([user], [3]);
		a.addUse([user], { tokens: 10 });
		now = new Date(2026, 10, 23, 0, 0, 1).getTime();
		expect(a.standings([user])[0]?.use).toEqual({ agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 });
		// Yesterday stays, for a clock set back across midnight.
		expect(readdirSync(join(dir, "daily", "user")).sort()).toEqual(["2026-11-22", "2026-11-23"]);
		expect(localDay(now)).toBe("2026-11-23");
		now = new Date(2026, 10, 25, 9, 0, 0).getTime();
		expect(createDailyLedger(dir, "b", clock).standings([user])[0]?.use.prompts).toBe(0);
		expect(readdirSync(join(dir, "daily", "user"))).toEqual(["2026-11-25"]);
	});

	it("says once why it cannot be used, counts nothing and blocks nothing", () => {
		const blocked = join(dir, "blocked");
		writeFileSync(blocked, "a file where the folder should be");
		const ledger = createDailyLedger(blocked, "a", clock);
		expect(ledger.standings([user])).toEqual([]);
		expect(ledger.standings([user])).toEqual([]);
		expect(ledger.countPrompt([user], [0])).toBe(true);
		ledger.addUse([user], { tokens: 5 });
		ledger.adjust(user, NO_ADJUSTMENT);
		expect(ledger.problem()).toMatch(
			/^Timebox: the daily ledger in .* cannot be used \(.*\), so today's budget is not enforced here\.$/,
		);
		expect(ledger.problem()).toBeNull();
	});

	it("waits for a line to be whole, counts a line without a session, and survives a day folder removed under it", () => {
		const a = createDailyLedger(dir, "a", clock);
		a.standings([user]);
		const use = join(dir, "daily", "user", localDay(now), "use.jsonl");
		writeFileSync(use, '{"tokens":7}\n5\n{"tokens":');
		expect(a.standings([user])[0]?.use).toMatchObject({ tokens: 7, sessions: 0 });
		expect(a.standings([user])[0]?.use).toMatchObject({ tokens: 7, sessions: 0 });
		rmSync(join(dir, "daily", "user", localDay(now)), { recursive: true, force: true });
		expect(a.countPrompt([user], [3])).toBe(true);
		expect(a.problem()).toMatch(/ENOENT/);
	});

	it("lives under $XDG_STATE_HOME/timebox, else ~/.local/state/timebox", () => {
		expect(dailyStateDir({ XDG_STATE_HOME: "/state", HOME: "/home/u" })).toBe("/state/timebox");
		expect(dailyStateDir({ XDG_STATE_HOME: " ", HOME: "/home/u" })).toBe("/home/u/.local/state/timebox");
		expect(dailyStateDir({})).toMatch(/\/\.local\/state\/timebox$/);
	});
});
