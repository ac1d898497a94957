// A team's daily ledger against a real Redis (Debian's redis-server, started here with append-only persistence): the
// daily ledger contract, a property of reservations and their settlement, a kill -9 and restart that loses nothing,
// an outage in both modes, a wrong password, an address without a port, and a Redis that does not answer in time.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DailyBudget, type DailyLedger, TEAM_CALL_MS, TEAM_CONNECT_MS } from "../../../src/core/index.ts";
import { openDailyLedger } from "../../../src/entries/daily-ledgers.ts";
import { dailyLedgerContract } from "../../contracts/daily-ledger-contract.ts";
import { PACKAGE_ENTRY, RedisServer } from "../support/redis.ts";

const BUDGET: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 8, tokens: null, cost: null },
};
const budgets = [BUDGET];
const clock = { now: () => Date.now() };
let redis: RedisServer;
let state: string;
let teams = 0;

beforeAll(async () => {
	redis = await RedisServer.start([
		"--user",
		"default",
		"on",
		"nopass",
		"~*",
		"+@all",
		"--user",
		"platform-bot",
		"on",
		">s3cret",
		"~timebox:{platform-*",
		"+@read",
		"+@write",
		"+@scripting",
	]);
	state = mkdtempSync(join(tmpdir(), "timebox-team-state-"));
});
afterAll(async () => {
	await redis.dispose();
	rmSync(state, { recursive: true, force: true });
});

/** A session's ledger on the team's store, as a host opens it. */
function session(team: string, id: string, env: NodeJS.ProcessEnv = {}, url = redis.url()): DailyLedger {
	return openDailyLedger({
		env: { XDG_STATE_HOME: join(state, id), TIMEBOX_DAILY_STORE: url, TIMEBOX_TEAM: team, ...env },
		sessionId: id,
		clock,
		host: "test",
		entry: PACKAGE_ENTRY,
	});
}

/** A team of its own for each day the tests need. */
function newTeam(): string {
	teams += 1;
	return `platform-${process.pid}-${teams}`;
}

dailyLedgerContract("team (a real Redis)", () => {
	const team = newTeam();
	return { session: (id) => session(team, id) };
});

describe("a team's day in a real Redis", () => {
	it("counts the model calls in flight as what they reserved, until their answers settle them (a property)", () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						who: fc.integer({ min: 0, max: 2 }),
						act: fc.constantFrom("reserve", "settle"),
						tokens: fc.integer({ min: 1, max: 1_000 }),
					}),
					{ maxLength: 12 },
				),
				(steps) => {
					const team = newTeam();
					const ledgers = [0, 1, 2].map((index) => session(team, `s${index}`));
					const reader = session(team, "reader");
					let settled = 0;
					const last = [0, 0, 0];
					const reserved: (number | null)[] = [null, null, null];
					for (const step of steps) {
						const ledger = ledgers[step.who] as DailyLedger;
						if (step.act === "reserve") {
							ledger.reserve?.(budgets);
							// Sent without waiting: it reaches Redis before this session's next call.
							ledger.standings(budgets);
							reserved[step.who] = last[step.who] as number;
						} else {
							ledger.addUse(budgets, { tokens: step.tokens, cost: 0 });
							settled += step.tokens;
							last[step.who] = step.tokens;
							reserved[step.who] = null;
						}
						const inFlight = reserved.reduce<number>((sum, amount) => sum + (amount ?? 0), 0);
						// Every other session sees what was settled and what is reserved; never less, never more.
						expect(reader.standings(budgets)[0]?.use.tokens).toBe(settled + inFlight);
					}
				},
			),
			{ numRuns: 12 },
		);
	});

	it("loses nothing it acknowledged when Redis is killed with SIGKILL and started again on its data", async () => {
		const team = newTeam();
		const a = session(team, "a");
		for (let count = 0; count < 3; count++) expect(a.countPrompt(budgets, [8])).toBe(true);
		a.addUse(budgets, { tokens: 1_234, cost: 0.5, agentMs: 60_000 });
		await redis.restart();
		const b = session(team, "b");
		const [standing] = b.standings(budgets);
		expect(b.problem()).toBeNull();
		expect(standing?.use).toMatchObject({ prompts: 3, tokens: 1_234, cost: 0.5, agentMs: 60_000, sessions: 1 });
		// Every key of the day carries a TTL past the day's end.
		const ttl = Number(redis.cli(["TTL", `timebox:{${team}}:${new Date().toISOString().slice(0, 10)}:use`]));
		expect(ttl).toBeGreaterThan(24 * 3_600);
		expect(ttl).toBeLessThanOrEqual(48 * 3_600);
	});

	it("goes on with this machine's ledger while Redis is down, and sends what it used when Redis is back", async () => {
		const team = newTeam();
		const a = session(team, "a");
		expect(a.countPrompt(budgets, [8])).toBe(true);
		await redis.kill9();
		const started = performance.now();
		expect(a.countPrompt(budgets, [8])).toBe(true);
		a.addUse(budgets, { tokens: 100 });
		expect(performance.now() - started).toBeLessThan(2_000);
		expect(a.problem()).toMatch(
			new RegExp(
				`^Timebox: the team's daily store redis://127\\.0\\.0\\.1:${redis.port} cannot be reached \\(.+\\): this machine counts today's use on its own until it answers, then sends it to the team\\.$`,
			),
		);
		expect(a.problem()).toBeNull();
		await redis.restart();
		await new Promise((resolve) => setTimeout(resolve, 5_100));
		a.standings(budgets);
		expect(session(team, "b").standings(budgets)[0]?.use).toMatchObject({ prompts: 2, tokens: 100 });
	});

	it("keeps on disk what a session used while Redis was down, and the next session on that machine sends it once", async () => {
		const team = newTeam();
		const machine = { XDG_STATE_HOME: join(state, `machine-${team}`) };
		const hook = session(team, "hook-1", machine);
		expect(hook.countPrompt(budgets, [8])).toBe(true);
		await redis.kill9();
		expect(hook.countPrompt(budgets, [8])).toBe(true);
		hook.addUse(budgets, { agentMs: 3_000, tokens: 100, cost: 0.25 });
		// The hook's process ends here, before Redis is back: what it used waits in this machine's outbox.
		const outbox = join(machine.XDG_STATE_HOME, "timebox", "team", `team-${team}`);
		const kept = readFileSync(join(outbox, "unsent.jsonl"), "utf8");
		expect(kept.trim().split("\n")).toHaveLength(2);
		await redis.restart();
		const next = session(team, "hook-2", machine);
		expect(next.standings(budgets)[0]?.use).toMatchObject({ prompts: 2, agentMs: 3_000, tokens: 100, cost: 0.25 });
		expect(readdirSync(outbox)).toEqual([]);
		// A sender killed before it let go of the batch leaves it: sent again, Redis counts it once.
		writeFileSync(join(outbox, "sending-0-killed.jsonl"), kept);
		expect(session(team, "hook-3", machine).standings(budgets)[0]?.use).toMatchObject({ prompts: 2, tokens: 100 });
		expect(session(team, "elsewhere").standings(budgets)[0]?.use).toMatchObject({ prompts: 2, tokens: 100 });
	});

	it("sends what a member with no daily budget used while Redis was down, where the team keeps limits only", async () => {
		for (const limits of [true, false]) {
			const team = newTeam();
			const machine = { XDG_STATE_HOME: join(state, `machine-${team}`) };
			const admin = session(team, "admin");
			if (limits) expect(admin.setTeamLimits?.({ timeMs: null, turns: 20, tokens: null, cost: null })).toBe("done");
			const hook = session(team, "member-1", machine);
			expect(hook.standings([])).toHaveLength(limits ? 1 : 0);
			await redis.kill9();
			expect(hook.standings([])).toEqual([]);
			expect(hook.countPrompt([], [])).toBe(true);
			hook.addUse([], { tokens: 40 });
			await redis.restart();
			const next = session(team, "member-2", machine);
			const [standing] = next.standings([]);
			// With limits, the team's day has the member's prompt and tokens; without, the member counted nowhere.
			if (limits) expect(standing?.use).toMatchObject({ prompts: 1, tokens: 40 });
			else
				expect(session(team, "member-3", machine).standings(budgets)[0]?.use).toMatchObject({ prompts: 0, tokens: 0 });
			expect(readdirSync(join(machine.XDG_STATE_HOME, "timebox", "team", `team-${team}`))).toEqual([]);
		}
	});

	it("refuses new turns while Redis is down in the closed mode, saying why", async () => {
		const team = newTeam();
		const a = session(team, "a", { TIMEBOX_DAILY_STORE_FAILURE: "closed" });
		a.standings(budgets);
		await redis.kill9();
		try {
			const [standing] = a.standings(budgets);
			expect(standing?.closed).toMatch(
				/^Timebox: the team's daily store redis:\/\/127\.0\.0\.1:\d+ cannot be reached \(.+\), so new turns are refused until it answers\.$/,
			);
			expect(a.countPrompt(budgets, [8])).toBe(false);
		} finally {
			await redis.restart();
		}
	});

	it("names a wrong password without printing it, and works with an ACL user limited to the team's keys", () => {
		const wrong = session("platform-acl", "a", {}, redis.url("platform-bot:wrong-pass"));
		wrong.standings(budgets);
		const said = wrong.problem() ?? "";
		expect(said).toMatch(
			/^Timebox: the team's daily store redis:\/\/platform-bot@127\.0\.0\.1:\d+ cannot be reached \(WRONGPASS/,
		);
		expect(said).not.toContain("wrong-pass");
		const right = session("platform-acl", "b", {}, redis.url("platform-bot:s3cret"));
		expect(right.countPrompt(budgets, [8])).toBe(true);
		expect(right.problem()).toBeNull();
		// Another team's keys are out of the ACL user's reach: Redis refuses, which is no outage: the turn is refused,
		// the session says why, and nothing is counted on this machine instead.
		const other = session("other", "c", {}, redis.url("platform-bot:s3cret"));
		expect(other.countPrompt(budgets, [8])).toBe(false);
		expect(other.problem()).toMatch(
			/^Timebox: the team's daily store redis:\/\/platform-bot@127\.0\.0\.1:\d+ refused this user the team's day \(NOPERM [^)]*\), so new turns are refused until its admin lets this user count there/,
		);
		expect(other.standings(budgets)[0]?.closed).toMatch(/refused this user the team's day/);
	});

	it("refuses an address without a port, naming it, and counts on this machine", () => {
		const ledger = session(newTeam(), "a", { TIMEBOX_DAILY_STORE: "redis://:secret@127.0.0.1" });
		expect(ledger.problem()).toBe(
			"Timebox: TIMEBOX_DAILY_STORE redis://127.0.0.1 names no port (redis://127.0.0.1:6379). The daily budget is this machine's alone.",
		);
		expect(ledger.countPrompt(budgets, [8])).toBe(true);
	});
});

describe("a Redis that answers slowly", () => {
	let server: Server;
	let port: number;
	beforeAll(async () => {
		// Takes connections and never answers: what a stalled Redis looks like to a client.
		server = createServer(() => {});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const address = server.address();
		port = typeof address === "object" && address !== null ? address.port : 0;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
	afterEach(() => server.getConnections(() => {}));

	it("never holds a turn past the first call's timeout, and names the store once", () => {
		const ledger = session(newTeam(), "a", {}, `redis://127.0.0.1:${port}`);
		const started = performance.now();
		expect(ledger.countPrompt(budgets, [8])).toBe(true);
		ledger.standings(budgets);
		// The client gives up on the script after TEAM_CALL_MS (twice: by its SHA, then whole); the next call is not
		// tried within TEAM_RETRY_MS.
		expect(performance.now() - started).toBeLessThan(TEAM_CONNECT_MS + 2 * TEAM_CALL_MS + 2_000);
		expect(ledger.problem()).toMatch(/cannot be reached/);
	});
});
