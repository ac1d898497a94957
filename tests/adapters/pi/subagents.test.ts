// pi's subagents on the fake pi: a call of the subagent tool names the subagent in the environment its process inherits
// (with its budget's words), the process that runs it budgets itself as that subagent and writes how it ended, and the
// tool's result carries the line that it stopped, what it used counts for the session, and the user sees its notices.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	SubagentProcesses,
	sessionStopped,
	takeOutcome,
	writeOutcome,
	writeSessionStop,
} from "../../../src/adapters/pi/subagent-files.ts";
import {
	identityFor,
	identityOf,
	SUBAGENT_ENV,
	type SubagentIdentity,
	type SubagentOutcome,
	spawnRequestOf,
} from "../../../src/adapters/pi/subagents.ts";
import { usageOfSubagents } from "../../../src/adapters/pi/usage.ts";
import { FakePi, type FakeUsage } from "./fake-pi.ts";

let folder: string;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "timebox-pi-subagents-"));
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const NAME = 'subagent "find the flaky test" (worker)';
const used = (tokens: number): FakeUsage => ({
	input: tokens,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	cost: { total: 0 },
});

/** A pi process that runs the subagent its parent named `identity`. */
function childPi(identity: Partial<SubagentIdentity> = {}): Promise<FakePi> {
	const pi = new FakePi({ hasUI: false });
	const named: SubagentIdentity = {
		agent: "call_1",
		agentType: "worker",
		task: "find the flaky test",
		budget: "20s steps:3",
		outcome: join(folder, "outcome.json"),
		stop: join(folder, "stop"),
		...identity,
	};
	pi.env = { [SUBAGENT_ENV]: JSON.stringify(named), PI_TIMEBOX: "1h" };
	return pi.start();
}

const outcome = (): SubagentOutcome => JSON.parse(readFileSync(join(folder, "outcome.json"), "utf8"));

describe("a pi process that runs a subagent", () => {
	it("reads its budget first, is warned, has its tool refused, concludes, and writes the line for its parent", async () => {
		const pi = await childPi();
		const run = await pi.prompt("Task: find the flaky test", { llmCalls: 5 });
		expect(run.notes.map((note) => note?.includes(BUDGET_BLOCK) ?? false)).toEqual([true, false, false, false, false]);
		expect(run.notes.map((note) => note?.includes("TIMEBOX WARNING") ?? false)).toEqual([
			false,
			false,
			true,
			false,
			false,
		]);
		expect(run.notes.map((note) => note?.includes(WRAP_UP_BLOCK) ?? false)).toEqual([false, false, false, true, true]);
		expect(run.refusals).toEqual([
			"Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.",
		]);
		const told = outcome();
		expect(told.lines).toEqual([expect.stringMatching(/^Timebox: this subagent stopped at its 3-step budget \(used /)]);
		expect(told.notices.map((notice) => notice.level)).toEqual(["warning", "info"]);
		expect(told.notices[1]?.message).toBe(
			`Timebox: ${NAME} stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.`,
		);
		expect(told.record?.agent).toMatchObject({ id: "call_1", ended: "concluded", steps: 5 });
		// Its process writes none of it to its stderr, which pi 1.x's subagent example gives the main agent to read.
		expect(pi.screen.fallbackLines).toEqual([]);
		// No default budget of the user's: the subagent's process runs on its own budget alone.
		expect(pi.screen.status).toBeUndefined();
	});

	it("aborts its run when it asks for a tool again after the refusal", async () => {
		const pi = await childPi();
		const run = await pi.prompt("Task: find the flaky test", { llmCalls: 7, usage: () => used(10) });
		expect(run.modelCalls).toBe(5);
		expect(run.aborted).toBe(true);
		expect(outcome().record?.agent).toMatchObject({ ended: "stopped" });
	});

	it("with no subagent budget is only counted: it reads nothing, and its parent reads nothing more", async () => {
		const pi = await childPi({ budget: null });
		const run = await pi.prompt("Task: find the flaky test", { llmCalls: 2 });
		expect(run.notes).toEqual([null, null]);
		expect(outcome().lines).toEqual([]);
		expect(outcome().record?.agent).toMatchObject({ budget: null, ended: "answered" });
	});

	it("is ended at its next call when the budget of its own session runs out", async () => {
		const pi = await childPi({ budget: "5m" });
		await pi.timebox("1m");
		const run = await pi.prompt("Task: find the flaky test", {
			llmCalls: 4,
			duringTool: () => pi.time.advance(61_000),
		});
		expect(run.modelCalls).toBe(1);
		expect(run.aborted).toBe(true);
		expect(outcome().lines).toEqual([
			expect.stringMatching(/^Timebox: this subagent stopped when the session's budget ran out/),
		]);
	});

	it("is ended at its next call when its time to conclude ran out during a tool", async () => {
		const pi = await childPi({ budget: "10s" });
		const run = await pi.prompt("Task: find the flaky test", {
			llmCalls: 2,
			duringTool: () => pi.time.advance(41_000),
		});
		expect(run.modelCalls).toBe(1);
		expect(run.aborted).toBe(true);
		expect(outcome().lines).toEqual([expect.stringMatching(/^Timebox: this subagent stopped at its 10s budget/)]);
	});

	it("is stopped at its next call when its parent says the session's budget is spent, and its parent reads why", async () => {
		const pi = await childPi();
		const run = await pi.prompt("Task: find the flaky test", {
			llmCalls: 3,
			duringTool: () => writeFileSync(join(folder, "stop"), ""),
		});
		expect(run.modelCalls).toBe(1);
		expect(run.aborted).toBe(true);
		const told = outcome();
		expect(told.lines).toEqual([
			expect.stringMatching(/^Timebox: this subagent stopped when the session's budget ran out \(used /),
		]);
		expect(told.notices.map((notice) => notice.message)).toEqual([
			`Timebox: ${NAME} stopped with the session's budget after 1 model call; its answer went back to the main agent.`,
		]);
		expect(told.record?.agent).toMatchObject({ ended: "stopped", spent: { limit: "session" } });
	});

	it("has its next tool refused when its parent says the session's budget is spent before it", async () => {
		const pi = await childPi();
		const run = await pi.prompt("Task: find the flaky test", {
			llmCalls: 3,
			beforeTool: () => writeFileSync(join(folder, "stop"), ""),
		});
		expect(run.refusals).toEqual([
			"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.",
		]);
		expect(run.aborted).toBe(true);
		expect(outcome().record?.agent).toMatchObject({ ended: "stopped", spent: { limit: "session" } });
	});

	it("keeps the session's own records out of what it tells its parent", async () => {
		const pi = await childPi();
		await pi.timebox("5m");
		await pi.prompt("Task: find the flaky test", { llmCalls: 1 });
		expect(outcome().record?.agent).toMatchObject({ id: "call_1", ended: "answered" });
	});
});

describe("the subagent tool of a pi session", () => {
	it("names the subagent with its budget, and its result carries the line, the notices and what it used", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("subagents 20s steps:3");
		let named: SubagentIdentity | null = null;
		const run = await pi.prompt("delegate", {
			llmCalls: 2,
			tool: () => ({
				toolName: "subagent",
				input: { agent: "worker", task: "find the flaky test" },
				details: { results: [{ usage: { input: 900, output: 100, cacheRead: 0, cacheWrite: 0, cost: 0.5 } }] },
			}),
			duringTool: () => {
				named = identityOf(pi.env);
				if (named === null) return;
				writeOutcome(named.outcome, {
					lines: ["Timebox: this subagent stopped at its 3-step budget."],
					notices: [{ message: "a notice of the subagent", level: "info" }],
					record: {
						kind: "subagent",
						version: 1,
						agent: {
							id: named.agent,
							parent: null,
							agentType: "worker",
							task: "find the flaky test",
							budget: { timeLimitMs: 20_000, stepLimit: 3 },
							startedAt: 0,
							steps: 5,
							spend: { tokens: 1_000, cost: 0.5 },
							warned: true,
							told: true,
							spent: { limit: "steps", at: 0 },
							wrapUp: null,
							ended: "concluded",
							closed: true,
							endedAt: 0,
						},
					},
				});
			},
		});
		expect(named).toMatchObject({
			agent: "t0",
			agentType: "worker",
			task: "find the flaky test",
			budget: "20s steps:3",
		});
		expect(run.results).toEqual(["ok\nTimebox: this subagent stopped at its 3-step budget."]);
		expect(pi.screen.messages("info")).toContain("a notice of the subagent");
		expect(pi.env[SUBAGENT_ENV]).toBeUndefined();
		expect(existsSync(join(tmpdir(), "never"))).toBe(false);
		await pi.timebox("report");
		expect(pi.screen.last?.message).toContain("find the flaky test");
	});

	it("leaves the result of a subagent that wrote nothing (or answered within budget) as it is", async () => {
		const pi = await new FakePi().start();
		const run = await pi.prompt("delegate", {
			llmCalls: 3,
			tool: (call) => ({ toolName: "subagent", input: { agent: "worker", task: `task ${call}` } }),
			duringTool: (call) => {
				const named = identityOf(pi.env);
				if (named !== null && call === 1) writeOutcome(named.outcome, { lines: [], notices: [], record: null });
			},
		});
		expect(run.results).toEqual(["ok", "ok"]);
		expect(pi.env[SUBAGENT_ENV]).toBeUndefined();
	});

	it("names each subagent with its type's budget, and leaves a name another call put there meanwhile", async () => {
		const settings = join(folder, "settings.json");
		writeFileSync(settings, JSON.stringify({ timebox: { subagents: { worker: "2m" } } }));
		const pi = new FakePi();
		pi.globalSettings = settings;
		await pi.start();
		const named: (string | null)[] = [];
		await pi.prompt("delegate", {
			llmCalls: 3,
			tool: (call) => ({ toolName: "subagent", input: { agent: call === 0 ? "worker" : "reviewer", task: "go" } }),
			duringTool: () => {
				const identity = identityOf(pi.env);
				named.push(identity === null ? "no subagent named" : identity.budget);
				pi.env[SUBAGENT_ENV] = "another call's";
			},
		});
		expect(named).toEqual(["2m", null]);
		expect(pi.env[SUBAGENT_ENV]).toBe("another call's");
	});

	it("tells a running subagent's process when the session's budget is spent, and no subagent of a prompt after it", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("1m grace:30s");
		const stops: boolean[] = [];
		let stopFile = "";
		const delegate = (prompt: string) =>
			pi.prompt(prompt, {
				llmCalls: 2,
				tool: () => ({ toolName: "subagent", input: { agent: "worker", task: "find the flaky test" } }),
				duringTool: () => {
					const named = identityOf(pi.env);
					if (named === null) return;
					stopFile = named.stop;
					stops.push(sessionStopped(named));
					pi.time.advance(61_000);
					stops.push(sessionStopped(named));
				},
			});
		await delegate("delegate");
		expect(stops).toEqual([false, true]);
		// Gone once the tool's result is in.
		expect(existsSync(stopFile)).toBe(false);
		// A prompt after the stop runs on, as the chat does, and so does the subagent it starts.
		await delegate("delegate again");
		expect(stops).toEqual([false, true, false, false]);
	});

	it("names no subagent for another tool, or for a call refused once the session's budget is spent", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("turns:1");
		await pi.prompt("one", { llmCalls: 2, tool: () => ({ toolName: "read", input: { agent: "x", task: "y" } }) });
		expect(pi.env[SUBAGENT_ENV]).toBeUndefined();
		await pi.timebox("1m");
		const run = await pi.prompt("two", {
			llmCalls: 2,
			beforeTool: () => pi.time.advance(61_000),
			tool: () => ({ toolName: "subagent", input: { agent: "worker", task: "late" } }),
		});
		expect(run.refusals).toHaveLength(1);
		expect(pi.env[SUBAGENT_ENV]).toBeUndefined();
	});
});

describe("what a subagent and its parent pass each other", () => {
	it("reads a subagent tool call in its single mode only", () => {
		expect(spawnRequestOf("subagent", { agent: "worker", task: "go" })).toEqual({ agentType: "worker", task: "go" });
		expect(spawnRequestOf("subagent", { tasks: [] })).toBeNull();
		expect(spawnRequestOf("subagent", null)).toBeNull();
		expect(spawnRequestOf("bash", { agent: "worker", task: "go" })).toBeNull();
	});

	it("names a subagent in the environment, and reads back only a whole identity", () => {
		const identity = identityFor("call/1", { agentType: "worker", task: "go" }, null);
		expect(identity.outcome).toMatch(/timebox-subagent-\d+-call_1\.json$/);
		expect(identity.stop).toMatch(/timebox-subagent-\d+-call_1\.stop$/);
		expect(identityOf({ [SUBAGENT_ENV]: JSON.stringify(identity) })).toEqual(identity);
		for (const text of [
			"",
			"not json",
			"3",
			"null",
			JSON.stringify({ ...identity, agent: 1 }),
			JSON.stringify({ ...identity, outcome: null }),
			JSON.stringify({ ...identity, stop: undefined }),
			JSON.stringify({ ...identity, budget: 3 }),
		]) {
			expect(identityOf({ [SUBAGENT_ENV]: text })).toBeNull();
		}
		expect(identityOf({})).toBeNull();
	});

	it("tells each running subagent's process of the session's stop once, and none whose result is in", () => {
		const identity = (id: string): SubagentIdentity => ({
			agent: id,
			agentType: "worker",
			task: "t",
			budget: null,
			outcome: join(folder, `${id}.json`),
			stop: join(folder, `${id}.stop`),
		});
		const processes = new SubagentProcesses();
		processes.started("call-1", identity("call-1"));
		processes.started("call-2", identity("call-2"));
		expect(processes.ended("call-2")).toEqual(identity("call-2"));
		expect(processes.ended("call-9")).toBeUndefined();
		processes.stopAll();
		expect([sessionStopped(identity("call-1")), sessionStopped(identity("call-2"))]).toEqual([true, false]);
		// Told once: a later stop (an extended budget spent again) writes nothing more for it.
		rmSync(identity("call-1").stop);
		processes.stopAll();
		expect(sessionStopped(identity("call-1"))).toBe(false);
		// Its result in, its stop file goes.
		processes.stopAll();
		writeSessionStop(identity("call-1"));
		processes.ended("call-1");
		expect(sessionStopped(identity("call-1"))).toBe(false);
	});

	it("tells a subagent's process of the session's stop through its file, and a file that cannot be written tells nothing", () => {
		const identity = {
			...identityFor("call_1", { agentType: "worker", task: "go" }, null),
			stop: join(folder, "stop"),
		};
		expect(sessionStopped(identity)).toBe(false);
		writeSessionStop(identity);
		expect(sessionStopped(identity)).toBe(true);
		const unwritable = { ...identity, stop: join(folder, "missing", "stop") };
		writeSessionStop(unwritable);
		expect(sessionStopped(unwritable)).toBe(false);
	});

	it("takes an outcome once, and none that is missing, unwritable or garbled", () => {
		const path = join(folder, "outcome.json");
		expect(takeOutcome(path)).toBeNull();
		writeOutcome(join(folder, "missing", "outcome.json"), { lines: [], notices: [], record: null });
		writeFileSync(path, "{not json");
		expect(takeOutcome(path)).toBeNull();
		writeFileSync(path, JSON.stringify({ lines: [1], notices: "no" }));
		expect(takeOutcome(path)).toEqual({ lines: ["1"], notices: [], record: null });
		writeFileSync(path, JSON.stringify({ notices: [] }));
		expect(takeOutcome(path)).toEqual({ lines: [], notices: [], record: null });
		expect(existsSync(path)).toBe(false);
	});

	it("adds up what the subagents of one call used, and nothing from details without results", () => {
		expect(
			usageOfSubagents({
				results: [
					{ usage: { input: 100, output: 20, cacheRead: 5, cacheWrite: 5, cost: 0.25 } },
					{ usage: null },
					null,
				],
			}),
		).toEqual({ tokens: 130, cost: 0.25 });
		expect(usageOfSubagents({ results: [] })).toBeNull();
		expect(usageOfSubagents(null)).toBeNull();
		expect(usageOfSubagents({})).toBeNull();
	});
});
