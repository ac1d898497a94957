// What a member on Claude Code's classic hooks adds to a team's day in a real Redis, with the limits kept in the store
// and no TIMEBOX_DAILY: the tokens its hooks read from the session's transcript, and the agent time of a run the day's
// time stops, which Claude Code ends with no Stop hook after it (the next prompt must find the day spent).

import { mkdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeSandbox } from "../../support/sandbox.ts";
import {
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	PLUGIN_DIR,
	type RunResult,
	runClaude,
	type Sandbox,
} from "../claude/support/claude.ts";
import { RedisServer } from "../support/redis.ts";

let api: FakeAnthropic;
let redis: RedisServer;
let root: string;
const boxes: Sandbox[] = [];

beforeAll(async () => {
	await ensureClaudeCode();
	api = await FakeAnthropic.start();
	redis = await RedisServer.start();
	root = await mkdtemp(join(tmpdir(), "timebox-team-classic-"));
}, 600_000);

afterAll(async () => {
	await api?.close();
	await redis?.dispose();
	for (const box of boxes) await box.cleanup();
	await removeSandbox(root);
});

/** A member's machine on classic hooks, set up with the store and the team alone. */
async function member(team: string): Promise<(prompt: string, args?: string[]) => Promise<RunResult>> {
	const box = await createSandbox("classic hooks");
	boxes.push(box);
	mkdirSync(join(root, team), { recursive: true });
	let first = true;
	return (prompt, args = []) => {
		const resume = first ? [] : ["--continue"];
		first = false;
		return runClaude(["-p", ...resume, ...args, "--plugin-dir", PLUGIN_DIR, prompt], {
			home: box.home,
			cwd: box.cwd,
			apiUrl: api.url,
			timeoutMs: 180_000,
			env: { TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: team },
		});
	};
}

const day = () => new Date().toISOString().slice(0, 10);

describe("a team member on Claude Code's classic hooks", () => {
	it("adds the tokens of each answer to the team's day", async () => {
		const claude = await member("tokens");
		expect((await claude("/timebox team set tokens:100k")).stdout).toContain(
			"Timebox: the team tokens's limits are now 100k tokens a day",
		);
		api.reply({ text: "ONE", usage: { input_tokens: 1_000, output_tokens: 500 } });
		expect((await claude("first")).stdout).toBe("ONE\n");
		api.reply({ text: "TWO", usage: { input_tokens: 1_000, output_tokens: 500 } });
		expect((await claude("second")).stdout).toBe("TWO\n");
		// The second answer is read at the hook after it: the next prompt's.
		const today = await claude("/timebox today");
		expect(redis.cli(["HGET", `timebox:{tokens}:${day()}:use`, "tokens"])).toBe("3000");
		expect(today.stdout).toContain("The team tokens (set in its store): 3k of 100k tokens used, 97k left.");
	});

	it("counts a run the day's time stops up to its stop, and refuses the next prompt", async () => {
		const claude = await member("time");
		expect((await claude("/timebox team set 6s")).stdout).toContain("Timebox: the team time's limits are now 6s");
		api.reply(...Array.from({ length: 8 }, () => ({ tools: [{ name: "Bash", input: { command: "sleep 2" } }] })));
		const before = api.requests.length;
		await claude("do the work", ["--allowedTools", "Bash"]);
		// Stopped at the first tool boundary past 6 s: a sleep of 2 s each, about four of the eight calls sent.
		expect(api.requests.length - before).toBeLessThan(8);
		const agentMs = Number(redis.cli(["HGET", `timebox:{time}:${day()}:use`, "agentMs"]));
		expect(agentMs).toBeGreaterThanOrEqual(6_000);
		const next = await claude("again");
		expect(next.stdout).toContain("Timebox: the team's budget for today is spent (6s of agent time).");
	});
});
