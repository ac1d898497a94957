// Claude Code's subagents on the classic hooks, through the hook adapter's command line with payloads as Claude Code
// sends them (a manual clock, a temporary data folder): the Agent tool's call names the task, SubagentStart opens the
// subagent's first request with its budget, its own hooks (with `agent_id`) count its calls and refuse its tools, the
// Agent tool's PostToolUse gives the main agent the line that it stopped, and the session's spent budget refuses one.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
	PostToolBatchHookInput,
	PostToolUseHookInput,
	PreToolUseHookInput,
	SubagentStartHookInput,
	SyncHookJSONOutput,
	UserPromptSubmitHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_SUBAGENTS, claudeCodeHost } from "../../../src/adapters/claude/hook-host.ts";
import type { Clock, OnStopOutcome, OnStopStarter } from "../../../src/core/index.ts";
import { type CliDeps, runCli } from "../../../src/entries/hook-cli.ts";

const SESSION = "3f1c2a4e-0000-4000-8000-000000000002";
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

class ManualClock implements Clock {
	current = START;
	now(): number {
		return this.current;
	}
}

class NoShell implements OnStopStarter {
	readonly ran: string[] = [];
	start(command: string, report: (outcome: OnStopOutcome) => void): void {
		this.ran.push(command);
		report({ kind: "started" });
	}
}

let dataDir: string;
let clock: ManualClock;

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), "timebox-claude-subagents-"));
	clock = new ManualClock();
});

afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const base = { session_id: SESSION, transcript_path: "/nonexistent/transcript.jsonl", cwd: "/nonexistent" };

function deps(): CliDeps {
	let ids = 0;
	return {
		hosts: [claudeCodeHost],
		clock,
		onStop: new NoShell(),
		runStatusLine: () => "",
		newBudgetId: () => `budget-${++ids}`,
		script: "/plugin/bin/timebox.mjs",
		startWatcher: () => {},
		entry: import.meta.url,
		importReport: () => import("../../../src/entries/report/entry.ts"),
		sleep: async () => {},
	};
}

async function hook(payload: object): Promise<SyncHookJSONOutput> {
	const { stdout, stderr } = await runCli(["hook"], JSON.stringify(payload), { CLAUDE_PLUGIN_DATA: dataDir }, deps());
	expect(stderr).toBe("");
	return stdout === "" ? {} : (JSON.parse(stdout) as SyncHookJSONOutput);
}

const PROMPT = "prompt-1";
const AGENT = "a754b644f5e847ea3";

function submit(prompt: string, extra: object = {}): Promise<SyncHookJSONOutput> {
	const input: UserPromptSubmitHookInput = { ...base, hook_event_name: "UserPromptSubmit", prompt, prompt_id: PROMPT };
	return hook({ ...input, ...extra });
}

/** The main agent (or the subagent `agent`) calls the Agent tool, in the call `toolUseId`. */
function callAgentTool(
	agent?: string,
	description = "find the flaky test",
	type = "general-purpose",
	toolUseId = "toolu_agent",
) {
	return hook(agentCallPayload(agent, description, type, toolUseId));
}

/** The main agent's Bash call. */
function toolPayloadOf(): PreToolUseHookInput {
	return {
		...base,
		hook_event_name: "PreToolUse",
		prompt_id: PROMPT,
		tool_name: "Bash",
		tool_input: { command: "ls" },
		tool_use_id: "toolu_main",
	};
}

function agentCallPayload(agent: string | undefined, description: string, type: string, toolUseId: string) {
	const input: PreToolUseHookInput = {
		...base,
		hook_event_name: "PreToolUse",
		prompt_id: PROMPT,
		...(agent === undefined ? {} : { agent_id: agent, agent_type: "general-purpose" }),
		tool_name: "Agent",
		tool_input: { description, prompt: "Find the flaky test", subagent_type: type },
		tool_use_id: toolUseId,
	};
	return input;
}

function subagentStart(agent = AGENT, type = "general-purpose"): Promise<SyncHookJSONOutput> {
	const input: SubagentStartHookInput = {
		...base,
		hook_event_name: "SubagentStart",
		agent_id: agent,
		agent_type: type,
	};
	return hook({ ...input, prompt_id: PROMPT });
}

function subagentTool(agent = AGENT): Promise<SyncHookJSONOutput> {
	const input: PreToolUseHookInput = {
		...base,
		hook_event_name: "PreToolUse",
		prompt_id: PROMPT,
		agent_id: agent,
		agent_type: "general-purpose",
		tool_name: "Bash",
		tool_input: { command: "echo one" },
		tool_use_id: "toolu_bash",
	};
	return hook(input);
}

function subagentNextCall(agent = AGENT): Promise<SyncHookJSONOutput> {
	const input: PostToolBatchHookInput = {
		...base,
		hook_event_name: "PostToolBatch",
		prompt_id: PROMPT,
		agent_id: agent,
		agent_type: "general-purpose",
		tool_calls: [],
	};
	return hook(input);
}

function agentResult(agent = AGENT, toolResponse: unknown = null): Promise<SyncHookJSONOutput> {
	const input: PostToolUseHookInput = {
		...base,
		hook_event_name: "PostToolUse",
		prompt_id: PROMPT,
		tool_name: "Agent",
		tool_input: {},
		tool_response: toolResponse ?? {
			status: "completed",
			agentId: agent,
			content: [
				{ type: "text", text: "<tools-used-before-summary>Bash</tools-used-before-summary>\n" },
				{ type: "text", text: "FOUND IT" },
			],
		},
		tool_use_id: "toolu_agent",
	};
	return hook(input);
}

/** The context a hook's answer gives the model, or "" for none. */
function contextOf(answer: SyncHookJSONOutput): string {
	const output = answer.hookSpecificOutput;
	return output && "additionalContext" in output ? String(output.additionalContext) : "";
}

function records(): Record<string, unknown>[] {
	return readFileSync(join(dataDir, "sessions", `${SESSION}.jsonl`), "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>)
		.filter((line) => line.kind === "subagent")
		.map((line) => line.agent as Record<string, unknown>);
}

const NAME = 'subagent "find the flaky test" (general-purpose)';
const WRAP_UP_REFUSAL =
	"Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.";

describe("a subagent of Claude Code's Agent tool", () => {
	it("reads its budget first, is warned, has its tool denied at its limit and is ended when it asks again", async () => {
		expect(await submit("/timebox subagents 20s steps:3")).toMatchObject({ decision: "block" });
		expect(await submit("delegate")).toEqual({});
		expect(await callAgentTool()).toEqual({});
		const start = await subagentStart();
		expect(start.hookSpecificOutput).toMatchObject({ hookEventName: "SubagentStart" });
		expect(contextOf(start)).toContain("TIMEBOX: YOUR BUDGET FOR THIS TASK");
		expect(contextOf(start)).toContain("20s and 3 model calls");
		expect(await subagentTool()).toEqual({});
		expect(await subagentNextCall()).toEqual({});
		expect(await subagentTool()).toEqual({});
		const third = await subagentNextCall();
		expect(contextOf(third)).toContain("CRITICAL TIMEBOX WARNING");
		expect(third.systemMessage).toContain(`Timebox: ${NAME} used 80% of its budget`);
		expect(await subagentTool()).toEqual({});
		expect(contextOf(await subagentNextCall())).toContain("TIMEBOX: TASK BUDGET SPENT");
		expect(await subagentTool()).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: WRAP_UP_REFUSAL,
			},
		});
		expect(contextOf(await subagentNextCall())).toContain("TIMEBOX: TASK BUDGET SPENT");
		const again = await subagentTool();
		expect(again).toMatchObject({
			continue: false,
			hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
		});
		expect(again.stopReason).toContain(`Timebox: ${NAME} stopped at its 3-step budget after 5 model calls`);
		const result = await agentResult();
		expect(contextOf(result)).toMatch(
			/^Timebox: this subagent stopped at its 3-step budget \(used .*\); its answer may be partial\.$/,
		);
		// The rules know it by the id of the Agent call that started it.
		expect(records().at(-1)).toMatchObject({
			id: "toolu_agent",
			task: "find the flaky test",
			ended: "stopped",
			steps: 5,
		});
	});

	it("ends within its budget with no line for the main agent, and its task is the one its type's call gave", async () => {
		await submit("/timebox subagents 20s steps:3");
		await submit("delegate");
		await callAgentTool(undefined, "read the logs", "Explore", "toolu_1");
		await callAgentTool(undefined, "find the flaky test", "general-purpose", "toolu_2");
		expect(contextOf(await subagentStart())).toContain("TIMEBOX: YOUR BUDGET FOR THIS TASK");
		expect(await agentResult()).toEqual({});
		expect(records().at(-1)).toMatchObject({ id: "toolu_2", task: "find the flaky test", ended: "answered" });
		// The other call is taken up by the next subagent, whatever its type; a third finds no call to take up, and
		// starts under its own id.
		expect(contextOf(await subagentStart("a2", "general-purpose"))).toContain("TIMEBOX: YOUR BUDGET");
		await subagentTool("a2");
		expect(records().at(-1)).toMatchObject({ id: "toolu_1", task: "read the logs" });
		await subagentStart("a3", "general-purpose");
		expect(records().at(-1)).toMatchObject({ id: "a3", task: "", agentType: "general-purpose" });
		expect(await subagentTool("a3")).toEqual({});
	});

	it("counts the tokens its result reports for it and for the session, once", async () => {
		await submit("/timebox tokens:10k");
		await submit("delegate");
		await callAgentTool();
		await subagentStart();
		const result = {
			status: "completed",
			agentId: AGENT,
			content: [{ type: "text", text: "done" }],
			totalTokens: 4_000,
		};
		await agentResult(AGENT, result);
		expect(records().at(-1)).toMatchObject({ spend: { tokens: 4_000 }, ended: "answered" });
		expect((await submit("/timebox status")).reason).toContain("4k of 10k tokens");
		expect((await submit("/timebox status")).reason).toContain("4k of 10k tokens");
	});

	it("of a subagent counts under the subagent that started it", async () => {
		await submit("/timebox subagents 20s steps:3");
		await submit("delegate");
		await callAgentTool();
		await subagentStart();
		await callAgentTool(AGENT, "dig deeper", "general-purpose", "toolu_inner");
		await subagentStart("a2");
		expect(records().at(-1)).toMatchObject({ id: "toolu_inner", parent: "toolu_agent", task: "dig deeper" });
	});

	it("cannot start another once the session's budget is spent: its Agent call is denied with the reason", async () => {
		await submit("/timebox subagents 20s steps:3");
		await submit("/timebox 1m");
		await submit("delegate");
		await callAgentTool();
		await subagentStart();
		clock.current += 61_000;
		// The main agent's next tool finds the time up: the session's budget is spent, and the subagent stopped.
		await hook(toolPayloadOf());
		const inner = await callAgentTool(AGENT, "dig deeper", "general-purpose", "toolu_inner");
		expect(inner.hookSpecificOutput).toMatchObject({
			permissionDecision: "deny",
			permissionDecisionReason:
				"Timebox: the session's budget is spent, so no subagent can start. Write the final answer now, with what was done and what is left.",
		});
		// A call Claude Code names no id of is refused as the tool it is.
		const { tool_use_id: _none, ...unnamed } = agentCallPayload(undefined, "later", "general-purpose", "x");
		expect((await hook(unnamed)).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
	});

	it("is stopped, with its record saying so, when the session's time runs out while the main agent is idle", async () => {
		await submit("/timebox subagents 10m");
		await submit("/timebox 1m");
		await submit("delegate");
		await callAgentTool();
		await subagentStart();
		// The main agent's run ended; the subagent works on in the background.
		await hook({ ...base, hook_event_name: "Stop", prompt_id: PROMPT, stop_hook_active: false });
		expect(records().at(-1)).toMatchObject({ id: "toolu_agent", ended: null });
		clock.current += 61_000;
		const watched = await runCli(
			["watch", "--data", dataDir, "--session", SESSION, "--budget", "budget-1"],
			"",
			{},
			deps(),
		);
		expect(watched).toEqual({ stdout: "", stderr: "" });
		// The watcher stopped the session's budget, and the subagents running with it: its record says so.
		expect(records().at(-1)).toMatchObject({ id: "toolu_agent", task: "find the flaky test", ended: "stopped" });
		// Its next tool ends it, with the reason.
		const next = await subagentTool();
		expect(next).toMatchObject({ continue: false, hookSpecificOutput: { permissionDecision: "deny" } });
		expect(next.stopReason).toContain("Timebox: this subagent was stopped");
	});

	it("ends at once, never running, when the main agent's run is wrapping up at its step cap", async () => {
		await submit("/timebox subagents 20s steps:3");
		await submit("/timebox steps:1");
		await submit("delegate");
		// The main agent's second model call is past its cap: it is to write its final answer, with no tools.
		const next: PostToolBatchHookInput = {
			...base,
			hook_event_name: "PostToolBatch",
			prompt_id: PROMPT,
			tool_calls: [],
		};
		await hook(next);
		const call = await callAgentTool();
		expect(call.hookSpecificOutput).toMatchObject({
			permissionDecision: "deny",
			permissionDecisionReason:
				"Timebox: this prompt used its 1 step. Write the final answer now, with what was done and what is left, without tools.",
		});
		expect(records().at(-1)).toMatchObject({ id: "toolu_agent", task: "find the flaky test", ended: "answered" });
	});

	it("is told the session's budget is spent when it starts after it, and is ended at its first tool", async () => {
		await submit("/timebox 1m");
		await submit("delegate");
		clock.current += 61_000;
		// The main agent's Agent call finds the time up: it is denied, and the session's budget is spent.
		expect((await callAgentTool()).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
		const start = await subagentStart();
		expect(contextOf(start)).toContain("Timebox: the session's budget is spent, so no subagent can start.");
		expect(await subagentTool()).toMatchObject({
			continue: false,
			hookSpecificOutput: { permissionDecision: "deny" },
		});
	});

	it("plays no part where Timebox has no budget for it, and its task never counts as a prompt", async () => {
		expect(await submit("a task", { agent_id: AGENT })).toEqual({});
		expect(await agentResult(AGENT, "not an object")).toEqual({});
		expect(await agentResult(AGENT, { status: "completed" })).toEqual({});
		expect(await hook({ ...base, hook_event_name: "SubagentStart" })).toEqual({});
	});

	it("takes its type from its parent's call where SubagentStart names none", async () => {
		await submit("/timebox subagents 20s steps:3");
		await submit("delegate");
		await callAgentTool(undefined, "read the logs", "Explore");
		await hook({ ...base, hook_event_name: "SubagentStart", agent_id: "a1", prompt_id: PROMPT });
		expect(records().at(-1)).toMatchObject({ id: "toolu_agent", agentType: "Explore", task: "read the logs" });
		await hook({ ...base, hook_event_name: "SubagentStart", agent_id: "a2", prompt_id: PROMPT });
		expect(records().at(-1)).toMatchObject({ id: "a2", agentType: "", task: "" });
	});

	it("gets the budget of TIMEBOX_SUBAGENTS where no command set one", async () => {
		const env = { CLAUDE_PLUGIN_DATA: dataDir, TIMEBOX_SUBAGENTS: "1m steps:2" };
		const send = (payload: object) => runCli(["hook"], JSON.stringify(payload), env, deps());
		await send({ ...base, hook_event_name: "UserPromptSubmit", prompt: "delegate", prompt_id: PROMPT });
		const start = await send({
			...base,
			hook_event_name: "SubagentStart",
			agent_id: "a1",
			agent_type: "x",
			prompt_id: PROMPT,
		});
		expect(start.stdout).toContain("You are a subagent with 1m and 2 model calls for this task.");
	});
});

describe("Claude Code's subagent dialect", () => {
	it("reads the Agent (or Task) tool's call and result, and nothing of other tools", () => {
		expect(CLAUDE_SUBAGENTS.spawn("Task", { prompt: "Find it" })).toEqual({
			agentType: "general-purpose",
			task: "Find it",
		});
		expect(CLAUDE_SUBAGENTS.spawn("Agent", {})).toEqual({ agentType: "general-purpose", task: "" });
		expect(CLAUDE_SUBAGENTS.spawn("Bash", { description: "x" })).toBeNull();
		expect(
			CLAUDE_SUBAGENTS.ended({ tool_name: "Task", tool_response: { agentId: "a1", content: "plain text" } }),
		).toEqual({ agent: "a1", result: "plain text" });
		expect(
			CLAUDE_SUBAGENTS.ended({ tool_name: "Agent", tool_response: { agentId: "a1", content: [1, null] } }),
		).toEqual({ agent: "a1", result: "\n" });
		expect(CLAUDE_SUBAGENTS.ended({ tool_name: "Agent", tool_response: { agentId: "a1" } })).toEqual({
			agent: "a1",
			result: "",
		});
		expect(CLAUDE_SUBAGENTS.ended({ tool_name: "Bash", tool_response: { agentId: "a1" } })).toBeNull();
		expect(CLAUDE_SUBAGENTS.ended({ tool_response: { agentId: "a1" } })).toBeNull();
	});
});
