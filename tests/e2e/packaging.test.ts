// Installs the package the way a user does (`pi install <path>` into a throwaway HOME) and runs `pi -p` with it:
// guards against a manifest or entry that pi cannot load, and proves the limit fires in print mode. Installing and the
// print-mode stop run on the bundled pi 0.73.1 and on pi 1.x (whose loader maps the `@mariozechner/…` imports onto its
// own `@earendil-works/…` packages); the settings cases on the bundled pi only.

import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunResult } from "../support/processes.ts";
import { BUNDLED_PI, PI_HOSTS, type PiHost, runPi } from "./support/pi-hosts.ts";

const REPO = resolve(import.meta.dirname, "../..");
const DEMO_MODEL = join(REPO, "demo/offline-model.ts");

let home: string;

/** Runs pi (by default the bundled one) with the throwaway HOME and stdin closed. */
function pi(args: string[], extraEnv: NodeJS.ProcessEnv = {}, host: PiHost = BUNDLED_PI): Promise<RunResult> {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		HOME: home,
		PI_OFFLINE: "1",
		PI_CODING_AGENT_DIR: join(home, ".pi/agent"),
	};
	// A default budget the developer has set must not leak into these runs.
	delete env.PI_TIMEBOX;
	Object.assign(env, extraEnv);
	return runPi(host, args, { cwd: home, env });
}

beforeEach(async () => {
	home = await mkdtemp(join(tmpdir(), "timebox-packaging-"));
});

afterEach(async () => {
	await rm(home, { recursive: true, force: true });
});

describe.each(PI_HOSTS)("the package installed with pi install, on $name", (host) => {
	beforeAll(() => host.ensure(), 300_000);

	it("installs from a local path and is listed", async () => {
		const installed = await pi(["install", REPO], {}, host);
		expect(installed.code).toBe(0);
		expect(installed.stdout).toContain(`Installed ${REPO}`);
		const listed = await pi(["list"], {}, host);
		expect(listed.stdout).toContain(REPO);
	});

	it("loads in pi -p: /timebox answers, the second prompt of turns:1 is stopped and the command runs once", async () => {
		expect((await pi(["install", REPO], {}, host)).code).toBe(0);
		const stopFile = join(home, "stopped.txt");
		const result = await pi(
			[
				"-e",
				DEMO_MODEL,
				"--model",
				"timebox-demo/scripted",
				"-p",
				`/timebox turns:1 -- echo stopped >> '${stopFile}'`,
				"first",
				"second",
			],
			{},
			host,
		);
		expect(result.stderr).toContain(
			`[timebox] info: Timebox set: 1 turn. On stop it runs: echo stopped >> '${stopFile}'`,
		);
		expect(result.stderr).toMatch(
			/\[timebox\] error: Timebox budget spent\. Used 1 turn, \d+s\. The agent stops for this turn\. The chat continues\./,
		);
		// pi's words for the aborted run changed in 1.x.
		expect(result.stderr).toContain(host.major === 0 ? "Request was aborted" : "This operation was aborted");
		expect(result.code).toBe(1);
		await expect.poll(() => readFile(stopFile, "utf8").catch(() => ""), { timeout: 5_000 }).toBe("stopped\n");
	});
});

describe("the package installed with pi install, on the bundled pi", () => {
	it("caps a scripted run with pi -p --timebox: the second prompt of turns:1 is stopped", async () => {
		expect((await pi(["install", REPO])).code).toBe(0);
		const demo = ["-e", DEMO_MODEL, "--model", "timebox-demo/scripted"];
		const result = await pi([...demo, "-p", "--timebox", "turns:1", "first", "second"]);
		expect(result.stderr).toContain("[timebox] info: Timebox set from --timebox: 1 turn.");
		expect(result.stderr).toMatch(/\[timebox\] error: Timebox budget spent\. Used 1 turn, \d+s\./);
	});

	it("takes the default from PI_TIMEBOX, then the project's settings over the user's, and names a bad one", async () => {
		expect((await pi(["install", REPO])).code).toBe(0);
		const demo = ["-e", DEMO_MODEL, "--model", "timebox-demo/scripted", "-p", "/timebox status"];
		// pi install keeps the package list in the same settings file: add to it.
		const globalFile = join(home, ".pi/agent/settings.json");
		const settings = JSON.parse(await readFile(globalFile, "utf8"));
		await writeFile(globalFile, JSON.stringify({ ...settings, timebox: { default: "45m" } }));
		expect((await pi(demo)).stderr).toContain(
			`[timebox] info: Timebox set from timebox.default in ${globalFile}: 45m.`,
		);
		await mkdir(join(home, ".pi"), { recursive: true });
		await writeFile(join(home, ".pi/settings.json"), JSON.stringify({ timebox: { default: "turns:7" } }));
		const project = await pi(demo);
		expect(project.stderr).toContain(
			`Timebox set from timebox.default in ${join(home, ".pi/settings.json")}: 7 turns.`,
		);
		const fromEnv = await pi(demo, { PI_TIMEBOX: "20m" });
		expect(fromEnv.stderr).toContain("[timebox] info: Timebox set from PI_TIMEBOX: 20m.");
		const bad = await pi(demo, { PI_TIMEBOX: "30x" });
		expect(bad.stderr).toContain(
			'[timebox] warning: Timebox: PI_TIMEBOX: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. The session starts without a budget.',
		);
		expect(bad.stderr).toContain("No active timebox.");
	});

	it("answers bad input with the usage and runs no model", async () => {
		expect((await pi(["install", REPO])).code).toBe(0);
		const result = await pi(["-p", "/timebox 15m turn:3"]);
		expect(result.stderr).toContain(
			'[timebox] warning: Timebox: "turn:3" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. Nothing changed.',
		);
		expect(result.stderr).toContain("Usage: /timebox <budget> [-- <command>] | status | off");
		expect(result.code).toBe(0);
	});
});
