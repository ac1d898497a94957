// opencode's subagents as the plugin keeps them: a `task` call's arguments, its pairing with the child session opencode
// creates, the budget block given once, the stop, the end, and the lines a parent's next request reads.

import { describe, expect, it } from "vitest";
import { SubagentTasks, taskRequestOf } from "../../../src/adapters/opencode/subagents.ts";

describe("a task call's arguments", () => {
	it("give the subagent's type and its task, its description first", () => {
		expect(taskRequestOf({ description: "find the flaky test", prompt: "Find it", subagent_type: "explore" })).toEqual({
			agentType: "explore",
			task: "find the flaky test",
			description: "find the flaky test",
		});
		expect(taskRequestOf({ prompt: "Find it" })).toEqual({ agentType: "general", task: "Find it", description: "" });
		expect(taskRequestOf(null)).toEqual({ agentType: "general", task: "", description: "" });
		expect(taskRequestOf({ description: 3, subagent_type: ["x"] })).toEqual({
			agentType: "general",
			task: "",
			description: "",
		});
	});
});

describe("the subagents of the task tool", () => {
	it("pair each child session with its task call by the title, else the oldest waiting call of its parent", () => {
		const tasks = new SubagentTasks();
		tasks.started("call_1", "ses_main", "read the logs", []);
		tasks.started("call_2", "ses_main", "find the flaky test", []);
		tasks.started("call_3", "ses_other", "", []);
		expect(tasks.created("ses_b", "ses_main", "find the flaky test (@general subagent)")).toBe("call_2");
		expect(tasks.created("ses_a", "ses_main", "something else")).toBe("call_1");
		expect(tasks.created("ses_x", "ses_main", "find the flaky test (@general subagent)")).toBeNull();
		expect(tasks.created("ses_c", "ses_other", "a title")).toBe("call_3");
		expect([tasks.agentOf("ses_a"), tasks.agentOf("ses_b"), tasks.agentOf("ses_x")]).toEqual([
			"call_1",
			"call_2",
			undefined,
		]);
		expect([tasks.sessionOf("call_2"), tasks.sessionOf("call_9")]).toEqual(["ses_b", null]);
	});

	it("give the budget block to the first request only", () => {
		const tasks = new SubagentTasks();
		tasks.started("call_1", "ses_main", "task", ["BUDGET"]);
		expect(tasks.takeContext("call_1")).toEqual(["BUDGET"]);
		expect(tasks.takeContext("call_1")).toEqual([]);
		expect(tasks.takeContext("call_9")).toEqual([]);
	});

	it("keep which subagents the rules stopped, and forget a subagent that ended", () => {
		const tasks = new SubagentTasks();
		tasks.started("call_1", "ses_main", "task", []);
		tasks.created("ses_child", "ses_main", "task (@general subagent)");
		expect(tasks.isStopped("call_1")).toBe(false);
		expect(tasks.isStopped(undefined)).toBe(false);
		tasks.stop("call_1");
		tasks.stop("call_1");
		tasks.stop("call_9");
		expect(tasks.isStopped("call_1")).toBe(true);
		expect(tasks.isStopped("call_9")).toBe(false);
		expect(tasks.ended("call_1")).toBe("ses_main");
		expect(tasks.ended("call_1")).toBeNull();
		expect(tasks.agentOf("ses_child")).toBeUndefined();
		tasks.started("call_2", "ses_main", "never created", []);
		expect(tasks.ended("call_2")).toBe("ses_main");
	});
});
