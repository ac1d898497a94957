// A team's daily budget on the fake pi, its ledger over a team's store in memory: a session with no daily budget of its
// own is held to the limits the admin set in the store, each refusal in pi's words; /timebox team shows the team and
// takes a member's request; a member's raise is refused by the store and changes nothing.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DailyLedger, TEAM_RETRY_MS } from "../../../src/core/index.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { MemoryStore, teamLedgerOn } from "../team/memory-store.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

const WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
let root: string;
let time: FakeTime;
let store: MemoryStore;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-team-pi-"));
	time = new FakeTime();
	store = new MemoryStore(time);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A pi session on a machine of its own, whose daily ledger is the team's over the store. */
async function member(name: string, ledger?: (id: string) => DailyLedger): Promise<FakePi> {
	const pi = new FakePi({ time, file: new FakeSessionFile() });
	pi.dailyLedger = ledger ?? ((id) => teamLedgerOn(store, join(root, name), id, time, { member: `${name}@m (pi)` }));
	return pi.start();
}

describe("a team's daily budget on pi", () => {
	it("holds a session with no daily budget to the admin's limits in the store, and takes a member's request", async () => {
		const admin = await member("admin");
		await admin.timebox("team set turns:2");
		expect(admin.screen.last?.message).toBe(
			"Timebox: the team platform's limits are now 2 turns a day, in its store, for every member from their next check.",
		);
		const ann = await member("ann");
		expect((await ann.prompt("a")).aborted).toBe(false);
		expect((await admin.prompt("b")).aborted).toBe(false);
		expect(await ann.prompt("c")).toMatchObject({ aborted: true, modelCalls: 0 });
		expect(ann.screen.messages("error")).toEqual([
			"Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.",
		]);
		store.member = true;
		await ann.timebox("today +turns:5");
		expect(ann.screen.last).toEqual({
			message:
				"Timebox: only the team's admin can change its budget (the store refused this user). Ask with /timebox team ask +30m <why>.",
			level: "warning",
		});
		await ann.timebox("team ask +turns:1 one more test run");
		store.member = false;
		await admin.timebox("team");
		expect(admin.screen.last?.message.split("\n").slice(1)).toEqual([
			"The team platform (set in its store): 2 of 2 turns used, 0 left. Used by 2 sessions. By admin@m (pi) 1 session, ann@m (pi) 1 session. It resets at midnight UTC.",
			"Open requests (1):",
			expect.stringMatching(/^- ann@m \(pi\) at \d\d:\d\d UTC asks for 1 turn: "one more test run"$/),
		]);
		await admin.timebox("today +turns:1");
		expect((await ann.prompt("d")).aborted).toBe(false);
		await admin.timebox("team");
		expect(admin.screen.last?.message).toContain("No open requests.");
	});

	it("says that today's use could not be read, not that the store keeps no limits, and changes nothing", async () => {
		const admin = await member("admin");
		await admin.timebox("team set 4h turns:200 $50");
		store.failingScript.set("read", WRONGTYPE);
		const unread = `Timebox: today's use could not be read from the team's daily store redis://timebox@127.0.0.1:6390/0 (${WRONGTYPE}), so the team's standing today is not known.`;
		await admin.timebox("today +30m");
		expect(admin.screen.last).toEqual({ message: `${unread} Nothing changed.`, level: "warning" });
		await admin.timebox("today off");
		expect(admin.screen.last).toEqual({ message: `${unread} Nothing changed.`, level: "warning" });
		await admin.timebox("today");
		expect(admin.screen.last).toEqual({ message: unread, level: "warning" });
		expect([...store.hashes.keys()].filter((key) => key.includes(":raise:"))).toEqual([]);
		// A bad word is still named as such.
		await admin.timebox("today soon");
		expect(admin.screen.last?.message).toMatch(/^Timebox: After \/timebox today: nothing, off, or what to add/);
		// In the closed mode a standing stands for the limits the store may keep: nothing of them is known either.
		const closed = await member("closed", (id) =>
			teamLedgerOn(store, join(root, "closed"), id, time, { member: "closed@m (pi)", failure: "closed" }),
		);
		await closed.timebox("today +30m");
		expect(closed.screen.last).toEqual({ message: `${unread} Nothing changed.`, level: "warning" });
		await closed.timebox("today");
		expect(closed.screen.last).toEqual({ message: unread, level: "warning" });
		expect([...store.hashes.keys()].filter((key) => key.includes(":raise:"))).toEqual([]);
		// The store answers again: the day as it stands, nothing added.
		store.failingScript.clear();
		time.advance(TEAM_RETRY_MS);
		await admin.timebox("today");
		expect(admin.screen.last?.message).toContain("0 of 200 turns used");
		expect(admin.screen.last?.message).not.toContain("added");
	});

	it("keeps what a member with no daily budget of its own uses while the store is down, and sends it when it answers", async () => {
		const admin = await member("admin");
		await admin.timebox("team set turns:20");
		const ann = await member("ann");
		const prompts = () => {
			const day = [...store.hashes.keys()].find((key) => key.endsWith(":use"));
			return Number(store.hashes.get(day ?? "")?.get("prompts") ?? 0);
		};
		expect((await ann.prompt("a")).aborted).toBe(false);
		expect(prompts()).toBe(1);
		store.down = "connect ECONNREFUSED 127.0.0.1:6390";
		expect((await ann.prompt("b")).aborted).toBe(false);
		expect((await ann.prompt("c")).aborted).toBe(false);
		expect(ann.screen.messages("warning").filter((line) => line.includes("cannot be reached"))).toEqual([
			"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (connect ECONNREFUSED 127.0.0.1:6390): this machine counts today's use on its own until it answers, then sends it to the team.",
		]);
		expect(prompts()).toBe(1);
		store.down = null;
		time.advance(TEAM_RETRY_MS);
		// The first call to answer is /timebox team's, which sends nothing: the next call of the day sends what was kept.
		await ann.timebox("team");
		expect(ann.screen.last?.message).toContain("20 turns a day");
		expect((await ann.prompt("d")).aborted).toBe(false);
		// The two prompts of the outage reached the team's day, once each, with the one after it.
		expect(prompts()).toBe(4);
		await ann.timebox("today");
		expect(ann.screen.last?.message).toContain("4 of 20 turns used");
	});

	it("says no team is shown where the ledger has a team but nothing of its store to show", async () => {
		const bare: DailyLedger = {
			team: { name: "platform", zone: "UTC" },
			standings: () => [],
			countPrompt: () => true,
			addUse: () => {},
			adjust: () => undefined,
			problem: () => null,
		};
		const pi = await member("bare", () => bare);
		for (const words of ["team", "team set 4h", "team ask +1h"]) {
			await pi.timebox(words);
			expect(pi.screen.last?.message).toMatch(/^Timebox: no team is set here\./);
		}
		// A ledger that reads no day of the team's tells no failure to read it.
		await pi.timebox("today");
		expect(pi.screen.last?.message).toMatch(
			/^No daily budget is set\..* The team platform's store keeps no limits either/,
		);
	});
});
