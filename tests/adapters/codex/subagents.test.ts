// Codex CLI's subagents through the hook adapter's command line, with payloads as Codex 0.169.0 sends them: the task of
// `spawn_agent`, SubagentStart with the budget, the subagent's own hooks (`agent_id`), and SubagentStop, whose line that
// the subagent stopped goes with its parent's next model call (Codex puts nothing of SubagentStop's reply there).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODEX_SUBAGENTS, codexCliHost } from "../../../src/adapters/codex/hook-host.ts";
import type { Clock, OnStopOutcome, OnStopStarter } from "../../../src/core/index.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";

const SESSION = "01a215d2-907f-7cf2-867d-a14940d82adb";
const TURN = "turn-main";
const CHILD_TURN = "turn-child";

class ManualClock implements Clock {
	current = Date.UTC(2026, 10, 22, 9, 0, 0);
	now(): number {
		return this.current;
	}
}

class NoShell implements OnStopStarter {
	start(_command: string, report: (outcome: OnStopOutcome) => void): void {
		report({ kind: "started" });
	}
}

let dataDir: string;

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-codex-subagents-"));
});

afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const clock = new ManualClock();
const deps: CliDeps = {
	hosts: [codexCliHost],
	clock,
	onStop: new NoShell(),
	runStatusLine: () => "",
	newBudgetId: () => `budget-${clock.now()}`,
	script: "/plugin/bin/timebox.mjs",
	startWatcher: () => {},
	entry: import.meta.url,
	importReport: () => import("../../../src/entries/report/entry.ts"),
	sleep: async () => {},
};

type Reply = { hookSpecificOutput?: { additionalContext?: string; permissionDecisionReason?: string } };

async function hook(event: string, fields: object = {}): Promise<Reply> {
	const payload = { session_id: SESSION, hook_event_name: event, cwd: "/nonexistent", ...fields };
	const env = { CODEX_HOME: dataDir, TIMEBOX_SUBAGENTS: "20s steps:3" };
	const { stdout, stderr } = await runCli(["hook"], JSON.stringify(payload), env, deps);
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as Reply);
}

const context = (reply: Reply) => reply.hookSpecificOutput?.additionalContext ?? "";
const child = (agent = "child-1") => ({ agent_id: agent, agent_type: "default", turn_id: CHILD_TURN });
const spawn = (message = "Find the flaky test", extra: object = {}) =>
	hook("PreToolUse", {
		turn_id: TURN,
		tool_name: "spawn_agent",
		tool_input: { message, task_name: "flaky" },
		...extra,
	});

/** The subagent's calls after its first: a command, then its result before the next call. */
async function loop(times: number, agent = "child-1"): Promise<Reply[]> {
	const replies: Reply[] = [];
	for (let time = 0; time < times; time++) {
		replies.push(await hook("PreToolUse", { ...child(agent), tool_name: "Bash", tool_input: { command: "echo" } }));
		replies.push(await hook("PostToolUse", { ...child(agent), tool_name: "Bash", tool_input: {}, tool_response: "" }));
	}
	return replies;
}

describe("a subagent of Codex's spawn_agent", () => {
	it("reads its budget first, is warned, is refused at its limit, and its parent's next call reads that it stopped", async () => {
		await hook("UserPromptSubmit", { turn_id: TURN, prompt: "delegate" });
		await spawn();
		expect(context(await hook("SubagentStart", child()))).toContain("TIMEBOX: YOUR BUDGET FOR THIS TASK");
		// Its task reaches it as a prompt: no prompt of the user's.
		expect(await hook("UserPromptSubmit", { ...child(), prompt: "Find the flaky test" })).toEqual({});
		const replies = await loop(3);
		expect(context(replies[3] ?? {})).toContain("CRITICAL TIMEBOX WARNING");
		expect(context(replies[5] ?? {})).toContain("TIMEBOX: TASK BUDGET SPENT");
		const refused = await hook("PreToolUse", { ...child(), tool_name: "Bash", tool_input: { command: "echo" } });
		expect(refused.hookSpecificOutput?.permissionDecisionReason).toContain(
			"Timebox: your budget for this task is spent.",
		);
		expect(await hook("SubagentStop", { ...child(), last_assistant_message: "CHILD FINAL" })).not.toHaveProperty(
			"hookSpecificOutput",
		);
		const parentCall = await hook("PostToolUse", {
			turn_id: TURN,
			tool_name: "Bash",
			tool_input: {},
			tool_response: "",
		});
		expect(context(parentCall)).toMatch(/^Timebox: this subagent stopped at its 3-step budget \(used .*\); its answer/);
		// Given once.
		const next = await hook("PostToolUse", { turn_id: TURN, tool_name: "Bash", tool_input: {}, tool_response: "" });
		expect(context(next)).not.toContain("this subagent stopped");
	});

	it("of a subagent gives its line to the subagent that started it, and one within budget gives none", async () => {
		await hook("UserPromptSubmit", { turn_id: TURN, prompt: "delegate" });
		await spawn();
		await hook("SubagentStart", child());
		await hook("PreToolUse", { ...child(), tool_name: "spawn_agent", tool_input: { task_name: "inner" } });
		await hook("SubagentStart", child("grandchild"));
		await loop(5, "grandchild");
		await hook("SubagentStop", { ...child("grandchild") });
		const read = await hook("PostToolUse", { ...child(), tool_name: "Bash", tool_input: {}, tool_response: "" });
		expect(context(read)).toContain("Timebox: this subagent stopped");
		await spawn("Read the logs", { tool_input: { message: "Read the logs", agent_type: "explorer" } });
		await hook("SubagentStart", child("other"));
		await hook("SubagentStop", { ...child("other"), last_assistant_message: "done" });
		const parentCall = await hook("PostToolUse", {
			turn_id: TURN,
			tool_name: "Bash",
			tool_input: {},
			tool_response: "",
		});
		expect(context(parentCall)).not.toContain("this subagent stopped");
	});
});

describe("Codex's subagent dialect", () => {
	it("reads spawn_agent's call, and the subagent SubagentStop names", () => {
		expect(CODEX_SUBAGENTS.spawn("spawn_agent", { task_name: "flaky" })).toEqual({
			agentType: "default",
			task: "flaky",
		});
		expect(CODEX_SUBAGENTS.spawn("spawn_agent", {})).toEqual({ agentType: "default", task: "" });
		expect(CODEX_SUBAGENTS.spawn("Bash", { message: "x" })).toBeNull();
		expect(CODEX_SUBAGENTS.ended({ agent_id: "a1" })).toEqual({ agent: "a1", result: "" });
		expect(CODEX_SUBAGENTS.ended({})).toBeNull();
	});
});
