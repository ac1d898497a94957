// The team's admin and its members on a real redis-server, with the two ACL lines exactly as docs/team.md writes them:
// through Timebox (the team's ledger over the real client, the core's commands), a member's `today off`, `today +…`
// and `team set` are refused by the store and change nothing, here or on the member's machine; through redis-cli, the
// member's user cannot write the limits or the day's raises at all; the admin's do change the day, a member's request
// is listed and answered by the admin's raise, and a store that fails a member's script says so and changes nothing.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	ADMIN_ONLY,
	type DailyBudget,
	type DailyLedger,
	dailyCommandAnswer,
	dailyCommandPorts,
	PERSONAL_KEPT,
	parseCommand,
	parseDailyBudget,
} from "../../../src/core/index.ts";
import { openDailyLedger } from "../../../src/entries/daily-ledgers.ts";
import { PACKAGE_ENTRY, RedisServer } from "../support/redis.ts";

const DOCS = readFileSync(resolve(import.meta.dirname, "../../../docs/team.md"), "utf8");
/** The ACL lines as docs/team.md writes them, word by word. */
const ACL_LINES = [...DOCS.matchAll(/^ACL SETUSER platform-(admin|member) .+$/gm)].map((line) => line[0]);
const ADMIN = { user: "platform-admin", password: "admin-secret" };
const MEMBER = { user: "platform-member", password: "member-secret" };
const clock = { now: () => Date.now() };
let redis: RedisServer;
let state: string;
const day = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
	redis = await RedisServer.start();
	state = mkdtempSync(join(tmpdir(), "timebox-team-admin-"));
	expect(ACL_LINES).toHaveLength(2);
	for (const line of ACL_LINES) expect(redis.cli(line.split(" "))).toBe("OK");
});
afterAll(async () => {
	await redis?.dispose();
	rmSync(state, { recursive: true, force: true });
});

/** A session's daily ledger on a machine of its own, as `who`, with the environment docs/team.md gives. */
function machine(name: string, who: { user: string; password: string }): DailyLedger {
	return openDailyLedger({
		env: {
			XDG_STATE_HOME: join(state, name),
			TIMEBOX_DAILY_STORE: redis.url(`${who.user}:${who.password}`),
			TIMEBOX_TEAM: "platform",
		},
		sessionId: `${name}-session`,
		clock,
		host: "test",
		entry: PACKAGE_ENTRY,
	});
}

/** `/timebox <words>` in a session on `ledger` with `budgets` of its own (none unless given): what it says. */
function command(ledger: DailyLedger, words: string, budgets: readonly DailyBudget[] = []): string[] {
	const parsed = parseCommand(words);
	if (parsed.kind !== "today" && parsed.kind !== "team") throw new Error(`not a daily command: ${words}`);
	const ports = dailyCommandPorts({ ledger, budgets }, (where, error) => {
		throw new Error(`${where}: ${String(error)}`);
	});
	return dailyCommandAnswer(parsed, ports).notices.map((notice) => notice.message);
}

/** A redis-cli command as `who`: its reply. */
const as = (who: { user: string; password: string }, ...args: string[]) => redis.cli(args, [who.user, who.password]);
const limits = () => redis.cli(["HGETALL", "timebox:{platform}:limits"]);
const raise = () => redis.cli(["HGETALL", `timebox:{platform}:raise:${day()}`]);

describe("the team's admin and members, with docs/team.md's ACL lines on a real Redis", () => {
	it("without limits in the store, refuses a member's additions to the day, by Timebox or by hand, and takes the admin's", () => {
		// Each machine's TIMEBOX_DAILY is the team's limits while the store keeps none.
		const own = parseDailyBudget("turns:5", "user", "TIMEBOX_DAILY");
		if ("warning" in own) throw new Error(own.warning);
		const use = `timebox:{platform}:${day()}:use`;
		const member = machine("member-0", MEMBER);
		for (const words of ["today off", "today +turns:5"]) expect(command(member, words, [own])).toEqual([ADMIN_ONLY]);
		expect(redis.cli(["HGETALL", use])).toBe("");
		expect(command(member, "today", [own])[0]).toContain("0 of 5 turns used, 5 left.");
		expect(existsSync(join(state, "member-0", "timebox", "daily"))).toBe(false);
		const admin = machine("admin-0", ADMIN);
		expect(command(admin, "today +turns:1", [own])[0]).toMatch(/^Timebox: today's budget raised by 1 prompt/);
		expect(command(member, "today", [own])[0]).toContain("0 of 6 turns used, 6 left.");
		expect(limits()).toBe("");
		expect(raise()).toBe("addPrompts\n1");
		// A member's `team set off` is refused as any change is; the admin's says the store kept no limits to remove.
		expect(command(member, "team set off", [own])).toEqual([ADMIN_ONLY]);
		expect(command(admin, "team set off", [own])).toEqual([
			"Timebox: the team platform's store keeps no limits, so there were none to remove: each machine's own daily budget (TIMEBOX_DAILY) is the team's.",
		]);
		expect(limits()).toBe("");
		// The member's user may write the day's use (its agent must), but an `off` or an addition written there by hand
		// lifts nothing: the day's raises are the admin's key, read-only to the member.
		expect(as(MEMBER, "HSET", use, "off", "1", "addPrompts", "50")).toBe("2");
		expect(command(member, "today", [own])[0]).toContain("0 of 6 turns used, 6 left.");
		expect(as(MEMBER, "HSET", `timebox:{platform}:raise:${day()}`, "off", "1")).toMatch(/^NOPERM/);
		// The next test starts from an empty day.
		expect(as(ADMIN, "DEL", use, `timebox:{platform}:raise:${day()}`)).toBe("2");
	});

	it("lets the admin set the limits and raise the day; a member's attempts are refused and change nothing", () => {
		const admin = machine("admin", ADMIN);
		expect(command(admin, "team set turns:2")).toEqual([
			"Timebox: the team platform's limits are now 2 turns a day, in its store, for every member from their next check.",
		]);
		const set = limits();
		expect(set).toContain("turns\n2");
		const member = machine("member", MEMBER);
		expect(
			member.countPrompt(
				member.standings([]).map((standing) => standing.budget),
				[2],
			),
		).toBe(true);
		for (const words of ["today off", "today +turns:5", "team set turns:100", "team set off"]) {
			expect(command(member, words)).toEqual([ADMIN_ONLY]);
		}
		expect(limits()).toBe(set);
		expect(raise()).toBe("");
		// Nothing was written on the member's machine instead.
		expect(existsSync(join(state, "member", "timebox", "daily"))).toBe(false);
		expect(command(member, "today")[0]).toContain("The team platform (set in its store): 1 of 2 turns used, 1 left.");

		// The member asks; the admin sees it, and grants it with today +.
		expect(command(member, "team ask +turns:1 one more test run")[0]).toContain("asked the team platform's admin");
		const listed = command(admin, "team")[0] ?? "";
		expect(listed).toMatch(
			/^Timebox team platform: 2 turns a day, set by .+@.+ \(test\) on \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
		);
		expect(listed).toMatch(
			/Open requests \(1\):\n- .+ \(test\) at \d\d:\d\d UTC asks for 1 turn: "one more test run"$/,
		);
		expect(command(admin, "today +turns:1")[0]).toMatch(/^Timebox: today's budget raised by 1 prompt/);
		expect(raise()).toBe("addPrompts\n1");
		expect(command(admin, "team")[0]).toContain("No open requests.");
		expect(command(member, "today")[0]).toContain("1 of 3 turns used, 2 left.");
		expect(command(admin, "today off")[0]).toBe(
			"Timebox: today's budget is off until midnight, in every session it covers.",
		);
		expect(command(member, "today")[0]).toContain("Off until midnight.");
		expect(member.problem()).toBeNull();
		// An admin's own cap (a TIMEBOX_DAILY beside the store's limits) is theirs: the team's day is changed, not it.
		const own = parseDailyBudget("turns:1", "user", "TIMEBOX_DAILY");
		if ("warning" in own) throw new Error(own.warning);
		const capped = machine("admin-capped", ADMIN);
		expect(command(capped, "today +turns:2", [own])[0]).toMatch(
			new RegExp(`^Timebox: today's budget raised by 2 prompts[^]*\\n${PERSONAL_KEPT.replace(/[()]/g, "\\$&")}$`),
		);
		expect(raise()).toMatch(/^addPrompts\n3\n/);
		const files = readdirSync(join(state, "admin-capped"), { recursive: true, encoding: "utf8" });
		expect(files.filter((file) => file.includes("adjust"))).toEqual([]);
	});

	it("keeps the member's user from writing the limits or the raises with redis-cli, and lets it write the day's use", () => {
		const before = limits();
		const refused = "NOPERM this user has no permissions to access one of the keys used as arguments";
		expect(as(MEMBER, "HSET", "timebox:{platform}:limits", "turns", "1000")).toBe(refused);
		expect(as(MEMBER, "DEL", "timebox:{platform}:limits")).toBe(refused);
		expect(as(MEMBER, "HSET", `timebox:{platform}:raise:${day()}`, "addPrompts", "1000")).toBe(refused);
		expect(as(MEMBER, "RENAME", `timebox:{platform}:${day()}:use`, "timebox:{platform}:limits")).toBe(refused);
		expect(as(MEMBER, "EVAL", "return redis.call('HSET', KEYS[1], 'turns', 9)", "1", "timebox:{platform}:limits")).toBe(
			refused,
		);
		// A script that names the limits only inside it is stopped at the write.
		expect(
			as(
				MEMBER,
				"EVAL",
				"return redis.call('HSET', ARGV[1], 'turns', 9)",
				"1",
				`timebox:{platform}:${day()}:use`,
				"timebox:{platform}:limits",
			),
		).toMatch(/can't access at least one of the keys/);
		expect(as(MEMBER, "FLUSHALL")).toBe("NOPERM this user has no permissions to run the 'flushall' command");
		expect(limits()).toBe(before);
		// The bound: the member's agent writes the day's use, so the member's user can.
		expect(as(MEMBER, "HGET", "timebox:{platform}:limits", "turns")).toBe("2");
		expect(as(MEMBER, "HINCRBY", `timebox:{platform}:${day()}:use`, "prompts", "0")).toBe("1");
		// The admin's user writes the limits.
		expect(as(ADMIN, "HSET", "timebox:{platform}:limits", "turns", "3")).toBe("0");
		expect(as(ADMIN, "HGET", "timebox:{platform}:limits", "turns")).toBe("3");
		// And removes them through Timebox.
		expect(command(machine("admin-off", ADMIN), "team set off")).toEqual([
			"Timebox: the team platform's limits are removed from its store: each machine's own daily budget (TIMEBOX_DAILY) is the team's again.",
		]);
		expect(limits()).toBe("");
	});

	it("refuses new turns to a member's user the store refuses a script's command (no +time), never counting it as down", () => {
		// The docs' member line without `+time`: the scripts' TIME is refused inside them (an ERR, not a NOPERM).
		const line = (ACL_LINES[1] as string).replace("platform-member", "platform-notime").replace(" +time", "");
		expect(redis.cli(line.split(" "))).toBe("OK");
		const notime = machine("member-notime", { user: "platform-notime", password: "member-secret" });
		const [standing] = notime.standings([]);
		expect(standing?.closed).toMatch(
			/^Timebox: the team's daily store redis:\/\/platform-notime@127\.0\.0\.1:\d+ refused this user the team's day \(ERR The user executing the script can't run this command.+\), so new turns are refused/,
		);
		// A standing closed so is what the rules refuse a new turn with; nothing is counted on this machine instead.
		expect(existsSync(join(state, "member-notime", "timebox", "daily"))).toBe(false);
		// `/timebox team` and `/timebox today` say the store refused this user the day, not that the day is empty.
		const [limitsLine, todayLine, ...rest] = (command(notime, "team")[0] ?? "").split("\n");
		expect(limitsLine).toMatch(/^Timebox team platform: its store keeps no limits/);
		expect(todayLine).toMatch(
			/^The team's daily store redis:\/\/platform-notime@127\.0\.0\.1:\d+ would not let this user read today's use \(ERR The user executing the script can't run this command.+\), so the team's standing today is not known\.$/,
		);
		expect(rest).toEqual(["No open requests."]);
		expect(command(notime, "today")).toEqual([
			expect.stringMatching(
				/^Timebox: the team's daily store redis:\/\/platform-notime@127\.0\.0\.1:\d+ would not let this user read today's use \(.+\), so the team's standing today is not known\./,
			),
		]);
	});

	it("serves a store on another database than 0 with the same lines: a member counts there, and the admin sets limits", () => {
		const onDb = (name: string, who: { user: string; password: string }) =>
			openDailyLedger({
				env: {
					XDG_STATE_HOME: join(state, name),
					TIMEBOX_DAILY_STORE: `${redis.url(`${who.user}:${who.password}`)}/3`,
					TIMEBOX_TEAM: "platform",
					TIMEBOX_DAILY_STORE_FAILURE: "closed",
				},
				sessionId: `${name}-session`,
				clock,
				host: "test",
				entry: PACKAGE_ENTRY,
			});
		const admin = onDb("admin-db3", ADMIN);
		expect(command(admin, "team set turns:7")[0]).toMatch(/^Timebox: the team platform's limits are now 7 turns/);
		const member = onDb("member-db3", MEMBER);
		expect(
			member.countPrompt(
				member.standings([]).map((standing) => standing.budget),
				[null],
			),
		).toBe(true);
		expect(member.problem()).toBeNull();
		expect(redis.cli(["-n", "3", "HGET", `timebox:{platform}:${day()}:use`, "prompts"])).toBe("1");
		expect(redis.cli(["-n", "3", "HGET", "timebox:{platform}:limits", "turns"])).toBe("7");
		// Database 0 holds nothing of it.
		expect(redis.cli(["HGET", "timebox:{platform}:limits", "turns"])).not.toBe("7");
	});

	it("says a script the store fails, and changes nothing", () => {
		const member = machine("member-2", MEMBER);
		// The day's requests made a string by hand: the member's `ask` script fails on it.
		expect(as(MEMBER, "SET", `timebox:{platform}:${day()}:asks`, "x")).toBe("OK");
		const [said] = command(member, "team ask +1h please");
		expect(said).toMatch(
			/^Timebox: the team's daily store redis:\/\/platform-member@127\.0\.0\.1:\d+ did not take it \(WRONGTYPE .+\)\. Nothing changed\.$/,
		);
		expect(said).not.toContain("member-secret");
		expect(as(MEMBER, "GET", `timebox:{platform}:${day()}:asks`)).toBe("x");
	});
});
