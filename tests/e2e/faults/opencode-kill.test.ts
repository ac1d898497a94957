// opencode killed (`kill -9`) in the two moments a turn budget depends on a write: while a counted prompt's model
// request is under way, and while the run past the limit is being refused (after the stop's claim and its on-stop
// command). The real `opencode run`, against the fake chat API, killed on what it does (the request reaching the fake,
// the stop's line on its stderr) rather than after a delay, so a loaded machine moves nothing. After each kill the next
// `opencode run -c` finds the turn counted once, the budget spent, the on-stop command run once, and `/timebox` working.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeChat } from "../../../demo/fakes/chat.ts";
import { runProcess } from "../../support/processes.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "../opencode/support.ts";

const STOP_LINE = "Timebox budget spent.";

let api: FakeChat;
let root: string;
let home: string;
let ran: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
	await ensureOpencode();
}, 600_000);

beforeEach(async () => {
	api = await FakeChat.start();
	root = await mkdtemp(join(tmpdir(), "timebox-opencode-kill-"));
	home = join(root, "home");
	ran = join(root, "ran.txt");
	mkdirSync(join(root, "work"));
	writeOpencodeHome(home, api.url);
	env = opencodeEnv(home, { TIMEBOX_DEFAULT: `turns:2 -- echo stopped >> '${ran}'` });
});

afterEach(async () => {
	await api.close();
	await rm(root, { recursive: true, force: true });
});

/** `opencode run` with the words given, to its end, as the user reads it. */
async function run(args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
	const result = await runProcess(OPENCODE, ["run", ...args], { cwd: join(root, "work"), env, timeoutMs: 120_000 });
	return {
		...result,
		stdout: stripVTControlCharacters(result.stdout),
		stderr: stripVTControlCharacters(result.stderr),
	};
}

/**
 * `opencode run -c <prompt>`, killed with SIGKILL by `arm(kill)` (called with the function that kills it) or when its
 * stderr holds `killOn`: its stderr, and whether the kill found it still running.
 */
function killedRun(
	prompt: string,
	trigger: { killOn?: string; arm?: (kill: () => void) => void },
): Promise<{ stderr: string; killed: boolean }> {
	return new Promise((done) => {
		const child = spawn(OPENCODE, ["run", "-c", prompt], {
			cwd: join(root, "work"),
			env,
			stdio: ["ignore", "ignore", "pipe"],
		});
		const kill = () => child.kill("SIGKILL");
		trigger.arm?.(kill);
		let stderr = "";
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += stripVTControlCharacters(chunk.toString());
			if (trigger.killOn !== undefined && stderr.includes(trigger.killOn)) kill();
		});
		child.once("close", (_code, signal) => done({ stderr, killed: signal === "SIGKILL" }));
	});
}

/** Timebox's session logs: the prompts they hold, and how many lines do not parse (a line a kill cut short). */
function sessionLog(): { prompts: string[]; torn: number } {
	const folder = join(home, ".local", "state", "timebox", "opencode", "sessions");
	const lines = (existsSync(folder) ? readdirSync(folder) : []).flatMap((file) =>
		readFileSync(join(folder, file), "utf8").split("\n").filter(Boolean),
	);
	const prompts: string[] = [];
	let torn = 0;
	for (const line of lines) {
		try {
			const record = JSON.parse(line) as { kind: string; promptId?: string };
			if (record.kind === "prompt" && record.promptId !== undefined) prompts.push(record.promptId);
		} catch {
			torn++;
		}
	}
	return { prompts, torn };
}

/** The lines the on-stop command wrote: one per time it ran. */
function stops(): number {
	return existsSync(ran) ? readFileSync(ran, "utf8").split("\n").filter(Boolean).length : 0;
}

describe("opencode killed while a turn budget counts and stops", () => {
	it("counts a killed turn once, stops once at the limit, and /timebox works after both kills", async () => {
		api.reply({ text: "ONE" });
		const first = await run(["first"]);
		expect(first.stdout).toContain("ONE");
		expect(first.stderr).toContain("Timebox set from TIMEBOX_DEFAULT: 2 turns.");

		// Killed once the second prompt's model request reached the model: the turn was counted, and it stays counted.
		const mainBefore = api.main.length;
		const second = await killedRun("second", {
			arm: (kill) => {
				api.respond = () => {
					kill();
					return { text: "never read" };
				};
			},
		});
		expect(second.killed).toBe(true);
		expect(api.main.length).toBe(mainBefore + 1);
		expect(sessionLog()).toEqual({ prompts: [expect.any(String), expect.any(String)], torn: 0 });
		expect(stops()).toBe(0);
		api.respond = () => ({ text: "done" });

		// The third prompt is past the limit: refused with no request, and killed the moment its stop is on stderr.
		const requests = api.requests.length;
		const third = await killedRun("third", { killOn: STOP_LINE });
		expect(third.killed).toBe(true);
		expect(third.stderr).toContain("Timebox restored: no time limit | 0 turns left (2/2).");
		expect(third.stderr).toContain(`${STOP_LINE} Used 2 turns`);
		expect(api.requests.length).toBe(requests);
		expect(sessionLog().prompts).toHaveLength(2);
		expect(sessionLog().torn).toBeLessThanOrEqual(1);
		// The command was started before the stop's line was written; it may still be finishing.
		await expect.poll(stops, { timeout: 10_000 }).toBe(1);

		// The budget was spent and its stop claimed: as after any stop, the chat goes on without a budget, and the stop
		// never fires again.
		api.reply({ text: "FOURTH" });
		const fourth = await run(["-c", "fourth"]);
		expect(fourth.stdout).toContain("FOURTH");
		expect(fourth.stderr).not.toContain(STOP_LINE);
		expect(stops()).toBe(1);

		// The next /timebox command works.
		const set = await run(["-c", "--command", "timebox", "turns:1"]);
		expect(set.stderr).toContain("Timebox set: 1 turn.");
		expect(stops()).toBe(1);
	}, 120_000);
});
