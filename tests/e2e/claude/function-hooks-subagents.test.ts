// Timebox's subagent budgets in the real Claude Code on function hooks (its hooks module in Claude Code's own process),
// in kept-open `claude -p` sessions against the fake Messages API: a subagent of the Agent tool that loops on Bash reads
// its budget (agent.spawn), is warned, concludes at its limit with its tool refused, and the main agent reads that it
// stopped (the Agent call's result); one that keeps asking for tools is ended with no further request; the session's
// spent budget stops a running subagent and refuses a new one; the person sees each notice (`$.ui.log`, a `ui_log`
// line of the stream-json output) and the subagent in `/timebox report`.

import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	ClaudeSession,
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	isSubagentRequest,
	type MessagesBody,
	type ModelRequest,
	PLUGIN_DIR,
	type Sandbox,
	type ScriptedReply,
	type StreamLine,
} from "./support/claude.ts";

let api: FakeAnthropic;
let box: Sandbox;
let open: ClaudeSession | undefined;

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

beforeEach(async () => {
	api = await FakeAnthropic.start();
	box = await createSandbox("function hooks");
});

afterEach(async () => {
	await open?.close();
	open = undefined;
	await api.close();
	await box.cleanup();
});

/** A kept-open `claude -p` session in the sandbox (stream-json in and out), Bash allowed, with `env` added. */
function session(env: NodeJS.ProcessEnv = {}): ClaudeSession {
	open = new ClaudeSession(["--plugin-dir", PLUGIN_DIR, "--allowedTools", "Bash"], {
		home: box.home,
		cwd: box.cwd,
		apiUrl: api.url,
		env: { PATH: process.env.PATH, ...env },
	});
	return open;
}

/** The main agent's call of the Agent tool, run in the foreground. */
const AGENT: ScriptedReply = {
	tools: [
		{
			name: "Agent",
			input: {
				description: "find the flaky test",
				prompt: "Find the flaky test",
				subagent_type: "general-purpose",
				run_in_background: false,
			},
		},
	],
};
const LOOP = (step: number, command = `echo step${step}`): ScriptedReply => ({
	tools: [{ name: "Bash", input: { command, description: `step ${step}` } }],
});

/**
 * The fake model answers by whose request it is: the main agent's take the next of `parent`, then a text; the
 * subagent's (its system prompt says so) take `child` of their number, from 1.
 */
function script(parent: ScriptedReply[], child: (call: number) => ScriptedReply): void {
	let calls = 0;
	api.respond = (body: MessagesBody) => {
		if (isSubagentRequest(body)) return child(++calls);
		return parent.shift() ?? { text: "UNSCRIPTED-REPLY" };
	};
}

/** Everything a request sends (system blocks, messages, tool results), as one text. */
const sent = (request: ModelRequest | undefined): string => JSON.stringify(request?.body ?? {});

/** The main-loop requests of each agent, told apart by the subagent's mark in the system prompt. */
function split(): { parent: ModelRequest[]; child: ModelRequest[] } {
	const mainLoop = api.requests.filter((request) => Array.isArray(request.body.tools) && request.body.tools.length > 0);
	return {
		parent: mainLoop.filter((request) => !isSubagentRequest(request.body)),
		child: mainLoop.filter((request) => isSubagentRequest(request.body)),
	};
}

/** Timebox's notices as the session printed them (`$.ui.log`: `{"type":"system","subtype":"ui_log"}` lines). */
function notices(): string[] {
	return (open?.lines ?? [])
		.filter((entry) => entry.line.type === "system" && entry.line.subtype === "ui_log")
		.map((entry) => String(entry.line.text ?? ""));
}

/** The text of a stream-json `result` line. */
function resultText(result: StreamLine): string {
	return typeof result.line.result === "string" ? result.line.result : "";
}

const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const WRAP_UP_REFUSAL = "Timebox: your budget for this task is spent. Write your final answer now";
const PARENT_LINE = "Timebox: this subagent stopped at its 3-step budget";
/** What the subagent reads of its command stopped while it ran. */
const TOOL_STOPPED_TEXT = "Timebox stopped this tool: the session's budget ran out while it ran.";
const NAME = 'Timebox: subagent "find the flaky test" (general-purpose)';

describe("subagents in Claude Code, on function hooks", () => {
	it("tells a looping subagent its budget, warns it, refuses its 4th call's tool, the main agent reads that it stopped, and the report lists it", async () => {
		const claude = session();
		const set = await claude.send("/timebox subagents 20s steps:3");
		expect(resultText(set)).toContain("Timebox: every subagent started from now on gets 20s and 3 model calls");
		script([AGENT, { text: "PARENT FINAL" }], (call) => (call <= 4 ? LOOP(call) : { text: "CHILD FINAL" }));
		expect(resultText(await claude.send("delegate"))).toBe("PARENT FINAL");
		const { parent, child } = split();
		expect(child).toHaveLength(5);
		// Its budget is in its task, so in its first request (and every one after it).
		expect(child.map((request) => sent(request).includes(BUDGET_BLOCK))).toEqual([true, true, true, true, true]);
		expect(child.map((request) => sent(request).includes("TIMEBOX WARNING"))).toEqual([false, false, true, true, true]);
		expect(child.map((request) => sent(request).includes(WRAP_UP_BLOCK))).toEqual([false, false, false, true, true]);
		expect(sent(child[4])).toContain(WRAP_UP_REFUSAL);
		expect(parent).toHaveLength(2);
		expect(sent(parent[0])).not.toContain("Timebox");
		expect(sent(parent[1])).toContain("CHILD FINAL");
		expect(sent(parent[1])).toContain(`${PARENT_LINE} (used `);
		expect(notices()).toEqual([
			expect.stringMatching(
				/^Timebox: subagent "find the flaky test" \(general-purpose\) used 80% of its budget \(.+ left\); it is asked to wrap up\.$/,
			),
			`${NAME} stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.`,
		]);
		const report = resultText(await claude.send("/timebox report"));
		expect(report).toContain("1 subagent in this session:");
		expect(report).toMatch(
			/- "find the flaky test" \(general-purpose\): budget 20s and 3 model calls; used \d+s, 5 model calls, \d+ tokens\. Concluded at its 3-step budget\./,
		);
	});

	it("ends a subagent (budget from TIMEBOX_SUBAGENTS) that asks for a tool again after the refusal: no further request, and the main agent reads why", async () => {
		const claude = session({ TIMEBOX_SUBAGENTS: "20s steps:3" });
		script([AGENT, { text: "PARENT FINAL" }], (call) => LOOP(call));
		expect(resultText(await claude.send("delegate"))).toBe("PARENT FINAL");
		const { parent, child } = split();
		// Three calls of its budget, the one to conclude in (its tool refused), the one that reads the refusal: no more.
		expect(child).toHaveLength(5);
		expect(sent(child[4])).toContain(WRAP_UP_REFUSAL);
		expect(parent).toHaveLength(2);
		expect(sent(parent[1])).toContain(`${PARENT_LINE} (used `);
		expect(notices().at(-1)).toBe(
			`${NAME} stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.`,
		);
		const report = resultText(await claude.send("/timebox report"));
		expect(report).toMatch(
			/- "find the flaky test" \(general-purpose\): budget 20s and 3 model calls; .* Stopped at its 3-step budget\./,
		);
	});

	it("stops a running subagent when the session's time is up, and refuses the main agent's next Agent call", async () => {
		const claude = session();
		expect(resultText(await claude.send("/timebox 8s grace:30s"))).toContain("Timebox set: 8s");
		// The subagent runs two-second commands until the session's 8 s are up; then the main agent asks for another.
		script([AGENT, AGENT, { text: "PARENT FINAL" }], (call) => LOOP(call, "sleep 2"));
		expect(resultText(await claude.send("delegate", 40_000))).toBe("PARENT FINAL");
		const { parent, child } = split();
		expect(child.length).toBeGreaterThanOrEqual(3);
		expect(child.length).toBeLessThanOrEqual(6);
		// Its running command was stopped (the stream shows the subagent's tool result), and it asked for nothing after.
		const stoppedTool = (open?.lines ?? []).find((entry) => JSON.stringify(entry.line).includes(TOOL_STOPPED_TEXT));
		expect(stoppedTool?.line).toMatchObject({ type: "user", parent_tool_use_id: "toolu_fake_1_0" });
		expect(child.every((request) => request.at < (stoppedTool?.at ?? 0))).toBe(true);
		expect(sent(parent[1])).toContain("Timebox: this subagent stopped when the session's budget ran out (used ");
		expect(sent(parent[1])).toContain("TIMEBOX: BUDGET SPENT");
		// The second Agent call is refused before any subagent starts (the main agent is wrapping up), and it reads why.
		expect(parent).toHaveLength(3);
		expect(sent(parent[2])).toContain("Timebox: the budget is spent. Write the final answer now");
		expect(child.every((request) => request.at < (parent[1]?.at ?? 0))).toBe(true);
		expect(notices()).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 8s\. The agent is wrapping up/),
				`${NAME} stopped with the session's budget after ${child.length} model calls; its answer went back to the main agent.`,
			]),
		);
		const report = resultText(await claude.send("/timebox report"));
		expect(report).toContain("1 subagent in this session:");
		expect(report).toMatch(/- "find the flaky test" \(general-purpose\): .* Stopped with the session's budget\./);
	});
});
