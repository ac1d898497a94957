// Subagent budgets in the opencode plugin, on a fake opencode: a subagent of the `task` tool reads its budget in its
// first request, is warned, has its tool refused at its limit and concludes, and its parent reads the line that it
// stopped; one that asks again is ended before its next request; what it used counts for it and the session; the
// session's spent budget stops it; a time check that stops it aborts its session and tells its parent next.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorld, FakeOpencode, MAIN, notesOf, type RunResult, removeWorld, type World } from "./fake-opencode.ts";

let world: World;

beforeEach(() => {
	world = createWorld();
});

afterEach(() => removeWorld(world));

const run = () => FakeOpencode.start(world, { interactive: false });

const CHILD = "ses_child";
const TASK_ARGS = { description: "find the flaky test", prompt: "Find the flaky test", subagent_type: "general" };
const TITLE = "find the flaky test (@general subagent)";
const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const WRAP_UP_REFUSAL =
	"Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.";
const NAME = 'subagent "find the flaky test" (general)';

/** The notes each of a run's calls carried, joined per call. */
const notes = (result: RunResult | undefined) => (result?.calls ?? []).map((call) => notesOf(call.sent).join("\n"));

/** The main agent's run that calls the `task` tool once; `child` runs the subagent's session meanwhile. */
async function delegate(opencode: FakeOpencode, child: () => Promise<void>): Promise<RunResult> {
	return opencode.prompt("delegate", {
		calls: 2,
		tools: 0,
		whileTools: async () => {
			expect(await opencode.task("call_task", TASK_ARGS)).toBeNull();
			await opencode.subagent(CHILD, MAIN, TITLE);
			await child();
		},
	});
}

describe("a subagent of opencode's task tool", () => {
	it("reads its budget first, is warned at its 3rd call, has its 4th call's tool refused, and its parent reads why", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 20s steps:3");
		let child: RunResult | undefined;
		let result = "";
		await delegate(opencode, async () => {
			child = await opencode.prompt("Find the flaky test", { session: CHILD, calls: 5 });
			result = await opencode.taskResult("call_task", "<task_result>FOUND</task_result>");
		});
		const read = notes(child);
		expect(read.map((text) => text.includes(BUDGET_BLOCK))).toEqual([true, false, false, false, false]);
		expect(read.map((text) => text.includes("TIMEBOX WARNING"))).toEqual([false, false, true, false, false]);
		expect(read.map((text) => text.includes(WRAP_UP_BLOCK))).toEqual([false, false, false, true, true]);
		expect(child).toMatchObject({ toolsRun: 3, toolRefusals: [WRAP_UP_REFUSAL], aborted: false });
		expect(result).toMatch(
			/^<task_result>FOUND<\/task_result>\n\nTimebox: this subagent stopped at its 3-step budget \(used .*\); its answer may be partial\.$/,
		);
		expect(opencode.messages("warning").join("\n")).toContain(`Timebox: ${NAME} used 80% of its budget`);
		expect(opencode.messages("info")).toContain(
			`Timebox: ${NAME} stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.`,
		);
	});

	it("is ended before its next request when it asks for a tool again, with the line as the task's error", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 20s steps:3");
		let child: RunResult | undefined;
		await delegate(opencode, async () => {
			child = await opencode.prompt("Find the flaky test", { session: CHILD, calls: 7 });
		});
		expect(child?.calls).toHaveLength(6);
		expect(child?.calls[5]?.refusal).toMatch(/^Timebox: this subagent stopped at its 3-step budget/);
		expect(child?.toolRefusals).toHaveLength(2);
		// Ended, it is forgotten: a late result of its task adds nothing.
		expect(await opencode.taskResult("call_task", "late")).toBe("late");
	});

	it("gets two calls after its budget is spent, and the third is never sent", async () => {
		const opencode = await run();
		await opencode.timebox("subagents steps:1");
		let child: RunResult | undefined;
		await delegate(opencode, async () => {
			child = await opencode.prompt("Find the flaky test", { session: CHILD, calls: 5, tools: 0 });
		});
		expect(notes(child).map((text) => text.includes(WRAP_UP_BLOCK))).toEqual([false, true, true, false]);
		expect(child?.calls[3]?.refusal).toMatch(/^Timebox: this subagent stopped at its 1-step budget/);
	});

	it("answers within its budget with nothing added, and what it used counts for the session", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 20s steps:3");
		await opencode.timebox("tokens:100k");
		let result = "";
		await delegate(opencode, async () => {
			await opencode.prompt("Find the flaky test", {
				session: CHILD,
				calls: 2,
				usage: () => ({ input: 2_000, output: 500 }),
			});
			result = await opencode.taskResult("call_task", "FOUND");
		});
		expect(result).toBe("FOUND");
		expect(await opencode.taskResult("call_other", "not a subagent")).toBe("not a subagent");
		expect(await opencode.taskResult("call_task", "bash output", MAIN, "bash")).toBe("bash output");
		await opencode.timebox("status");
		expect(opencode.last?.message).toContain("5k of 100k tokens");
	});

	it("is stopped with the session's budget: its next call is never sent", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 5m");
		await opencode.timebox("tokens:100k grace:30s");
		let child: RunResult | undefined;
		let tool: string | null = null;
		await delegate(opencode, async () => {
			// Its answer used more than the session's 100k tokens, and asks for a tool: refused.
			await opencode.prompt("Find the flaky test", {
				session: CHILD,
				calls: 1,
				usage: () => ({ input: 150_000, output: 0 }),
			});
			tool = await opencode.tool(CHILD);
			child = await opencode.prompt("(the tool's result)", { session: CHILD, calls: 2, byOpencode: true });
		});
		expect(tool).toMatch(/^Timebox/);
		// Its next call is never sent, and its parent reads why.
		expect(child?.calls).toHaveLength(1);
		expect(child?.calls[0]?.refusal).toMatch(/^Timebox: this subagent stopped when the session's budget ran out/);
		expect(opencode.messages("info").join("\n")).toContain(`Timebox: ${NAME} stopped with the session's budget`);
	});

	it("is refused with the reason once the session's budget is spent, and one whose task call is refused never runs", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 5m");
		await opencode.timebox("1m steps:1");
		await opencode.prompt("delegate", {
			calls: 3,
			tools: 0,
			whileTools: async (call) => {
				if (call === 1) return;
				// The prompt's second call is its wrap-up: its task call starts no subagent.
				expect(await opencode.task("call_wrapping", TASK_ARGS)).toMatch(/^Timebox/);
				// A session opencode would start for it is no subagent Timebox budgets: it is part of the run that wraps up.
				await opencode.subagent(CHILD, MAIN, TITLE);
				expect(await opencode.tool(CHILD)).toMatch(/^Timebox: this prompt used its 1 step/);
				world.time.advance(61_000);
				expect(await opencode.task("call_late", TASK_ARGS)).toBe(
					"Timebox: the session's budget is spent, so no subagent can start. Write the final answer now, with what was done and what is left.",
				);
			},
		});
	});

	it("of a subagent counts under the subagent that started it", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 20s steps:3");
		await delegate(opencode, async () => {
			expect(await opencode.task("call_inner", { prompt: "Dig deeper" }, CHILD)).toBeNull();
			await opencode.subagent("ses_grandchild", CHILD, "Dig deeper (@general subagent)");
			const inner = await opencode.prompt("Dig deeper", { session: "ses_grandchild", calls: 1 });
			expect(notes(inner)[0]).toContain(BUDGET_BLOCK);
		});
	});

	it("started by no task call Timebox saw is only counted with its parent's run", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 20s steps:3");
		await opencode.subagent("ses_unknown", MAIN, "something");
		const unknown = await opencode.prompt("explore", { session: "ses_unknown", calls: 2 });
		expect(notes(unknown)).toEqual(["", ""]);
	});
});

describe("a subagent whose time runs out", () => {
	it("concludes in its next call, and is ended at the call after its time to conclude ran out", async () => {
		const opencode = await run();
		await opencode.timebox("subagents 10s");
		let child: RunResult | undefined;
		await delegate(opencode, async () => {
			child = await opencode.prompt("Find the flaky test", {
				session: CHILD,
				calls: 3,
				tools: 0,
				whileTools: (call) => world.time.advance(call === 1 ? 11_000 : 30_000),
			});
		});
		expect(notes(child)[1]).toContain(WRAP_UP_BLOCK);
		expect(child?.calls[2]?.refusal).toMatch(/^Timebox: this subagent stopped at its 10s budget/);
	});
});
