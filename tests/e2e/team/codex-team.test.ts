// A team's daily budget in the real Codex CLI (the plugin from this repository's marketplace, against a loopback fake
// of the Responses API): three machines, each its own HOME and CODEX_HOME, share `turns:2` through one real Redis and
// send three prompts at once: exactly two are answered. With the store down, a prompt ends in time and is counted on
// the machine's own ledger (`codex exec` prints no hook's message); Codex's TUI, typed into in tmux, shows the line that
// names the store once in a run of tool calls, without its password. A member whose own TIMEBOX_DAILY cannot be read
// is held and counted by the limits the team keeps in its store all the same.

import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeResponses } from "../../../demo/fakes/responses.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { removeSandbox } from "../../support/sandbox.ts";
import { CODEX, ensureCodex, REPO, writeCodexConfig } from "../codex/support.ts";
import { RedisServer } from "../support/redis.ts";

let api: FakeResponses;
let redis: RedisServer;
let root: string;

beforeAll(async () => {
	await ensureCodex();
	api = await FakeResponses.start();
	redis = await RedisServer.start();
	root = await mkdtemp(join(tmpdir(), "timebox-team-codex-"));
}, 600_000);

afterAll(async () => {
	await api?.close();
	await redis?.dispose();
	// Codex's TUI, its last hooks and the watchers they started may still be writing their state.
	await removeSandbox(root);
});

function codex(machine: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(CODEX, args, {
		cwd: join(root, machine, "work"),
		env: {
			PATH: process.env.PATH,
			HOME: join(root, machine, "home"),
			CODEX_HOME: join(root, machine, "home", ".codex"),
			TMPDIR: join(root, machine, "tmp"),
			XDG_STATE_HOME: join(root, machine, "state"),
			FAKE_API_KEY: "sk-fake",
			...env,
		},
		timeoutMs: 180_000,
	});
}

/** A machine of its own with the plugin installed. */
async function machine(name: string): Promise<string> {
	for (const folder of ["work", "tmp", "state"]) mkdirSync(join(root, name, folder), { recursive: true });
	writeCodexConfig(join(root, name, "home", ".codex"), api.url);
	for (const args of [
		["plugin", "marketplace", "add", REPO],
		["plugin", "add", "timebox@timebox"],
	]) {
		const done = await codex(name, args);
		if (done.code !== 0) throw new Error(`codex ${args.join(" ")} failed: ${done.stderr}`);
	}
	return name;
}

function exec(name: string, prompt: string, store = redis.url()): Promise<RunResult> {
	const env = { TIMEBOX_DAILY: "turns:2", TIMEBOX_DAILY_STORE: store, TIMEBOX_TEAM: "platform" };
	return codex(name, ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", prompt], env);
}

describe("a team's daily budget in Codex CLI", () => {
	it("answers exactly 2 of 3 prompts sent at once from three machines", async () => {
		const machines = await Promise.all(["c1", "c2", "c3"].map(machine));
		api.reply({ text: "ANSWERED" }, { text: "ANSWERED" }, { text: "ANSWERED" });
		const runs = await Promise.all(machines.map((name, index) => exec(name, `task ${index}`)));
		expect(runs.filter((run) => run.stdout.includes("ANSWERED"))).toHaveLength(2);
		const refused = runs.filter((run) => run.stderr.includes("hook: UserPromptSubmit Blocked"));
		// `codex exec` shows a blocked prompt without its reason.
		expect(refused).toHaveLength(1);
		expect(api.requests).toHaveLength(2);
		expect(redis.cli(["HGET", `timebox:{platform}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("2");
	});

	it("ends a prompt in time with the store down, counted on the machine's own ledger", async () => {
		const name = await machine("c4");
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		// The first test left one reply unused.
		const run = await exec(name, "are you there", `redis://bot:hunter2@127.0.0.1:${port}`);
		expect(run.ms).toBeLessThan(20_000);
		expect(run.stdout).toContain("ANSWERED");
		// `codex exec` prints no hook's message (its TUI shows the line that names the store); the prompt was counted on
		// this machine's own daily ledger meanwhile.
		const days = join(root, name, "state", "timebox", "daily", "user");
		expect(readdirSync(days).flatMap((day) => readdirSync(join(days, day)))).toContain("prompt-1");
		expect(`${run.stdout}${run.stderr}`).not.toContain("hunter2");
	});

	it("names the store it cannot reach, without its password, in Codex's TUI", async () => {
		const name = await machine("c5");
		const down = await RedisServer.start();
		const port = down.port;
		await down.dispose();
		// A tool call before the answer: two hooks more, each a process of its own that finds the store down. Any other
		// request Codex makes on the side is answered with the text too.
		api.reply({ tool: "exec_command", args: { cmd: "echo one" } });
		const respond = api.respond;
		api.respond = () => ({ text: "ANSWERED IN THE TUI" });
		const socket = join(root, "tmux.sock");
		const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" }).stdout ?? "";
		const env = {
			HOME: join(root, name, "home"),
			CODEX_HOME: join(root, name, "home", ".codex"),
			TMPDIR: join(root, name, "tmp"),
			XDG_STATE_HOME: join(root, name, "state"),
			FAKE_API_KEY: "sk-fake",
			TIMEBOX_DAILY: "turns:2",
			TIMEBOX_DAILY_STORE: `redis://bot:hunter2@127.0.0.1:${port}`,
			TIMEBOX_TEAM: "platform",
		};
		const script = join(root, "codex-tui.sh");
		const exports = Object.entries(env).map(([variable, value]) => `export ${variable}='${value}'`);
		const start = `exec '${CODEX}' --dangerously-bypass-hook-trust --dangerously-bypass-approvals-and-sandbox`;
		writeFileSync(script, [`cd '${join(root, name, "work")}'`, ...exports, start].join("\n"));
		tmux("-f", "/dev/null", "new-session", "-d", "-x", "320", "-y", "50", `sh '${script}'`);
		tmux("set", "-g", "extended-keys", "on");
		const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-200");
		try {
			await expect.poll(screen, { timeout: 60_000, interval: 250 }).toContain("Ask Codex to do anything");
			const started = performance.now();
			tmux("send-keys", "-l", "are you there");
			await expect.poll(screen, { timeout: 5_000, interval: 100 }).toContain("› are you there");
			tmux("send-keys", "C-m");
			await expect.poll(screen, { timeout: 20_000, interval: 250 }).toContain("ANSWERED IN THE TUI");
			expect(performance.now() - started).toBeLessThan(20_000);
			const shown = screen();
			expect(shown).toContain("Ran echo one");
			console.log(`codex TUI, the store down:\n${shown.replace(/\n\s*\n/g, "\n")}`);
			// Said once in the session, not at each of its hooks.
			const named = shown
				.replace(/\s+/g, " ")
				.split(`Timebox: the team's daily store redis://bot@127.0.0.1:${port} cannot be reached`);
			expect(named).toHaveLength(2);
			expect(shown).not.toContain("hunter2");
		} finally {
			tmux("kill-server");
			api.respond = respond;
		}
	});

	it("holds and counts a member whose own TIMEBOX_DAILY has a typo by the limits the team keeps in its store", async () => {
		const name = await machine("c6");
		const team = { TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: "typo" };
		const run = (prompt: string, env: NodeJS.ProcessEnv) =>
			codex(name, ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", prompt], env);
		// The admin sets the team's limits (a command: no model request).
		expect((await run("timebox team set turns:1", team)).stderr).toContain("hook: UserPromptSubmit Blocked");
		const asked = api.requests.length;
		api.reply({ text: "TYPO ANSWERED" });
		const member = { ...team, TIMEBOX_DAILY: "turns:5 $x" };
		expect((await run("first", member)).stdout).toContain("TYPO ANSWERED");
		const second = await run("second", member);
		expect(second.stderr).toContain("hook: UserPromptSubmit Blocked");
		expect(api.requests.length - asked).toBe(1);
		expect(redis.cli(["HGET", `timebox:{typo}:${new Date().toISOString().slice(0, 10)}:use`, "prompts"])).toBe("1");
	});

	it("refuses a member's prompts when the team's zone is misspelt in the closed mode, with no model request", async () => {
		const name = await machine("c7");
		const wrong = {
			TIMEBOX_DAILY_STORE: redis.url(),
			TIMEBOX_TEAM: "platform",
			TIMEBOX_TEAM_TZ: "Europe/Berln",
			TIMEBOX_DAILY_STORE_FAILURE: "closed",
		};
		const run = (prompt: string, env: NodeJS.ProcessEnv) =>
			codex(name, ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", prompt], env);
		const asked = api.requests.length;
		api.reply({ text: "ZONE ANSWERED" });
		for (const prompt of ["first", "second"]) {
			const refused = await run(prompt, wrong);
			expect(refused.stderr).toContain("hook: UserPromptSubmit Blocked");
			expect(refused.stdout).not.toContain("ZONE ANSWERED");
		}
		expect(api.requests.length - asked).toBe(0);
		// The open mode leaves the member to this machine, as before.
		expect((await run("third", { ...wrong, TIMEBOX_DAILY_STORE_FAILURE: "open" })).stdout).toContain("ZONE ANSWERED");
		expect(api.requests.length - asked).toBe(1);
	});
});
