// A team's limits, raises and requests where the team's day is read ahead (a hook process, Claude Code's hooks module):
// a daily command is prepared in batches (the day and the store beside it read in one, the writes the rules make sent
// in one more, one after another) and then answered by the rules from what the store made of each write; a store that
// refuses this user is no outage: nothing falls back on this machine, and new turns are refused.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTeamBatch, type TeamRequest } from "../../../src/adapters/team/batch.ts";
import { Outage } from "../../../src/adapters/team/outage.ts";
import {
	ADMIN_ONLY,
	type DailyBudget,
	type DailyLedger,
	dailyCommandAnswer,
	dailyCommandPorts,
	NO_ADJUSTMENT,
	parseCommand,
} from "../../../src/core/index.ts";
import { readAheadIn } from "../../../src/entries/daily-ledgers.ts";
import { batchLedgerOn, MemoryStore, TEAM_CONFIG } from "./memory-store.ts";

const DAY = "2026-11-28";
let folder: string;
let now: number;
const clock = { now: () => now };
let store: MemoryStore;
const OWN: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 5, tokens: null, cost: null },
};

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-team-admin-batch-"));
	now = Date.UTC(2026, 10, 28, 12);
	store = new MemoryStore(clock);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A hook process's read-ahead ledger on its own machine, as `member`, whose store's user is `role`'s. */
function hook(id: string, member: string, budgets: DailyBudget[] = []) {
	const batches: TeamRequest[] = [];
	const ledger = batchLedgerOn(store, join(folder, id), id, clock, { member });
	const readAhead = readAheadIn(ledger, { ...TEAM_CONFIG, member }, { sessionId: id, clock }, budgets);
	const run = readAhead as unknown as { options: { run: (request: TeamRequest) => Promise<unknown> } };
	const original = run.options.run;
	run.options.run = (request) => {
		batches.push(request);
		return original(request);
	};
	return { readAhead, batches, budgets };
}

/** `/timebox <words>` in a hook: prepared, then answered by the rules as the session's runtime answers it. */
async function command(session: ReturnType<typeof hook>, words: string): Promise<string> {
	await session.readAhead.prepare(words);
	const parsed = parseCommand(words);
	if (parsed.kind !== "today" && parsed.kind !== "team") throw new Error("not a daily command");
	const ports = dailyCommandPorts({ ledger: session.readAhead, budgets: session.budgets }, () => {});
	return dailyCommandAnswer(parsed, ports)
		.notices.map((notice) => notice.message)
		.join("\n");
}

const ops = (batches: readonly TeamRequest[]) => batches.map((batch) => batch.ops.map((op) => op.op));

describe("a daily command read ahead", () => {
	it("sets the limits as the admin, and shows them, who set them and the open requests to every member", async () => {
		const admin = hook("s-admin", "root@hq (codex)");
		expect(await command(admin, "team")).toContain("its store keeps no limits");
		expect(await command(admin, "team set turns:2 $5")).toBe(
			"Timebox: the team platform's limits are now 2 turns and $5.00 a day, in its store, for every member from their next check.",
		);
		expect(ops(admin.batches).slice(-2)).toEqual([["view"], ["limits"]]);
		// The writes' batch reads no day: the view's batch just read it.
		expect(admin.batches.at(-1)?.read).toBe(false);
		const ann = hook("s-ann", "ann@m1 (gemini)");
		store.member = true;
		expect(await command(ann, "team ask +turns:3 release day")).toContain(
			"asked the team platform's admin for 3 turns",
		);
		const shown = await command(ann, "team");
		expect(shown).toContain(
			"Timebox team platform: 2 turns and $5.00 a day, set by root@hq (codex) on 2026-11-28 12:00 UTC.",
		);
		expect(shown).toContain('ann@m1 (gemini) at 12:00 UTC asks for 3 turns: "release day"');
	});

	it("refuses a member's raise and limits in one line, and the day is unchanged", async () => {
		const admin = hook("s-admin", "root@hq (codex)");
		await command(admin, "team set turns:2");
		store.member = true;
		const ann = hook("s-ann", "ann@m1 (gemini)", [OWN]);
		for (const words of ["today +turns:5", "today off", "team set turns:500", "team set off"])
			expect(await command(ann, words)).toBe(ADMIN_ONLY);
		expect(store.hashes.get(`timebox:{platform}:raise:${DAY}`)).toBeUndefined();
		expect(store.hashes.get("timebox:{platform}:limits")?.get("turns")).toBe("2");
		// Her own daily budget, a personal cap beside the store's limits, is not raised either: the store's came first.
		const today = await command(ann, "today");
		expect(today).toContain("0 of 2 turns used");
		expect(today).toContain("Every session (TIMEBOX_DAILY): 0 of 5 prompts used, 5 left.");
		expect(today).not.toContain("raised");
	});

	it("sends the admin's raise of the team's day, not of the admin's own cap: it answers the requests it covers", async () => {
		const admin = hook("s-admin", "root@hq (codex)", [OWN]);
		await command(admin, "team set turns:2");
		await command(hook("s-ann", "ann@m1 (gemini)"), "team ask +turns:1 one more");
		expect(await command(admin, "today +turns:1")).toContain("raised by 1 prompt");
		expect(store.hashes.get(`timebox:{platform}:raise:${DAY}`)?.get("addPrompts")).toBe("1");
		expect(store.hashes.get(`timebox:{platform}:${DAY}:asks`)?.size).toBe(0);
		expect(ops(admin.batches).at(-1)).toEqual(["adjust"]);
	});

	it("answers a write with why it was not sent when the batch could not run, and changes nothing", async () => {
		const admin = hook("s-admin", "root@hq (codex)");
		const run = admin.readAhead as unknown as { options: { run: (request: TeamRequest) => Promise<unknown> } };
		const original = run.options.run;
		run.options.run = (request) =>
			request.ops.some((op) => op.op === "limits") ? Promise.resolve({ error: "spawn sh ENOENT" }) : original(request);
		expect(await command(admin, "team set turns:2")).toBe(
			"Timebox: the team's daily store did not get it (spawn sh ENOENT). Nothing changed.",
		);
		expect(store.hashes.get("timebox:{platform}:limits")).toBeUndefined();
	});

	it("shows why the team cannot be shown when the day and the store beside it cannot be read", async () => {
		const ann = hook("s-ann", "ann@m1 (gemini)");
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		const run = ann.readAhead as unknown as { options: { run: () => Promise<unknown> } };
		run.options.run = () => Promise.resolve({ error: "spawn sh ENOENT" });
		expect(await command(ann, "team")).toBe(
			`Timebox: the team's daily store ${TEAM_CONFIG.shown} cannot be reached (spawn sh ENOENT): this machine counts today's use on its own until it answers, then sends it to the team.`,
		);
	});

	it("reads the day before any other command, and a write the rules make again unprepared is not done", async () => {
		const ann = hook("s-ann", "ann@m1 (gemini)", [OWN]);
		await ann.readAhead.prepare("status");
		expect(ops(ann.batches)).toEqual([[]]);
		await ann.readAhead.prepare("today");
		// A write the prepared command did not make is answered as not done.
		expect(ann.readAhead.setTeamLimits?.(null)).toEqual({
			failed: "Timebox: the team's daily store did not get it (it was not prepared). Nothing changed.",
		});
		// Outside a command, nothing is written beside the day's use.
		const fresh = hook("s-bob", "bob@m2 (codex)", [OWN]);
		expect(fresh.readAhead.askTeam?.({ ...NO_ADJUSTMENT, addPrompts: 1 }, "")).toEqual({
			failed: "Timebox: the team's daily store did not get it (it was not prepared). Nothing changed.",
		});
		await fresh.readAhead.settle();
		expect(fresh.batches).toEqual([]);
	});

	it("reads the team's store for the report page: its limits and open requests are on it", async () => {
		const admin = hook("s-admin", "root@hq (codex)");
		await command(admin, "team set turns:9");
		const ann = hook("s-ann", "ann@m1 (gemini)");
		await command(ann, "team ask +30m a last test run");
		const page = hook("s-page", "root@hq (codex)");
		await page.readAhead.prepare("report page");
		expect(ops(page.batches)).toEqual([["view"]]);
		const view = page.readAhead.teamView?.() ?? { unreadable: "none" };
		expect(view).toMatchObject({ stored: { limits: { turns: 9 } } });
		expect("asks" in view ? view.asks.map((ask) => ask.why) : []).toEqual(["a last test run"]);
	});

	it("answers a write as not done where the batch's reply names neither the store nor the writes", async () => {
		const ann = hook("s-ann", "ann@m1 (gemini)");
		const run = ann.readAhead as unknown as { options: { run: () => Promise<unknown> } };
		run.options.run = () => Promise.resolve({ counted: [], standings: [], problems: [], carry: null });
		expect(await command(ann, "team")).toBe(
			"Timebox: the team's daily store did not get it (the batch did not read it). Nothing changed.",
		);
		expect(await command(ann, "team set off")).toBe(
			"Timebox: the team's daily store did not get it (the batch did not say). Nothing changed.",
		);
	});
});

describe("a daily command the rules cannot answer", () => {
	it("sends no write, and is answered with why", async () => {
		const ann = hook("s-ann", "ann@m1 (gemini)", [OWN]);
		await command(ann, "team set turns:2");
		const ledger = ann.readAhead as unknown as { standings: () => never };
		ledger.standings = () => {
			throw new Error("the day cannot be read");
		};
		const before = ann.batches.length;
		await ann.readAhead.prepare("today +turns:1");
		expect(ops(ann.batches.slice(before))).toEqual([["view"]]);
		expect(store.hashes.get(`timebox:{platform}:raise:${DAY}`)).toBeUndefined();
	});
});

describe("a store that refuses this user the team's day", () => {
	const NOPERM = "NOPERM User ann has no permissions to run the 'evalsha' command";

	it("is no outage: new turns are refused, said once, and nothing is counted on this machine", async () => {
		const ledger = batchLedgerOn(store, join(folder, "s-ann"), "s-ann", clock, { failure: "open" });
		store.failing = NOPERM;
		const standings = await ledger.standings([OWN]);
		const denied = `Timebox: the team's daily store ${TEAM_CONFIG.shown} refused this user the team's day (${NOPERM}), so new turns are refused until its admin lets this user count there (docs/team.md gives a member's ACL).`;
		expect(standings[0]?.closed).toBe(denied);
		// `/timebox team` and `/timebox today` name the refusal as why the day is not known.
		expect(ledger.dayUnread()).toBe(
			`the team's daily store ${TEAM_CONFIG.shown} would not let this user read today's use (${NOPERM})`,
		);
		expect(await ledger.countPrompt([OWN], [5])).toBe(false);
		await ledger.addUse([OWN], { tokens: 10 });
		expect(ledger.problem()).toBe(denied);
		expect(ledger.problem()).toBeNull();
		expect(readdirSync(join(folder, "s-ann"))).not.toContain("outbox");
		// With no daily budget of the session's own, a standing of the team's refuses.
		expect((await ledger.standings([]))[0]?.closed).toBe(denied);
		// Once the store takes the calls again, the day counts.
		store.failing = null;
		expect(await ledger.countPrompt([OWN], [5])).toBe(true);
		expect((await ledger.standings([OWN]))[0]?.closed).toBeUndefined();
	});

	it("says the policy's refusal where a way to the store has no words of its own for it", () => {
		const outage = new Outage(false, clock, { unreachable: () => "down", refusal: (why) => `refused (${why})` });
		outage.denied("NOPERM");
		expect(outage.refusing).toBe(true);
		expect(outage.told()).toBe("refused (NOPERM)");
		expect(outage.refusal()).toBe("refused (NOPERM)");
		outage.denied("NOPERM");
		expect(outage.told()).toBeNull();
	});
});

describe("a batch's writes", () => {
	it("leave those after one not done unsent, and a ledger with no team takes none beside the day", async () => {
		store.member = true;
		const ledger = batchLedgerOn(store, join(folder, "s-ann"), "s-ann", clock);
		const request = (ops: TeamRequest["ops"]): TeamRequest => ({ session: "s-ann", budgets: [], ops, read: false });
		const reply = await runTeamBatch(
			request([
				{ op: "limits", limits: null },
				{ op: "ask", adjustment: { ...NO_ADJUSTMENT, addPrompts: 1 }, why: "" },
			]),
			ledger,
		);
		expect(reply.writes).toEqual([
			"refused",
			{ failed: "Timebox: the team's daily store did not get it (a write before it was not done). Nothing changed." },
		]);
		const local: DailyLedger = {
			standings: () => [],
			countPrompt: () => true,
			addUse: () => {},
			adjust: () => undefined,
			problem: () => null,
		};
		const none = await runTeamBatch(
			request([
				{ op: "view" },
				{ op: "limits", limits: null },
				{ op: "adjust", budget: OWN, adjustment: NO_ADJUSTMENT },
			]),
			local,
		);
		const notSent = "Timebox: the team's daily store did not get it (no team is set). Nothing changed.";
		expect(none.view).toEqual({ unreadable: notSent });
		expect(none.writes).toEqual([{ failed: notSent }, { failed: expect.stringContaining("a write before it") }]);
		const asked = await runTeamBatch(
			request([
				{ op: "ask", adjustment: NO_ADJUSTMENT, why: "" },
				{ op: "adjust", budget: OWN, adjustment: NO_ADJUSTMENT },
			]),
			local,
		);
		expect(asked.writes?.[0]).toEqual({ failed: notSent });
	});
});
