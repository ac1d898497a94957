// The daily budget on real pi: three sessions of one project share `turns:3`; two `pi -p` processes racing on the same
// day answer exactly N prompts between them; and a process whose local midnight passes starts a new day.

import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunResult, runProcess } from "../support/processes.ts";
import { RealPi, textAnswer } from "./support/real-pi.ts";

const REPO = resolve(import.meta.dirname, "../..");
const PI = join(REPO, "node_modules/.bin/pi");
const DEMO = ["-e", REPO, "-e", join(REPO, "demo/offline-model.ts"), "--model", "timebox-demo/scripted"];
const SPENT = "Timebox: today's budget is spent (3 prompts). It resets at midnight.";
/** Loaded into a process with `--import`, it starts that process's clock at the local time TEST_CLOCK_START names. */
const CLOCK_START = pathToFileURL(join(import.meta.dirname, "support/clock-start.mjs")).href;

let host: RealPi;
beforeEach(() => {
	host = new RealPi();
});
afterEach(async () => {
	await host.dispose();
});

/**
 * `pi -p` with the test's HOME, agent folder and project, and `env` on top; with `startAt` (a local date and time,
 * `2026-11-22T23:59:50`), its clock starts at that time and runs on from there.
 */
function piPrint(prompts: string[], env: NodeJS.ProcessEnv = {}, startAt?: string): Promise<RunResult> {
	const base: NodeJS.ProcessEnv = {
		...process.env,
		HOME: host.home,
		PI_OFFLINE: "1",
		PI_CODING_AGENT_DIR: host.agentDir,
		...env,
	};
	delete base.XDG_STATE_HOME;
	delete base.PI_TIMEBOX;
	const args = [...DEMO, "-p", ...prompts];
	if (startAt !== undefined) {
		base.TEST_CLOCK_START = startAt;
		base.NODE_OPTIONS = `${base.NODE_OPTIONS ?? ""} --import ${CLOCK_START}`.trim();
	}
	return runProcess(PI, args, { cwd: host.cwd, env: base, timeoutMs: 90_000 });
}

/** The prompts counted in the user's ledger today, across every process. */
function countedToday(): number {
	const days = join(host.home, ".local/state/timebox/daily/user");
	if (!existsSync(days)) return 0;
	return readdirSync(days).reduce(
		(sum, day) => sum + readdirSync(join(days, day)).filter((name) => name.startsWith("prompt-")).length,
		0,
	);
}

describe("a daily budget on real pi", () => {
	it("lets three sessions of a project answer 3 prompts in all, and refuses the 4th in any session", async () => {
		const { mkdirSync } = await import("node:fs");
		mkdirSync(join(host.cwd, ".pi"), { recursive: true });
		writeFileSync(join(host.cwd, ".pi", "settings.json"), JSON.stringify({ timebox: { daily: "turns:3" } }));
		const sessions = [await host.start(), await host.start(), await host.start()];
		for (const [index, pi] of sessions.entries()) {
			host.faux.setResponses([textAnswer(`answer ${index}`)]);
			await pi.prompt(`task ${index}`);
			expect(pi.promptRun(1).assistant.at(-1)?.stopReason).toBe("stop");
		}
		host.faux.setResponses([textAnswer("never"), textAnswer("never")]);
		await sessions[1]?.prompt("one more");
		expect(sessions[1]?.screen.messages("error")).toEqual([SPENT]);
		await sessions[0]?.prompt("and another");
		expect(sessions[0]?.screen.messages("error")).toEqual([SPENT]);
		// Each refused prompt's call was aborted before pi sent it: no answer came back.
		for (const pi of [sessions[1], sessions[0]]) {
			expect(pi?.promptRun(2).assistant.map((message) => [message.stopReason, message.content])).toEqual([
				["aborted", []],
			]);
		}
		await sessions[2]?.timebox("today");
		expect(sessions[2]?.screen.notifications.at(-1)?.message).toMatch(
			/^Timebox today: 1 daily budget\.\nThis project \(timebox\.daily in .*\): 3 of 3 prompts used, 0 left\. Used by 3 sessions\.$/,
		);
	});

	it("does not count for the day the prompt the session's own turns: refuses: three of turns:3 reach the model", async () => {
		const { mkdirSync } = await import("node:fs");
		mkdirSync(join(host.cwd, ".pi"), { recursive: true });
		writeFileSync(join(host.cwd, ".pi", "settings.json"), JSON.stringify({ timebox: { daily: "turns:3" } }));
		const pi = await host.start();
		await pi.timebox("turns:1");
		for (const prompt of ["one", "two", "three", "four", "five"]) {
			host.faux.setResponses([textAnswer(`${prompt} done`)]);
			await pi.prompt(prompt);
		}
		const reasons = [1, 2, 3, 4, 5].map((run) => pi.promptRun(run).assistant.map((message) => message.stopReason));
		expect(reasons).toEqual([["stop"], ["aborted"], ["stop"], ["stop"], ["aborted"]]);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 1 turn, 0s. The agent stops for this turn. The chat continues.",
			SPENT,
		]);
		await pi.timebox("today");
		expect(pi.screen.notifications.at(-1)?.message).toMatch(/: 3 of 3 prompts used, 0 left\. Used by 1 session\.$/);
	});

	it("answers exactly N prompts between two pi -p processes racing on the same day", async () => {
		writeFileSync(join(host.agentDir, "settings.json"), JSON.stringify({ timebox: { daily: "turns:3" } }));
		const [first, second] = await Promise.all([piPrint(["one", "two"]), piPrint(["three", "four"])]);
		const refusals = `${first.stderr}${second.stderr}`.split("\n").filter((line) => line.includes(SPENT));
		expect(refusals).toHaveLength(1);
		expect(countedToday()).toBe(3);
	});

	it("holds and counts pi -p processes set up with TIMEBOX_DAILY and TIMEBOX_DEFAULT alone, as every host reads them", async () => {
		const env = { TIMEBOX_DAILY: "turns:2", TIMEBOX_DEFAULT: "turns:5" };
		const [first, second] = await Promise.all([piPrint(["one", "two"], env), piPrint(["three"], env)]);
		const refusals = `${first.stderr}${second.stderr}`
			.split("\n")
			.filter((line) => line.includes("today's budget is spent"));
		expect(refusals).toEqual(["[timebox] error: Timebox: today's budget is spent (2 prompts). It resets at midnight."]);
		expect(countedToday()).toBe(2);
		expect(`${first.stderr}${second.stderr}`).toContain("Timebox set from TIMEBOX_DEFAULT: 5 turns.");
	});

	it("starts a new day at local midnight: a process a minute before it is refused, one just after it is answered", async () => {
		writeFileSync(join(host.agentDir, "settings.json"), JSON.stringify({ timebox: { daily: "turns:1" } }));
		// Each process's clock starts at the given local time of the zone TZ names; timers keep the real monotonic clock.
		const zone = { TZ: "Europe/Berlin" };
		// A minute before midnight: pi's start-up, slow on a busy machine, does not carry the process into the new day.
		const before = await piPrint(["first", "second"], zone, "2026-11-22T23:59:00");
		expect(before.ms).toBeLessThan(60_000);
		expect(before.stderr).toContain("Timebox: today's budget is spent (1 prompt). It resets at midnight.");
		const days = join(host.home, ".local/state/timebox/daily/user");
		expect(readdirSync(days)).toEqual(["2026-11-22"]);
		const after = await piPrint(["third"], zone, "2026-11-23T00:00:05");
		expect(after.stderr).not.toContain("today's budget is spent");
		expect(after.code).toBe(0);
		// Yesterday's folder is kept (a clock set back across midnight still finds the day it spent); older ones go.
		expect(readdirSync(days)).toEqual(["2026-11-22", "2026-11-23"]);
	});
});
