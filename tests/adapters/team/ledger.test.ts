// A team's daily ledger over its store: the team's standing with who used it, reservations counted for the other
// sessions until settled or expired, and a store that cannot be reached: said once without its password, counted on
// this machine meanwhile and sent when it is back, or new turns refused in the closed mode.

import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileOutbox } from "../../../src/adapters/team/outbox.ts";
import type { ScriptName } from "../../../src/adapters/team/scripts.ts";
import { hidePassword } from "../../../src/adapters/team/store-calls.ts";
import {
	type DailyBudget,
	NO_ADJUSTMENT,
	TEAM_FIRST_CALL_MS,
	TEAM_RESERVATION_MS,
	TEAM_RETRY_MS,
	TEAM_WAIT_MS,
} from "../../../src/core/index.ts";
import { dailyCommandAnswer, dailyCommandPorts } from "../../../src/core/run/daily-command.ts";
import { MemoryStore, TEAM_CONFIG, teamLedgerOn } from "./memory-store.ts";

const BUDGET: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 8, tokens: 10_000, cost: null },
};
const budgets = [BUDGET];
let folder: string;
let now: number;
const clock = { now: () => now };
let store: MemoryStore;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-team-"));
	now = Date.UTC(2026, 10, 28, 12);
	store = new MemoryStore(clock);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("a team's daily ledger", () => {
	it("reads the team's day with its zone, who used it by sessions, and the day's start at the zone's midnight", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		const bob = teamLedgerOn(store, folder, "s2", clock, { member: "bob@m2 (codex)", zone: "Europe/Berlin" });
		ann.countPrompt(budgets, [8]);
		teamLedgerOn(store, folder, "s3", clock).countPrompt(budgets, [8]);
		bob.countPrompt(budgets, [8]);
		const [standing] = bob.standings(budgets);
		expect(standing?.budget.team).toEqual({ name: "platform", zone: "Europe/Berlin" });
		expect(standing?.use.members).toEqual([
			{ name: "ann@m1 (pi)", sessions: 2 },
			{ name: "bob@m2 (codex)", sessions: 1 },
		]);
		expect(standing?.dayStart).toBe(Date.UTC(2026, 10, 27, 23));
		expect(store.calls[0]?.keys).toEqual([
			"timebox:{platform}:2026-11-28:use",
			"timebox:{platform}:2026-11-28:sessions",
			"timebox:{platform}:2026-11-28:who",
			"timebox:{platform}:2026-11-28:res",
			"timebox:{platform}:2026-11-28:sent",
			"timebox:{platform}:2026-11-28:asks",
		]);
		// Every key outlives its day by a day: the day ends at midnight in Berlin (bob wrote last), the keys a day later.
		expect(store.expiries.get("timebox:{platform}:2026-11-28:use")).toBe(Date.UTC(2026, 10, 29, 23) / 1000);
	});

	it("counts the model calls other sessions are making as what they reserved, until settled or expired", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		const bob = teamLedgerOn(store, folder, "s2", clock);
		ann.reserve(budgets);
		expect(bob.standings(budgets)[0]?.use.tokens).toBe(0);
		ann.addUse(budgets, { tokens: 400, cost: 0.5 });
		ann.reserve(budgets);
		expect(bob.standings(budgets)[0]?.use).toMatchObject({ tokens: 800, cost: 1 });
		expect(ann.standings(budgets)[0]?.use).toMatchObject({ tokens: 400, cost: 0.5 });
		ann.addUse(budgets, { tokens: 100 });
		expect(bob.standings(budgets)[0]?.use.tokens).toBe(500);
		ann.addUse(budgets, { agentMs: 2_000 });
		ann.reserve(budgets);
		expect(bob.standings(budgets)[0]?.use.tokens).toBe(600);
		now += TEAM_RESERVATION_MS + 1;
		expect(bob.standings(budgets)[0]?.use.tokens).toBe(500);
		// A reservation is sent without waiting for its reply: the model call starts at once.
		const reservations = store.calls.filter((call) => call.script === "reserve");
		expect(reservations).toHaveLength(3);
		expect(reservations.every((call) => call.posted)).toBe(true);
		expect(store.calls.filter((call) => call.posted)).toEqual(reservations);
	});

	it("reserves for the next call a last call's cost alone, and keeps a cost alone while the store is down", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		ann.addUse(budgets, { cost: 0.5 });
		ann.reserve(budgets);
		expect(store.hashes.get("timebox:{platform}:2026-11-28:res")?.get("s1")).toMatch(/^0:0.5:/);
		store.down = "timeout";
		ann.addUse(budgets, { cost: 0.25 });
		store.down = null;
		now += TEAM_RETRY_MS;
		// Its own reservation is not counted against it; another session counts it until it is settled.
		expect(ann.standings(budgets)[0]?.use.cost).toBe(0.75);
		expect(teamLedgerOn(store, folder, "s2", clock).standings(budgets)[0]?.use.cost).toBe(1.25);
	});

	it("counts without a limit, and reads a reply it cannot make sense of as nothing used", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		expect(ann.countPrompt(budgets, [null, null])).toBe(true);
		expect(store.calls.at(-1)?.args.at(-1)).toBe(-1);
		const odd = teamLedgerOn({ call: () => ({ ok: true, value: "odd" }), post: () => {} }, folder, "s2", clock);
		expect(odd.standings(budgets)[0]?.use).toMatchObject({ prompts: 0, tokens: 0, sessions: 0, members: [] });
	});

	it("counts a prompt in the store under the lowest of its budgets' limits, and a personal cap on this machine alone", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		const other: DailyBudget = { ...BUDGET, source: "settings" };
		const personal: DailyBudget = { ...BUDGET, personal: true };
		expect(ann.countPrompt([BUDGET, other, personal], [8, 3, 1])).toBe(true);
		expect(store.calls.filter((call) => call.script === "count").map((call) => call.args.at(-1))).toEqual([3]);
		// The personal cap of one turn is spent on this machine: the next prompt is refused before the store is asked.
		expect(ann.countPrompt([BUDGET, personal], [8, 1])).toBe(false);
		const asked = store.calls.length;
		expect(ann.countPrompt([personal], [5])).toBe(true);
		ann.addUse([personal], { tokens: 30 });
		expect(store.calls.length).toBe(asked);
		expect(ann.standings([BUDGET])[0]?.use.prompts).toBe(1);
	});

	it("waits longer for the first call, the client's start included, than for the others", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		ann.standings(budgets);
		ann.standings(budgets);
		expect(store.calls.map((call) => call.timeoutMs)).toEqual([TEAM_FIRST_CALL_MS, TEAM_WAIT_MS]);
	});
});

describe("a team's store that cannot be reached", () => {
	it("is named once, without its password, and this machine counts until the store is back, then sends it", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		ann.countPrompt(budgets, [8]);
		store.down = "connect ECONNREFUSED redis://timebox:s3cret@127.0.0.1:6390/0 (s3cret)";
		expect(ann.countPrompt(budgets, [8])).toBe(true);
		ann.addUse(budgets, { agentMs: 1_000, tokens: 50, cost: 0.1 });
		const [standing] = ann.standings(budgets);
		expect(standing?.use).toMatchObject({ prompts: 1, tokens: 50 });
		expect(standing?.closed).toBeUndefined();
		expect(ann.problem()).toBe(
			"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (connect ECONNREFUSED redis://timebox@127.0.0.1:6390/0 (***)): this machine counts today's use on its own until it answers, then sends it to the team.",
		);
		expect(ann.problem()).toBeNull();
		// Within the wait after a failure the store is not tried again.
		ann.reserve(budgets);
		const tried = store.calls.length;
		store.down = null;
		ann.standings(budgets);
		expect(store.calls.length).toBe(tried);
		now += TEAM_RETRY_MS;
		const [back] = ann.standings(budgets);
		expect(back?.use).toMatchObject({ prompts: 2, agentMs: 1_000, tokens: 50, cost: 0.1 });
	});

	it("is named once in a session: failing again after it came back says nothing more", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.countPrompt(budgets, [8]);
		expect(ann.problem()).toMatch(/^Timebox: the team's daily store .* cannot be reached \(timeout\)/);
		store.down = null;
		now += TEAM_RETRY_MS;
		expect(ann.standings(budgets)[0]?.use.prompts).toBe(1);
		store.down = "connect ECONNRESET";
		ann.countPrompt(budgets, [8]);
		now += TEAM_RETRY_MS;
		ann.countPrompt(budgets, [8]);
		expect(ann.problem()).toBeNull();
	});

	it("hides a password where it stands as a word of its own, never inside another word nor in Redis's fixed refusals", () => {
		const url = (password: string) => `redis://timebox:${password}@127.0.0.1:6390/0`;
		const shown = "redis://timebox@127.0.0.1:6390/0";
		const wrongPass = "WRONGPASS invalid username-password pair or user is disabled.";
		// A password that is a word of Redis's refusal is not masked there, where `***` would spell it out.
		expect(hidePassword(wrongPass, url("pass"), shown)).toBe(wrongPass);
		expect(hidePassword(wrongPass, url("user"), shown)).toBe(wrongPass);
		const script = "ERR The user executing the script can't run this command or subcommand";
		expect(hidePassword(script, url("user"), shown)).toBe(script);
		const noPerm = "NOPERM this user has no permissions to run the 'evalsha' command";
		expect(hidePassword(noPerm, url("ns"), shown)).toBe(noPerm);
		// Elsewhere it is masked as a word of its own only, a character Redis's patterns would read included.
		expect(hidePassword("ERR auth pass (pass) passed", url("pass"), shown)).toBe("ERR auth *** (***) passed");
		expect(hidePassword("ERR a.b* or a-b.c", url("a.b*"), shown)).toBe("ERR *** or a-b.c");
		expect(hidePassword(`connect ECONNREFUSED ${url("pw")}`, url("pw"), shown)).toBe(`connect ECONNREFUSED ${shown}`);
		expect(hidePassword(" ", url("pw"), shown)).toBe("no answer");
		// An address with no password hides nothing but the address.
		expect(hidePassword("ERR at (x) -- y", "redis://127.0.0.1:6390/0", shown)).toBe("ERR at (x) -- y");
	});

	it("hides a password in the store's answer as written in the address and as it reads decoded", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock, {
			url: "redis://timebox:p%40ss@127.0.0.1:6390/0",
			shown: "redis://timebox@127.0.0.1:6390/0",
		});
		store.down = "ERR p@ss and p%40ss refused";
		ann.countPrompt(budgets, [8]);
		expect(ann.problem()).toContain("(ERR *** and *** refused)");
		store.down = null;
		now += TEAM_RETRY_MS;
		const bob = teamLedgerOn(store, folder, "s2", clock);
		store.down = "   ";
		bob.countPrompt(budgets, [8]);
		expect(bob.problem()).toContain("cannot be reached (no answer)");
	});

	it("keeps what it could not send when the store fails again, and sends it all at the next answer", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 10 });
		now += TEAM_RETRY_MS;
		ann.addUse(budgets, { tokens: 20 });
		now += TEAM_RETRY_MS;
		store.down = null;
		ann.addUse(budgets, { tokens: 5 });
		expect(ann.standings(budgets)[0]?.use.tokens).toBe(35);
	});

	it("sends what it counted meanwhile at its next count once the store is back", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.countPrompt(budgets, [8]);
		store.down = null;
		now += TEAM_RETRY_MS;
		ann.countPrompt(budgets, [8]);
		expect(teamLedgerOn(store, folder, "s2", clock).standings(budgets)[0]?.use.prompts).toBe(2);
	});

	it("refuses new turns in the closed mode, saying why", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock, { failure: "closed" });
		store.down = "";
		const [standing] = ann.standings(budgets);
		expect(standing?.closed).toBe(
			"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (no answer), so new turns are refused until it answers.",
		);
		expect(ann.countPrompt(budgets, [8])).toBe(false);
		expect(ann.problem()).toMatch(/new turns are refused until it answers\.$/);
	});

	it("shows /timebox today, while the day cannot be read, as this machine's own budget under a line that says so", () => {
		const down = teamLedgerOn(
			{
				call: () => {
					throw new Error("connect ECONNREFUSED");
				},
				post: () => {},
			},
			folder,
			"s1",
			clock,
		);
		const ports = dailyCommandPorts({ ledger: down, budgets }, () => {});
		const shown = dailyCommandAnswer({ kind: "today", words: "" }, ports).notices;
		expect(shown).toEqual([
			{
				message: [
					`Timebox: today's use could not be read from the team's daily store ${TEAM_CONFIG.shown} (connect ECONNREFUSED), so the team's standing today is not known. Meanwhile this machine's own daily budget holds this session:`,
					"Timebox today: 1 daily budget.",
					"Every session (TIMEBOX_DAILY): 0 of 8 prompts used, 8 left; 0 of 10k tokens used, 10k left. Used by no session yet.",
				].join("\n"),
				level: "warning",
			},
		]);
		expect(JSON.stringify(shown)).not.toContain("The team platform");
		// A change is not a look: it goes to the store, which does not take it.
		expect(dailyCommandAnswer({ kind: "today", words: "+turns:5" }, ports).notices).toEqual([
			{
				message: `Timebox: the team's daily store ${TEAM_CONFIG.shown} cannot be reached (connect ECONNREFUSED), so nothing changed.`,
				level: "warning",
			},
		]);
	});

	it("changes nothing when the team's day cannot be adjusted, not this machine's either, and counts a client that fails to start as down", () => {
		const failing = teamLedgerOn(
			{
				call: () => {
					throw new Error("no worker");
				},
				post: () => {},
			},
			folder,
			"s1",
			clock,
		);
		expect(failing.adjust(BUDGET, { ...NO_ADJUSTMENT, addPrompts: 2 })).toEqual({
			failed: expect.stringMatching(/cannot be reached \(no worker\), so nothing changed\.$/),
		});
		expect(failing.standings(budgets)[0]?.adjustment.addPrompts).toBe(0);
		expect(failing.problem()).toMatch(/cannot be reached \(no worker\)/);
		const thrown = teamLedgerOn(
			{
				call: () => {
					throw "gone";
				},
				post: () => {},
			},
			folder,
			"s2",
			clock,
			{ url: "redis://127.0.0.1:6390", shown: "redis://127.0.0.1:6390" },
		);
		thrown.standings(budgets);
		expect(thrown.problem()).toMatch(/cannot be reached \(gone\)/);
		expect(thrown.problem()).toBeNull();
	});

	it("turns the team's day off for every member", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		ann.adjust(BUDGET, { ...NO_ADJUSTMENT, off: true });
		expect(teamLedgerOn(store, folder, "s2", clock).standings(budgets)[0]?.adjustment.off).toBe(true);
		expect(TEAM_CONFIG.shown).not.toContain("s3cret");
	});

	it("reads the team's last days its store keeps, today with the others' reservations, and none while it is down", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		now = Date.UTC(2026, 10, 27, 12);
		ann.countPrompt(budgets, [8]);
		ann.addUse(budgets, { agentMs: 60_000, tokens: 500, cost: 0.25 });
		now = Date.UTC(2026, 10, 28, 12);
		ann.countPrompt(budgets, [8]);
		ann.addUse(budgets, { tokens: 300, cost: 0.1 });
		teamLedgerOn(store, folder, "s2", clock).reserve(budgets);
		ann.reserve(budgets);
		const reader = teamLedgerOn(store, folder, "report", clock);
		const before = store.calls.length;
		expect(reader.keptDays(7)).toEqual([
			{ day: "2026-11-27", agentMs: 60_000, prompts: 1, tokens: 500, cost: 0.25 },
			// s2 reserved nothing yet (its last call used nothing); ann reserves what its last call used.
			{ day: "2026-11-28", agentMs: 0, prompts: 1, tokens: 600, cost: 0.2 },
		]);
		// Each day is read once: today first, then the day before.
		expect(store.calls.slice(before).map((call) => call.keys[0])).toEqual([
			"timebox:{platform}:2026-11-28:use",
			"timebox:{platform}:2026-11-27:use",
		]);
		expect(reader.keptDays(1).map((row) => row.day)).toEqual(["2026-11-28"]);
		// A day before today that cannot be read leaves none: the report shows no days rather than some.
		const pastDown = {
			call: (script: ScriptName, keys: readonly string[], args: readonly (string | number)[], timeoutMs: number) =>
				keys[0]?.includes("2026-11-27")
					? { ok: false as const, error: "connect ECONNREFUSED" }
					: store.call(script, keys, args, timeoutMs),
			post: () => {},
		};
		expect(teamLedgerOn(pastDown, folder, "report3", clock).keptDays(7)).toEqual([]);
		store.down = "connect ECONNREFUSED";
		expect(teamLedgerOn(store, folder, "report2", clock).keptDays(7)).toEqual([]);
	});
});

describe("use kept on this machine while the team's store was down", () => {
	const outboxOf = () => join(folder, "team", "team-platform");
	/** A line of the outbox as another session of this machine kept it, for today (2026-11-28). */
	const keptLine = (fields: Record<string, unknown>) => ({
		id: "kept",
		day: "2026-11-28",
		dayEnd: Date.UTC(2026, 10, 29),
		session: "s9",
		member: "bob@m2 (gemini)",
		prompts: 0,
		agentMs: 0,
		tokens: 0,
		cost: 0,
		...fields,
	});

	it("outlives the session that kept it: the next session of any host here sends it, once, to the day it was used", () => {
		// A hook host: each event is a process, which ends before the store is back.
		const first = teamLedgerOn(store, folder, "hook-1", clock);
		store.down = "connect ECONNREFUSED";
		expect(first.countPrompt(budgets, [8])).toBe(true);
		first.addUse(budgets, { agentMs: 4_000, tokens: 120, cost: 0.5 });
		expect(readdirSync(outboxOf())).toEqual(["unsent.jsonl"]);
		store.down = null;
		now += 60_000;
		const next = teamLedgerOn(store, folder, "hook-2", clock);
		const [standing] = next.standings(budgets);
		expect(standing?.use).toMatchObject({ prompts: 1, agentMs: 4_000, tokens: 120, cost: 0.5, sessions: 1 });
		expect(standing?.use.members).toEqual([{ name: TEAM_CONFIG.member, sessions: 1 }]);
		expect(readdirSync(outboxOf())).toEqual([]);
		// Sent once: another session reads the same day.
		expect(teamLedgerOn(store, folder, "hook-3", clock).standings(budgets)[0]?.use.tokens).toBe(120);
	});

	it("keeps a session's use with no daily budget of its own while the store is down, for a team with limits only", () => {
		const setLimits = (turns: number | null) => {
			const admin = teamLedgerOn(store, join(folder, "admin"), "admin", clock);
			admin.setTeamLimits(turns === null ? null : { timeMs: null, turns, tokens: null, cost: null });
		};
		const outage = (session: string) => {
			const ann = teamLedgerOn(store, folder, session, clock);
			store.down = "connect ECONNREFUSED";
			// The day cannot be read: the session has no budget in force, and what it uses is kept all the same.
			expect(ann.standings([])).toEqual([]);
			expect(ann.countPrompt([], [])).toBe(true);
			ann.addUse([], { tokens: 30 });
			store.down = null;
			now += 60_000;
		};
		const sent = () => store.calls.filter((call) => call.script === "send").map((call) => call.args.at(-1));
		setLimits(5);
		outage("s1");
		expect(teamLedgerOn(store, folder, "s2", clock).standings([])[0]?.use).toMatchObject({ prompts: 1, tokens: 30 });
		expect(sent()).toEqual([1, 1]);
		// A team whose store keeps no limits when it is sent never gets it: without limits, the session counted nowhere.
		setLimits(null);
		outage("s3");
		const read = teamLedgerOn(store, folder, "s4", clock);
		expect(read.standings(budgets)[0]?.use).toMatchObject({ prompts: 1, tokens: 30 });
		expect(readdirSync(outboxOf())).toEqual([]);
		// A session with a daily budget of its own (the team's where the store keeps none) sends its use either way.
		store.down = "connect ECONNREFUSED";
		teamLedgerOn(store, folder, "s5", clock).addUse(budgets, { tokens: 5 });
		store.down = null;
		now += 60_000;
		expect(teamLedgerOn(store, folder, "s6", clock).standings(budgets)[0]?.use.tokens).toBe(35);
		// A store that refuses this user is no outage: nothing is kept.
		store.member = true;
		store.failingScript.set("read", "NOPERM this user has no permissions to access one of the keys used as arguments");
		const denied = teamLedgerOn(store, folder, "s7", clock);
		denied.standings([]);
		denied.addUse([], { tokens: 9 });
		expect(existsSync(join(outboxOf(), "unsent.jsonl"))).toBe(false);
		// Nor is anything kept while the store answers: a session with no daily budget of its own counts nowhere then.
		store.member = false;
		store.failingScript.clear();
		const up = teamLedgerOn(store, folder, "s8", clock);
		up.standings([]);
		expect(up.countPrompt([], [])).toBe(true);
		up.addUse([], { tokens: 9 });
		expect(existsSync(join(outboxOf(), "unsent.jsonl"))).toBe(false);
	});

	it("counts an entry sent twice once: a sender killed before it let go of its batch, or two senders at once", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 70 });
		store.down = null;
		const batchFile = readdirSync(outboxOf())[0] as string;
		const kept = readFileSync(join(outboxOf(), batchFile), "utf8");
		teamLedgerOn(store, folder, "s2", clock).standings(budgets);
		// The same batch again, as a sender killed before removing it leaves it.
		writeFileSync(join(outboxOf(), "sending-1-killed.jsonl"), kept);
		expect(teamLedgerOn(store, folder, "s3", clock).standings(budgets)[0]?.use.tokens).toBe(70);
		expect(readdirSync(outboxOf())).toEqual([]);
	});

	it("lets go of a day the store no longer keeps, and skips a line torn by a process killed mid-write", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 5 });
		// Nothing used is nothing kept.
		ann.addUse(budgets, {});
		expect(readFileSync(join(outboxOf(), "unsent.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
		appendFileSync(join(outboxOf(), "unsent.jsonl"), 'null\n5\n{"id":"no-figures"}\n{"id":"torn","day":"2026-');
		store.down = null;
		now += 2 * 24 * 3_600_000;
		const later = teamLedgerOn(store, folder, "s2", clock);
		expect(later.standings(budgets)[0]?.use.tokens).toBe(0);
		expect(readdirSync(outboxOf())).toEqual([]);
		expect(store.calls.some((call) => call.script === "send")).toBe(false);
	});

	it("keeps what it could not send when the store fails while sending, and sends the rest later", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 1 });
		ann.addUse(budgets, { tokens: 2 });
		store.down = null;
		let sends = 0;
		const flaky: MemoryStore = Object.assign(Object.create(store), {
			call: (...args: Parameters<MemoryStore["call"]>) =>
				args[0] === "send" && ++sends === 2 ? { ok: false, error: "reset" } : store.call(...args),
		});
		teamLedgerOn(flaky, folder, "s2", clock).addUse(budgets, { tokens: 4 });
		expect(readdirSync(outboxOf())).toHaveLength(1);
		now += TEAM_RETRY_MS;
		expect(teamLedgerOn(store, folder, "s3", clock).standings(budgets)[0]?.use.tokens).toBe(7);
		expect(readdirSync(outboxOf())).toEqual([]);
	});

	it("keeps a batch a late line reached after it was read: that line goes next time, and the rest counts once", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 10 });
		store.down = null;
		now += TEAM_RETRY_MS;
		const real = fileOutbox(outboxOf());
		const lateLine = keptLine({ id: "late", tokens: 5 });
		const late = {
			...real,
			take() {
				const batches = real.take();
				// A session that opened the file before it was renamed writes its line now.
				const [name] = readdirSync(outboxOf());
				appendFileSync(join(outboxOf(), name as string), `${JSON.stringify(lateLine)}\n`);
				return batches;
			},
		};
		expect(teamLedgerOn(store, folder, "s2", clock, {}, late).standings(budgets)[0]?.use.tokens).toBe(10);
		expect(readdirSync(outboxOf())).toHaveLength(1);
		expect(teamLedgerOn(store, folder, "s3", clock).standings(budgets)[0]?.use.tokens).toBe(15);
		expect(readdirSync(outboxOf())).toEqual([]);
	});

	it("sends only whole entries of today's use: a damaged line never takes from the team's day nor stops the rest", () => {
		const valid = keptLine({ id: "whole", prompts: 1, agentMs: 1_000, tokens: 40, cost: 0.25 });
		// Each damaged as a disk or a hand can: a figure below zero, not a number, not finite, missing; a text
		// that is a number; an array; blank lines between.
		const damaged = [
			{ ...valid, id: "negative", tokens: -500 },
			{ ...valid, id: "text", cost: "0.5" },
			{ ...valid, id: "no-prompts", prompts: undefined },
			{ ...valid, id: "no-end", dayEnd: undefined },
			{ ...valid, id: "member", member: 7 },
			{ ...valid, id: "session", session: null },
			{ ...valid, id: "unheld", unheld: "yes" },
		];
		mkdirSync(outboxOf(), { recursive: true });
		// A figure JSON reads as Infinity.
		const huge = JSON.stringify({ ...valid, id: "huge" }).replace('"agentMs":1000', '"agentMs":1e400');
		const lines = [...damaged.map((entry) => JSON.stringify(entry)), huge, "[1,2]", "   ", "", JSON.stringify(valid)];
		writeFileSync(join(outboxOf(), "unsent.jsonl"), `${lines.join("\n")}\n`);
		const [standing] = teamLedgerOn(store, folder, "s2", clock).standings(budgets);
		expect(standing?.use).toMatchObject({ prompts: 1, agentMs: 1_000, tokens: 40, cost: 0.25, sessions: 1 });
		expect(store.calls.filter((call) => call.script === "send").map((call) => call.args[7])).toEqual(["whole"]);
		expect(readdirSync(outboxOf())).toEqual([]);
	});

	it("sends a batch left by a killed sender with nothing new kept, and never a file that is not a batch", () => {
		mkdirSync(outboxOf(), { recursive: true });
		const entry = keptLine({ id: "left", tokens: 6 });
		writeFileSync(join(outboxOf(), "notes.jsonl"), `${JSON.stringify({ ...entry, id: "stray", tokens: 100 })}\n`);
		expect(teamLedgerOn(store, folder, "s2", clock).standings(budgets)[0]?.use.tokens).toBe(0);
		writeFileSync(join(outboxOf(), "sending-5-killed.jsonl"), `${JSON.stringify(entry)}\n`);
		expect(teamLedgerOn(store, folder, "s3", clock).standings(budgets)[0]?.use.tokens).toBe(6);
		expect(readdirSync(outboxOf())).toEqual(["notes.jsonl"]);
	});

	it("lets go of a batch another session removed first", () => {
		const outbox = fileOutbox(outboxOf());
		outbox.keep({
			day: "2026-11-28",
			dayEnd: 0,
			session: "s1",
			member: "ann",
			prompts: 1,
			agentMs: 0,
			tokens: 0,
			cost: 0,
		});
		const [batch] = outbox.take();
		rmSync(outboxOf(), { recursive: true });
		expect(() => batch?.sent()).not.toThrow();
		expect(batch?.entries).toHaveLength(1);
	});

	it("says so when a batch cannot be read, and sends the others; a batch gone meanwhile was sent by another", () => {
		const ann = teamLedgerOn(store, folder, "s1", clock);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 3 });
		mkdirSync(join(outboxOf(), "sending-0-a-folder.jsonl"));
		symlinkSync(join(folder, "nowhere"), join(outboxOf(), "sending-1-gone.jsonl"));
		store.down = null;
		now += TEAM_RETRY_MS;
		const next = teamLedgerOn(store, folder, "s2", clock);
		next.standings(budgets);
		expect(next.problem()).toMatch(
			/^Timebox: what this machine used while .* \(EISDIR: .*\): the team's day will not count it\.$/,
		);
		rmSync(join(outboxOf(), "sending-0-a-folder.jsonl"), { recursive: true });
		expect(teamLedgerOn(store, folder, "s3", clock).standings(budgets)[0]?.use.tokens).toBe(3);
	});

	it("names what the outbox threw, an error or not", () => {
		const ann = teamLedgerOn(
			store,
			folder,
			"s1",
			clock,
			{},
			{
				keep: () => {
					throw "read-only file system";
				},
				waiting: () => false,
				take: () => [],
			},
		);
		store.down = "timeout";
		ann.addUse(budgets, { tokens: 1 });
		ann.problem();
		expect(ann.problem()).toMatch(/\(read-only file system\)/);
	});

	it("says once that use could not be kept, and goes on with this machine's ledger", () => {
		const failing = {
			keep: () => {
				throw new Error("ENOSPC: no space left on device");
			},
			waiting: () => true,
			take: () => {
				throw new Error("EACCES: permission denied");
			},
		};
		const ann = teamLedgerOn(store, folder, "s1", clock, {}, failing);
		store.down = "timeout";
		expect(ann.countPrompt(budgets, [8])).toBe(true);
		ann.addUse(budgets, { tokens: 9 });
		expect(ann.problem()).toMatch(/^Timebox: the team's daily store .* cannot be reached \(timeout\)/);
		expect(ann.problem()).toBe(
			"Timebox: what this machine used while the team's store was down could not be kept to send later (ENOSPC: no space left on device): the team's day will not count it.",
		);
		expect(ann.problem()).toBeNull();
		expect(ann.standings(budgets)[0]?.use).toMatchObject({ prompts: 1, tokens: 9 });
		store.down = null;
		now += TEAM_RETRY_MS;
		expect(ann.standings(budgets)[0]?.use.prompts).toBe(0);
		expect(ann.problem()).toBeNull();
	});
});
