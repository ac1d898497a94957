// A team's limits in its store, through a session's team ledger over a store in memory that refuses a member's user
// the admin's keys (as docs/team.md's member ACL does on a real Redis, tests/e2e/team/team-admin.test.ts): the store's
// limits are the team's day, a member's own daily budget a personal cap on this machine beside them; only the admin
// sets the limits and raises the day, and a member's attempt changes nothing and never falls back to this machine's
// ledger; requests are recorded, listed, and answered by a raise that covers them.

import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { askMore } from "../../../src/adapters/team/admin.ts";
import type { StoreReply } from "../../../src/adapters/team/client.ts";
import { runSync } from "../../../src/adapters/team/ledger.ts";
import { storeAnswer, storeTexts } from "../../../src/adapters/team/outage.ts";
import { asksOf, fields, storedLimitsOf } from "../../../src/adapters/team/reading.ts";
import { adminKeys, type ScriptName } from "../../../src/adapters/team/scripts.ts";
import type { Step } from "../../../src/adapters/team/team-day.ts";
import {
	type DailyBudget,
	type DailyLimits,
	type DailyStanding,
	NO_ADJUSTMENT,
	TEAM_ASKS_KEPT,
	type TeamView,
} from "../../../src/core/index.ts";
import { batchLedgerOn, MemoryStore, TEAM_CONFIG, teamLedgerOn } from "./memory-store.ts";

const OWN: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 3, tokens: null, cost: null },
};
const DAY = "2026-11-28";
const LIMITS = { timeMs: null, turns: 2, tokens: null, cost: null };
let folder: string;
let now: number;
const clock = { now: () => now };
let store: MemoryStore;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-team-admin-"));
	now = Date.UTC(2026, 10, 28, 12);
	store = new MemoryStore(clock);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A session's team ledger on its own machine (its own folder), as `member`. */
function session(id: string, member = "ann@m1 (pi)") {
	return teamLedgerOn(store, join(folder, id), id, clock, { member });
}

/** The budgets a session counts on, as the rules hand them to the ledger: the standings'. */
const inForce = (standings: readonly DailyStanding[]) => standings.map((standing) => standing.budget);
const view = (ledger: { teamView(): TeamView }) => {
	const seen = ledger.teamView();
	if ("unreadable" in seen) throw new Error(seen.unreadable);
	return seen;
};

describe("a team's limits in its store", () => {
	it("are set by the admin, with who and when, and removed; none before", () => {
		const admin = session("s-admin", "root@hq (codex)");
		expect(view(admin)).toEqual({ stored: null, asks: [] });
		expect(admin.setTeamLimits({ timeMs: 3_600_000, turns: 2, tokens: 2_000_000, cost: 5.5 })).toBe("done");
		expect(store.hashes.get("timebox:{platform}:limits")).toEqual(
			new Map([
				["by", "root@hq (codex)"],
				["at", String(now)],
				["timeMs", "3600000"],
				["turns", "2"],
				["tokens", "2000000"],
				["cost", "5.5"],
				// The zone whose midnight starts the team's day, this machine's (TIMEBOX_TEAM_TZ, else UTC).
				["zone", "UTC"],
			]),
		);
		// The limits never expire: the admin set them for every day.
		expect(store.expiries.has("timebox:{platform}:limits")).toBe(false);
		expect(view(session("s-ann")).stored).toEqual({
			limits: { timeMs: 3_600_000, turns: 2, tokens: 2_000_000, cost: 5.5 },
			setBy: "root@hq (codex)",
			setAt: now,
		});
		expect(admin.setTeamLimits(LIMITS)).toBe("done");
		expect(store.hashes.get("timebox:{platform}:limits")?.has("cost")).toBe(false);
		expect(admin.setTeamLimits(null)).toBe("done");
		expect(view(admin).stored).toBeNull();
	});

	it("are the team's day for a member with no daily budget of their own, counted in the store", () => {
		session("s-admin").setTeamLimits(LIMITS);
		const ann = session("s-ann");
		const bob = session("s-bob", "bob@m2 (claude)");
		const standings = ann.standings([]);
		expect(standings.map((standing) => [standing.budget.scope, standing.budget.limits.turns])).toEqual([["team", 2]]);
		const budgets = inForce(standings);
		expect(ann.countPrompt(budgets, [2])).toBe(true);
		expect(bob.countPrompt(budgets, [2])).toBe(true);
		expect(bob.countPrompt(budgets, [2])).toBe(false);
		ann.addUse(budgets, { tokens: 100 });
		ann.reserve(budgets);
		expect(bob.standings([])[0]?.use).toMatchObject({ prompts: 2, tokens: 200, sessions: 2 });
		// Nothing of the team's day is counted on a machine: the store counts it.
		expect(existsSync(join(folder, "s-ann", "daily"))).toBe(false);
	});

	it("leave a member's own daily budget a personal cap, counted on their machine beside them: the stricter decides", () => {
		session("s-admin").setTeamLimits({ ...LIMITS, turns: 5 });
		const ann = session("s-ann");
		const standings = ann.standings([{ ...OWN, limits: { ...OWN.limits, turns: 1 } }]);
		expect(standings.map((standing) => [standing.budget.scope, standing.budget.limits.turns])).toEqual([
			["team", 5],
			["user", 1],
		]);
		const budgets = inForce(standings);
		expect(ann.countPrompt(budgets, [5, 1])).toBe(true);
		// The personal cap is spent on this machine, and the team's store is not asked.
		const counts = store.calls.filter((call) => call.script === "count").length;
		expect(ann.countPrompt(budgets, [5, 1])).toBe(false);
		expect(store.calls.filter((call) => call.script === "count")).toHaveLength(counts);
		ann.addUse(budgets, { agentMs: 1_000 });
		const [team, mine] = ann.standings([{ ...OWN, limits: { ...OWN.limits, turns: 1 } }]);
		expect(team?.use).toMatchObject({ prompts: 1, agentMs: 1_000 });
		expect(mine?.use).toMatchObject({ prompts: 1, agentMs: 1_000 });
		// A personal cap alone writes nothing to the store.
		ann.reserve([budgets[1] as DailyBudget]);
		ann.addUse([budgets[1] as DailyBudget], { tokens: 5 });
		expect(store.calls.at(-1)?.script).toBe("read");
	});

	it("keep counting the team's turns while the store fails, in the outbox, and a personal cap on the machine", () => {
		session("s-admin").setTeamLimits(LIMITS);
		const ann = session("s-ann");
		const budgets = inForce(ann.standings([OWN]));
		store.down = "connect ECONNREFUSED";
		expect(ann.countPrompt(budgets, [2, 3])).toBe(true);
		ann.addUse(budgets, { tokens: 10 });
		// The store's limits are not this machine's: only the personal cap counts here.
		expect(ann.standings([OWN]).map((standing) => [standing.budget.scope, standing.use.prompts])).toEqual([
			["user", 1],
		]);
		expect(readdirSync(join(folder, "s-ann", "team", "team-platform"))).toEqual(["unsent.jsonl"]);
		const closed = teamLedgerOn(store, join(folder, "s-bob"), "s-bob", clock, { failure: "closed" });
		expect(closed.countPrompt(budgets.slice(0, 1), [2])).toBe(false);
		// In the closed mode a session with no daily budget of its own is refused new turns too.
		const [standing] = closed.standings([]);
		expect(standing?.closed).toMatch(/cannot be reached \(connect ECONNREFUSED\), so new turns are refused/);
		expect(teamLedgerOn(store, join(folder, "s-cy"), "s-cy", clock).standings([])).toEqual([]);
	});
});

describe("a member's requests", () => {
	it("keeps two of one session made in the same millisecond, each once", () => {
		const ann = session("s-ann");
		for (const why of ["first", "second"]) expect(ann.askTeam({ ...NO_ADJUSTMENT, addPrompts: 1 }, why)).toBe("done");
		expect(
			view(ann)
				.asks.map((ask) => ask.why)
				.sort(),
		).toEqual(["first", "second"]);
	});
});

describe("the team's day, raised", () => {
	it("by the admin, for every member, answering the open requests the raise covers", () => {
		const admin = session("s-admin", "root@hq (codex)");
		admin.setTeamLimits(LIMITS);
		const ann = session("s-ann");
		now += 1;
		expect(ann.askTeam({ ...NO_ADJUSTMENT, addPrompts: 1 }, "one more")).toBe("done");
		now += 1;
		expect(session("s-bob", "bob@m2 (claude)").askTeam({ ...NO_ADJUSTMENT, addPrompts: 5 }, "")).toBe("done");
		expect(view(admin).asks.map((ask) => [ask.member, ask.adjustment.addPrompts, ask.why])).toEqual([
			["ann@m1 (pi)", 1, "one more"],
			["bob@m2 (claude)", 5, ""],
		]);
		const [team] = admin.standings([]);
		expect(admin.adjust(team?.budget as DailyBudget, { ...NO_ADJUSTMENT, addPrompts: 2 })).toBe("done");
		expect(ann.standings([])[0]?.adjustment).toEqual({ ...NO_ADJUSTMENT, addPrompts: 2 });
		// The raise of 2 answers the request for 1; the request for 5 stays open.
		expect(view(admin).asks.map((ask) => ask.adjustment.addPrompts)).toEqual([5]);
		expect(store.expiries.get(adminKeys("platform", DAY).raise)).toBe(Date.UTC(2026, 10, 30) / 1000);
		expect(admin.adjust(team?.budget as DailyBudget, { ...NO_ADJUSTMENT, off: true })).toBe("done");
		expect(view(admin).asks).toEqual([]);
		expect(ann.standings([])[0]?.adjustment.off).toBe(true);
	});

	it("not by a member: the store refuses it, nothing changes, and nothing falls back to this machine's ledger", () => {
		session("s-admin").setTeamLimits(LIMITS);
		store.member = true;
		const ann = session("s-ann");
		const standings = ann.standings([OWN]);
		const [team, mine] = inForce(standings) as [DailyBudget, DailyBudget];
		expect(ann.adjust(team, { ...NO_ADJUSTMENT, addPrompts: 100 })).toBe("refused");
		expect(ann.setTeamLimits({ ...LIMITS, turns: 1_000 })).toBe("refused");
		expect(ann.setTeamLimits(null)).toBe("refused");
		expect(ann.standings([OWN])).toEqual(standings);
		expect(store.hashes.get("timebox:{platform}:limits")?.get("turns")).toBe("2");
		// The store answered: it is not down, and nothing is said of it.
		expect(ann.problem()).toBeNull();
		expect(ann.countPrompt(inForce(standings), [2, 3])).toBe(true);
		// A member may still ask, and raise their own cap.
		expect(ann.askTeam({ ...NO_ADJUSTMENT, addTimeMs: 60_000 }, "why")).toBe("done");
		expect(ann.adjust(mine, { ...NO_ADJUSTMENT, addPrompts: 1 })).toBeUndefined();
	});

	it("without limits in the store, by the admin's raises too, which a member can write neither with Timebox nor by hand; a store that cannot be reached takes nothing, here either", () => {
		const ann = session("s-ann");
		const [budget] = inForce(ann.standings([OWN])) as [DailyBudget];
		expect(budget.team).toBeDefined();
		// A member's user may not: the store refuses it, and nothing changes anywhere.
		store.member = true;
		expect(ann.adjust(budget, { ...NO_ADJUSTMENT, addPrompts: 2 })).toBe("refused");
		expect(ann.adjust(budget, { ...NO_ADJUSTMENT, off: true })).toBe("refused");
		expect(store.hashes.get(`timebox:{platform}:raise:${DAY}`)?.get("addPrompts")).toBeUndefined();
		expect(ann.standings([OWN])[0]?.adjustment).toEqual(NO_ADJUSTMENT);
		expect(ann.problem()).toBeNull();
		// What a member may write by hand (the day's use, which their agent must write) raises nothing: an `off` or an
		// addition there, as an earlier release kept them, is not read.
		const use = store.hashes.get(`timebox:{platform}:${DAY}:use`);
		use?.set("off", "1");
		use?.set("addPrompts", "50");
		expect(session("s-bob").standings([OWN])[0]?.adjustment).toEqual(NO_ADJUSTMENT);
		store.member = false;
		expect(ann.adjust(budget, { ...NO_ADJUSTMENT, addPrompts: 2 })).toBe("done");
		expect(store.hashes.get(`timebox:{platform}:raise:${DAY}`)?.get("addPrompts")).toBe("2");
		expect(session("s-bob").standings([OWN])[0]?.adjustment).toEqual({ ...NO_ADJUSTMENT, addPrompts: 2 });
		// The limits, declared for the store's ACL alone, are neither made nor given an expiry.
		expect(store.hashes.get("timebox:{platform}:limits")?.size ?? 0).toBe(0);
		expect(store.expiries.has("timebox:{platform}:limits")).toBe(false);
		store.failing = "NOPERM this user has no permissions to run the 'evalsha' command";
		expect(ann.adjust(budget, { ...NO_ADJUSTMENT, addPrompts: 2 })).toBe("refused");
		store.failing = "ERR unknown command 'evalsha'";
		expect(ann.adjust(budget, { ...NO_ADJUSTMENT, addPrompts: 2 })).toEqual({
			failed: `Timebox: the team's daily store ${TEAM_CONFIG.shown} did not take it (ERR unknown command 'evalsha'). Nothing changed.`,
		});
		store.failing = null;
		store.down = "connect ECONNREFUSED";
		for (const adjustment of [{ addPrompts: 3 }, { off: true }]) {
			expect(ann.adjust(budget, { ...NO_ADJUSTMENT, ...adjustment })).toEqual({
				failed: `Timebox: the team's daily store ${TEAM_CONFIG.shown} cannot be reached (connect ECONNREFUSED), so nothing changed.`,
			});
		}
		// Not on this machine's ledger instead: it would lift the day for a member, whom an outage does not tell apart.
		expect(ann.standings([OWN])[0]?.adjustment).toEqual(NO_ADJUSTMENT);
		store.down = null;
		expect(store.hashes.get(`timebox:{platform}:raise:${DAY}`)?.get("addPrompts")).toBe("2");
		expect(session("s-carl").standings([OWN])[0]?.adjustment).toEqual({ ...NO_ADJUSTMENT, addPrompts: 2 });
	});
});

describe("a store that does not take a write", () => {
	it("says the store's own words, or that it cannot be reached, and nothing changed", () => {
		const ann = session("s-ann");
		store.failing = "ERR Error running script (call to f_1): @user_script:2: oops";
		expect(ann.setTeamLimits(LIMITS)).toEqual({
			failed: `Timebox: the team's daily store ${TEAM_CONFIG.shown} did not take it (ERR Error running script (call to f_1): @user_script:2: oops). Nothing changed.`,
		});
		expect(ann.teamView()).toEqual({
			unreadable: `Timebox: the team could not be read from its daily store ${TEAM_CONFIG.shown} (ERR Error running script (call to f_1): @user_script:2: oops), so the team cannot be shown.`,
		});
		// A store that refuses this user the read (its ACL) says so, as a call of the team's day does: no outage.
		for (const refusal of [
			"NOPERM this user has no permissions to access one of the keys used as arguments",
			"ERR The user executing the script can't run this command or subcommand script: 7a7e, on @user_script:1.",
		]) {
			store.failing = refusal;
			expect(ann.teamView()).toEqual({
				unreadable: `Timebox: the team's daily store ${TEAM_CONFIG.shown} refused this user (${refusal}), so the team cannot be shown (docs/team.md gives a member's ACL).`,
			});
		}
		store.failing = null;
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const bob = session("s-bob");
		expect(bob.askTeam({ ...NO_ADJUSTMENT, addPrompts: 1 }, "")).toEqual({
			failed: `Timebox: the team's daily store ${TEAM_CONFIG.shown} cannot be reached (connect ECONNREFUSED 127.0.0.1:6390), so nothing changed.`,
		});
		expect(bob.teamView()).toEqual({
			unreadable: `Timebox: the team's daily store ${TEAM_CONFIG.shown} cannot be reached (connect ECONNREFUSED 127.0.0.1:6390), so the team cannot be shown.`,
		});
		// A raise whose requests cannot be read first is still tried, and says why it failed.
		const raise = {
			scope: "team",
			source: "set in its store",
			limits: LIMITS,
			stored: { limits: LIMITS, setBy: "x", setAt: 0 },
		};
		now += 10_000;
		expect(bob.adjust(raise, { ...NO_ADJUSTMENT, addPrompts: 1 })).toEqual({
			failed: `Timebox: the team's daily store ${TEAM_CONFIG.shown} cannot be reached (connect ECONNREFUSED 127.0.0.1:6390), so nothing changed.`,
		});
	});

	it("refuses a request once the day holds as many open requests as it keeps", () => {
		const ann = session("s-ann");
		const calls = () => ({
			config: TEAM_CONFIG,
			zone: TEAM_CONFIG.zone,
			sessionId: "s-ann",
			now,
			day: { day: DAY, expiry: 1 },
			*send(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): Step<StoreReply> {
				return yield { script, keys: [...keys], args: [...args], timeoutMs: 1_000 };
			},
		});
		for (let index = 0; index < TEAM_ASKS_KEPT; index++) {
			now += 1;
			expect(runSync(askMore(calls(), { ...NO_ADJUSTMENT, addPrompts: 1 }, ""), () => store)).toBe("done");
		}
		expect(ann.askTeam({ ...NO_ADJUSTMENT, addPrompts: 1 }, "")).toEqual({
			failed: `Timebox: the team's day holds ${TEAM_ASKS_KEPT} open requests already, so this one was not recorded. Ask the admin directly.`,
		});
	});

	it("tells a refusal, a script's error and a store not reached apart", () => {
		expect(storeAnswer("NOPERM this user has no permissions to access one of the keys used as arguments")).toBe(
			"refused",
		);
		expect(
			storeAnswer("ERR The user executing the script can't access at least one of the keys mentioned in the command"),
		).toBe("refused");
		// A user the ACL does not let run a command a script runs (TIME, without +time): refused too, never an outage.
		expect(
			storeAnswer(
				"ERR The user executing the script can't run this command or subcommand script: 104ae65debf45156ded1e8e613705534c8e62c17, on @user_script:1.",
			),
		).toBe("refused");
		for (const error of ["ERR unknown command 'evalsha'", "WRONGTYPE Operation against a key", "NOSCRIPT No matching"])
			expect(storeAnswer(error)).toBe("error");
		for (const error of [
			"connect ECONNREFUSED",
			"LOADING Redis is loading",
			"Command timed out",
			"no answer within 3000 ms",
		])
			expect(storeAnswer(error)).toBeNull();
	});

	it("says a day it cannot read for a key of the wrong type as such, and a store out of reach as out of reach", () => {
		const texts = storeTexts(TEAM_CONFIG.shown);
		const named = `Timebox: the team's daily store ${TEAM_CONFIG.shown}`;
		const wrong = "WRONGTYPE Operation against a key holding the wrong kind of value";
		expect(texts.unreachable(wrong, false)).toBe(
			`${named} cannot read the team's day (${wrong}): this machine counts today's use on its own until the store reads it, then sends it there.`,
		);
		expect(texts.unreachable(wrong, true)).toBe(
			`${named} cannot read the team's day (${wrong}), so new turns are refused until it does.`,
		);
		expect(texts.refusal(wrong)).toBe(texts.unreachable(wrong, true));
		expect(texts.unreachable("connect ECONNREFUSED", false)).toBe(
			`${named} cannot be reached (connect ECONNREFUSED): this machine counts today's use on its own until it answers, then sends it to the team.`,
		);
		expect(texts.refusal("connect ECONNREFUSED")).toBe(
			`${named} cannot be reached (connect ECONNREFUSED), so new turns are refused until it answers.`,
		);
		expect(texts.denied("NOPERM x")).toMatch(/refused this user the team's day \(NOPERM x\)/);
		// Through a session's ledger: the day's read answered with the error.
		const ann = session("s-wrong");
		store.failing = wrong;
		ann.standings([]);
		expect(ann.problem()).toBe(texts.unreachable(wrong, false));
	});
});

describe("what the store keeps, read back", () => {
	const NO_LIMITS: DailyLimits = { timeMs: null, turns: null, tokens: null, cost: null };

	it("reads limits and requests written by hand as far as they can be read, and none where they cannot", () => {
		expect(storedLimitsOf(fields(["turns", "x", "cost", "-1"]))).toBeNull();
		expect(storedLimitsOf(fields(["turns", "5"]))).toEqual({
			limits: { timeMs: null, turns: 5, tokens: null, cost: null },
			setBy: "someone",
			setAt: 0,
		});
		// Any one limit is limits; an amount below zero, or not finite, is none; a field with no value is dropped.
		for (const [field, value, read] of [
			["timeMs", "60000", { timeMs: 60_000 }],
			["tokens", "1e6", { tokens: 1_000_000 }],
			["cost", "2.5", { cost: 2.5 }],
		] as const) {
			expect(storedLimitsOf(fields([field, value, "by", "admin", "at", "-4"]))).toEqual({
				limits: { ...NO_LIMITS, ...read },
				setBy: "admin",
				setAt: 0,
			});
		}
		expect(storedLimitsOf(fields(["tokens", "Infinity", "cost", "0"]))).toBeNull();
		expect(fields(["turns", "5", "cost"])).toEqual(new Map([["turns", "5"]]));
		expect(fields("not a list")).toEqual(new Map());
		expect(asksOf(fields(["e", "null", "f", '"text"']))).toEqual([]);
		const asks = asksOf(
			fields([
				"a",
				"{",
				"b",
				"7",
				"c",
				JSON.stringify({ addPrompts: 2, at: 9 }),
				"d",
				JSON.stringify({ member: "x", why: "y", addTimeMs: 60_000, at: 3 }),
			]),
		);
		expect(asks).toEqual([
			{ id: "d", member: "x", adjustment: { ...NO_ADJUSTMENT, addTimeMs: 60_000 }, why: "y", at: 3 },
			{ id: "c", member: "someone", adjustment: { ...NO_ADJUSTMENT, addPrompts: 2 }, why: "", at: 9 },
		]);
	});
});

describe("the team's time zone", () => {
	// 23:30 UTC on 28 November: already the 29th in Berlin, still the 28th in UTC, Honolulu and Los Angeles.
	const LATE = Date.UTC(2026, 10, 28, 23, 30);
	/** A session on a machine of its own whose TIMEBOX_TEAM_TZ (else UTC) is `zone`. */
	const zoned = (id: string, zone: string) =>
		teamLedgerOn(store, join(folder, id), id, clock, { member: `${id}@m (pi)`, zone });
	const told = (own: string) =>
		`Timebox: the team platform's day starts at midnight Europe/Berlin, the time zone its admin keeps with its limits; this machine's (${own}, from TIMEBOX_TEAM_TZ or UTC) is not used.`;

	it("is the one its admin keeps with the limits: a member's own neither counts in another day nor lifts a spent one", () => {
		now = LATE;
		const admin = zoned("s-admin", "Europe/Berlin");
		expect(admin.setTeamLimits(LIMITS)).toBe("done");
		expect(store.hashes.get("timebox:{platform}:limits")?.get("zone")).toBe("Europe/Berlin");
		const ann = zoned("s-ann", "UTC");
		const bob = zoned("s-bob", "Pacific/Honolulu");
		for (const member of [ann, bob]) expect(member.countPrompt(inForce(member.standings([])), [2])).toBe(true);
		const carol = zoned("s-carol", "America/Los_Angeles");
		const standings = carol.standings([]);
		expect(standings[0]?.budget.team).toEqual({ name: "platform", zone: "Europe/Berlin" });
		expect(standings[0]?.use.prompts).toBe(2);
		expect(standings[0]?.dayStart).toBe(Date.UTC(2026, 10, 28, 23));
		expect(carol.countPrompt(inForce(standings), [2])).toBe(false);
		// Every turn went to the team's day, Berlin's 29 November; nothing was written to the 28th of another zone.
		expect(store.hashes.get("timebox:{platform}:2026-11-29:use")?.get("prompts")).toBe("2");
		const written = [...store.hashes].filter(([key, hash]) => hash.size > 0 && key.includes("2026-11-28"));
		expect(written).toEqual([]);
		// A member whose own zone is not the team's is told so once; the admin, whose zone it is, is told nothing.
		expect([ann.problem(), ann.problem()]).toEqual([told("UTC"), null]);
		expect(carol.problem()).toBe(told("America/Los_Angeles"));
		expect(admin.problem()).toBeNull();
		// The report's days are the team's too: today is Berlin's 29th, which holds the two turns.
		expect(carol.keptDays(2).map((row) => [row.day, row.prompts])).toEqual([
			["2026-11-28", 0],
			["2026-11-29", 2],
		]);
	});

	it("is carried to the session's next process, which counts in it from its first call", async () => {
		now = LATE;
		zoned("s-admin", "Europe/Berlin").setTeamLimits(LIMITS);
		const first = batchLedgerOn(store, join(folder, "s-ann"), "s-ann", clock, { zone: "UTC" });
		await first.standings([]);
		expect(first.carry().zone).toBe("Europe/Berlin");
		const next = batchLedgerOn(
			store,
			join(folder, "s-ann"),
			"s-ann",
			clock,
			{ zone: "UTC" },
			{ carried: first.carry() },
		);
		const budgets = inForce(await first.standings([]));
		store.calls.length = 0;
		expect(await next.countPrompt(budgets, [2])).toBe(true);
		expect(store.calls.map((call) => call.keys[0])).toEqual(["timebox:{platform}:2026-11-29:use"]);
		// A process whose zone is the team's carries none; a zone no one knows is not taken.
		expect(zoned("s-admin2", "Europe/Berlin").standings([])).toHaveLength(1);
		expect(batchLedgerOn(store, join(folder, "x"), "x", clock, { zone: "Europe/Berlin" }).carry().zone).toBeUndefined();
		const odd = batchLedgerOn(
			store,
			join(folder, "y"),
			"y",
			clock,
			{ zone: "UTC" },
			{ carried: { ...first.carry(), zone: "Mars/Base" } },
		);
		store.calls.length = 0;
		await odd.countPrompt(budgets, [5]);
		expect(store.calls[0]?.keys[0]).toBe("timebox:{platform}:2026-11-28:use");
	});

	it("is the machine's own where the store keeps none (limits set by an earlier version, or none at all)", () => {
		now = LATE;
		store.hashes.set("timebox:{platform}:limits", new Map([["turns", "2"]]));
		const ann = zoned("s-ann", "UTC");
		expect(ann.standings([])[0]?.budget.team).toEqual({ name: "platform", zone: "UTC" });
		store.hashes.set(
			"timebox:{platform}:limits",
			new Map([
				["turns", "2"],
				["zone", "Mars/Base"],
			]),
		);
		expect(zoned("s-bob", "UTC").standings([])[0]?.budget.team).toEqual({ name: "platform", zone: "UTC" });
		expect(ann.problem()).toBeNull();
	});
});
