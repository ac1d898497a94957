// Subagent budgets as behaviour sentences, on every driver that sees subagents. A host developer whose adapter maps a
// host's subagents gives its driver `subagents` and switches it on in the table below.

import { afterEach, describe, expect, it } from "vitest";
import type { NotifyLevel } from "../../src/core/index.ts";
import { DRIVERS, type HostDriver, type SubagentDriver } from "./drivers.ts";

/** Which drivers see subagents (Gemini CLI's hooks cannot tell a subagent from the main agent). */
const SEES_SUBAGENTS: Readonly<Record<string, boolean>> = {
	"in-memory host": true,
	"fake pi": false,
	"fake opencode": true,
	"Claude Code hooks": true,
	// The scenarios make a subagent's calls back to back, which Claude Code never does; the module's own tests drive its
	// subagents in the order Claude Code runs them.
	"Claude Code function hooks": false,
	"Gemini CLI hooks": false,
	"Codex CLI hooks": true,
};

let host: HostDriver | null = null;
afterEach(() => {
	host?.dispose();
	host = null;
});

const NAMED = DRIVERS.map((make) => {
	const driver = make();
	driver.dispose();
	return [driver.name, make] as const;
});

it("names every driver in the table of drivers that see subagents", () => {
	expect(NAMED.map(([name]) => name).sort()).toEqual(Object.keys(SEES_SUBAGENTS).sort());
});

const SEEING = NAMED.filter(([name]) => SEES_SUBAGENTS[name]);
const NAME = 'subagent "find the flaky test" (Explore)';

function subagentsOf(driver: HostDriver): SubagentDriver {
	const subagents = driver.subagents;
	if (!subagents) throw new Error(`${driver.name} is switched on in the table, but its driver starts no subagent`);
	return subagents;
}

/**
 * A notice the user was shown: its text, at its level where the host has levels (a hook host shows text alone, as
 * `systemMessage` or the reason of a stop).
 */
function told(driver: HostDriver, message: string, level: NotifyLevel): boolean {
	return driver.notices().some((notice) => notice.message === message && (notice.level ?? level) === level);
}

/** A subagent that loops on a tool: its model calls, each followed by a tool call, until it is stopped or refused. */
async function loop(subagents: SubagentDriver, agent: string, calls: number) {
	const steps = [];
	for (let call = 0; call < calls; call++) {
		const step = await subagents.call(agent);
		steps.push(step);
		if (step.stopped || step.refusal !== null) break;
		const tool = await subagents.tool(agent);
		steps.push(tool);
		if (tool.stopped) break;
	}
	return steps;
}

describe.each(SEEING)("subagents on the %s", (_name, make) => {
	it("tells a subagent its budget, warns it, refuses its tools at the limit, and its parent reads that it stopped", async () => {
		const driver = make();
		host = driver;
		const subagents = subagentsOf(driver);
		await driver.command("subagents 20s steps:3");
		await driver.prompt();
		const started = await subagents.start("a1", "Explore", "find the flaky test");
		const first = await subagents.call("a1");
		expect([...started.context, ...first.context].join("\n")).toContain("20s and 3 model calls for this task");
		await subagents.tool("a1");
		expect((await subagents.call("a1")).context).toEqual([]);
		await subagents.tool("a1");
		expect((await subagents.call("a1")).context.join("\n")).toContain("CRITICAL TIMEBOX WARNING");
		await subagents.tool("a1");
		expect((await subagents.call("a1")).context.join("\n")).toContain("TIMEBOX: TASK BUDGET SPENT");
		expect((await subagents.tool("a1")).refusal).toContain("your budget for this task is spent");
		// It writes its final answer with what it read.
		expect(await subagents.call("a1")).toMatchObject({ refusal: null, stopped: false });
		expect(await subagents.end("a1")).toEqual([
			"Timebox: this subagent stopped at its 3-step budget (used 0s, 5 model calls); its answer may be partial.",
		]);
		expect(
			told(
				driver,
				`Timebox: ${NAME} used 80% of its budget (20s and 0 model calls left); it is asked to wrap up.`,
				"warning",
			),
		).toBe(true);
		expect(
			told(
				driver,
				`Timebox: ${NAME} stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.`,
				"info",
			),
		).toBe(true);
		await driver.command("report");
		expect(driver.notices().at(-1)?.message).toContain(
			'"find the flaky test" (Explore): budget 20s and 3 model calls; used 0s, 5 model calls. Concluded at its 3-step budget.',
		);
	});

	it("stops a subagent that keeps asking for tools, with no further request", async () => {
		const driver = make({ subagents: "steps:2" });
		host = driver;
		const subagents = subagentsOf(driver);
		await driver.prompt();
		await subagents.start("a1", "Explore", "find the flaky test");
		const steps = await loop(subagents, "a1", 20);
		expect(steps.at(-1)).toMatchObject({ stopped: true });
		// Two calls, the one that concludes and the one that reads the refusal, then the tool that ends it.
		expect(steps.filter((step) => step.context.join().includes("TASK BUDGET SPENT"))).toHaveLength(2);
		expect((await subagents.call("a1")).stopped).toBe(true);
	});

	it("stops a running subagent with the session's budget, and refuses a new one", async () => {
		const driver = make();
		host = driver;
		const subagents = subagentsOf(driver);
		await driver.command("10m");
		await driver.prompt();
		await subagents.start("a1", "Explore", "find the flaky test");
		await subagents.call("a1");
		driver.advance(10 * 60_000);
		// A host with timers stops it at the deadline; a hook host at its next hook: its next tool finds it stopped.
		expect((await subagents.tool("a1")).stopped).toBe(true);
		expect(
			told(
				driver,
				`Timebox: ${NAME} stopped with the session's budget after 1 model call; its answer went back to the main agent.`,
				"info",
			),
		).toBe(true);
		expect((await subagents.start("a2", "Plan", "plan the fix")).refusal).toContain("no subagent can start");
	});

	it("gives a subagent of a subagent a budget of its own, and counts it apart from its parent's steps", async () => {
		const driver = make({ subagents: "steps:2" });
		host = driver;
		const subagents = subagentsOf(driver);
		await driver.prompt();
		await subagents.start("a1", "general", "fix the flaky test");
		await subagents.call("a1");
		const child = await subagents.start("c1", "Explore", "find the flaky test", "a1");
		// A host that cannot put anything into a subagent's first request at its start puts it into its first call.
		const first = await subagents.call("c1");
		expect([...child.context, ...first.context].join("\n")).toContain("2 model calls for this task");
		await subagents.call("c1");
		expect((await subagents.call("c1")).context.join("\n")).toContain("TASK BUDGET SPENT");
		expect((await subagents.call("a1")).context.join("\n")).toContain("CRITICAL TIMEBOX WARNING");
		expect(driver.notices().map((notice) => notice.message)).not.toContainEqual(
			expect.stringContaining("went back to the agent"),
		);
		await subagents.end("c1");
		expect(driver.notices().at(-1)?.message).toBe(
			`Timebox: ${NAME} stopped at its 2-step budget after 3 model calls; its answer went back to the agent that started it.`,
		);
	});

	it("refuses a subagent's 3rd identical call under loop:3, and concludes it at the 4th, as its step limit does", async () => {
		const driver = make({ subagents: "5m loop:3" });
		host = driver;
		const subagents = subagentsOf(driver);
		const A = { tool: "Bash", input: { command: "npm test" } };
		await driver.prompt();
		await subagents.start("a1", "Explore", "find the flaky test");
		await subagents.call("a1");
		for (const _ of [1, 2]) expect((await subagents.tool("a1", A)).refusal).toBeNull();
		expect((await subagents.tool("a1", A)).refusal?.replace(/\.$/, "")).toBe(
			"Timebox: this is the 3rd identical Bash call in this task (npm test); its result will not change. Change your approach or finish with what you have",
		);
		expect(
			told(
				driver,
				`Timebox refused a repeated call of ${NAME}: Bash (npm test), the 3rd identical one in its task.`,
				"warning",
			),
		).toBe(true);
		await subagents.call("a1");
		const fourth = await subagents.tool("a1", A);
		expect(fourth).toMatchObject({ stopped: false });
		expect(fourth.refusal).toMatch(/^Timebox stopped a loop: Bash \(npm test\) asked for 4 times in this task\./);
		// It concludes: its next call reads that its budget is spent, and it answers.
		expect((await subagents.call("a1")).context.join("\n")).toContain("TIMEBOX: TASK BUDGET SPENT");
		expect(await subagents.end("a1")).toEqual([
			"Timebox: this subagent stopped at its loop guard (loop:3) (used 0s, 3 model calls); its answer may be partial.",
		]);
		expect(
			told(
				driver,
				`Timebox: ${NAME} stopped at its loop guard (loop:3) after 3 model calls; its answer went back to the main agent.`,
				"info",
			),
		).toBe(true);
		expect(driver.onStopRuns()).toEqual([]);
	});
});
