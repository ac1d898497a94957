// The hook adapter as Claude Code's classic hooks run it, through its command line: the on-stop command, the watcher
// that stops a time budget while the agent is idle, and bad input, which never breaks Claude Code.
// Fixtures and helpers: claude-hooks.ts.

import { appendFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type Clock, LEDGER_FOLDER, type OnStopStarter } from "../../../src/core/index.ts";
import { runCli } from "../../../src/entries/hook-cli.ts";
import {
	base,
	clock,
	dataDir,
	deniedTool,
	deps,
	FakeShell,
	hook,
	logFile,
	preToolUse,
	promptPayload,
	RAN,
	run,
	SESSION,
	SPENT,
	sessionStart,
	shell,
	submit,
	toolPayload,
	useClaudeHooks,
	watchers,
} from "./claude-hooks.ts";

useClaudeHooks();

describe("on-stop command", () => {
	it("reports a command that cannot start once, as failed and never as run", async () => {
		const failing = { onStop: new FakeShell([{ kind: "failed", problem: 'could not start "lmk": spawn EAGAIN' }]) };
		await submit("/timebox turns:1 -- lmk", "p0", failing);
		await submit("one", "p1", failing);
		expect(await submit("two", "p2", failing)).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\nTimebox on-stop command failed: could not start "lmk": spawn EAGAIN`,
		});
		expect(await preToolUse("p2", failing)).toEqual(deniedTool(SPENT("1 turn", "0s"), SPENT("1 turn", "0s")));
		expect(await submit("three", "p3", failing)).toEqual({});
		expect(await sessionStart("resume")).toEqual({});
		expect(failing.onStop.ran).toEqual(["lmk"]);
	});

	it.each([
		["an Error", new Error("spawn EAGAIN"), 'could not start "lmk": spawn EAGAIN'],
		["anything else", "no processes left", 'could not start "lmk": no processes left'],
	])("reports a runner that throws %s as a command that could not start", async (_name, thrown, problem) => {
		const throwing: OnStopStarter = {
			start: () => {
				throw thrown;
			},
		};
		await submit("/timebox 1s -- lmk", "p0");
		await submit("job", "p1");
		clock.advance(2_000);
		const stop = SPENT("0 turns", "2s");
		expect(await preToolUse("p1", { onStop: throwing })).toEqual(
			deniedTool(`${stop}\nTimebox on-stop command failed: ${problem}`, stop),
		);
	});

	it("does not wait for a failing exit: a command that started is reported as run", async () => {
		const exiting = new FakeShell([{ kind: "started" }, { kind: "exited", problem: '"lmk" exited with code 1' }]);
		await submit("/timebox turns:1 -- lmk", "p0");
		await submit("one", "p1");
		expect(await submit("two", "p2", { onStop: exiting })).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\n${RAN("lmk")}`,
		});
	});

	it("answers after a second when the runner never says whether the command started", async () => {
		const silent = new FakeShell([]);
		await submit("/timebox turns:1 -- lmk", "p0");
		await submit("one", "p1");
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		const pending = run(promptPayload("two", "p2"), ["hook"], { onStop: silent });
		await vi.advanceTimersByTimeAsync(999);
		let answered = false;
		void pending.then(() => {
			answered = true;
		});
		await vi.advanceTimersByTimeAsync(0);
		expect(answered).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(JSON.parse((await pending).stdout)).toEqual({
			decision: "block",
			reason: `${SPENT("1 turn", "0s")}\n${RAN("lmk")}`,
		});
		expect(silent.ran).toEqual(["lmk"]);
	});
});

describe("the watcher of a time budget (idle expiry)", () => {
	const watch = (budget: string) =>
		runCli(["watch", "--data", dataDir, "--session", SESSION, "--budget", budget], "", {}, deps());

	it("starts when a time budget is set, stops it at its deadline while idle, runs on-stop once, and tells the next prompt", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		expect(watchers).toEqual([{ folder: dataDir, sessionId: SESSION, budget: "budget-1" }]);
		const started = clock.now();
		expect(await watch("budget-1")).toEqual({ stdout: "", stderr: "" });
		expect(clock.now() - started).toBe(60_000);
		expect(shell.ran).toEqual(["lmk"]);
		expect(await watch("budget-1")).toEqual({ stdout: "", stderr: "" });
		expect(shell.ran).toEqual(["lmk"]);
		const next = await submit("back again", "p1");
		expect(next).toEqual({
			systemMessage: [
				"Timebox budget spent. Used 0 turns, 1m 0s, while the agent was idle. The chat continues.",
				RAN("lmk"),
			].join("\n"),
		});
		expect(await submit("and again", "p2")).toEqual({});
	});

	it("leaves a run going on to the hooks, and stops at the deadline once the run has ended", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("work", "p1");
		const stop = { ...base, hook_event_name: "Stop", prompt_id: "p1", stop_hook_active: false };
		const started = clock.now();
		const watching = watch("budget-1");
		await watching;
		// No Stop came: the run looked to be going on, and the watcher waited 10 minutes past the deadline.
		expect(clock.now() - started).toBe(60_000 + 10 * 60_000);
		expect(shell.ran).toEqual(["lmk"]);
		await submit("/timebox 1m -- lmk2", "p2");
		await submit("work again", "p3");
		expect(await hook(stop)).toEqual({});
		expect(await hook({ ...stop, prompt_id: "p3" })).toEqual({});
		const again = clock.now();
		await watch("budget-2");
		expect(clock.now() - again).toBe(60_000);
		expect(shell.ran).toEqual(["lmk", "lmk2"]);
	});

	it("puts what the watcher could not tell before the answer of the next prompt, whatever that answer is", async () => {
		await submit("/timebox turns:5", "p0");
		for (const id of ["p1", "p2", "p3", "p4"]) await submit(id, id);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "untold", notices: ["EARLIER NOTICE"] })}\n`);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "untold" })}\n`);
		expect((await submit("p5", "p5")).systemMessage).toBe(
			"EARLIER NOTICE\nTimebox: 1 prompt left of 5 — the model is asked to wrap up.",
		);
		appendFileSync(logFile(), `${JSON.stringify({ kind: "untold", notices: ["LATER NOTICE"] })}\n`);
		expect(await submit("/timebox status", "p6")).toMatchObject({
			reason: expect.stringMatching(/^LATER NOTICE\nTimebox: /),
		});
	});

	it("stops the budget on time and runs its command even when the ledger cannot be written", async () => {
		await submit("/timebox 1s -- lmk", "p0");
		rmSync(join(dataDir, LEDGER_FOLDER), { recursive: true, force: true });
		writeFileSync(join(dataDir, LEDGER_FOLDER), "a file where the ledger's folder should be");
		clock.advance(2_000);
		expect(await watch(watchers.at(-1)?.budget ?? "")).toEqual({ stdout: "", stderr: "" });
		expect(shell.ran).toEqual(["lmk"]);
		// The log kept the claim: the chat goes on, and nothing fires twice.
		const next = await submit("next", "p1");
		expect(next.systemMessage).toContain("Timebox budget spent. Used 0 turns, 2s, while the agent was idle.");
		expect(next.systemMessage).toContain("Timebox hit an internal error (ledger)");
		expect(await submit("again", "p2")).toEqual({});
		expect(shell.ran).toEqual(["lmk"]);
	});

	it("leaves when its session's log is gone at two looks in a row (its folder removed), and fires nothing", async () => {
		await submit("/timebox 10h -- lmk", "p0");
		let looks = 0;
		const removing = {
			...deps(),
			sleep: async (ms: number) => {
				looks++;
				clock.advance(ms);
				if (looks === 3) rmSync(dataDir, { recursive: true, force: true });
			},
		};
		const started = clock.now();
		expect(
			await runCli(["watch", "--data", dataDir, "--session", SESSION, "--budget", "budget-1"], "", {}, removing),
		).toEqual({ stdout: "", stderr: "" });
		// Three looks with the log, then one without it, and the next without it too: gone.
		expect(looks).toBe(4);
		expect(clock.now() - started).toBe(4_000);
		expect(shell.ran).toEqual([]);
	});

	it("keeps watching a log missing at one look only, and stops its budget at the deadline", async () => {
		await submit("/timebox 5s -- lmk", "p0");
		const aside = `${logFile()}.aside`;
		let looks = 0;
		const blinking = {
			...deps(),
			sleep: async (ms: number) => {
				looks++;
				clock.advance(ms);
				// The log is away for one look (moved out and back), as a copy put back in its place would leave it.
				if (looks === 1) renameSync(logFile(), aside);
				if (looks === 2) renameSync(aside, logFile());
			},
		};
		const started = clock.now();
		await runCli(["watch", "--data", dataDir, "--session", SESSION, "--budget", "budget-1"], "", {}, blinking);
		expect(clock.now() - started).toBe(5_000);
		expect(shell.ran).toEqual(["lmk"]);
	});

	it("leaves at once when its budget was turned off, replaced, extended or paused, and fires nothing", async () => {
		await submit("/timebox 1m -- lmk", "p0");
		await submit("/timebox +1m", "p1");
		expect(watchers.map((watcher) => watcher.budget)).toEqual(["budget-1", "budget-1.e1"]);
		const before = clock.now();
		await watch("budget-1");
		expect(clock.now()).toBe(before);
		await submit("/timebox pause", "p2");
		await watch("budget-1.e1");
		await submit("/timebox off", "p3");
		await watch("budget-1.e1");
		expect(clock.now()).toBe(before);
		expect(shell.ran).toEqual([]);
		const broken = { ...deps(), clock: { now: () => Number.NaN } };
		broken.clock.now = () => {
			throw new Error("no clock");
		};
		expect(await runCli(["watch", "--data", dataDir, "--session", SESSION, "--budget", "b"], "", {}, broken)).toEqual({
			stdout: "",
			stderr: "timebox: the watcher stopped: Error: no clock\n",
		});
		expect(await runCli(["watch", "--data", dataDir], "", {}, deps())).toMatchObject({
			stderr: expect.stringMatching(/^timebox: usage/),
		});
	});
});

describe("bad input never breaks Claude Code", () => {
	it.each([
		["not JSON", "{", "timebox: ignored this hook call: stdin is not JSON\n"],
		["an array", "[]", "timebox: ignored this hook call: stdin is not a JSON object\n"],
		[
			"no event",
			JSON.stringify({ session_id: SESSION }),
			"timebox: ignored this hook call: hook_event_name is missing\n",
		],
		[
			"a path as session id",
			JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "../../etc/passwd", prompt: "/timebox off" }),
			"timebox: ignored this hook call: session_id is missing or not a plain id\n",
		],
		[
			"a hidden file as session id",
			JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: ".hidden", prompt: "/timebox off" }),
			"timebox: ignored this hook call: session_id is missing or not a plain id\n",
		],
	])("answers %s with one stderr line, no output and no change", async (_name, stdin, stderr) => {
		const result = await runCli(["hook"], stdin, { CLAUDE_PLUGIN_DATA: dataDir }, deps());
		expect(result).toEqual({ stdout: "", stderr });
		expect(readdirSync(dataDir)).toEqual([]);
	});

	it("explains a missing data folder and a wrong mode", async () => {
		const stop = JSON.stringify({ ...base, hook_event_name: "Stop" });
		expect(await runCli(["hook"], stop, {}, deps())).toEqual({
			stdout: "",
			stderr: "timebox: no data folder: CLAUDE_PLUGIN_DATA is not set (use --data)\n",
		});
		expect(await runCli(["serve"], "", {}, deps())).toEqual({
			stdout: "",
			stderr:
				"timebox: usage: timebox hook [--host claude|gemini|codex] | timebox statusline [--data <folder>] [--wrap <command>] | timebox setup-statusline [--settings <file>] | timebox watch --data <folder> --session <id> --budget <id> | timebox report [--session <id>] [--days <n>] [--out <file>]\n",
		});
	});

	it("ignores events it does not use", async () => {
		expect(await hook({ ...base, hook_event_name: "Stop", stop_hook_active: false })).toEqual({});
	});

	it("lets a prompt through on an internal error (an unwritable data folder), with one stderr line", async () => {
		writeFileSync(join(dataDir, "sessions"), "a file where the folder should be");
		const result = await run(promptPayload("hello", "p0"));
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^timebox: internal error, nothing enforced for this UserPromptSubmit: .+\n$/);
	});

	it("still blocks a /timebox line on an internal error, so the model never sees it", async () => {
		writeFileSync(join(dataDir, "sessions"), "a file where the folder should be");
		const result = await run(promptPayload("/timebox 5m", "p0"));
		expect(JSON.parse(result.stdout)).toEqual({
			decision: "block",
			reason: expect.stringMatching(
				/^Timebox hit an internal error \(\/timebox\): .+\. Your session goes on; check the budget with \/timebox status\.$/,
			),
		});
		// The reply says what failed; nothing was set, so nothing is enforced.
		expect(result.stderr).toBe("");
		expect((await run(toolPayload("p0"))).stdout).toBe("");
	});

	it("reports a failure that is not an Error", async () => {
		const broken: Clock = {
			now: () => {
				throw "the clock is gone";
			},
		};
		expect(await run(toolPayload("p1"), ["hook"], { clock: broken })).toEqual({
			stdout: "",
			stderr: "timebox: internal error, nothing enforced for this PreToolUse: the clock is gone\n",
		});
		const typed = await run(promptPayload("/timebox status", "p1"), ["hook"], { clock: broken });
		expect(JSON.parse(typed.stdout)).toEqual({
			decision: "block",
			reason:
				"Timebox hit an internal error (/timebox): the clock is gone. Your session goes on; check the budget with /timebox status.",
		});
	});
});
