// Timebox in the real Gemini CLI, as an extension installed with `gemini extensions install`, against a loopback fake
// of the Gemini API, in a throwaway HOME: the budget line answered without a request, the prompt limit across resumed
// runs, the warning in the request, the time stop of a tool loop with its on-stop command, idle expiry, a bad budget
// line, the loop guard, and the replies in Gemini CLI's words, in `-p` and in its TUI (which renders them as markdown).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BYTES_PER_TOKEN } from "../../../demo/fakes/as-allowed.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { removeSandbox } from "../../support/sandbox.ts";
import { EXTENSION, ensureGemini, FakeGemini, GEMINI, writeGeminiSettings } from "./support.ts";

let api: FakeGemini;
let root: string;

beforeAll(async () => {
	await ensureGemini();
}, 600_000);

beforeEach(async () => {
	api = await FakeGemini.start();
	root = await mkdtemp(join(tmpdir(), "timebox-gemini-"));
	mkdirSync(join(root, "work"));
	writeGeminiSettings(join(root, "home"));
	const installed = await gemini(["extensions", "install", EXTENSION, "--consent"]);
	if (installed.code !== 0) throw new Error(`gemini extensions install failed: ${installed.stderr}`);
});

afterEach(async () => {
	await api.close();
	await removeSandbox(root);
});

function gemini(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(GEMINI, args, {
		cwd: join(root, "work"),
		env: {
			PATH: process.env.PATH,
			HOME: join(root, "home"),
			GEMINI_API_KEY: "fake-key",
			GOOGLE_GEMINI_BASE_URL: api.url,
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			GEMINI_CLI_NO_RELAUNCH: "true",
			...env,
		},
		timeoutMs: 120_000,
	});
}

/** When the budget of the session that has one started (epoch ms), from Timebox's log in the Gemini home. */
function budgetStart(): number {
	const folder = join(root, "home", ".gemini", "timebox", "sessions");
	const lines = readdirSync(folder).flatMap((file) => readFileSync(join(folder, file), "utf8").split("\n"));
	const records = lines.filter((line) => line.length > 0).map((line) => JSON.parse(line) as Record<string, unknown>);
	const budget = records.find((line) => line.kind === "active")?.budget as { startTime: number } | undefined;
	if (budget === undefined) throw new Error("no session has a budget");
	return budget.startTime;
}

describe("Timebox in Gemini CLI (gemini -p)", () => {
	it("answers the budget line without a model request, and names a bad word", async () => {
		const set = await gemini(["-p", "/timebox 15m turns:3"]);
		expect(set.stderr).toContain("Timebox set: 15m and 3 turns.");
		const bad = await gemini(["-p", "/timebox 15x"]);
		expect(bad.stderr).toContain('"15x" is not a budget word');
		expect(api.requests).toEqual([]);
	});

	it("speaks Gemini CLI's words: its usage, its own daily setting, and a report with no unmeasured zero", async () => {
		const bad = await gemini(["-p", "/timebox 15x"]);
		expect(bad.stderr).toContain("Usage: /timebox <budget> [-- <command>] | status | off");
		const today = await gemini(["-p", "/timebox today"]);
		expect(today.stderr).toContain(
			'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment gemini starts in.',
		);
		// A blocked prompt leaves no session to resume: the report is of the default budget, set as the session starts.
		const report = await gemini(["-p", "/timebox report"], { TIMEBOX_DEFAULT: "10m" });
		console.log(`gemini -p, report: ${JSON.stringify(report.stderr)}`);
		// Tokens are counted from Gemini's session file; no hook sees a price.
		expect(report.stderr).toMatch(
			/1\. 10m, set \d+s ago: used \d+s, 0 turns, 0 tokens\. Still active\.\nCost not tracked/,
		);
		expect(report.stderr).toContain("Cost not tracked in Gemini CLI.");
		expect(report.stderr).not.toMatch(/\$0\.00/);
		expect(api.requests).toEqual([]);
	});

	it("answers prompts 1 and 2 of turns:2 across resumed runs, blocks the 3rd, and warns the last one's request", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		expect((await gemini(["-p", "first"], env)).stdout).toContain("ONE");
		expect((await gemini(["--resume", "latest", "-p", "second"], env)).stdout).toContain("TWO");
		const third = await gemini(["--resume", "latest", "-p", "third"], env);
		expect(third.stderr).toMatch(/Timebox budget spent\. Used 2 turns/);
		expect(api.requests).toHaveLength(2);
		expect(api.requests.map((body) => body.includes("TIMEBOX WARNING"))).toEqual([false, false]);
	});

	it("puts the warning into the request of the last prompt of turns:5, and not into the first ones", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:5" };
		await gemini(["-p", "p1"], env);
		for (const prompt of ["p2", "p3", "p4", "p5"]) await gemini(["--resume", "latest", "-p", prompt], env);
		expect(api.requests.map((body) => body.includes("IMPORTANT TIMEBOX WARNING"))).toEqual([
			false,
			false,
			false,
			false,
			true,
		]);
	});

	it("stops a tool loop when the time runs out, and runs the on-stop command once", async () => {
		const stopFile = join(root, "stopped.txt");
		api.reply(...Array.from({ length: 40 }, (_, index) => ({ shell: `sleep 1 # ${index}` })));
		const env = { TIMEBOX_DEFAULT: `3s -- echo stopped >> '${stopFile}'` };
		const run = await gemini(["--yolo", "-p", "loop until told otherwise"], env);
		// Timed from the budget's start (SessionStart), not from the process's: Gemini's start-up, slow on a busy machine,
		// is no part of the loop. The loop's 40 tools would take 40 s.
		expect(Date.now() - budgetStart()).toBeLessThan(20_000);
		expect(run.stderr).toMatch(/Timebox budget spent\. Used 0 turns, \d+s\./);
		await new Promise((done) => setTimeout(done, 500));
		expect(readFileSync(stopFile, "utf8")).toBe("stopped\n");
	});

	it("refuses the 3rd identical call of loop:3, stops the run at the 4th ask with no further request, starts afresh, and counts A B A B", async () => {
		const stopFile = join(root, "stopped.txt");
		const env = { TIMEBOX_DEFAULT: `loop:3 -- touch '${stopFile}'` };
		const refused = (view: string) =>
			`Timebox: this is the 3rd identical run_shell_command call in this run (${view}); its result will not change. Change your approach or finish with what you have.`;
		// What the model read of its last tool call in each request: the function's response, or "" for none.
		const lastRead = () =>
			api.requests.map((body) => {
				const contents = (JSON.parse(body) as { contents?: { parts?: { functionResponse?: unknown }[] }[] }).contents;
				const response = contents?.at(-1)?.parts?.find((part) => part.functionResponse)?.functionResponse;
				return response === undefined ? "" : JSON.stringify(response);
			});
		api.reply(...Array.from({ length: 4 }, () => ({ shell: "echo same" })));
		const first = await gemini(["--yolo", "-p", "run it until it passes"], env);
		// What the person saw: Gemini CLI's line for the hook's message at the 3rd ask, and for the stop at the 4th.
		const lines = first.stderr.split("\n");
		expect(lines).toContain(
			"Hook system message: Timebox refused a repeated call: run_shell_command (echo same), the 3rd identical one in this run.",
		);
		expect(lines).toContain(
			"Agent execution stopped: Agent execution stopped by hook: Timebox stopped a loop: run_shell_command (echo same) asked for 4 times in this run.",
		);
		// The model read the refusal with its 4th request; the 4th ask stopped the run: no 5th request.
		expect(lastRead().map((read) => read.includes(refused("echo same")))).toEqual([false, false, false, true]);
		// The next prompt (the session resumed) starts the count again, and A B A B refuses each at its 3rd.
		api.reply(
			...["echo same", "echo b", "echo same", "echo b", "echo same", "echo b", "echo same"].map((shell) => ({ shell })),
		);
		const second = await gemini(["--resume", "latest", "--yolo", "-p", "alternate"], env);
		expect(second.stderr).toContain(
			"Timebox stopped a loop: run_shell_command (echo same) asked for 4 times in this run.",
		);
		expect(api.requests).toHaveLength(11);
		const read = lastRead().slice(4);
		expect(read.map((text) => text.includes(refused("echo same")))).toEqual([
			false,
			false,
			false,
			false,
			false,
			true,
			false,
		]);
		expect(read.map((text) => text.includes(refused("echo b")))).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
			true,
		]);
		await new Promise((done) => setTimeout(done, 300));
		expect(existsSync(stopFile)).toBe(false);
	});

	it("runs the on-stop command at the deadline while no prompt comes (idle expiry), once", async () => {
		const stopFile = join(root, "idle-stopped.txt");
		const set = await gemini(["-p", `/timebox 2s -- echo stopped >> '${stopFile}'`]);
		const deadline = Date.now() + 2_000;
		expect(set.stderr).toContain("Timebox set: 2s.");
		const read = () => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : "");
		await expect.poll(read, { timeout: 8_000, interval: 100 }).toBe("stopped\n");
		console.log(
			`gemini idle expiry: the on-stop command ran ${Date.now() - deadline} ms after 2 s past the run's return`,
		);
		await new Promise((done) => setTimeout(done, 1_500));
		expect(read()).toBe("stopped\n");
		expect(api.requests).toEqual([]);
	});

	it("tells the model the budget at a later call of the run too, with the tool's result", async () => {
		api.reply({ shell: "echo step" }, { text: "FINAL" });
		const run = await gemini(["--yolo", "-p", "do one step"], { TIMEBOX_DEFAULT: "15m aware" });
		expect(run.stdout).toContain("FINAL");
		expect(api.requests).toHaveLength(2);
		expect(api.requests.map((body) => body.split("left of 15m").length - 1)).toEqual([1, 2]);
	});
	it("caps each request's answer at what is left of tokens: in BeforeModel, and sends none that cannot fit", async () => {
		const started = Date.now();
		const limit = 120_000;
		api.answerAsAllowed();
		api.respond = () => ({ shell: "echo step" });
		const run = await gemini(["--yolo", "-p", "loop until told otherwise"], { TIMEBOX_DEFAULT: `tokens:${limit}` });
		const limits = api.requests.map(
			(body) =>
				(JSON.parse(body) as { generationConfig?: { maxOutputTokens?: number } }).generationConfig?.maxOutputTokens,
		);
		const used = api.requests.reduce((sum, body, at) => {
			const input = Math.ceil(Buffer.byteLength(body, "utf8") / BYTES_PER_TOKEN);
			return sum + input + (limits[at] ?? 65_536);
		}, 0);
		console.log(
			`gemini caps: maxOutputTokens ${JSON.stringify(limits)}, ${used} of ${limit} tokens, ${Date.now() - started} ms`,
		);
		// The first request goes as it is (no hook is shown its size before an answer); each later one is capped.
		expect(limits[0]).toBeUndefined();
		expect(limits.length).toBeGreaterThanOrEqual(2);
		for (const cap of limits.slice(1)) expect(cap).toBeGreaterThan(0);
		expect(used).toBeLessThanOrEqual(limit);
		expect(run.stderr).toContain("(too little left for the next model call)");
	});
});

describe("Timebox in Gemini CLI's TUI", () => {
	it("shows each reply with its $ kept, as a blocked prompt, and a report with no unmeasured zero", async () => {
		const socket = join(root, "tmux.sock");
		const tmux = (...args: string[]) => spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8" }).stdout ?? "";
		const script = join(root, "gemini.sh");
		const env = {
			HOME: join(root, "home"),
			GEMINI_API_KEY: "fake-key",
			GOOGLE_GEMINI_BASE_URL: api.url,
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			GEMINI_CLI_NO_RELAUNCH: "true",
		};
		const exports = Object.entries(env).map(([name, value]) => `export ${name}='${value}'`);
		// Gemini CLI starts no TUI where CI is set (as CI sets it): the user's terminal has none.
		const lines = [`cd '${join(root, "work")}'`, "unset CI", ...exports, `exec '${GEMINI}'`];
		writeFileSync(script, lines.join("\n"));
		tmux("-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "45", `sh '${script}'`);
		tmux("set", "-g", "extended-keys", "on");
		const screen = () => tmux("capture-pane", "-p", "-S", "-100");
		const send = async (line: string, shown: string) => {
			tmux("send-keys", "-l", line);
			await expect.poll(screen, { timeout: 5_000, interval: 100 }).toContain(line);
			tmux("send-keys", "C-m");
			await expect.poll(screen, { timeout: 20_000, interval: 250 }).toContain(shown);
		};
		try {
			await expect.poll(screen, { timeout: 60_000, interval: 250 }).toContain("Type your message");
			await new Promise((done) => setTimeout(done, 1_500));
			await send("/timebox cost:2.50", "Agent execution blocked: Timebox set: $2.50.");
			await send("/timebox today", "Agent execution blocked: No daily budget is set.");
			await send("/timebox report", "Cost not tracked in Gemini CLI.");
			const shown = screen();
			console.log(`gemini TUI:\n${shown.replace(/\n\s*\n/g, "\n")}`);
			expect(shown).toContain('Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment gemini starts in.');
			expect(shown).toMatch(/1\. \$2\.50, set \d+s ago: used \d+s, 0 turns, 0 tokens\. Still active\./);
			expect(shown).not.toMatch(/\$0\.00/);
			// Gemini CLI follows every blocked prompt with this note; no hook answer that ends the prompt avoids it.
			expect(shown).toContain("This request failed.");
			expect(api.requests).toEqual([]);
		} finally {
			tmux("kill-server");
		}
	});
});
