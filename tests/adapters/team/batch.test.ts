// The team batch (the plugin's `timebox-team.cjs <request>`, and a hook process's own), how a read-ahead ledger reaches
// its team's store: a request it cannot read gets a clear error and changes nothing; a batch sends its calls together
// and in order on the team's ledger and reads the day unless asked not to; what a session could not send, its last
// call's size and the store's failure go from one process to the next.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { parseTeamRequest, runTeamBatch, type TeamRequest } from "../../../src/adapters/team/batch.ts";
import { outboxFolder } from "../../../src/adapters/team/outbox.ts";
import type { TeamCarry } from "../../../src/adapters/team/team-day.ts";
import { type DailyBudget, NO_ADJUSTMENT, TEAM_RETRY_MS } from "../../../src/core/index.ts";
import { runBatchCli } from "../../../src/entries/batch-request.ts";
import { batchLedgerOn, MemoryStore, TEAM_CONFIG } from "./memory-store.ts";

const BUDGET: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 1, tokens: 10_000, cost: null },
};
let folder: string;
let now: number;
const clock = { now: () => now };
let store: MemoryStore;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-team-batch-"));
	now = Date.UTC(2026, 10, 28, 12);
	store = new MemoryStore(clock);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A session's team ledger over the store, taking over what the last process carried, each call waiting 5 s. */
function ledger(carried?: TeamCarry) {
	return batchLedgerOn(store, folder, "s1", clock, {}, { ...(carried ? { carried } : {}), waitMs: 5_000 });
}

const outboxOf = () => outboxFolder(folder, TEAM_CONFIG.team);

function request(ops: TeamRequest["ops"], carry?: TeamCarry): TeamRequest {
	return { session: "s1", budgets: [BUDGET], ops, ...(carry ? { carry } : {}) };
}

describe("the team batch's request", () => {
	it("is read when it names a session, its budgets and known calls, and refused with a clear reason else", () => {
		const good = request([{ op: "count", limits: [1] }, { op: "reserve" }]);
		expect(parseTeamRequest(JSON.stringify(good))).toEqual(good);
		expect(parseTeamRequest(undefined)).toEqual({ error: "the team request is not JSON" });
		expect(parseTeamRequest("{")).toEqual({ error: "the team request is not JSON" });
		expect(parseTeamRequest("[]")).toEqual({ error: "the team request names no session" });
		expect(parseTeamRequest('{"session":""}')).toEqual({ error: "the team request names no session" });
		expect(parseTeamRequest('{"session":"s1","budgets":[1]}')).toEqual({
			error: "the team request's budgets are not a list of budgets",
		});
		const calls = "the team request's calls are not a list of count, use, reserve, adjust, view, limits and ask";
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":{}}')).toEqual({ error: calls });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[{"op":"drop"}]}')).toEqual({ error: calls });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[null]}')).toEqual({ error: calls });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[],"carry":3}')).toEqual({
			error: "the team request's carry is not an object",
		});
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[],"read":"no"}')).toEqual({
			error: "the team request's read is not true or false",
		});
	});
});

describe("a team batch", () => {
	it("takes a raise on this machine's own ledger (no team is set), which has no answer to give: done", async () => {
		const own = createDailyLedger(join(folder, "own"), "s1", clock);
		const adjustment = { ...NO_ADJUSTMENT, addPrompts: 1 };
		const reply = await runTeamBatch(request([{ op: "adjust", budget: BUDGET, adjustment }]), own);
		expect(reply.writes).toEqual(["done"]);
		expect(reply.standings[0]?.adjustment.addPrompts).toBe(1);
	});

	it("runs its calls in order on the team's ledger, then reads the day", async () => {
		const adjustment = { ...NO_ADJUSTMENT, addTokens: 500 };
		const first = await runTeamBatch(
			request([
				{ op: "count", limits: [1] },
				{ op: "reserve" },
				{ op: "use", use: { agentMs: 2_000, tokens: 300 } },
				{ op: "adjust", budget: BUDGET, adjustment },
				{ op: "count", limits: [1] },
			]),
			ledger(),
		);
		expect(first.counted).toEqual([true, false]);
		expect(first.standings[0]?.use).toMatchObject({ prompts: 1, agentMs: 2_000, tokens: 300, sessions: 1 });
		expect(first.standings[0]?.adjustment.addTokens).toBe(500);
		expect(first.problems).toEqual([]);
		expect(first.carry).toEqual({
			lastCall: { tokens: 300, cost: 0 },
			failed: null,
		});
		// The next process reserves what the last call used.
		await runTeamBatch(request([{ op: "reserve" }], first.carry ?? undefined), ledger(first.carry ?? undefined));
		expect(store.hashes.get("timebox:{platform}:2026-11-28:res")?.get("s1")).toMatch(/^300:0:/);
		expect(store.calls.filter((call) => call.script === "reserve").every((call) => call.posted)).toBe(true);
		expect(store.calls.every((call) => call.timeoutMs === 5_000 || call.timeoutMs === 0)).toBe(true);
	});

	it("keeps what the store could not take for a later process, which sends it once the store answers", async () => {
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const down = await runTeamBatch(request([{ op: "count", limits: [1] }]), ledger());
		expect(down.counted).toEqual([true]);
		expect(down.problems).toEqual([expect.stringContaining("cannot be reached")]);
		expect(down.carry?.failed?.until).toBe(now + TEAM_RETRY_MS);
		// Within the retry window the store is left alone.
		const calls = store.calls.length;
		const waiting = await runTeamBatch(
			request([{ op: "use", use: { agentMs: 1_000 } }], down.carry ?? undefined),
			ledger(down.carry ?? undefined),
		);
		expect(store.calls).toHaveLength(calls);
		// A failure carried is said again by the next process (a session that keeps what it was told says it once).
		expect(waiting.problems).toEqual(down.problems);
		expect(readFileSync(join(outboxOf(), "unsent.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
		store.down = null;
		now += TEAM_RETRY_MS;
		const back = await runTeamBatch(request([], waiting.carry ?? undefined), ledger(waiting.carry ?? undefined));
		expect(back.standings[0]?.use).toMatchObject({ prompts: 1, agentMs: 1_000 });
		// Once the store answers, the failure carried is not said.
		expect(back.problems).toEqual([]);
		expect(readdirSync(outboxOf())).toEqual([]);
		// A failure carried is said in its own words, though the store fails again for another reason, and is carried on
		// in them: one outage, said once a session.
		store.down = "timeout";
		now += TEAM_RETRY_MS;
		const carried = {
			lastCall: { tokens: 0, cost: 0 },
			failed: { why: "connect ECONNREFUSED 127.0.0.1:6390", until: 0 },
		};
		const later = await runTeamBatch(request([], carried), ledger(carried));
		expect(later.problems).toEqual(down.problems);
		expect(later.carry?.failed).toEqual({ why: "connect ECONNREFUSED 127.0.0.1:6390", until: now + TEAM_RETRY_MS });
		// The store answers a call, then fails the next in the same batch: the outage carried ended, nothing is said.
		store.down = null;
		now += TEAM_RETRY_MS;
		store.failingScript.set("count", "read ECONNRESET");
		const flap = await runTeamBatch(
			request(
				[
					{ op: "use", use: { agentMs: 1 } },
					{ op: "count", limits: [9] },
				],
				later.carry ?? undefined,
			),
			ledger(later.carry ?? undefined),
		);
		expect(flap.problems).toEqual([]);
		expect(flap.carry?.failed?.why).toBe("read ECONNRESET");
		store.failingScript.clear();
		// A failure carried from a clock since set back is not waited out: the store is tried.
		const ahead = { lastCall: { tokens: 0, cost: 0 }, failed: { why: "timeout", until: now + 3_600_000 } };
		store.calls = [];
		expect((await runTeamBatch(request([], ahead), ledger(ahead))).problems).toEqual([]);
		expect(store.calls[0]?.script).toBe("read");
		// Nothing left to send sends nothing when the store answers again.
		store.down = "timeout";
		const again = await runTeamBatch(request([], back.carry ?? undefined), ledger(back.carry ?? undefined));
		store.down = null;
		now += TEAM_RETRY_MS;
		store.calls = [];
		await runTeamBatch(request([], again.carry ?? undefined), ledger(again.carry ?? undefined));
		expect(store.calls.map((call) => call.script)).toEqual(["read"]);
	});

	it("reads the day after what a new process sends first: its count and the use kept here while the store was down", async () => {
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		await runTeamBatch(request([{ op: "use", use: { tokens: 70 } }]), batchLedgerOn(store, folder, "s0", clock));
		store.down = null;
		// Another session's first process, with nothing carried: its count goes first, and the kept use with it.
		const first = await runTeamBatch(request([{ op: "count", limits: [1] }]), ledger());
		expect(first.counted).toEqual([true]);
		expect(first.standings[0]?.use).toMatchObject({ prompts: 1, tokens: 70 });
		expect(readdirSync(outboxOf())).toEqual([]);
	});

	it("runs on this machine's ledger where no team is set, and says what is set wrongly", async () => {
		const state = join(folder, "state");
		const text = JSON.stringify(request([{ op: "count", limits: [1] }, { op: "reserve" }]));
		const alone = await runBatchCli(text, { XDG_STATE_HOME: state }, clock, import.meta.url);
		expect(JSON.parse(alone)).toMatchObject({ counted: [true], problems: [], carry: null });
		const wrong = await runBatchCli(text, { XDG_STATE_HOME: state, TIMEBOX_TEAM: "platform" }, clock, import.meta.url);
		expect(JSON.parse(wrong)).toMatchObject({
			counted: [false],
			problems: [
				"Timebox: TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE (redis://host:6379). The daily budget is this machine's alone.",
			],
		});
		expect(await runBatchCli("{", {}, clock, import.meta.url)).toBe(
			'{"error":"timebox: the team request is not JSON"}\n',
		);
	});

	it("sends a batch's calls together, and reads nothing after them where the request says so", async () => {
		const reply = await runTeamBatch(
			{
				...request([
					{ op: "count", limits: [5] },
					{ op: "use", use: { agentMs: 10 } },
				]),
				read: false,
			},
			ledger(),
		);
		expect(reply).toMatchObject({ counted: [true], standings: [] });
		expect(store.calls.map((call) => call.script)).toEqual(["count", "use"]);
	});
});
