// Timebox on function hooks when things go wrong, on the real binary: a stop that lands while a model call streams
// is told to the person of a headless `claude -p` (Claude Code prints only `Execution error` for a turn a plugin ended),
// and a damaged store file is repaired (what parses is kept, a spent budget stays spent) instead of locking the session.

import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	CLAUDE_BIN,
	claudeEnv,
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	PLUGIN_DIR,
	polledBudgetStart,
	processesOf,
	resultOf,
	runProcess,
	type Sandbox,
} from "./support/claude.ts";

let api: FakeAnthropic;
let box: Sandbox;

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

beforeEach(async () => {
	api = await FakeAnthropic.start();
	box = await createSandbox("function hooks");
});

afterEach(async () => {
	await api.close();
	await box.cleanup();
});

/** What one `claude -p` run printed: stdout, stderr (written to a file, as a shell's `2>` or a terminal has it). */
interface Printed {
	code: number | null;
	stdout: string;
	stderr: string;
}

let runs = 0;

/**
 * `claude -p [--continue] --plugin-dir <plugin> …args` in the sandbox, its stderr sent to a file: Timebox writes to
 * Claude Code's stderr by its path, which a file, a pipe or a terminal allows (the socket Node gives a child does not).
 */
async function claude(args: readonly string[], resume = true): Promise<Printed> {
	const stderrFile = join(box.root, `stderr-${++runs}.txt`);
	const argv = ["-p", ...(resume ? ["--continue"] : []), "--plugin-dir", PLUGIN_DIR, ...args];
	const run = await runProcess("sh", ["-c", `exec "$0" "$@" 2>'${stderrFile}'`, CLAUDE_BIN, ...argv], {
		cwd: box.cwd,
		env: claudeEnv({ home: box.home, cwd: box.cwd, apiUrl: api.url }),
	});
	return { code: run.code, stdout: run.stdout, stderr: readFileSync(stderrFile, "utf8") };
}

function readText(file: string): string {
	return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/** The plugin's store file under the sandbox's HOME. */
function storeFile(): string {
	const folder = join(box.home, ".claude/plugins/store");
	const name = readdirSync(folder).find((entry) => entry.startsWith("timebox_") && entry.endsWith(".json"));
	if (name === undefined) throw new Error(`no Timebox store in ${folder}`);
	return join(folder, name);
}

/** Sets `/timebox 12s -- echo stopped >> <file>` in a new session; resolves with its deadline and the file. */
async function budgetWithCommand(): Promise<{ deadline: number; ranFile: string }> {
	const ranFile = join(box.root, "stopped.txt");
	const set = await claude([`/timebox 12s -- echo stopped >> '${ranFile}'`], false);
	expect(set.stdout).toContain("Timebox set: 12s.");
	return { deadline: (await polledBudgetStart(box.home)) + 12_000, ranFile };
}

describe("a stop while a model call streams, in claude -p", () => {
	it("says why the run ended on stderr, with exit 1, and runs the on-stop command once, on time", async () => {
		const { deadline, ranFile } = await budgetWithCommand();
		// The answer comes 1.5 s after the deadline: the stop lands while the response is awaited.
		api.reply({ text: "TOO LATE", holdUntil: deadline + 1_500 });
		const run = await claude(["question"]);
		const ended = Date.now() - deadline;
		console.log(`claude -p, stop mid-request: exit ${run.code}, ended ${ended} ms after the deadline`);
		expect(api.requests.length).toBe(1);
		expect((api.requests[0]?.at ?? Number.NaN) - deadline).toBeLessThan(0);
		expect(run.stdout).toBe("Execution error");
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/^Timebox budget spent\. Used 0 turns, 12s\./);
		expect(run.stderr.match(/Timebox budget spent/g)).toHaveLength(1);
		expect(ended).toBeLessThan(1_500);
		expect(readText(ranFile)).toBe("stopped\n");
	});

	it("says it on stderr beside the JSON result of --output-format json", async () => {
		const { deadline } = await budgetWithCommand();
		api.reply({ text: "TOO LATE", holdUntil: deadline + 1_500 });
		const run = await claude(["--output-format", "json", "question"]);
		const result = resultOf(run.stdout);
		expect(result.subtype).toBe("error_during_execution");
		expect(result.is_error).toBe(true);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("Timebox budget spent. Used 0 turns, 12s.");
	});
});

describe("a stop no streaming call ends, in claude -p", () => {
	it("says it on stderr, once: a token budget spent at an answer, and a time budget that runs out in a tool", async () => {
		const set = await claude(["/timebox tokens:10k"], false);
		expect(set.stdout).toContain("Timebox set: 10k tokens.");
		let step = 0;
		const usage = { input_tokens: 3_000, output_tokens: 1_000 };
		api.respond = () => ({ tools: [{ name: "Bash", input: { command: `echo run${++step}` } }], usage });
		const spent = await claude(["--allowedTools", "Bash", "--", "loop until told otherwise"]);
		expect(spent.stdout.trim()).toBe("");
		expect(spent.stderr).toMatch(/^Timebox budget spent\. Used 0 turns, \d+s, 12,000 of 10,000 tokens\./);
		expect(spent.stderr.match(/Timebox budget spent/g)).toHaveLength(1);

		expect((await claude(["/timebox 4s"])).stdout).toContain("Timebox set: 4s.");
		let calls = 0;
		api.respond = () =>
			calls++ === 0 ? { tools: [{ name: "Bash", input: { command: "sleep 10" } }] } : { text: "after" };
		const stopped = await claude(["--allowedTools", "Bash", "--", "a long job"]);
		expect(stopped.stderr).toMatch(/^Timebox budget spent\. Used 0 turns, 4s\./);
		expect(stopped.stderr.match(/Timebox budget spent/g)).toHaveLength(1);
		// A command's answer is the reply itself: nothing of it is written to stderr.
		expect((await claude(["/timebox status"])).stderr).toBe("");
	});
});

describe("a damaged store file, in claude -p", () => {
	it("keeps the spent budget, names the file once, and lets /timebox off and a new budget work at once", async () => {
		const set = await claude(["/timebox turns:1"], false);
		expect(set.stdout).toContain("Timebox set: 1 turn.");
		api.reply({ text: "ANSWER-ONE" });
		expect((await claude(["question 1"])).stdout).toBe("ANSWER-ONE\n");
		expect((await claude(["question 2"])).stdout).toContain("Timebox budget spent. Used 1 turn");
		const file = storeFile();
		appendFileSync(file, "\u0000garbage{{{ not json");

		const status = await claude(["/timebox status"]);
		expect(status.stdout).toContain("Timebox budget spent. Used 1 turn");
		expect(status.stdout).not.toContain("could not check its budget");
		expect(status.stderr).toBe(
			`Timebox found its store ${file} damaged: it kept the 1 session(s) it could read, moved the damaged file to ${file}.damaged, and goes on.\n`,
		);
		expect(readText(`${file}.damaged`)).toContain("garbage{{{");
		expect(JSON.parse(readText(file))).toBeTypeOf("object");

		// Named once: the next run reads a sound file and says nothing of it.
		const off = await claude(["/timebox off"]);
		expect(off.stdout).toContain("Timebox off.");
		expect(off.stderr).toBe("");
		const again = await claude(["/timebox 10m"]);
		expect(again.stdout).toContain("Timebox set: 10m.");
		api.reply({ text: "ANSWER-TWO" });
		expect((await claude(["question 3"])).stdout).toBe("ANSWER-TWO\n");
	});
});

/** `claude`'s TUI in tmux on its own socket, in the sandbox, with a copy of the plugin (the TUI writes into it). */
function tui(env: NodeJS.ProcessEnv): {
	screen: () => string;
	type: (text: string) => void;
	stop: () => Promise<void>;
} {
	const socket = join(box.root, "tmux.sock");
	const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" }).stdout ?? "";
	const user = {
		hasCompletedOnboarding: true,
		customApiKeyResponses: { approved: ["sk-fake"], rejected: [] },
		projects: { [box.cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
	};
	writeFileSync(join(box.home, ".claude.json"), JSON.stringify(user));
	const plugin = join(box.root, "plugin");
	cpSync(PLUGIN_DIR, plugin, { recursive: true });
	const vars = Object.entries({ ...env, TERM: "xterm-256color" }).map(([key, value]) => `${key}='${value}'`);
	const command = `cd '${box.cwd}' && env -i ${vars.join(" ")} '${CLAUDE_BIN}' --plugin-dir '${plugin}'`;
	tmux("-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "45", command);
	tmux("set", "-g", "extended-keys", "on");
	return {
		screen: () => tmux("capture-pane", "-p"),
		type: (text) => {
			tmux("send-keys", "-l", text);
			spawnSync("sleep", ["0.3"]);
			tmux("send-keys", "C-m");
		},
		stop: async () => {
			tmux("kill-server");
			await expect.poll(() => processesOf(box.home), { timeout: 10_000, interval: 100 }).toEqual([]);
		},
	};
}

describe("a stop while a model call streams, in the TUI", () => {
	it("shows the stop's notice in the transcript and runs the on-stop command once", async () => {
		const ranFile = join(box.root, "stopped.txt");
		const screen = tui(claudeEnv({ home: box.home, cwd: box.cwd, apiUrl: api.url }));
		try {
			await expect.poll(() => screen.screen(), { timeout: 60_000, interval: 250 }).toContain("❯");
			// The prompt takes keys a moment after it is drawn.
			await new Promise((done) => setTimeout(done, 1_500));
			screen.type(`/timebox 8s -- echo stopped >> '${ranFile}'`);
			await expect.poll(() => screen.screen(), { timeout: 10_000, interval: 100 }).toContain("Timebox set: 8s.");
			const deadline = (await polledBudgetStart(box.home)) + 8_000;
			api.reply({ text: "TOO LATE", holdUntil: deadline + 3_000 });
			screen.type("question");
			await expect.poll(() => api.requests.length, { timeout: 8_000, interval: 50 }).toBeGreaterThan(0);
			await expect
				.poll(() => screen.screen().replace(/\s+/g, " "), { timeout: deadline - Date.now() + 3_000, interval: 100 })
				.toMatch(/Timebox budget spent\. Used \d+ turns?, 8s\./)
				.catch((error: unknown) => {
					console.log(screen.screen());
					throw error;
				});
			expect(Date.now() - deadline).toBeLessThan(3_000);
			expect(readText(ranFile)).toBe("stopped\n");
			expect(screen.screen()).not.toContain("TOO LATE");
		} finally {
			await screen.stop();
		}
	});
});
