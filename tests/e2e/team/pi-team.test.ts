// A team's daily budget on real pi, with the offline model: six machines (each its own HOME, TMPDIR, XDG_STATE_HOME
// and pi agent folder, no file in common) share `turns:8` through one real Redis. 18 turns at once: exactly 8 are
// answered and the other 10 told the team's day is spent. After a kill -9 of Redis and a restart on its data, a
// seventh machine's turn is refused and its /timebox today shows 8 of 8. With Redis down, a turn ends in time and a
// Timebox line names the store.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { RedisServer } from "../support/redis.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const PI = join(REPO, "node_modules/.bin/pi");
const DEMO = ["-e", REPO, "-e", join(REPO, "demo/offline-model.ts"), "--model", "timebox-demo/scripted"];
const SPENT = "Timebox: the team's budget for today is spent (8 turns). It resets at midnight UTC.";
const TEAM = "platform";

let redis: RedisServer;
let root: string;

beforeAll(async () => {
	redis = await RedisServer.start();
	root = mkdtempSync(join(tmpdir(), "timebox-team-pi-"));
});
afterAll(async () => {
	await redis?.dispose();
	rmSync(root, { recursive: true, force: true });
});

/** A machine of its own: its home, temporary folder, state folder and pi agent folder, with `daily: "turns:8"`. */
function machine(name: string): NodeJS.ProcessEnv {
	const base = join(root, name);
	const env: NodeJS.ProcessEnv = {
		HOME: join(base, "home"),
		TMPDIR: join(base, "tmp"),
		XDG_STATE_HOME: join(base, "state"),
		PI_CODING_AGENT_DIR: join(base, "agent"),
	};
	for (const folder of Object.values(env)) mkdirSync(folder as string, { recursive: true });
	writeFileSync(join(base, "agent", "settings.json"), JSON.stringify({ timebox: { daily: "turns:8" } }));
	return env;
}

/** One turn (or command) in pi's print mode on a machine, pointed at the team's store. */
function turn(env: NodeJS.ProcessEnv, prompt: string, store = redis.url()): Promise<RunResult> {
	const full: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		PI_OFFLINE: "1",
		...env,
		TIMEBOX_DAILY_STORE: store,
		TIMEBOX_TEAM: TEAM,
	};
	// 18 pi processes at once on a busy 2-core machine take minutes.
	return runProcess(PI, [...DEMO, "-p", prompt], { cwd: env.HOME, env: full, timeoutMs: 600_000 });
}

describe("a team's daily budget on real pi", () => {
	it("answers exactly 8 of 18 turns sent at once from six machines, and survives a kill -9 of Redis", async () => {
		const machines = ["m1", "m2", "m3", "m4", "m5", "m6"].map(machine);
		const runs = await Promise.all(
			machines.flatMap((env, index) => [0, 1, 2].map((count) => turn(env, `turn ${index}-${count}`))),
		);
		const answered = runs.filter((run) => run.stdout.includes("You asked:"));
		const refused = runs.filter((run) => run.stderr.includes(`[timebox] error: ${SPENT}`));
		// Every process reached the store: none counted on its own machine.
		expect(runs.filter((run) => run.stderr.includes("cannot be reached"))).toEqual([]);
		expect(answered).toHaveLength(8);
		expect(refused).toHaveLength(10);
		for (const run of refused) expect(run.stdout).not.toContain("You asked:");
		expect(redis.cli(["HGET", `timebox:{${TEAM}}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("8");

		await redis.restart();
		const seventh = machine("m7");
		const late = await turn(seventh, "one more");
		expect(late.stderr).toContain(`[timebox] error: ${SPENT}`);
		expect(late.stdout).not.toContain("You asked:");
		const today = await turn(seventh, "/timebox today");
		expect(today.stderr).toMatch(
			/\[timebox\] info: Timebox today: 1 daily budget\.\nThe team platform \(timebox\.daily in .*\): 8 of 8 turns used, 0 left\. Used by 8 sessions\. By .+@.+ \(pi\) 8 sessions\. It resets at midnight UTC\./,
		);
	}, 900_000);

	it("lists a member's request on the session's report page, with the team's limits", async () => {
		const env = machine("m10");
		const full: NodeJS.ProcessEnv = { PATH: process.env.PATH, PI_OFFLINE: "1", ...env };
		const store = { TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: "reporting" };
		const run = await runProcess(
			PI,
			[
				...DEMO,
				"-p",
				"/timebox team set turns:30",
				"/timebox team ask +30m the release needs a last test run",
				"/timebox report page",
			],
			{ cwd: env.HOME, env: { ...full, ...store }, timeoutMs: 300_000 },
		);
		const link = /Timebox report page: file:\/\/(\S+)/.exec(run.stderr);
		expect(link, run.stderr).not.toBeNull();
		const page = readFileSync(decodeURIComponent(link?.[1] ?? ""), "utf8");
		expect(page).toContain("The team reporting");
		expect(page).toContain("the release needs a last test run");
		expect(page).toContain("30m of agent time");
	});

	it("ends a turn in time while Redis is down, and a Timebox line names the store without its password", async () => {
		const env = machine("m8");
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		// A turn with no store set, for what pi itself takes on this machine now.
		const baseline = await runProcess(PI, [...DEMO, "-p", "baseline"], {
			cwd: env.HOME,
			env: { PATH: process.env.PATH, PI_OFFLINE: "1", ...env },
			timeoutMs: 120_000,
		});
		const run = await turn(env, "are you there", `redis://bot:hunter2@127.0.0.1:${port}`);
		// Within 20 s, or, on a machine so busy that pi alone takes longer, within 10 s of a turn without a store.
		expect(run.ms).toBeLessThan(Math.max(20_000, baseline.ms + 10_000));
		expect(run.stdout).toContain("You asked:");
		expect(run.stderr).toContain(
			`[timebox] warning: Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached (`,
		);
		expect(`${run.stdout}${run.stderr}`).not.toContain("hunter2");
	});

	it("refuses the turns of a member whose team zone is misspelt in the closed mode, and leaves them to the machine when open", async () => {
		const wrong = { ...machine("m9"), TIMEBOX_TEAM_TZ: "Europe/Berln", TIMEBOX_DAILY_STORE_FAILURE: "closed" };
		const why = 'Timebox: TIMEBOX_TEAM_TZ "Europe/Berln" is not a time zone (Europe/Berlin, UTC).';
		const refused = await turn(wrong, "go");
		expect(refused.stderr).toContain(
			`[timebox] error: ${why} The team's budget cannot be counted, so new turns are refused until it is set right (TIMEBOX_DAILY_STORE_FAILURE is "closed").`,
		);
		expect(refused.stdout).not.toContain("You asked:");
		const open = await turn({ ...wrong, TIMEBOX_DAILY_STORE_FAILURE: "open" }, "go");
		expect(open.stdout).toContain("You asked:");
		expect(open.stderr).toContain(`[timebox] warning: ${why} The daily budget is this machine's alone.`);
	});

	it("counts every member in the zone its admin keeps with the limits: a member's own TIMEBOX_TEAM_TZ lifts no spent day", async () => {
		// A zone whose date is not UTC's now, whatever the hour: Honolulu's is the day before until 10:00 UTC,
		// Kiritimati's the day after from then on.
		const other = new Date().getUTCHours() < 10 ? "Pacific/Honolulu" : "Pacific/Kiritimati";
		const zones = (env: NodeJS.ProcessEnv, prompt: string) =>
			runProcess(PI, [...DEMO, "-p", prompt], {
				cwd: env.HOME,
				env: {
					PATH: process.env.PATH,
					PI_OFFLINE: "1",
					...env,
					TIMEBOX_DAILY_STORE: redis.url(),
					TIMEBOX_TEAM: "zones",
				},
				timeoutMs: 300_000,
			});
		const set = await zones(machine("z0"), "/timebox team set turns:2");
		expect(set.stderr).toContain("Timebox: the team zones's limits are now 2 turns a day");
		expect(redis.cli(["HGET", "timebox:{zones}:limits", "zone"])).toBe("UTC");
		const member = machine("z1");
		for (const prompt of ["one", "two"]) expect((await zones(member, prompt)).stdout).toContain("You asked:");
		const elsewhere = { ...machine("z2"), TIMEBOX_TEAM_TZ: other };
		const refused = await zones(elsewhere, "one more, elsewhere");
		expect(refused.stdout).not.toContain("You asked:");
		expect(refused.stderr).toContain(
			"[timebox] error: Timebox: the team's budget for today is spent (2 turns). It resets at midnight UTC.",
		);
		expect(refused.stderr).toContain(
			`Timebox: the team zones's day starts at midnight UTC, the time zone its admin keeps with its limits; this machine's (${other}, from TIMEBOX_TEAM_TZ or UTC) is not used.`,
		);
		// Nothing was counted in the day of the member's own zone.
		const otherDay = new Intl.DateTimeFormat("en-CA", { timeZone: other }).format(new Date());
		expect(otherDay).not.toBe(new Date().toISOString().slice(0, 10));
		expect(redis.cli(["HGET", `timebox:{zones}:${otherDay}:use`, "prompts"])).toBe("");
		expect(redis.cli(["HGET", `timebox:{zones}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("2");
	}, 600_000);
});
