// The daily budget on the fake pi: sessions of one project share today's prompts and agent time through one ledger on
// disk; a spent day refuses the next prompt in any session and stops a run going on; /timebox today shows, raises and
// turns it off; a bad setting is named and blocks nothing.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDailyLedger } from "../../../src/adapters/node/daily-ledger.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

const MINUTE = 60_000;
let root: string;
let time: FakeTime;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-daily-pi-"));
	mkdirSync(join(root, "project", ".pi"), { recursive: true });
	time = new FakeTime();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A pi session of the project, sharing the ledger and the clock with the others. */
async function session(daily: { user?: string; project?: string; env?: string } = {}): Promise<FakePi> {
	const pi = new FakePi({ time, file: new FakeSessionFile() });
	if (daily.env) pi.env = { TIMEBOX_DAILY: daily.env };
	pi.dailyDir = join(root, "state");
	pi.cwd = join(root, "project");
	pi.globalSettings = join(root, "settings.json");
	if (daily.user) writeFileSync(pi.globalSettings, JSON.stringify({ timebox: { daily: daily.user } }));
	if (daily.project)
		writeFileSync(join(pi.cwd, ".pi", "settings.json"), JSON.stringify({ timebox: { daily: daily.project } }));
	return pi.start();
}

const SPENT = "Timebox: today's budget is spent (3 prompts). It resets at midnight.";

describe("a daily budget on pi", () => {
	it("lets three sessions of a project answer 3 prompts in all, and refuses the 4th in any of them", async () => {
		const one = await session({ project: "turns:3" });
		const two = await session({ project: "turns:3" });
		const three = await session({ project: "turns:3" });
		expect((await one.prompt("a")).aborted).toBe(false);
		expect((await two.prompt("b")).aborted).toBe(false);
		expect((await three.prompt("c", { llmCalls: 2 })).aborted).toBe(false);
		const fourth = await one.prompt("d");
		expect(fourth).toMatchObject({ aborted: true, modelCalls: 0 });
		expect(one.screen.messages("error")).toEqual([SPENT]);
		// pi may ask about the refused prompt again: it is ended without another word.
		await one.instance.emit({ type: "context", messages: one.file.messages().slice(0, -1) });
		expect(one.screen.messages("error")).toEqual([SPENT]);
		await one.timebox("status");
		expect((await two.prompt("e")).aborted).toBe(true);
		await three.timebox("today");
		expect(three.screen.last?.message.split("\n")).toEqual([
			"Timebox today: 1 daily budget.",
			`This project (timebox.daily in ${join(root, "project", ".pi", "settings.json")}): 3 of 3 prompts used, 0 left. Used by 3 sessions.`,
		]);
	});

	it("holds and counts every session with TIMEBOX_DAILY alone in the environment, as every other host reads it", async () => {
		const one = await session({ env: "turns:2" });
		const two = await session({ env: "turns:2" });
		expect((await one.prompt("a")).aborted).toBe(false);
		expect((await two.prompt("b")).aborted).toBe(false);
		expect(await one.prompt("c")).toMatchObject({ aborted: true, modelCalls: 0 });
		expect(one.screen.messages("error")).toEqual([
			"Timebox: today's budget is spent (2 prompts). It resets at midnight.",
		]);
		await two.timebox("today");
		expect(two.screen.last?.message.split("\n")).toEqual([
			"Timebox today: 1 daily budget.",
			"Every session (TIMEBOX_DAILY): 2 of 2 prompts used, 0 left. Used by 2 sessions.",
		]);
	});

	it("raises today's budget or turns it off for every session, from any of them", async () => {
		const one = await session({ user: "turns:1" });
		const two = await session({ user: "turns:1" });
		await one.prompt("a");
		expect((await two.prompt("b")).aborted).toBe(true);
		await two.timebox("today +turns:1");
		expect(two.screen.last?.message.split("\n")[0]).toBe(
			"Timebox: today's budget raised by 1 prompt for the rest of the day.",
		);
		expect((await one.prompt("c")).aborted).toBe(false);
		expect((await one.prompt("d")).aborted).toBe(true);
		await one.timebox("today off");
		expect(one.screen.last?.message).toBe("Timebox: today's budget is off until midnight, in every session it covers.");
		expect((await two.prompt("e")).aborted).toBe(false);
		await two.timebox("today 15m");
		expect(two.screen.last).toEqual({
			message: "Timebox: After /timebox today: nothing, off, or what to add (+30m, +turns:5, +$2). Nothing changed.",
			level: "warning",
		});
	});

	it("stops a run when today's agent time runs out during it, and counts the run's time", async () => {
		const pi = await session({ user: "10m" });
		await pi.prompt("short", { duringTool: () => time.advance(2 * MINUTE), llmCalls: 2 });
		const long = await pi.prompt("long", { llmCalls: 3, duringTool: () => time.advance(7 * MINUTE) });
		expect(long.aborted).toBe(true);
		expect(pi.screen.messages("warning")).toContain(
			"Timebox: today's budget: 2m 0s of agent time left of 10m — the model is asked to wrap up.",
		);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox: today's budget is spent (10m of agent time). It resets at midnight.",
		]);
		await pi.timebox("today");
		expect(pi.screen.last?.message).toMatch(
			/: (?:1[0-6]|9)m \d+s of 10m of agent time used, [\dms ]+ left\. Used by 1 session\.$/,
		);
	});

	it("tells the model at every call from 80% of the day", async () => {
		const pi = await session({ user: "turns:5" });
		for (const name of ["a", "b", "c", "d"]) await pi.prompt(name);
		const fifth = await pi.prompt("e", { llmCalls: 2 });
		expect(fifth.notes).toEqual([
			"Today's budget (shared by every session): 1 prompt left of 5. Wrap up what you are doing, and start nothing new.",
			"Today's budget (shared by every session): 1 prompt left of 5. Wrap up what you are doing, and start nothing new.",
		]);
	});

	it("answers /timebox today in a pi that has no daily ledger, naming the settings file pi reads", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("today");
		expect(pi.screen.last?.message).toMatch(/^No daily budget is set\./);
		expect(pi.screen.last?.message).toBe(
			`No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of ${pi.globalSettings} or of .pi/settings.json in the project.`,
		);
	});

	it("names a daily setting it cannot read, enforces nothing from it, and /timebox today names it again", async () => {
		const pi = await session({ user: "3h steps:5" });
		await pi.instance.emit({ type: "session_tree", newLeafId: pi.file.leafId, oldLeafId: null });
		const unreadable = `Timebox: timebox.daily in ${join(root, "settings.json")}: a daily budget takes a time, prompts (turns:60), tokens and cost only. No daily budget is enforced from it.`;
		expect(pi.screen.messages("warning")).toEqual([unreadable]);
		expect((await pi.prompt("a")).aborted).toBe(false);
		// Not "No daily budget is set": one is, and it cannot be read.
		await pi.timebox("today");
		expect(pi.screen.last).toEqual({ message: unreadable, level: "warning" });
	});

	it("opens the session's daily ledger as the session starts, so that its first prompt opens nothing", async () => {
		const pi = new FakePi({ time });
		const opened: string[] = [];
		pi.dailyLedger = (id) => {
			opened.push(id);
			return createDailyLedger(join(root, "state"), id, time);
		};
		await pi.start();
		expect(opened).toEqual([pi.file.id]);
		await pi.timebox("turns:3");
		expect((await pi.prompt("a", { llmCalls: 2 })).aborted).toBe(false);
		expect(opened).toEqual([pi.file.id]);
	});

	it("starts the session when its daily ledger cannot be opened, says so once, and keeps the budget", async () => {
		const pi = new FakePi({ time });
		let tries = 0;
		pi.dailyLedger = () => {
			tries++;
			throw new Error("no state folder");
		};
		await pi.start();
		const problem =
			"Timebox hit an internal error (daily budget): no state folder. Your session goes on; check the budget with /timebox status.";
		expect(pi.screen.messages("error")).toEqual([problem]);
		await pi.timebox("turns:1");
		expect((await pi.prompt("a")).aborted).toBe(false);
		expect((await pi.prompt("b")).aborted).toBe(true);
		expect(pi.screen.messages("error")).toEqual([problem, expect.stringMatching(/^Timebox budget spent/)]);
		// Each later event tries again, and says nothing more.
		expect(tries).toBeGreaterThan(1);
	});
});
