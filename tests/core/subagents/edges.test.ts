// The edges of the subagent rules: exactly which records, notices, refusals and stops each event gives (nothing
// more), limits met exactly, a stop that reaches the subagents started below, and the words a user reads of a task.

import { describe, expect, it } from "vitest";
import type { Effect, SessionEvent } from "../../../src/core/model/events.ts";
import { transitionWithSubagents } from "../../../src/core/subagents/compose.ts";
import { said, subagentSession } from "../../support/subagents.ts";

const STOPPED_REFUSAL =
	"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.";
const WRAP_UP_REFUSAL =
	"Timebox: your budget for this task is spent. Write your final answer now, with what you found and what is left undone. Call no more tools.";

type Session = ReturnType<typeof subagentSession>;

/**
 * What the rules give for one event, in short: `record a1`, `context`, `notify warning`, `refuse`, `stop a1` (the
 * session's status line, its own rules', left out).
 */
function effectsOf(session: Session, event: SessionEvent): string[] {
	const { effects } = transitionWithSubagents(session.state, event, session.now());
	return effects.filter((effect) => effect.kind !== "status").map(short);
}

function short(effect: Effect): string {
	switch (effect.kind) {
		case "append": {
			const record = effect.record as { kind?: string; agent?: { id: string } };
			return record.kind === "subagent" && record.agent ? `record ${record.agent.id}` : `record ${record.kind}`;
		}
		case "notify":
			return `notify ${effect.level}`;
		case "stopAgent":
			return `stop ${effect.agent}`;
		default:
			return effect.kind;
	}
}

const call = (agent: string): SessionEvent => ({ type: "modelCall", prompt: null, agent });
const tool = (agent: string): SessionEvent => ({ type: "toolCall", prompt: null, agent });
const used = (tokens: number, cost: number, agent: string): SessionEvent => ({
	type: "modelResponse",
	tokens,
	cost,
	agent,
});
const timeCheck: SessionEvent = { type: "timeCheck" };

describe("what each subagent event gives, and nothing more", () => {
	it("writes a call's record alone within the budget, and a response's record alone", () => {
		const session = subagentSession({ subagents: "10m steps:50 tokens:100k" });
		session.start("a1");
		expect(effectsOf(session, call("a1"))).toEqual(["record a1"]);
		session.call("a1");
		expect(effectsOf(session, used(10, 0, "a1"))).toEqual(["record a1"]);
		expect(effectsOf(session, timeCheck)).toEqual([]);
		expect(effectsOf(session, tool("a1"))).toEqual([]);
	});

	it("gives nothing for a start told twice, and keeps the subagent as it stands", () => {
		const session = subagentSession({ subagents: "steps:5" });
		session.start("a1");
		session.call("a1");
		expect(effectsOf(session, startOf("a1"))).toEqual([]);
		const again = transitionWithSubagents(session.state, startOf("a1"), session.now());
		expect(again.state.subagents).toBe(session.state.subagents);
	});

	it("gives nothing for the end of a subagent never seen started, and reports no problem", () => {
		const session = subagentSession({ subagents: "steps:5" });
		const ended = transitionWithSubagents(session.state, { type: "agentEnd", agent: "ghost" }, session.now());
		expect(ended.effects).toEqual([]);
		expect(ended.state).toBe(session.state);
		expect(session.end("ghost")).toMatchObject({ context: [], notices: [] });
		expect(session.problems).toEqual([]);
	});

	it("writes the record and the warning once at 80%, by a call, a response or a time check", () => {
		const session = subagentSession({ subagents: "10s steps:10 tokens:1k" });
		session.start("a1");
		session.advance(8_000);
		expect(effectsOf(session, timeCheck)).toEqual(["record a1", "notify warning"]);
		expect(effectsOf(session, call("a1"))).toEqual(["record a1", "notify warning", "context"]);
		expect(effectsOf(session, used(10, 0, "a1"))).toEqual(["record a1", "notify warning"]);
		session.timeCheck();
		// Warned once: the next call and response are counted, with the warning block for the model but no notice.
		expect(effectsOf(session, call("a1"))).toEqual(["record a1", "context"]);
		const next = session.call("a1");
		expect(next.notices).toEqual([]);
		expect(next.context).toHaveLength(1);
		expect(effectsOf(session, used(10, 0, "a1"))).toEqual(["record a1"]);
		expect(effectsOf(session, timeCheck)).toEqual([]);
	});

	it("writes the record when a response or a time check spends the budget, and nothing more until its next call", () => {
		const session = subagentSession({ subagents: "10s tokens:100" });
		session.start("a1");
		session.call("a1");
		expect(effectsOf(session, used(100, 0, "a1"))).toEqual(["record a1"]);
		session.used(100, 0, "a1");
		expect(session.state.subagents.runs.a1?.spent).toEqual({ limit: "tokens", at: session.now() });
		expect(effectsOf(session, timeCheck)).toEqual([]);
		const other = subagentSession({ subagents: "10s" });
		other.start("a1");
		other.advance(10_000);
		expect(effectsOf(other, timeCheck)).toEqual(["record a1"]);
	});

	it("writes the record with the first refused tool only; the tools after it are refused without one", () => {
		const session = subagentSession({ subagents: "1m" });
		session.start("a1");
		session.call("a1");
		session.advance(60_000);
		expect(effectsOf(session, tool("a1"))).toEqual(["record a1", "refuse"]);
		expect(session.tool("a1").refusal).toBe(WRAP_UP_REFUSAL);
		expect(session.state.subagents.runs.a1).toMatchObject({
			spent: { limit: "time", at: session.now() },
			wrapUp: { until: session.now() + 30_000, calls: 0, refusedAt: 0 },
		});
		expect(session.subagentRecords().at(-1)?.agent).toMatchObject({
			id: "a1",
			spent: { limit: "time" },
			wrapUp: { calls: 0, refusedAt: 0 },
		});
		expect(effectsOf(session, tool("a1"))).toEqual(["refuse"]);
		session.tool("a1");
		expect(effectsOf(session, call("a1"))).toEqual(["record a1", "context"]);
	});

	it("writes the record when a call's model calls reach the step limit at a time check only at its next call", () => {
		const session = subagentSession({ subagents: "10m steps:1" });
		session.start("a1");
		session.call("a1");
		session.advance(5_000);
		// Its calls are its own to use: a time check and a tool find its budget within its time.
		expect(effectsOf(session, timeCheck)).toEqual([]);
		expect(effectsOf(session, tool("a1"))).toEqual([]);
		expect(effectsOf(session, call("a1"))).toEqual(["record a1", "context"]);
	});

	it("writes a stopped subagent's record when the usage of its last answer comes in, with no notice", () => {
		const session = subagentSession({ subagents: "steps:1" });
		session.start("a1");
		for (let calls = 0; calls < 4; calls++) session.call("a1");
		expect(session.state.subagents.runs.a1?.ended).toBe("stopped");
		expect(effectsOf(session, used(500, 0.01, "a1"))).toEqual(["record a1"]);
		expect(effectsOf(session, { type: "agentEnd", agent: "a1" })).toEqual(["record a1", "context"]);
		session.used(500, 0.01, "a1");
		expect(session.subagentRecords().at(-1)?.agent).toMatchObject({
			id: "a1",
			spend: { tokens: 500, cost: 0.01 },
		});
	});

	it("keeps a concluding subagent's time to conclude when more usage comes in: its third call is stopped", () => {
		const session = subagentSession({ subagents: "tokens:100" });
		session.start("a1");
		session.call("a1");
		session.used(200, 0, "a1");
		expect(session.call("a1").stoppedAgents).toEqual([]);
		session.used(50, 0, "a1");
		expect(session.state.subagents.runs.a1?.wrapUp?.calls).toBe(1);
		expect(session.call("a1").stoppedAgents).toEqual([]);
		expect(session.call("a1")).toMatchObject({ stoppedAgents: ["a1"], refusal: STOPPED_REFUSAL });
	});
});

describe("a subagent's record", () => {
	it("says it was told no budget where it has none", () => {
		const session = subagentSession();
		session.start("a1");
		session.call("a1");
		expect(session.subagentRecords().at(-1)?.agent).toMatchObject({ id: "a1", told: false, budget: null });
	});

	it("counts a response for the subagent that started it, not for one named 'null'", () => {
		const session = subagentSession();
		session.start("null");
		session.start("a1");
		session.used(300, 0, "a1");
		expect(session.state.subagents.runs.a1?.spend.tokens).toBe(300);
		expect(session.state.subagents.runs.null?.spend.tokens).toBe(0);
	});
});

describe("limits met exactly", () => {
	it("spends the budget at exactly its tokens", () => {
		const session = subagentSession({ subagents: "tokens:1k" });
		session.start("a1");
		session.call("a1");
		session.used(999, 0, "a1");
		expect(session.state.subagents.runs.a1?.spent).toBeNull();
		session.used(1, 0, "a1");
		expect(session.state.subagents.runs.a1?.spent).toEqual({ limit: "tokens", at: session.now() });
	});

	it("spends the budget at exactly its cost, and warns by cost alone from 80%", () => {
		const session = subagentSession({ subagents: "cost:10" });
		session.start("a1");
		session.call("a1");
		expect(session.used(100, 1, "a1").notices).toEqual([]);
		expect(said(session.used(100, 7, "a1"))).toEqual([
			'warning: Timebox: subagent "find the flaky test" (Explore) used 80% of its budget ($2.00 left); it is asked to wrap up.',
		]);
		session.used(0, 1.99, "a1");
		expect(session.state.subagents.runs.a1?.spent).toBeNull();
		session.used(0, 0.01, "a1");
		expect(session.state.subagents.runs.a1?.spent).toMatchObject({ limit: "cost" });
	});

	it("does not warn below 80% of the tokens", () => {
		const session = subagentSession({ subagents: "tokens:1k" });
		session.start("a1");
		session.call("a1");
		expect(session.used(100, 0, "a1").notices).toEqual([]);
		expect(session.used(699, 0, "a1").notices).toEqual([]);
		expect(session.used(1, 0, "a1").notices).toHaveLength(1);
	});

	it("tells a subagent its cost in the block with its budget", () => {
		const session = subagentSession({ subagents: "steps:3 cost:0.50" });
		expect(session.start("a1").context[0]).toContain("You are a subagent with 3 model calls and $0.50 for this task.");
	});
});

describe("a stop that reaches the subagents started below", () => {
	it("stops the children of a subagent stopped at its third call after its budget", () => {
		const session = subagentSession({ subagents: { "*": "1h", general: "steps:1" } });
		session.start("p", { agentType: "general", task: "fix it" });
		session.start("c", { parent: "p" });
		session.call("p");
		session.call("p");
		session.call("p");
		expect(session.call("p").stoppedAgents).toEqual(["p", "c"]);
		expect(session.state.subagents.runs.c?.ended).toBe("stopped");
	});

	it("stops the children and grandchildren of a subagent whose time to conclude ran out, with no refusal", () => {
		const session = subagentSession({ subagents: { "*": "1h", general: "10s" }, grace: "5s" });
		session.start("p", { agentType: "general", task: "fix it" });
		session.start("c", { parent: "p" });
		session.start("g", { parent: "c", task: "read the log" });
		session.advance(10_000);
		session.timeCheck();
		session.advance(5_000);
		const stopped = session.timeCheck();
		expect(stopped.stoppedAgents).toEqual(["p", "c", "g"]);
		expect(stopped.refusal).toBeNull();
		expect(said(stopped)).toEqual([
			'info: Timebox: subagent "fix it" (general) stopped at its 10s budget after 0 model calls; its answer went back to the main agent.',
			'info: Timebox: subagent "find the flaky test" (Explore) stopped with the agent that started it after 0 model calls; its answer went back to the agent that started it.',
			'info: Timebox: subagent "read the log" (Explore) stopped with the agent that started it after 0 model calls; its answer went back to the agent that started it.',
		]);
	});

	it("stops a subagent and its child once each with the session's budget, with no refusal", () => {
		const session = subagentSession({ session: "1m" });
		session.call();
		session.start("p", { agentType: "general", task: "fix it" });
		session.start("c", { parent: "p" });
		session.advance(60_000);
		// The session's own stop first (its outcome claimed once, the run aborted), then each subagent once, and then
		// the subagents that run in processes of their own, which the host tells.
		expect(effectsOf(session, timeCheck)).toEqual([
			"once",
			"abort",
			"record p",
			"notify info",
			"stop p",
			"record c",
			"notify info",
			"stop c",
			"stopSubagents",
		]);
		const stopped = session.timeCheck();
		expect(stopped.stoppedAgents).toEqual(["p", "c"]);
		expect(stopped.refusal).toBeNull();
		expect(stopped.notices.filter((notice) => notice.level === "info").map((notice) => notice.message)).toEqual([
			'Timebox: subagent "fix it" (general) stopped with the session\'s budget after 0 model calls; its answer went back to the main agent.',
			'Timebox: subagent "find the flaky test" (Explore) stopped with the session\'s budget after 0 model calls; its answer went back to the agent that started it.',
		]);
		expect(session.subagentRecords().filter((record) => record.agent.ended === "stopped")).toHaveLength(2);
	});

	it("stops a subagent and its child at its next call or tool where a hook loads the session found spent", () => {
		for (const ask of ["call", "tool"] as const) {
			const session = subagentSession({ session: "1h" });
			session.call();
			session.start("p", { agentType: "general", task: "fix it" });
			session.start("c", { parent: "p" });
			session.ledger.claim({
				kind: "spent",
				budgetId: "budget-1",
				summary: { usedTurns: 1, elapsedMs: 1_000, timeRanOut: true },
				prompt: null,
			});
			session.reloadAsHook();
			const stopped = session[ask]("p");
			expect(stopped.stoppedAgents).toEqual(["p", "c"]);
			expect(stopped.refusal).toBe(STOPPED_REFUSAL);
			expect(said(stopped)[0]).toBe(
				'info: Timebox: subagent "fix it" (general) stopped with the session\'s budget after 0 model calls; its answer went back to the main agent.',
			);
		}
	});
});

describe("the words a user reads of a subagent", () => {
	it("shows a task's words with single spaces, all six of a six-word task and the first six of a longer one", () => {
		const session = subagentSession({ subagents: "steps:1" });
		session.start("a1", { task: "  find   the\tflaky test  " });
		session.start("a2", { task: "one two three four five six" });
		session.start("a3", { task: "one two three four five six seven" });
		expect(said(session.command("status"))).toEqual([
			[
				"info: No active timebox.\nSet one with /timebox 15m turns:3.",
				"Subagents running: 3.",
				'- "find the flaky test" (Explore): 1 model call left',
				'- "one two three four five six" (Explore): 1 model call left',
				'- "one two three four five six…" (Explore): 1 model call left',
			].join("\n"),
		]);
	});

	it("lists no subagent in the status once it is stopped, before the host ends it", () => {
		const session = subagentSession({ subagents: "steps:1" });
		session.start("a1");
		session.start("a2", { task: "read the log" });
		for (let calls = 0; calls < 4; calls++) session.call("a1");
		expect(said(session.command("status"))).toEqual([
			[
				"info: No active timebox.\nSet one with /timebox 15m turns:3.",
				"Subagents running: 1.",
				'- "read the log" (Explore): 1 model call left',
			].join("\n"),
		]);
	});

	it("keeps a running subagent counted when the budget is turned off", () => {
		const session = subagentSession({ subagents: "steps:5" });
		session.start("a1");
		session.command("subagents off");
		session.call("a1");
		expect(session.state.subagents.runs.a1?.steps).toBe(1);
		expect(said(session.command("status"))[0]).toContain('- "find the flaky test" (Explore): 4 model calls left');
	});
});

function startOf(agent: string): SessionEvent {
	return { type: "agentStart", agent, parent: null, agentType: "Explore", task: "find the flaky test" };
}
