// A subagent's task budget: told at its start, warned from 80%, at its limit tools refused while it concludes, and
// stopped when it asks for tools again or its time to conclude runs out; never more than two model calls after it.

import { describe, expect, it } from "vitest";
import { subagentSession } from "../../support/subagents.ts";

const BLOCK = [
	"TIMEBOX: YOUR BUDGET FOR THIS TASK",
	"You are a subagent with 20s and 3 model calls for this task.",
	"When it runs low, wrap up: answer with your findings and what is left undone. At the limit your tools are refused.",
].join("\n");
const WRAP_UP = [
	"TIMEBOX: TASK BUDGET SPENT",
	"Your budget for this task is spent. Write your final answer now: what you found, and what is left undone.",
	"Call no more tools: they are refused, and you are stopped if you ask for one again.",
].join("\n");
const REFUSAL =
	"Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.";
const STOPPED_REFUSAL =
	"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.";
const NAME = 'subagent "find the flaky test" (Explore)';

function warning(critical: boolean, left: string): string {
	return [
		`${critical ? "CRITICAL" : "IMPORTANT"} TIMEBOX WARNING`,
		`Your budget for this task is nearly spent: ${left} left.`,
		"Wrap up now: answer with your findings and what is left undone. Do not start new work.",
	].join("\n");
}

describe("a subagent told its budget", () => {
	it("gets the block with its budget in the answer to its start, and its first call does not repeat it", () => {
		const session = subagentSession({ subagents: "20s steps:3" });
		const started = session.start("a1");
		expect(started.context).toEqual([BLOCK]);
		expect(started.refusal).toBeNull();
		expect(session.call("a1").context).toEqual([]);
	});

	it("gets it in its first model call where the host cannot put it into its first request", () => {
		const session = subagentSession({ subagents: "20s steps:3" });
		expect(session.start("a1", { contextAtStart: false }).context).toEqual([]);
		expect(session.call("a1").context).toEqual([BLOCK]);
		expect(session.call("a1").context).toEqual([]);
	});

	it("is only counted where no subagent budget is set: no block, no warning, no stop", () => {
		const session = subagentSession();
		expect(session.start("a1").context).toEqual([]);
		for (let call = 0; call < 50; call++) {
			const answer = session.call("a1");
			expect(answer.context).toEqual([]);
			expect(session.tool("a1").refusal).toBeNull();
		}
		expect(session.state.subagents.runs.a1?.steps).toBe(50);
		expect(session.end("a1").context).toEqual([]);
	});
});

describe("a subagent at its step limit (steps:3)", () => {
	it("is warned on its 3rd call, concludes on its 4th with its tools refused, and is stopped when it asks again", () => {
		const session = subagentSession({ subagents: "20s steps:3" });
		session.start("a1");
		expect(session.call("a1").context).toEqual([]);
		expect(session.tool("a1").refusal).toBeNull();
		expect(session.call("a1").context).toEqual([]);
		const third = session.call("a1");
		expect(third.context).toEqual([warning(true, "20s and 0 model calls")]);
		expect(third.notices).toEqual([
			{
				message: `Timebox: ${NAME} used 80% of its budget (20s and 0 model calls left); it is asked to wrap up.`,
				level: "warning",
			},
		]);
		expect(session.tool("a1").refusal).toBeNull();
		const fourth = session.call("a1");
		expect(fourth).toMatchObject({ context: [WRAP_UP], refusal: null, stoppedAgents: [], notices: [] });
		expect(session.tool("a1")).toMatchObject({ refusal: REFUSAL, stoppedAgents: [] });
		// The model reads the refusal: that call is let through, the second after its budget was spent.
		expect(session.call("a1")).toMatchObject({ context: [WRAP_UP], refusal: null, stoppedAgents: [] });
		const again = session.tool("a1");
		expect(again.stoppedAgents).toEqual(["a1"]);
		expect(again.refusal).toBe(STOPPED_REFUSAL);
		expect(again.notices).toEqual([
			{
				message: `Timebox: ${NAME} stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.`,
				level: "info",
			},
		]);
		expect(session.call("a1")).toMatchObject({ refusal: STOPPED_REFUSAL, stoppedAgents: ["a1"], notices: [] });
		const ended = session.end("a1");
		expect(ended.context).toEqual([
			"Timebox: this subagent stopped at its 3-step budget (used 0s, 5 model calls); its answer may be partial.",
		]);
		expect(ended.notices).toEqual([]);
		expect(session.state.subagents.runs).toEqual({});
	});

	it("concludes within its budget's grace: its answer goes back with the line, and the user is told", () => {
		const session = subagentSession({ subagents: "steps:1" });
		session.start("a1");
		session.call("a1");
		expect(session.call("a1").context).toEqual([WRAP_UP]);
		const ended = session.end("a1");
		expect(ended.notices).toEqual([
			{
				message: `Timebox: ${NAME} stopped at its 1-step budget after 2 model calls; its answer went back to the main agent.`,
				level: "info",
			},
		]);
		expect(ended.context).toEqual([
			"Timebox: this subagent stopped at its 1-step budget (used 0s, 2 model calls); its answer may be partial.",
		]);
		expect(session.subagentRecords().at(-1)?.agent).toMatchObject({ ended: "concluded", closed: true });
	});

	it("is stopped at a third model call after its budget was spent, even without asking for a tool", () => {
		const session = subagentSession({ subagents: "steps:1" });
		session.start("a1");
		session.call("a1");
		expect(session.call("a1").stoppedAgents).toEqual([]);
		expect(session.call("a1").stoppedAgents).toEqual([]);
		expect(session.call("a1")).toMatchObject({ stoppedAgents: ["a1"], refusal: STOPPED_REFUSAL });
	});

	it("answers within its budget: no line for the parent, no notice", () => {
		const session = subagentSession({ subagents: "steps:5" });
		session.start("a1");
		session.call("a1");
		const ended = session.end("a1");
		expect(ended).toMatchObject({ context: [], notices: [], stoppedAgents: [] });
		expect(session.subagentRecords().at(-1)?.agent).toMatchObject({ ended: "answered", closed: true });
		// Told of its end again: nothing more.
		expect(session.end("a1").context).toEqual([]);
	});
});

describe("a subagent's time", () => {
	it("is warned at 80% by a time check, concludes after its time, and is stopped when its time to conclude ends", () => {
		const session = subagentSession({ subagents: "20s", grace: "10s" });
		session.start("a1");
		session.call("a1");
		session.advance(16_000);
		expect(session.timeCheck().notices).toEqual([
			{
				message: `Timebox: ${NAME} used 80% of its budget (4s left); it is asked to wrap up.`,
				level: "warning",
			},
		]);
		expect(session.call("a1").context).toEqual([warning(false, "4s")]);
		session.advance(3_000);
		expect(session.call("a1").context).toEqual([warning(true, "1s")]);
		session.advance(1_000);
		expect(session.timeCheck()).toMatchObject({ notices: [], stoppedAgents: [] });
		expect(session.call("a1").context).toEqual([WRAP_UP]);
		session.advance(9_999);
		expect(session.timeCheck().stoppedAgents).toEqual([]);
		session.advance(1);
		const stopped = session.timeCheck();
		expect(stopped.stoppedAgents).toEqual(["a1"]);
		expect(stopped.refusal).toBeNull();
		expect(stopped.notices.map((notice) => notice.message)).toEqual([
			`Timebox: ${NAME} stopped at its 20s budget after 4 model calls; its answer went back to the main agent.`,
		]);
	});

	it("has the tool that meets its time refused, and its next call concludes; 30 s to conclude where no grace is set", () => {
		const session = subagentSession({ subagents: "1m" });
		session.start("a1");
		session.call("a1");
		session.advance(60_000);
		expect(session.tool("a1").refusal).toBe(REFUSAL);
		expect(session.tool("a1").refusal).toBe(REFUSAL);
		expect(session.call("a1").context).toEqual([WRAP_UP]);
		session.advance(30_000);
		expect(session.call("a1").stoppedAgents).toEqual(["a1"]);
	});

	it("is stopped when its time to conclude ran out by its next tool call", () => {
		const session = subagentSession({ subagents: "steps:1" });
		session.start("a1");
		session.call("a1");
		session.call("a1");
		session.advance(30_000);
		expect(session.tool("a1").stoppedAgents).toEqual(["a1"]);
	});

	it("concludes at the model call that comes after its time ran out", () => {
		const session = subagentSession({ subagents: "10s" });
		session.start("a1");
		session.advance(10_000);
		expect(session.call("a1").context).toEqual([WRAP_UP]);
	});
});

describe("a subagent's tokens and cost", () => {
	it("spend its budget when a response passes them: the next call concludes", () => {
		const session = subagentSession({ subagents: "tokens:1k cost:1" });
		session.start("a1");
		session.call("a1");
		expect(session.used(850, 0.1, "a1").notices.map((notice) => notice.message)).toEqual([
			`Timebox: ${NAME} used 80% of its budget (150 tokens and $0.90 left); it is asked to wrap up.`,
		]);
		session.call("a1");
		session.used(200, 0, "a1");
		expect(session.state.subagents.runs.a1?.spent).toEqual({ limit: "tokens", at: session.now() });
		expect(session.call("a1").context).toEqual([WRAP_UP]);
		expect(session.end("a1").context).toEqual([
			"Timebox: this subagent stopped at its 1k-token budget (used 0s, 3 model calls, 1k tokens, $0.10); its answer may be partial.",
		]);
	});

	it("spend its budget at its cost limit", () => {
		const session = subagentSession({ subagents: "cost:0.50" });
		session.start("a1");
		session.call("a1");
		session.used(10, 0.6, "a1");
		expect(session.call("a1").context).toEqual([WRAP_UP]);
		expect(session.end("a1").notices.map((notice) => notice.message)).toEqual([
			`Timebox: ${NAME} stopped at its $0.50 budget after 2 model calls; its answer went back to the main agent.`,
		]);
	});
});

describe("a subagent's records", () => {
	it("are written when it changes, not at every time check", () => {
		const session = subagentSession({ subagents: "10m" });
		session.start("a1");
		session.call("a1");
		const written = session.subagentRecords().length;
		for (let second = 0; second < 30; second++) {
			session.advance(1_000);
			expect(session.timeCheck()).toMatchObject({ notices: [], stoppedAgents: [] });
		}
		expect(session.subagentRecords()).toHaveLength(written);
	});
});
