// Subagents under the session's budget: their usage counts once, for them, the subagents above them and the session;
// their model calls are not the main agent's steps or prompts; the session's stop stops them all and refuses new
// ones; their own limit never ends the session's budget or runs its on-stop command.

import { describe, expect, it } from "vitest";
import { subagentSession } from "../../support/subagents.ts";

const REFUSED =
	"Timebox: the session's budget is spent, so no subagent can start. Write the final answer now, with what was done and what is left.";

describe("the session's budget over its subagents", () => {
	it("counts a subagent's usage once: for it, for the subagent that started it, and for the session", () => {
		const session = subagentSession({ subagents: "tokens:10k", session: "tokens:100k" });
		session.call();
		session.start("parent");
		session.start("child", { parent: "parent", agentType: "general", task: "read the logs" });
		session.call("child");
		session.used(1_000, 0.5, "child");
		session.used(2_000, 0.25, "parent");
		session.used(4_000, 1, undefined);
		const runs = session.state.subagents.runs;
		expect(runs.child?.spend).toEqual({ tokens: 1_000, cost: 0.5 });
		expect(runs.parent?.spend).toEqual({ tokens: 3_000, cost: 0.75 });
		expect(session.state.standing?.spend).toEqual({ tokens: 7_000, cost: 1.75 });
	});

	it("does not count a subagent's model calls as the main agent's steps or prompts", () => {
		const session = subagentSession({ subagents: "steps:50", session: "turns:1 steps:2" });
		session.call();
		session.start("a1");
		for (let call = 0; call < 10; call++) expect(session.call("a1").refusal).toBeNull();
		expect(session.state.standing).toMatchObject({ usedTurns: 1, steps: 1 });
		expect(session.call().refusal).toBeNull();
	});

	it("never ends the session's budget or runs its on-stop command when a subagent's own limit is met", () => {
		const session = subagentSession({ subagents: "steps:1", session: "1h -- say done" });
		session.call();
		session.start("a1");
		session.call("a1");
		session.call("a1");
		session.tool("a1");
		session.call("a1");
		expect(session.tool("a1").stoppedAgents).toEqual(["a1"]);
		expect(session.state.standing?.spent).toBeNull();
		expect(session.onStop.commands).toEqual([]);
		expect(session.call().refusal).toBeNull();
	});

	it("stops every running subagent when the session's budget is spent, and refuses a new one", () => {
		const session = subagentSession({ session: "1m" });
		session.call();
		session.start("a1");
		session.start("a2", { agentType: "Plan", task: "plan the fix" });
		session.call("a1");
		session.end("a2");
		session.start("a3", { agentType: "Plan", task: "plan the tests" });
		session.advance(60_000);
		const stop = session.timeCheck();
		expect(stop.stoppedAgents).toEqual(["a1", "a3"]);
		expect(stop.notices.filter((notice) => notice.level === "info").map((notice) => notice.message)).toEqual([
			'Timebox: subagent "find the flaky test" (Explore) stopped with the session\'s budget after 1 model call; its answer went back to the main agent.',
			'Timebox: subagent "plan the tests" (Plan) stopped with the session\'s budget after 0 model calls; its answer went back to the main agent.',
		]);
		expect(session.call("a1")).toMatchObject({
			stoppedAgents: ["a1"],
			refusal: "Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.",
		});
		expect(session.start("a4")).toMatchObject({ refusal: REFUSED, context: [] });
		expect(session.end("a1").context).toEqual([
			"Timebox: this subagent stopped when the session's budget ran out (used 1m 0s, 1 model call); its answer may be partial.",
		]);
	});

	it("stops the subagent whose event finds the session's time run out, and the others with it", () => {
		const session = subagentSession({ subagents: "1h", session: "1m" });
		session.call();
		session.start("a1");
		session.start("a2");
		session.advance(60_000);
		const answer = session.tool("a2");
		expect(answer.stoppedAgents).toEqual(["a1", "a2"]);
		expect(answer.refusal).toBe(
			"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.",
		);
		expect(session.state.standing?.spent).not.toBeNull();
	});

	it("refuses a subagent asked for just after the session's time ran out, with no other event in between", () => {
		const session = subagentSession({ subagents: "1h", session: "1m -- say done" });
		session.call();
		session.start("a1");
		session.advance(60_000);
		const answer = session.start("a2");
		expect(answer).toMatchObject({ refusal: REFUSED, context: [], stoppedAgents: ["a1"] });
		expect(session.state.standing?.spent).not.toBeNull();
		expect(session.state.subagents.runs.a2).toBeUndefined();
		expect(session.onStop.commands).toEqual(["say done"]);
	});

	it("stops every running subagent when a subagent's usage spends the session's tokens", () => {
		const session = subagentSession({ session: "tokens:1k" });
		session.call();
		session.start("a1");
		session.start("a2");
		session.call("a1");
		const answer = session.used(1_500, 0, "a1");
		expect(answer.stoppedAgents).toEqual(["a1", "a2"]);
		expect(session.state.standing?.spent).toMatchObject({ limit: "tokens" });
	});

	it("stops running subagents when the main agent's usage spends the session's budget", () => {
		const session = subagentSession({ session: "tokens:1k" });
		session.call();
		session.start("a1");
		expect(session.used(1_500, 0).stoppedAgents).toEqual(["a1"]);
		// Spent already: nothing is stopped twice.
		expect(session.used(10, 0).stoppedAgents).toEqual([]);
	});

	it("lets subagents run on when there is no session budget, and counts an unknown subagent's usage for the session", () => {
		const session = subagentSession({ session: "tokens:10k" });
		session.call();
		expect(session.call("ghost")).toMatchObject({ refusal: null, stoppedAgents: [] });
		expect(session.tool("ghost")).toMatchObject({ refusal: null, stoppedAgents: [] });
		session.used(500, 0, "ghost");
		expect(session.state.standing?.spend.tokens).toBe(500);
		expect(session.end("ghost")).toMatchObject({ context: [], notices: [] });
	});

	it("takes a start told twice as the same subagent", () => {
		const session = subagentSession({ subagents: "steps:5" });
		session.start("a1");
		session.call("a1");
		expect(session.start("a1")).toMatchObject({ context: [], notices: [] });
		expect(session.state.subagents.runs.a1?.steps).toBe(1);
	});

	it("counts a subagent named as its own parent once", () => {
		const session = subagentSession();
		session.start("loop", { parent: "loop" });
		session.used(100, 0, "loop");
		expect(session.state.subagents.runs.loop?.spend.tokens).toBe(100);
	});

	it("keeps counting what a stopped subagent's last answer used, without warning of it", () => {
		const session = subagentSession({ subagents: "steps:1 tokens:100" });
		session.start("a1");
		session.call("a1");
		session.call("a1");
		session.call("a1");
		session.call("a1");
		const late = session.used(1_000, 0, "a1");
		expect(late.notices).toEqual([]);
		expect(session.state.subagents.runs.a1?.spend.tokens).toBe(1_000);
	});
});

describe("subagents when the session's budget was spent elsewhere", () => {
	it("stops every running subagent when a reload finds the session spent", () => {
		const session = subagentSession({ session: "1h" });
		session.call();
		session.start("a1");
		session.ledger.claim({
			kind: "spent",
			budgetId: "budget-1",
			summary: { usedTurns: 1, elapsedMs: 1_000, timeRanOut: true },
			prompt: null,
		});
		expect(session.reload().stoppedAgents).toEqual(["a1"]);
	});

	it("stops a running subagent at its next call or tool where a hook loads the session found spent", () => {
		const session = subagentSession({ session: "1h" });
		session.call();
		session.start("a1");
		session.start("a2");
		session.ledger.claim({
			kind: "spent",
			budgetId: "budget-1",
			summary: { usedTurns: 1, elapsedMs: 1_000, timeRanOut: true },
			prompt: null,
		});
		session.reloadAsHook();
		expect(session.call("a1")).toMatchObject({ stoppedAgents: ["a1"] });
		expect(session.tool("a2")).toMatchObject({ stoppedAgents: ["a2"] });
	});

	it("stops every running subagent, with no session budget of its own, when told the session's budget was spent elsewhere", () => {
		// A subagent's own process (pi's subagent example) learns the stop from the process of the session that started it.
		const session = subagentSession({ subagents: "1h steps:30" });
		session.start("a1");
		session.call("a1");
		session.start("a2", { agentType: "Plan", task: "plan the fix" });
		session.end("a2");
		const stop = session.handle({ type: "sessionStop" });
		expect(stop.stoppedAgents).toEqual(["a1"]);
		expect(stop.refusal).toBeNull();
		expect(stop.notices.map((notice) => notice.message)).toEqual([
			'Timebox: subagent "find the flaky test" (Explore) stopped with the session\'s budget after 1 model call; its answer went back to the main agent.',
		]);
		expect(session.tool("a1").refusal).toBe(
			"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.",
		);
		expect(session.end("a1").context).toEqual([
			"Timebox: this subagent stopped when the session's budget ran out (used 0s, 1 model call); its answer may be partial.",
		]);
		expect(session.state.standing).toBeNull();
		expect(session.handle({ type: "sessionStop" }).notices).toEqual([]);
	});

	it("stops only the subagents still running when the session stops; one stopped already is not told twice", () => {
		const session = subagentSession({ subagents: "steps:1", session: "1m" });
		session.call();
		session.start("a1");
		session.start("other", { agentType: "general", task: "dig through every log file of the service" });
		session.call("a1");
		session.call("a1");
		session.call("a1");
		expect(session.call("a1").stoppedAgents).toEqual(["a1"]);
		session.advance(60_000);
		const stop = session.timeCheck();
		expect(stop.stoppedAgents).toEqual(["other"]);
		expect(stop.notices.filter((notice) => notice.level === "info").map((notice) => notice.message)).toEqual([
			'Timebox: subagent "dig through every log file of…" (general) stopped with the session\'s budget after 0 model calls; its answer went back to the main agent.',
		]);
	});
});

describe("subagents after the session's stop", () => {
	it("refuses a subagent whose start was refused when it calls the model anyway, and stops it", () => {
		const session = subagentSession({ session: "tokens:1k" });
		session.call();
		session.used(2_000, 0);
		expect(session.start("late").refusal).toBe(REFUSED);
		expect(session.call("late")).toMatchObject({ refusal: REFUSED, stoppedAgents: ["late"] });
		expect(session.tool("late")).toMatchObject({ refusal: REFUSED, stoppedAgents: ["late"] });
	});

	it("lets the subagents of a prompt sent after the stop run, as the chat goes on", () => {
		const session = subagentSession({ session: "tokens:1k" });
		session.handle({ type: "modelCall", prompt: "p1" });
		session.used(2_000, 0);
		expect(session.start("a1").refusal).toBe(REFUSED);
		session.handle({ type: "runEnd" });
		session.handle({ type: "modelCall", prompt: "p2" });
		expect(session.start("a2")).toMatchObject({ refusal: null, stoppedAgents: [] });
		expect(session.call("a2")).toMatchObject({ refusal: null, stoppedAgents: [] });
		expect(session.call("ghost")).toMatchObject({ refusal: null, stoppedAgents: [] });
	});
});

describe("a subagent stopped with the subagents it started", () => {
	it("stops a running child with its parent, and the child's parent reads why", () => {
		const session = subagentSession({ subagents: { "*": "steps:1", Explore: "steps:50" } });
		session.start("p", { agentType: "general", task: "fix the flaky test" });
		session.call("p");
		session.start("c", { parent: "p" });
		session.call("c");
		session.call("p");
		session.tool("p");
		session.call("p");
		const stopped = session.tool("p");
		expect(stopped.stoppedAgents).toEqual(["p", "c"]);
		expect(stopped.notices.map((notice) => notice.message)).toEqual([
			'Timebox: subagent "fix the flaky test" (general) stopped at its 1-step budget after 3 model calls; its answer went back to the main agent.',
			'Timebox: subagent "find the flaky test" (Explore) stopped with the agent that started it after 1 model call; its answer went back to the agent that started it.',
		]);
		expect(session.end("c").context).toEqual([
			"Timebox: this subagent stopped when the agent that started it was stopped (used 0s, 1 model call); its answer may be partial.",
		]);
	});

	it("stops each once when a time check ends a parent's and its child's time to conclude together", () => {
		const session = subagentSession({ subagents: "10s", grace: "5s" });
		session.start("p", { agentType: "general", task: "fix it" });
		session.start("c", { parent: "p" });
		session.advance(10_000);
		session.timeCheck();
		session.advance(5_000);
		const stopped = session.timeCheck();
		expect(stopped.stoppedAgents).toEqual(["p", "c"]);
		expect(stopped.notices.map((notice) => notice.message)).toEqual([
			'Timebox: subagent "fix it" (general) stopped at its 10s budget after 0 model calls; its answer went back to the main agent.',
			'Timebox: subagent "find the flaky test" (Explore) stopped at its 10s budget after 0 model calls; its answer went back to the agent that started it.',
		]);
	});
});
