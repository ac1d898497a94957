// The hook script's team batch (`timebox.mjs team <request>`), how Claude Code's hooks module reaches its team's store:
// a request it cannot read gets a clear error and changes nothing; a batch runs its calls in order on the real team
// ledger and reads the day; what a session could not send, its last call's size and the store's failure go from one
// process to the next.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import { runCli } from "../../../src/adapters/hooks/cli.ts";
import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { parseTeamRequest, runTeamBatch, type TeamRequest } from "../../../src/adapters/team/batch.ts";
import { type TeamCarry, TeamLedger } from "../../../src/adapters/team/ledger.ts";
import { fileOutbox, outboxFolder } from "../../../src/adapters/team/outbox.ts";
import { type DailyBudget, DEFAULT_TERMS, NO_ADJUSTMENT, TEAM_RETRY_MS } from "../../../src/core/index.ts";
import { MemoryStore, TEAM_CONFIG } from "./memory-store.ts";

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
function opener(session: string) {
	return (carried: TeamCarry | undefined) =>
		new TeamLedger(
			TEAM_CONFIG,
			() => store,
			createDailyLedger(folder, session, clock),
			session,
			clock,
			fileOutbox(outboxFolder(folder, TEAM_CONFIG.team)),
			{ ...(carried ? { carried } : {}), waitMs: 5_000 },
		);
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
		const calls = "the team request's calls are not a list of count, use, reserve and adjust";
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":{}}')).toEqual({ error: calls });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[{"op":"drop"}]}')).toEqual({ error: calls });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[null]}')).toEqual({ error: calls });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[],"carry":3}')).toEqual({
			error: "the team request's carry is not an object",
		});
		const command = "the team request's command is not a /timebox today or /timebox team";
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[],"command":"off"}')).toEqual({ error: command });
		expect(parseTeamRequest('{"session":"s1","budgets":[],"ops":[],"command":7}')).toEqual({ error: command });
		const asking = { ...request([]), command: "team ask +30m why" };
		expect(parseTeamRequest(JSON.stringify(asking))).toEqual(asking);
	});
});

describe("a team batch", () => {
	it("runs its calls in order on the team's ledger, then reads the day", () => {
		const adjustment = { ...NO_ADJUSTMENT, addTokens: 500 };
		const first = runTeamBatch(
			request([
				{ op: "count", limits: [1] },
				{ op: "reserve" },
				{ op: "use", use: { agentMs: 2_000, tokens: 300 } },
				{ op: "adjust", budget: BUDGET, adjustment },
				{ op: "count", limits: [1] },
			]),
			opener("s1"),
		);
		expect(first.counted).toEqual([true, false]);
		expect(first.standings[0]?.use).toMatchObject({ prompts: 1, agentMs: 2_000, tokens: 300, sessions: 1 });
		expect(first.standings[0]?.adjustment.addTokens).toBe(500);
		expect(first.problem).toBeNull();
		expect(first.carry).toEqual({
			lastCall: { tokens: 300, cost: 0 },
			failed: null,
		});
		// The next process reserves what the last call used.
		runTeamBatch(request([{ op: "reserve" }], first.carry ?? undefined), opener("s1"));
		expect(store.hashes.get("timebox:{platform}:2026-11-28:res")?.get("s1")).toMatch(/^300:0:/);
		expect(store.calls.every((call) => call.timeoutMs === 5_000 || call.timeoutMs === 0)).toBe(true);
	});

	it("keeps what the store could not take for a later process, which sends it once the store answers", () => {
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const down = runTeamBatch(request([{ op: "count", limits: [1] }]), opener("s1"));
		expect(down.counted).toEqual([true]);
		expect(down.problem).toContain("cannot be reached");
		expect(down.carry?.failed?.until).toBe(now + TEAM_RETRY_MS);
		// Within the retry window the store is left alone.
		const calls = store.calls.length;
		const waiting = runTeamBatch(
			request([{ op: "use", use: { agentMs: 1_000 } }], down.carry ?? undefined),
			opener("s1"),
		);
		expect(store.calls).toHaveLength(calls);
		expect(readFileSync(join(outboxOf(), "unsent.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
		store.down = null;
		now += TEAM_RETRY_MS;
		const back = runTeamBatch(request([], waiting.carry ?? undefined), opener("s1"));
		expect(back.standings[0]?.use).toMatchObject({ prompts: 1, agentMs: 1_000 });
		expect(readdirSync(outboxOf())).toEqual([]);
		// Nothing left to send sends nothing when the store answers again.
		store.down = "timeout";
		const again = runTeamBatch(request([], back.carry ?? undefined), opener("s1"));
		store.down = null;
		now += TEAM_RETRY_MS;
		store.calls = [];
		runTeamBatch(request([], again.carry ?? undefined), opener("s1"));
		expect(store.calls.map((call) => call.script)).toEqual(["read"]);
	});

	it("answers a daily command against the store, in the host's terms, after the calls before it", () => {
		const terms = { ...DEFAULT_TERMS, command: "timebox" };
		const set = runTeamBatch(
			{ ...request([{ op: "count", limits: [1] }]), command: "team set turns:3" },
			opener("s1"),
			terms,
		);
		expect(set.counted).toEqual([true]);
		expect(set.said).toEqual([
			{
				message:
					"Timebox: the team platform's limits are now 3 turns a day, in its store, for every member from their next check.",
				level: "info",
			},
		]);
		// The day read after the command is the store's.
		expect(set.standings.map((standing) => [standing.budget.scope, standing.budget.limits.turns])).toEqual([
			["team", 3],
			["user", 1],
		]);
		store.member = true;
		const refused = runTeamBatch({ ...request([]), command: "today +1h" }, opener("s1"), terms);
		expect(refused.said).toEqual([
			{
				message:
					"Timebox: only the team's admin can change its budget (the store refused this user). Ask with timebox team ask +30m <why>.",
				level: "warning",
			},
		]);
		// A command that is no daily one says nothing; one whose ledger throws is said as Timebox's own failure.
		expect(runTeamBatch({ ...request([]), command: "off" }, opener("s1")).said).toEqual([]);
		const failing = () => {
			const ledger = opener("s1")(undefined);
			ledger.teamView = () => {
				throw new Error("boom");
			};
			return ledger;
		};
		expect(runTeamBatch({ ...request([]), command: "team" }, failing).said).toEqual([
			{ message: expect.stringContaining("boom"), level: "error" },
		]);
	});

	it("runs on this machine's ledger where no team is set, and says what is set wrongly", async () => {
		const state = join(folder, "state");
		const deps = {
			hosts: [claudeCodeHost],
			clock,
			onStop: { start: () => {} },
			runStatusLine: () => "",
			script: "timebox.mjs",
			startWatcher: () => {},
			sleep: async () => {},
		};
		const text = JSON.stringify(request([{ op: "count", limits: [1] }, { op: "reserve" }]));
		const alone = await runCli(["team", text], "", { XDG_STATE_HOME: state }, deps);
		expect(alone.stderr).toBe("");
		expect(JSON.parse(alone.stdout)).toMatchObject({ counted: [true], problem: null, carry: null });
		const wrong = await runCli(["team", text], "", { XDG_STATE_HOME: state, TIMEBOX_TEAM: "platform" }, deps);
		expect(JSON.parse(wrong.stdout)).toMatchObject({
			counted: [false],
			problem:
				"Timebox: TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE (redis://host:6379). The daily budget is this machine's alone.",
		});
		expect(await runCli(["team", "{"], "", {}, deps)).toEqual({
			stdout: '{"error":"timebox: the team request is not JSON"}\n',
			stderr: "",
		});
	});
});
