// Timebox's hooks module in Claude Code, against a fake of the engine: what the person reads of each `/timebox` command,
// which prompts reach the model and with what, which steps are sent, which tools run, the status line, the on-stop
// command, and what the plugin's store keeps across processes.

import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TurnStepAnswer } from "../../../../src/adapters/claude/function-hooks/engine.ts";
import { DETACHED_WRAPPER_LINE, detachedLine } from "../../../../src/adapters/claude/function-hooks/on-stop.ts";
import { STDERR_SCRIPT } from "../../../../src/adapters/claude/function-hooks/ui.ts";
import { createDailyLedger, localDay } from "../../../../src/adapters/node/daily-ledger.ts";
import { ON_STOP_WRAPPER } from "../../../../src/adapters/on-stop/wrapper.ts";
import { TOOL_STOPPED_REFUSAL as TOOL_STOPPED } from "../../../../src/core/index.ts";
import { register } from "../../../../src/entries/claude-module.ts";
import { drain, FakeClaude, settle } from "./fake-engine.ts";

const STOP = 'notify-send "time is up"';

async function started(): Promise<FakeClaude> {
	const claude = new FakeClaude();
	await claude.start();
	return claude;
}

describe("the session's start", () => {
	it("tells the classic hooks to stand down and goes on", async () => {
		const claude = await started();
		expect(claude.$.variables.get("TIMEBOX_MODULE_LOADED")).toBe("1");
	});

	it("tells the classic hooks to stand down before the settings hooks of SessionStart run, and runs them", async () => {
		const claude = new FakeClaude();
		const ran: unknown[] = [];
		await claude.hook("classic.SessionStart")(claude.$, { source: "startup" }, async (event: unknown) => {
			ran.push({ event, loaded: claude.$.variables.get("TIMEBOX_MODULE_LOADED") });
			return {};
		});
		expect(ran).toEqual([{ event: { source: "startup" }, loaded: "1" }]);
		// Failed, it lets the settings hooks run all the same.
		await claude.caught("classic.SessionStart")(claude.$, { source: "resume" }, async (event: unknown) => {
			ran.push({ event });
			return {};
		});
		expect(ran).toHaveLength(2);
	});

	it("answers /timebox and /timebox:timebox alone", async () => {
		const claude = await started();
		expect(claude.hooks.get("command.run")?.matcher).toEqual({ command: ["timebox", "timebox:timebox"] });
	});
});

describe("/timebox", () => {
	it("sets a budget and says so, with no model request", async () => {
		const claude = await started();
		expect(await claude.command("15m turns:3")).toBe("Timebox set: 15m and 3 turns.");
		expect(claude.requests).toEqual([]);
		expect(claude.promptContexts).toEqual([]);
	});

	it("names the function hooks in its status", async () => {
		const claude = await started();
		await claude.command("15m turns:3");
		expect(await claude.command("status")).toMatch(/\nTimebox runs on Claude Code's function hooks\.$/);
	});

	it("says a cost limit is tracked here", async () => {
		const claude = await started();
		const said = await claude.command("10m cost:2");
		expect(said).toBe("Timebox set: 10m and $2.00.");
	});
});

describe("prompts", () => {
	it("counts each prompt and refuses the one past the budget before any request", async () => {
		const claude = await started();
		await claude.command("15m turns:2");
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("two")).toBeNull();
		await claude.turnComplete("turn-2");
		const dropped = await claude.prompt("three");
		expect(dropped).toContain("Timebox budget spent. Used 2 turns");
		expect(claude.promptContexts).toHaveLength(2);
	});

	it("gives the model the warning with the prompt that reaches 80%, and not before", async () => {
		const claude = await started();
		await claude.command("15m turns:5");
		for (const text of ["1", "2", "3", "4", "5"]) {
			expect(await claude.prompt(text)).toBeNull();
			await claude.turnComplete(`turn-${text}`);
		}
		const [first, second, third, fourth, fifth] = claude.promptContexts;
		expect([first, second, third, fourth]).toEqual([undefined, undefined, undefined, undefined]);
		expect(fifth?.join("\n")).toContain("Timebox");
	});

	it("lets a message typed into the running turn join its prompt, uncounted", async () => {
		const claude = await started();
		await claude.command("15m turns:2");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0);
		expect(await claude.prompt("and also", { turnId: "turn-1" })).toBeNull();
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("two")).toBeNull();
		await claude.turnComplete("turn-2");
		expect(await claude.prompt("three")).toContain("Timebox budget spent. Used 2 turns");
	});

	it("refuses a message typed into a turn the budget stopped, with the stop's reason", async () => {
		const claude = await started();
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		claude.time.advance(2_500);
		expect(await claude.prompt("and also", { turnId: "turn-1" })).toContain("Timebox");
	});

	it("counts a prompt the person did not type (a plugin's) as a run, not a prompt", async () => {
		const claude = await started();
		await claude.command("15m turns:1");
		expect(await claude.prompt("from a plugin", { isMeta: true })).toBeNull();
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("one")).toBeNull();
		await claude.end();
		const saved = claude.$.values.get("session:session-1") as { history: { kind: string }[] };
		expect(saved.history.filter((item) => item.kind === "prompt")).toHaveLength(1);
	});

	it("leaves a slash command's submission to the command", async () => {
		const claude = await started();
		await claude.command("15m turns:1");
		expect(await claude.prompt("/compact", { command: { name: "compact", args: "" } })).toBeNull();
		expect(await claude.prompt("one")).toBeNull();
	});
});

describe("model requests", () => {
	it("sends each step of a running budget and counts what it used", async () => {
		const claude = await started();
		await claude.command("15m tokens:1k");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { costUsd: 0.25 });
		await claude.step("turn-1", 1, { costUsd: 0.5 });
		expect(claude.requests).toHaveLength(2);
		expect(await claude.command("status")).toContain("230 of 1k tokens");
		await claude.command("report");
	});

	it("counts none of a response's token counts that is not a count (negative, or not a number)", async () => {
		const claude = await started();
		await claude.command("15m tokens:1k");
		expect(await claude.prompt("one")).toBeNull();
		const usage = {
			input_tokens: 200,
			output_tokens: 30,
			cache_read_input_tokens: Number.NaN,
			cache_creation_input_tokens: -5,
		};
		await claude.step("turn-1", 0, { usage });
		expect(await claude.command("status")).toContain("230 of 1k tokens");
	});

	it("answers a step with no request once the run is stopped, and ends the turn", async () => {
		const claude = await started();
		await claude.command("15m steps:1");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		await claude.tool();
		// The cap's one more call, to write the final answer.
		await claude.step("turn-1", 1, { toolUses: 1 });
		await claude.tool();
		const answered = await claude.step("turn-1", 2);
		expect(answered).toEqual({
			turnId: "turn-1",
			index: 2,
			answer: "",
			toolUses: [],
			stopReason: "end_turn",
			usage: null,
		});
		expect(claude.requests.map((request) => request.index)).toEqual([0, 1]);
	});

	it("counts the steps of a turn no prompt started as steps of the latest prompt", async () => {
		const claude = await started();
		await claude.command("15m steps:1");
		await claude.step("turn-1", 0);
		await claude.step("turn-1", 1);
		expect((await claude.step("turn-1", 2)).stopReason).toBe("end_turn");
		expect(claude.requests).toHaveLength(2);
	});

	it("counts what each request cost from Claude Code's running total, from when the budget was set", async () => {
		const claude = await started();
		claude.$.costUsd = 1;
		expect(await claude.prompt("before any budget")).toBeNull();
		await claude.step("turn-1", 0, { costUsd: 3 });
		await claude.turnComplete("turn-1");
		await claude.command("10m cost:2");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-2", 0, { toolUses: 1, costUsd: 3.5 });
		expect(await claude.command("status")).toContain("$0.50 of $2.00");
		await claude.tool();
		await claude.step("turn-2", 1, { costUsd: 5.25 });
		expect(claude.$.logged.join("\n")).toContain("Timebox budget spent");
		expect(await claude.command("status")).toContain("$2.25");
	});

	it("keeps nothing in the store at the prompts and requests of a session without a budget, and each one under one", async () => {
		const claude = await started();
		const saved = () =>
			claude.$.values.get(`session:${claude.$.sessionId}`) as { history?: { kind: string }[] } | undefined;
		expect(await claude.prompt("before any budget")).toBeNull();
		await claude.step("turn-1", 0, { costUsd: 3 });
		await claude.turnComplete("turn-1");
		claude.$.time.advance(5_000);
		expect(saved()?.history ?? []).toEqual([]);
		await claude.command("10m");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-2", 0, { costUsd: 3.5 });
		claude.$.time.advance(5_000);
		await claude.turnComplete("turn-2");
		expect(saved()?.history?.map((item) => item.kind)).toEqual(["record", "prompt", "usage"]);
	});

	it("counts nothing of a request that was running when the budget was set", async () => {
		const claude = await started();
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { costUsd: 4, during: () => claude.command("10m cost:2") });
		await claude.step("turn-1", 1, { costUsd: 4.5 });
		expect(await claude.command("status")).toContain("$0.50 of $2.00");
	});

	it("counts a step with no usage as a step alone", async () => {
		const claude = await started();
		await claude.command("15m");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { usage: null });
		expect(claude.requests).toHaveLength(1);
	});

	it("gives the model what it reads of the budget after the last tool of a step, for the next step", async () => {
		const claude = await started();
		await claude.command("15m turns:5 aware");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 2 });
		const first = await claude.tool();
		const last = await claude.tool();
		expect(first.context).toBeUndefined();
		expect(last.context?.join("\n")).toContain("Timebox");
		expect(last.result).toBe("ok");
	});
});

describe("tools", () => {
	it("stops a running tool the moment the time runs out, runs the on-stop command once, and ends the turn", async () => {
		const claude = await started();
		await claude.command(`3s -- ${STOP}`);
		expect(await claude.prompt("sleep")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		let finish: (value: unknown) => void = () => {};
		const running = claude.tool(() => new Promise((resolve) => (finish = resolve)));
		await settle();
		claude.time.advance(3_000);
		const denied = await running;
		expect(denied.deny).toBe(
			"Timebox stopped this tool: the session's budget ran out while it ran. Run no more tools.",
		);
		await settle();
		// The on-stop command, once; the stop's notice goes to stderr besides (this session is a headless one).
		expect(claude.$.ran.filter((argv) => argv[2] !== STDERR_SCRIPT)).toEqual([["sh", "-c", detachedLine(STOP)]]);
		const answered = await claude.step("turn-1", 1);
		expect(answered.stopReason).toBe("end_turn");
		expect(claude.requests).toHaveLength(1);
		finish("too late");
		await claude.turnComplete("turn-1");
		claude.time.advance(10_000);
		await settle();
		expect(claude.$.ran.filter((argv) => argv[2] !== STDERR_SCRIPT)).toHaveLength(1);
	});

	it("refuses a tool once the budget is spent, a subagent's too", async () => {
		const claude = await started();
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		claude.time.advance(2_500);
		expect((await claude.tool()).deny).toContain("Timebox");
		expect((await claude.tool(undefined, "agent-1")).deny).toContain("Timebox");
		expect((await claude.step("turn-1", 3, { agentId: "agent-1" })).stopReason).toBe("end_turn");
	});

	it("lets a subagent's steps and tools run under a running budget", async () => {
		const claude = await started();
		await claude.command("15m");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		await claude.step("sub-1", 0, { agentId: "agent-1", toolUses: 1 });
		expect((await claude.tool(undefined, "agent-1")).result).toBe("ok");
		await claude.turnComplete("sub-1", "agent-1");
		expect(await claude.tool()).toEqual({ result: "ok" });
		expect(claude.requests).toHaveLength(2);
	});

	it("aborts a turn whose response is streaming when the time runs out", async () => {
		const claude = await started();
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		claude.time.advance(2_000);
		expect(claude.$.aborted).toEqual(["turn-1"]);
	});

	it("leaves alone a turn that ended before it could be aborted", async () => {
		const claude = await started();
		claude.$.abortFails = true;
		await claude.command("2s");
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0);
		claude.time.advance(2_000);
		await settle();
		expect(claude.$.aborted).toEqual(["turn-1"]);
		expect(claude.$.logged.join("\n")).not.toContain("not the running turn");
	});
});

describe("the status line and the idle stop", () => {
	it("sends the status line only when it changes: a run with nothing in force clears it once", async () => {
		const claude = await started();
		expect(await claude.prompt("hello")).toBeNull();
		await claude.step("turn-1", 0);
		await claude.turnComplete("turn-1");
		expect(claude.$.statuses).toEqual([undefined]);
		await claude.command("15m");
		expect(claude.$.statuses).toHaveLength(2);
		expect(claude.$.status).toContain("15m");
		await claude.command("off");
		expect(claude.$.statuses.at(-1)).toBeUndefined();
	});

	it("counts down every second, and stops on time with no event, running the on-stop command once", async () => {
		const claude = await started();
		await claude.command(`1m -- ${STOP}`);
		expect(claude.$.status).toContain("1m");
		claude.time.advance(1_000);
		expect(claude.$.status).toContain("59s");
		claude.time.advance(59_000);
		await settle();
		// The on-stop command, once; the stop's notice goes to stderr besides (this session is a headless one).
		expect(claude.$.ran.filter((argv) => argv[2] !== STDERR_SCRIPT)).toEqual([["sh", "-c", detachedLine(STOP)]]);
		expect(claude.$.logged.join("\n")).toContain("Timebox");
		// Started: nothing said of the command itself.
		expect(claude.$.logged.join("\n")).not.toMatch(/exited|could not/);
		claude.time.advance(60_000);
		await settle();
		expect(claude.$.ran.filter((argv) => argv[2] !== STDERR_SCRIPT)).toHaveLength(1);
	});

	it("says when the on-stop command could not start, in a headless run on stderr too", async () => {
		const claude = await started();
		const failures: [() => Promise<{ exitCode: number; stdout: string; stderr: string }>, string][] = [
			[async () => ({ exitCode: 127, stdout: "", stderr: "sh: not found\n" }), "sh exited with 127: sh: not found"],
			[async () => Promise.reject(new Error("no process")), "no process"],
			[async () => ({ exitCode: 2, stdout: "", stderr: " \n" }), "sh exited with 2"],
			[async () => Promise.reject("refused"), "refused"],
		];
		for (const [result, said] of failures) {
			claude.$.runResults.push(result);
			claude.$.ran.length = 0;
			await claude.command(`1s -- ${STOP}`);
			claude.time.advance(1_000);
			await settle();
			const message = `Timebox on-stop command failed: ${said}`;
			expect(claude.$.logged.at(-1)).toBe(message);
			// No reply carries it: the headless run's stderr does.
			expect(claude.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT).map((argv) => argv[4])).toContain(message);
		}
	});
});

describe("the plugin's store", () => {
	it("keeps the budget, its prompts and its outcome across processes of the same session (--continue)", async () => {
		const first = await started();
		await first.command("15m turns:2");
		expect(await first.prompt("one")).toBeNull();
		await first.step("turn-1", 0);
		await first.turnComplete("turn-1");
		await first.end();
		const saved = first.$.values.get("session:session-1") as { history: { kind: string }[] };
		expect(saved.history.map((item) => item.kind)).toEqual(["record", "prompt", "usage"]);

		const second = new FakeClaude();
		for (const [key, value] of first.$.values) second.$.values.set(key, value);
		await second.start();
		expect(await second.prompt("two")).toBeNull();
		await second.turnComplete("turn-2");
		expect(await second.prompt("three")).toContain("Timebox budget spent. Used 2 turns");
	});

	it("keeps nothing of a session where no budget was ever set", async () => {
		const claude = await started();
		expect(await claude.prompt("one")).toBeNull();
		await claude.step("turn-1", 0);
		await claude.end();
		expect([...claude.$.values.keys()]).toEqual([]);
	});

	it("removes sessions untouched for 30 days when another opens", async () => {
		const claude = new FakeClaude();
		const now = claude.time.now();
		claude.$.values.set("sessions", { old: now - 31 * 86_400_000, recent: now - 86_400_000 });
		claude.$.values.set("session:old", { history: [], claims: [] });
		claude.$.values.set("session:recent", { history: [], claims: [] });
		await claude.start();
		expect([...claude.$.values.keys()].sort()).toEqual(["session:recent", "sessions"]);
		await claude.command("10m");
		await claude.end();
		expect(Object.keys(claude.$.values.get("sessions") as object).sort()).toEqual(["recent", "session-1"]);
	});

	it("reads a damaged entry as a session with no budget", async () => {
		const claude = new FakeClaude();
		claude.$.values.set("session:session-1", { history: "?", claims: 3 });
		claude.$.values.set("sessions", "?");
		await claude.start();
		expect(await claude.command("status")).toContain("No active timebox.");
		claude.$.values.set("session:session-1", [1]);
		await claude.end();
		await claude.start();
		expect(await claude.command("status")).toContain("No active timebox.");
	});

	it("says once that the store cannot be written, and enforces the budget all the same", async () => {
		const claude = await started();
		claude.$.storeFails = true;
		const said = await claude.command("15m turns:1");
		await settle();
		const told = [said, ...claude.$.logged].join("\n");
		expect(told.match(/store full/g)).toHaveLength(1);
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("two")).toContain("Timebox budget spent");
	});

	it("opens a session that could not be read at the next event, and refuses meanwhile", async () => {
		const claude = new FakeClaude();
		claude.$.storeFails = true;
		await expect(claude.start()).rejects.toThrow("store unreadable");
		expect(
			await claude.caught("prompt.submit")(
				claude.$,
				{ text: "one" },
				Object.assign(async () => ({}), { called: false }),
			),
		).toEqual({
			drop: "Timebox could not check its budget here, so it refused (see the debug log).",
		});
		claude.$.storeFails = false;
		expect(await claude.command("status")).toContain("No active timebox.");
	});

	it("reads a spent, off or warned outcome back from the store", async () => {
		const first = await started();
		await first.command("10m turns:5");
		for (const text of ["1", "2", "3", "4"]) {
			expect(await first.prompt(text)).toBeNull();
			await first.turnComplete(`turn-${text}`);
		}
		await first.command("off");
		await first.end();
		const second = new FakeClaude();
		for (const [key, value] of first.$.values) second.$.values.set(key, value);
		await second.start();
		expect(await second.command("status")).toContain("No active timebox.");
		expect(await second.command("report")).toContain("Timebox");
	});

	it("reads an outcome of another budget, or one it does not know, as nothing of this budget", async () => {
		const claude = new FakeClaude();
		claude.$.values.set("session:session-1", {
			history: [
				{
					kind: "record",
					record: {
						kind: "active",
						version: 2,
						budget: {
							id: "b1",
							timeLimitMs: 600_000,
							turnLimit: null,
							startTime: claude.time.now(),
							onStopCommand: null,
						},
					},
				},
			],
			claims: [
				{ kind: "ended", budgetId: "b1" },
				{ kind: "spent", budgetId: "b0", summary: { usedTurns: 1, elapsedMs: 1, timeRanOut: true }, prompt: null },
			],
		});
		await claude.start();
		expect(await claude.command("status")).toContain("10m 0s left");
	});
});

describe("an on-stop command whose Claude Code process was killed before it started it", () => {
	const LATE = "Timebox ran the on-stop command late: the process that stopped the budget ended before it could.";

	/** A Claude Code process whose state folder (where the start marks go) is `state`, after `before` if given. */
	async function process(state: string, before?: FakeClaude): Promise<FakeClaude> {
		const claude = new FakeClaude({}, before);
		claude.$.variables.set("XDG_STATE_HOME", state);
		await claude.start();
		return claude;
	}

	/** A turns:1 budget stopped by the second prompt, in a process killed as it asked Claude Code to start the command. */
	async function killedAtTheStop(state: string): Promise<FakeClaude> {
		const first = await process(state);
		await first.command(`turns:1 -- ${STOP}`);
		expect(await first.prompt("one")).toBeNull();
		await first.turnComplete("turn-1");
		first.$.killedAtOnStop = true;
		expect(await first.prompt("two")).toContain("Timebox budget spent.");
		await settle();
		return first;
	}

	it("runs it once in the next process, behind its mark in the state folder, and says so once", async () => {
		const state = mkdtempSync(join(tmpdir(), "timebox-module-state-"));
		const first = await killedAtTheStop(state);
		expect(first.$.onStopRuns).toEqual([]);
		const second = await process(state, first);
		await settle();
		const saved = first.$.values.get("session:session-1") as { claims: { kind: string; budgetId: string }[] };
		const budgetId = saved.claims.find((claim) => claim.kind === "spent")?.budgetId;
		const mark = join(state, "timebox", "on-stop", `${budgetId}.spent.started`);
		expect(second.$.ran.filter((argv) => argv[2] !== STDERR_SCRIPT)).toEqual([
			["sh", "-c", DETACHED_WRAPPER_LINE, "sh", ON_STOP_WRAPPER, join(state, "timebox", "on-stop"), mark, STOP],
		]);
		expect(second.$.onStopRuns).toEqual([STOP]);
		expect(second.$.logged.filter((line) => line === LATE)).toHaveLength(1);
		// A headless run shows no transcript line: the warning of the load goes to stderr too.
		expect(second.$.ran.filter((argv) => argv[2] === STDERR_SCRIPT)).toEqual([["sh", "-c", STDERR_SCRIPT, "sh", LATE]]);
		// A third process finds the mark and the recovery: nothing runs again, nothing is said.
		const third = await process(state, second);
		await settle();
		expect(third.$.ran).toEqual([]);
		expect(third.$.logged).not.toContain(LATE);
	});

	it("runs it once when the killed process's own wrapper takes the mark while the next one starts it again", async () => {
		const state = mkdtempSync(join(tmpdir(), "timebox-module-state-"));
		const first = await killedAtTheStop(state);
		const second = new FakeClaude({}, first);
		second.$.variables.set("XDG_STATE_HOME", state);
		// The killed process's call got as far as the wrapper after all, which takes the mark first.
		second.$.beforeWrapper = (mark) => writeFileSync(mark, "", { flag: "wx" });
		await second.start();
		await settle();
		expect(second.$.onStopRuns).toEqual([]);
		expect(second.$.onStopSkipped).toEqual([STOP]);
		expect(existsSync(join(state, "timebox", "on-stop"))).toBe(true);
	});

	it("leaves a claim of its own process to it, and starts nothing late where no state folder is known", async () => {
		const state = mkdtempSync(join(tmpdir(), "timebox-module-state-"));
		const first = await killedAtTheStop(state);
		await first.end();
		// The same process opens the session again (a resume inside Claude Code): its own claim, young, is left to it.
		await first.start();
		await settle();
		expect(first.$.onStopRuns).toEqual([]);
		const homeless = new FakeClaude({}, first);
		await homeless.start();
		await settle();
		expect(homeless.$.ran).toEqual([]);
	});
});

describe("the session's end", () => {
	it("stops the timers and clears the status line; /clear goes on under a new session", async () => {
		const claude = await started();
		await claude.command("1m");
		await claude.end("clear");
		expect(claude.$.status).toBeUndefined();
		expect(claude.time.activeIntervals + claude.time.activeTimeouts).toBe(0);
		claude.$.sessionId = "session-2";
		expect(await claude.command("status")).toContain("No active timebox.");
		await claude.end();
		await claude.end();
	});
});

describe("a guard that fails", () => {
	it("refuses what it guards, and lets through what it had already let through", async () => {
		const claude = await started();
		const next = Object.assign(async () => ({ result: "ran" }), { called: true });
		const notYet = Object.assign(async () => ({ result: "ran" }), { called: false });
		expect(await claude.caught("tool.call")(claude.$, { tool: "Bash" }, notYet)).toEqual({
			deny: "Timebox could not check its budget here, so it refused (see the debug log).",
		});
		expect(await claude.caught("tool.call")(claude.$, { tool: "Bash" }, next)).toEqual({ result: "ran" });
		const prompt = Object.assign(async () => ({ text: "one" }), { called: true });
		expect(await claude.caught("prompt.submit")(claude.$, { text: "one" }, prompt)).toEqual({ text: "one" });
		expect(await claude.caught("command.run")(claude.$, { command: "timebox", args: "" })).toEqual({
			text: "Timebox could not check its budget here, so it refused (see the debug log).",
			isTextDisplayOnly: true,
		});
	});

	it("answers a step with no request unless its request was sent", async () => {
		const claude = await started();
		const event = { turnId: "turn-1", index: 0 };
		const response = { turnId: "turn-1", index: 0, answer: "hi", toolUses: [], stopReason: "end_turn", usage: null };
		const sent = Object.assign(
			async function* () {
				yield { type: "text", text: "hi" };
				return response;
			},
			{ called: true },
		);
		const unsent = Object.assign(
			async function* () {
				yield { type: "text", text: "hi" };
				return response;
			},
			{ called: false },
		);
		const failed = claude.caught("turn.step");
		expect(await drain<TurnStepAnswer>(failed(claude.$, event, sent))).toEqual(response);
		expect((await drain<TurnStepAnswer>(failed(claude.$, event, unsent))).stopReason).toBe("end_turn");
		expect(claude.$.logged).toEqual(["Timebox could not check its budget here, so it refused (see the debug log)."]);
	});
});

describe("the settings of the environment", () => {
	it("sets TIMEBOX_DEFAULT in a session where no budget was ever set", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DEFAULT", " turns:1 ");
		await claude.start();
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("two")).toContain("Timebox budget spent");
	});

	it("shares the daily budget with the other hosts' sessions, in the same files", async () => {
		const state = mkdtempSync(join(tmpdir(), "timebox-module-daily-"));
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DAILY", "turns:3");
		claude.$.variables.set("XDG_STATE_HOME", state);
		await claude.start();
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		// A pi or opencode session of the same user takes a prompt of the day.
		const other = createDailyLedger(join(state, "timebox"), "pi-session", claude.time);
		const budget = {
			scope: "user",
			source: "TIMEBOX_DAILY",
			limits: { timeMs: null, turns: 3, tokens: null, cost: null },
		};
		expect(other.countPrompt([budget], [3])).toBe(true);
		expect(await claude.prompt("two")).toBeNull();
		await claude.turnComplete("turn-2");
		expect(await claude.prompt("three")).toContain("today's budget is spent (3 prompts)");
		expect(await claude.command("today")).toContain("3 of 3 prompts used");
		expect(other.standings([budget])[0]?.use.prompts).toBe(3);
	});

	it("refuses a prompt whose place in the day another session took while it was counted", async () => {
		const state = mkdtempSync(join(tmpdir(), "timebox-module-daily-"));
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DAILY", "turns:1");
		claude.$.variables.set("HOME", state);
		await claude.start();
		// The other session writes its prompt file after this one read the day's folder, before it wrote its own.
		const folder = join(state, ".local/state/timebox/daily/user", localDay(claude.time.now()));
		mkdirSync(folder, { recursive: true });
		const list = claude.$.fs.list;
		claude.$.fs.list = async (path: string) => {
			const entries = await list(path);
			if (path === folder && entries.length === 0) writeFileSync(join(folder, "prompt-1"), "{}\n");
			return entries;
		};
		expect(await claude.prompt("one")).toBe(
			"Timebox: another session took today's last prompt just now, so this prompt was not sent.",
		);
	});

	it("names a TIMEBOX_DAILY it cannot read as the session starts, and again for /timebox today", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DAILY", "turns:1 $x");
		claude.$.variables.set("XDG_STATE_HOME", mkdtempSync(join(tmpdir(), "timebox-module-daily-")));
		await claude.start();
		const unreadable = expect.stringMatching(/^Timebox: TIMEBOX_DAILY: .* No daily budget is enforced from it\.$/);
		expect(claude.$.logged).toEqual([unreadable]);
		expect(await claude.prompt("one")).toBeNull();
		await claude.turnComplete("turn-1");
		expect(await claude.prompt("two")).toBeNull();
		expect(await claude.command("today")).toEqual(unreadable);
	});

	it("enforces no daily budget without a folder for its ledger, and says so", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_DAILY", "turns:1");
		await claude.start();
		expect(await claude.command("today")).toContain("No daily budget is set.");
	});
});

describe("the module's entry", () => {
	it("registers every hook, on Claude Code's clock and ids", async () => {
		const events: string[] = [];
		const hooks = new Map<string, (...args: never[]) => unknown>();
		register((event: string, ...rest: unknown[]) => {
			events.push(event);
			hooks.set(event, rest.at(-1) as (...args: never[]) => unknown);
			return { catch: () => {} };
		});
		const $ = new FakeClaude().$;
		const start = hooks.get("session.start") as (...args: unknown[]) => Promise<unknown>;
		await start($, { cwd: "/", isInteractive: false }, async () => ({}));
		const command = hooks.get("command.run") as (...args: unknown[]) => Promise<{ text: string }>;
		expect((await command($, { command: "timebox", args: "10m" })).text).toBe("Timebox set: 10m.");
		const saved = $.values.get("session:session-1") as { history: { record: { budget: { id: string } } }[] };
		expect(saved.history[0]?.record.budget.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(events).toEqual([
			"session.start",
			"classic.SessionStart",
			"command.run",
			"prompt.submit",
			"turn.step",
			"tool.call",
			"agent.spawn",
			"turn.complete",
			"session.end",
		]);
	});

	it("forgets a session that could not open and ended meanwhile", async () => {
		const claude = new FakeClaude();
		claude.$.storeFails = true;
		let release = () => {};
		claude.$.storeHeld = new Promise((done) => (release = done));
		const opening = claude.start();
		await settle();
		const ended = claude.end();
		release();
		await ended;
		await expect(opening).rejects.toThrow("store unreadable");
		claude.$.storeFails = false;
		expect(await claude.command("status")).toContain("No active timebox.");
	});

	it("forgets a session that ended while it opened", async () => {
		const claude = new FakeClaude();
		const opening = claude.start();
		await claude.end();
		await opening;
		await claude.end();
		expect(claude.$.variables.get("TIMEBOX_MODULE_LOADED")).toBe("1");
	});
});

describe("subagents", () => {
	const STOPPED =
		"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.";

	it("starts a subagent with its budget in its task, warns it and winds it down at its limit; its parent reads how it ended", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_SUBAGENTS", "20m steps:3");
		await claude.start();
		expect(await claude.prompt("fix it")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		expect(await claude.spawn("toolu_agent", "agent-7")).toBeNull();
		expect(claude.spawned.get("toolu_agent")).toContain("20m and 3 model calls for this task");
		expect(claude.spawned.get("toolu_agent")).toMatch(/^Find the flaky test and say why it fails\.\n\n/);
		const sub = { agentId: "agent-7" };
		const read: string[] = [];
		for (let index = 0; index < 6; index++) {
			const answered = await claude.step("sub-turn", index, { ...sub, toolUses: 1 });
			if (answered.usage === null) break;
			const tool = await claude.tool(undefined, "agent-7");
			read.push([tool.deny ?? "", ...(tool.context ?? [])].join("\n"));
		}
		expect(read.join("\n")).toContain("CRITICAL TIMEBOX WARNING");
		expect(read.join("\n")).toContain("TIMEBOX: TASK BUDGET SPENT");
		expect(read.at(-2)).toContain("Timebox: your budget for this task is spent.");
		// With the refusal, what the subagent reads at its next call (the one that reads it).
		expect(read.at(-2)).toContain("TIMEBOX: TASK BUDGET SPENT");
		expect(read.at(-1)).toBe(STOPPED);
		// Three calls, the one that concludes, and the one that read its tool's refusal; then no request.
		expect(claude.requests.filter((request) => request.agentId === "agent-7")).toHaveLength(5);
		await claude.turnComplete("sub-turn", "agent-7");
		const parent = await claude.tool(undefined, undefined, { tool: "Agent", id: "toolu_agent" });
		expect(parent.context).toEqual([
			expect.stringMatching(/^Timebox: this subagent (stopped|was stopped) .*3-step budget/),
		]);
		expect(claude.$.logged.join("\n")).toContain('subagent "find the flaky test" (Explore)');
	});

	it("refuses a subagent once the session's budget is spent, and stops a running one with it", async () => {
		const claude = await started();
		await claude.command("10m");
		expect(await claude.prompt("fix it")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		expect(await claude.spawn("toolu_a", "agent-1")).toBeNull();
		await claude.step("sub-1", 0, { agentId: "agent-1", toolUses: 1 });
		const running = claude.tool(() => new Promise(() => {}), "agent-1");
		await settle();
		claude.time.advance(10 * 60_000);
		expect((await running).deny).toBe(TOOL_STOPPED);
		expect((await claude.step("sub-1", 1, { agentId: "agent-1" })).stopReason).toBe("end_turn");
		expect(await claude.spawn("toolu_b", "agent-2")).toContain("no subagent can start");
	});

	it("stops only the subagent whose budget is spent, while its siblings run on", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_SUBAGENTS", "1m");
		await claude.start();
		expect(await claude.prompt("fix it")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 2 });
		expect(await claude.spawn("toolu_a", "agent-1")).toBeNull();
		await claude.step("sub-1", 0, { agentId: "agent-1", toolUses: 1 });
		const stuck = claude.tool(() => new Promise(() => {}), "agent-1");
		await settle();
		claude.time.advance(40_000);
		expect(await claude.spawn("toolu_b", "agent-2")).toBeNull();
		await claude.step("sub-2", 0, { agentId: "agent-2", toolUses: 1 });
		let finish: (value: unknown) => void = () => {};
		const working = claude.tool(() => new Promise((done) => (finish = done)), "agent-2");
		await settle();
		claude.time.advance(55_000);
		expect((await stuck).deny).toBe(TOOL_STOPPED);
		finish("found it");
		expect((await working).result).toBe("found it");
		expect((await claude.step("sub-1", 1, { agentId: "agent-1" })).answer).toBe("");
		expect(await claude.tool(undefined, "agent-1")).toEqual({ deny: STOPPED });
	});

	it("knows a subagent of a subagent by the agent that started it, and one that starts before its spawn returns", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_SUBAGENTS", "steps:2");
		await claude.start();
		expect(await claude.prompt("fix it")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		expect(await claude.spawn("toolu_a", "agent-1", { type: "general" })).toBeNull();
		await claude.step("sub-1", 0, { agentId: "agent-1", toolUses: 1 });
		// The child's first request comes while its spawn is still pending.
		let release: () => void = () => {};
		const spawned = claude.hook("agent.spawn")(
			claude.$,
			{ tool_use_id: "", prompt: "look", description: "", subagentType: "Explore", parentAgentId: "agent-1" },
			async () => {
				await claude.step("child-1", 0, { agentId: "agent-9" });
				await new Promise<void>((done) => (release = done));
				return { model: "claude-haiku", agentId: "agent-9" };
			},
		);
		await settle();
		release();
		expect((await spawned).agentId).toBe("agent-9");
		await claude.step("child-1", 1, { agentId: "agent-9" });
		await claude.step("child-1", 2, { agentId: "agent-9" });
		await claude.turnComplete("child-1", "agent-9");
		expect(claude.$.logged.join("\n")).toContain('subagent "look" (Explore)');
		expect(claude.$.logged.join("\n")).toContain("went back to the agent that started it");
	});

	it("counts what a subagent's response used for that subagent", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_SUBAGENTS", "tokens:100");
		await claude.start();
		await claude.command("1h");
		expect(await claude.prompt("fix it")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		expect(await claude.spawn("toolu_a", "agent-1")).toBeNull();
		await claude.step("sub-1", 0, { agentId: "agent-1", toolUses: 1 });
		expect(await claude.command("status")).toContain("concluding at its 100-token budget");
	});

	it("answers with no request a subagent the session's stop ended after its last tool, and passes on what else refuses", async () => {
		const claude = await started();
		await claude.command("10m");
		expect(await claude.prompt("fix it")).toBeNull();
		await claude.step("turn-1", 0, { toolUses: 1 });
		expect(await claude.spawn("toolu_a", "agent-1")).toBeNull();
		await claude.step("sub-1", 0, { agentId: "agent-1", toolUses: 1 });
		expect((await claude.tool(undefined, "agent-1")).result).toBe("ok");
		claude.time.advance(10 * 60_000);
		expect((await claude.step("sub-1", 1, { agentId: "agent-1" })).usage).toBeNull();
	});

	it("passes on an Agent tool call refused beneath Timebox, without the line of how its subagent ended", async () => {
		const claude = new FakeClaude();
		claude.$.variables.set("TIMEBOX_SUBAGENTS", "steps:1");
		await claude.start();
		expect(await claude.prompt("fix it")).toBeNull();
		expect(await claude.spawn("toolu_a", "agent-1")).toBeNull();
		for (let index = 0; index < 3; index++) await claude.step("sub-1", index, { agentId: "agent-1" });
		// The subagent ends with no answer of its own.
		await claude.hook("turn.complete")(claude.$, { turnId: "sub-1", agentId: "agent-1" }, async () => ({}));
		const agentCall = { tool: "Agent", tool_use_id: "toolu_a" };
		expect(await claude.hook("tool.call")(claude.$, agentCall, async () => ({ deny: "denied beneath" }))).toEqual({
			deny: "denied beneath",
		});
	});

	it("keeps nothing of a spawn refused beneath Timebox", async () => {
		const claude = await started();
		expect(await claude.prompt("fix it")).toBeNull();
		const event = { tool_use_id: "toolu_a", prompt: "look", description: "look", subagentType: "Explore" };
		expect(await claude.hook("agent.spawn")(claude.$, event, async () => ({ deny: "not here" }))).toEqual({
			deny: "not here",
		});
		expect(await claude.hook("agent.spawn")(claude.$, event, async () => ({ model: "remote" }))).toEqual({
			model: "remote",
		});
		await claude.hook("turn.complete")(claude.$, { turnId: "sub-1", agentId: "agent-1" }, async () => ({}));
		const agentCall = { tool: "Agent", tool_use_id: "toolu_a" };
		expect(await claude.hook("tool.call")(claude.$, agentCall, async () => ({ deny: "denied beneath" }))).toEqual({
			deny: "denied beneath",
		});
	});

	it("refuses a spawn whose guard failed, and lets through one already started", async () => {
		const claude = await started();
		const event = { tool_use_id: "toolu_a", prompt: "look", description: "look", subagentType: "Explore" };
		const unsent = Object.assign(async () => ({ model: "m", agentId: "a" }), { called: false });
		const sent = Object.assign(async () => ({ model: "m", agentId: "a" }), { called: true });
		expect(await claude.caught("agent.spawn")(claude.$, event, unsent)).toEqual({
			deny: "Timebox could not check its budget here, so it refused (see the debug log).",
		});
		expect(await claude.caught("agent.spawn")(claude.$, event, sent)).toEqual({ model: "m", agentId: "a" });
	});
});
