// Properties of subagent budgets, whatever events arrive in whatever order: a subagent is never given more than two
// model calls after its budget is spent; its limit never ends the session's budget nor starts the on-stop command;
// the session's stop stops every running subagent and refuses new ones; and usage is never counted twice.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { subagentSession } from "../../support/subagents.ts";

const AGENTS = ["a1", "a2", "c1", "g1"] as const;
type Agent = (typeof AGENTS)[number];
const PARENTS: Record<Agent, Agent | null> = { a1: null, a2: null, c1: "a1", g1: "c1" };

type Action =
	| { kind: "call" | "tool" | "start" | "end"; agent: Agent }
	| { kind: "used"; agent: Agent | null; tokens: number }
	| { kind: "main" }
	| { kind: "wait"; ms: number }
	| { kind: "check" };

const agent = fc.constantFrom(...AGENTS);
const action: fc.Arbitrary<Action> = fc.oneof(
	{ weight: 5, arbitrary: fc.record({ kind: fc.constant("call" as const), agent }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant("tool" as const), agent }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("start" as const), agent }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("end" as const), agent }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant("used" as const),
			agent: fc.option(agent, { nil: null }),
			tokens: fc.integer({ min: 0, max: 400 }),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: "main" as const }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 20_000 }) }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "check" as const }) },
);
const subagentBudget = fc.constantFrom("steps:2", "steps:1 tokens:500", "30s", "1m steps:5", "tokens:300", "cost:0.01");

/** Runs the actions on a session; `see` hears each answer with the action that made it. */
function play(
	session: ReturnType<typeof subagentSession>,
	actions: readonly Action[],
	see: (action: Action, answer: ReturnType<typeof session.call>, before: typeof session.state) => void = () => {},
): void {
	session.call();
	for (const one of actions) {
		const before = session.state;
		let answer: ReturnType<typeof session.call>;
		switch (one.kind) {
			case "call":
				answer = session.call(one.agent);
				break;
			case "tool":
				answer = session.tool(one.agent);
				break;
			case "start":
				answer = session.start(one.agent, { parent: PARENTS[one.agent] });
				break;
			case "end":
				answer = session.end(one.agent);
				break;
			case "used":
				answer = session.used(one.tokens, one.tokens / 10_000, one.agent ?? undefined);
				break;
			case "main":
				answer = session.call();
				break;
			case "wait":
				session.advance(one.ms);
				answer = session.timeCheck();
				break;
			case "check":
				answer = session.timeCheck();
				break;
		}
		see(one, answer, before);
	}
}

describe("subagent budget properties", () => {
	it("never lets a subagent make more than two model calls after its budget is spent", () => {
		fc.assert(
			fc.property(subagentBudget, fc.array(action, { maxLength: 60 }), (words, actions) => {
				const session = subagentSession({ subagents: words, grace: "10s" });
				const after = new Map<string, number>();
				play(session, [...AGENTS.map((id) => ({ kind: "start" as const, agent: id })), ...actions], (one, answer) => {
					if (one.kind !== "call") return;
					const run = session.state.subagents.runs[one.agent];
					if (run === undefined || answer.refusal !== null || answer.stoppedAgents.includes(one.agent)) return;
					// A run the host ended and started again under the same id is a new subagent.
					if (run.spent === null) {
						after.delete(one.agent);
						return;
					}
					const calls = (after.get(one.agent) ?? 0) + 1;
					after.set(one.agent, calls);
					expect(calls).toBeLessThanOrEqual(2);
				});
			}),
			{ numRuns: 300 },
		);
	});

	it("never ends the session's budget nor starts its on-stop command when only subagents meet their limits", () => {
		fc.assert(
			fc.property(subagentBudget, fc.array(action, { maxLength: 60 }), (words, actions) => {
				const session = subagentSession({ subagents: words, session: "24h -- say done" });
				play(session, [...AGENTS.map((id) => ({ kind: "start" as const, agent: id })), ...actions]);
				expect(session.state.standing?.spent).toBeNull();
				expect(session.onStop.commands).toEqual([]);
			}),
			{ numRuns: 200 },
		);
	});

	it("stops every running subagent when the session's budget is spent, and refuses new ones from then on", () => {
		fc.assert(
			fc.property(
				fc.constantFrom("1m", "tokens:1k", "2m tokens:3k grace:30s"),
				fc.option(subagentBudget, { nil: undefined }),
				fc.array(action, { maxLength: 60 }),
				(words, sub, actions) => {
					const session = subagentSession({ session: words, ...(sub === undefined ? {} : { subagents: sub }) });
					play(
						session,
						[...AGENTS.map((id) => ({ kind: "start" as const, agent: id })), ...actions],
						(one, answer, before) => {
							if (session.state.standing?.spent == null) return;
							const running = Object.values(session.state.subagents.runs).filter((run) => run.ended === null);
							expect(running).toEqual([]);
							if (before.standing?.spent == null) {
								const wereRunning = Object.values(before.subagents.runs).filter((run) => run.ended === null);
								for (const run of wereRunning) expect(answer.stoppedAgents).toContain(run.id);
							}
							if (one.kind === "start") expect(answer.refusal).toMatch(/no subagent can start/);
							if (one.kind === "call" || one.kind === "tool") {
								if (before.subagents.runs[one.agent]) expect(answer.refusal).not.toBeNull();
							}
						},
					);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("counts every model call's usage once: for the session, and for a subagent and each subagent above it", () => {
		fc.assert(
			fc.property(
				fc.array(
					action.filter((one) => one.kind !== "end" && one.kind !== "start"),
					{ maxLength: 60 },
				),
				(actions) => {
					const session = subagentSession({ session: "tokens:1000m" });
					const own: Record<string, number> = {};
					let total = 0;
					play(session, [...AGENTS.map((id) => ({ kind: "start" as const, agent: id })), ...actions], (one) => {
						if (one.kind !== "used") return;
						total += one.tokens;
						if (one.agent !== null) own[one.agent] = (own[one.agent] ?? 0) + one.tokens;
					});
					expect(session.state.standing?.spend.tokens).toBe(total);
					const below = (id: Agent): number =>
						(own[id] ?? 0) +
						AGENTS.filter((child) => PARENTS[child] === id).reduce((sum, child) => sum + below(child), 0);
					for (const id of AGENTS) expect(session.state.subagents.runs[id]?.spend.tokens).toBe(below(id));
				},
			),
			{ numRuns: 200 },
		);
	});
});
