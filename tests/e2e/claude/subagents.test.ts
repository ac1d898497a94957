// Timebox's subagent budgets in the real Claude Code on its classic hooks (the plugin's hooks.json), against the fake
// Messages API: a subagent of the Agent tool that loops on Bash reads its budget (SubagentStart), is warned, concludes
// at its limit with its tool denied, and the main agent reads that it stopped (PostToolUse of Agent); one that keeps
// asking for tools is ended with no further request; the session's spent budget stops a running subagent and refuses a
// new one.

import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	loggedSessions,
	type ModelRequest,
	messageTexts,
	PLUGIN_DIR,
	type RunResult,
	runClaude,
	type Sandbox,
	type ScriptedReply,
	sessionLog,
	transcriptAttachments,
} from "./support/claude.ts";

let api: FakeAnthropic;
let box: Sandbox;

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

beforeEach(async () => {
	api = await FakeAnthropic.start();
	box = await createSandbox("classic hooks");
});

afterEach(async () => {
	await api.close();
	await box.cleanup();
});

/** `claude -p [--continue] --allowedTools Bash --plugin-dir <plugin> <prompt>` in the test's sandbox. */
function claude(prompt: string, resume = true): Promise<RunResult> {
	const args = ["-p", ...(resume ? ["--continue"] : []), "--allowedTools", "Bash", "--plugin-dir", PLUGIN_DIR, prompt];
	return runClaude(args, { home: box.home, cwd: box.cwd, apiUrl: api.url, timeoutMs: 120_000 });
}

const TASK = "Find the flaky test";
/** The main agent's call of the Agent tool, run in the foreground. */
const AGENT: ScriptedReply = {
	tools: [
		{
			name: "Agent",
			input: {
				description: "find the flaky test",
				prompt: TASK,
				subagent_type: "general-purpose",
				run_in_background: false,
			},
		},
	],
};
const LOOP = (step: number, command = `echo step${step}`): ScriptedReply => ({
	tools: [{ name: "Bash", input: { command, description: `step ${step}` } }],
});

/** Everything a request sends (system blocks, messages, tool results), as one text. */
const sent = (request: ModelRequest | undefined): string => JSON.stringify(request?.body ?? {});

/** The main-loop requests of each agent: the subagent's open with its task. */
function split(): { parent: ModelRequest[]; child: ModelRequest[] } {
	const mainLoop = api.requests.filter((request) => Array.isArray(request.body.tools) && request.body.tools.length > 0);
	const isChild = (request: ModelRequest) => messageTexts(request, "user").some((text) => text.endsWith(TASK));
	return { parent: mainLoop.filter((request) => !isChild(request)), child: mainLoop.filter(isChild) };
}

/** The subagent's records in Timebox's log of the one session, newest last. */
function subagentRecords(): Record<string, unknown>[] {
	const [session] = loggedSessions(box.dataDir);
	if (session === undefined) return [];
	return sessionLog(box.dataDir, session)
		.filter((line) => line.kind === "subagent")
		.map((line) => line.agent as Record<string, unknown>);
}

/** What Timebox's hooks showed the user (the interactive UI renders these transcript entries). */
function shown(): string[] {
	return transcriptAttachments(box.home)
		.filter((attachment) => attachment.type === "hook_system_message")
		.map((attachment) => String(attachment.content));
}

const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const WRAP_UP_REFUSAL = "Timebox: your budget for this task is spent. Write your final answer now";
const PARENT_LINE = "Timebox: this subagent stopped at its 3-step budget";
const NAME = 'subagent \\"find the flaky test\\" (general-purpose)';

describe("subagents in Claude Code, on the classic hooks", () => {
	it("tells a looping subagent its budget, warns it, denies its 4th call's tool, and the main agent reads that it stopped", async () => {
		expect((await claude("/timebox subagents 20s steps:3", false)).stdout).toContain("Timebox");
		api.reply(AGENT, LOOP(1), LOOP(2), LOOP(3), LOOP(4), { text: "CHILD FINAL" }, { text: "PARENT FINAL" });
		const result = await claude("delegate");
		expect(result.stdout).toBe("PARENT FINAL\n");
		const { parent, child } = split();
		expect(child).toHaveLength(5);
		expect(child.map((request) => sent(request).includes(BUDGET_BLOCK))).toEqual([true, true, true, true, true]);
		expect(child.map((request) => sent(request).includes("TIMEBOX WARNING"))).toEqual([false, false, true, true, true]);
		expect(child.map((request) => sent(request).includes(WRAP_UP_BLOCK))).toEqual([false, false, false, true, true]);
		expect(sent(child[4])).toContain(WRAP_UP_REFUSAL);
		expect(parent).toHaveLength(2);
		expect(sent(parent[1])).toContain("CHILD FINAL");
		expect(sent(parent[1])).toContain(PARENT_LINE);
		expect(JSON.stringify(shown())).toContain(`${NAME} used 80% of its budget`);
		expect(JSON.stringify(shown())).toContain(`${NAME} stopped at its 3-step budget after 5 model calls`);
		expect(subagentRecords().at(-1)).toMatchObject({ agentType: "general-purpose", ended: "concluded", steps: 5 });
		const report = await claude("/timebox report");
		expect(report.stdout).toContain("find the flaky test");
	});

	it("ends a subagent that asks for a tool again after the denial: no further request, the main agent reads why", async () => {
		await claude("/timebox subagents 20s steps:3", false);
		api.reply(AGENT, LOOP(1), LOOP(2), LOOP(3), LOOP(4), LOOP(5), { text: "PARENT FINAL" });
		const result = await claude("delegate");
		expect(result.stdout).toBe("PARENT FINAL\n");
		const { parent, child } = split();
		expect(child).toHaveLength(5);
		expect(parent).toHaveLength(2);
		expect(sent(parent[1])).toContain(PARENT_LINE);
		expect(subagentRecords().at(-1)).toMatchObject({ ended: "stopped", steps: 5 });
	});

	it("stops a running subagent when the session's time is up, and denies the main agent's next Agent call", async () => {
		// The session's 10 s start with the budget line; the subagent runs two-second commands until they are up.
		await claude("/timebox 10s grace:30s", false);
		api.reply(AGENT);
		let loops = 0;
		let parentCalls = 0;
		api.respond = (body) => {
			if (messageTexts({ url: "", at: 0, body }, "user").some((text) => text.endsWith(TASK))) {
				loops++;
				return LOOP(loops, "sleep 2");
			}
			parentCalls++;
			return parentCalls === 1 ? AGENT : { text: "PARENT FINAL" };
		};
		const result = await claude("delegate");
		expect(result.stdout).toBe("PARENT FINAL\n");
		expect(subagentRecords().at(-1)).toMatchObject({ ended: "stopped", spent: { limit: "session" } });
		const { parent, child } = split();
		expect(child).toHaveLength(loops);
		expect(sent(parent[1])).toContain("Timebox: this subagent stopped when the session's budget ran out");
		// The second Agent call is denied: no subagent starts, and the main agent reads why.
		expect(parent).toHaveLength(3);
		expect(sent(parent[2])).toContain("Timebox: the session's budget is spent, so no subagent can start.");
		expect(subagentRecords().filter((record) => record.id !== subagentRecords()[0]?.id)).toEqual([]);
		// The notice ends the subagent (its PreToolUse's stopReason), which the TUI shows.
		expect(JSON.stringify(transcriptAttachments(box.home))).toContain(`${NAME} stopped with the session's budget`);
	});
});
