// A subagent's loop guard (`/timebox subagents 5m loop:3`): its Nth identical tool call is refused, asking once more
// concludes it as its step limit does (it writes its final answer; a tool asked for again stops it), its parent and
// the person read that it stopped at its loop guard, and nothing of its calls is kept once it ended.

import { describe, expect, it } from "vitest";
import { callKey } from "../../../src/core/loop/calls.ts";
import type { SessionEvent } from "../../../src/core/session/index.ts";
import { said, subagentSession } from "../../support/subagents.ts";

type Call = { tool: string; input: unknown };
const A: Call = { tool: "Bash", input: { command: "npm test" } };
const B: Call = { tool: "Read", input: { file_path: "src/a.ts" } };
const use = (agent: string, call: Call = A, earlier?: string[]): SessionEvent => ({
	type: "toolCall",
	prompt: null,
	agent,
	call,
	...(earlier ? { earlier } : {}),
});
const NAME = 'subagent "find the flaky test" (Explore)';
const CONCLUDE =
	"Timebox stopped a loop: Bash (npm test) asked for 4 times in this task. Write your final answer now, with what you found and what is left undone. Call no more tools.";

describe("a subagent's loop guard (loop:3)", () => {
	it("refuses its 3rd identical call, concludes it at the 4th, and stops it at a tool asked for after that", () => {
		const session = subagentSession({ subagents: "5m loop:3" });
		session.start("a1");
		session.call("a1");
		expect(session.handle(use("a1")).refusal).toBeNull();
		expect(session.handle(use("a1", B)).refusal).toBeNull();
		expect(session.handle(use("a1")).refusal).toBeNull();
		const third = session.handle(use("a1"));
		expect(third.refusal).toBe(
			"Timebox: this is the 3rd identical Bash call in this task (npm test); its result will not change. Change your approach or finish with what you have.",
		);
		expect(said(third)).toEqual([
			`warning: Timebox refused a repeated call of ${NAME}: Bash (npm test), the 3rd identical one in its task.`,
		]);
		expect(third.stoppedAgents).toEqual([]);
		session.call("a1");
		const fourth = session.handle(use("a1"));
		expect(fourth.refusal).toBe(CONCLUDE);
		expect(fourth.stoppedAgents).toEqual([]);
		expect(session.state.subagents.runs.a1?.spent).toEqual({ limit: "loop", at: session.now() });
		// Its next model call is the one it concludes in; a tool asked for after that ends it.
		expect(session.call("a1").context.join("\n")).toContain("TIMEBOX: TASK BUDGET SPENT");
		const again = session.handle(use("a1", B));
		expect(again.stoppedAgents).toEqual(["a1"]);
		const ended = session.end("a1");
		expect(ended.context).toEqual([
			"Timebox: this subagent stopped at its loop guard (loop:3) (used 0s, 3 model calls); its answer may be partial.",
		]);
		expect(session.state.subagents.calls?.a1).toBeUndefined();
	});

	it("tells the person when it concluded at its loop guard and answered", () => {
		const session = subagentSession({ subagents: "loop:2" });
		session.start("a1");
		session.call("a1");
		for (let ask = 0; ask < 3; ask++) session.handle(use("a1"));
		session.call("a1");
		expect(said(session.end("a1"))).toEqual([
			`info: Timebox: ${NAME} stopped at its loop guard (loop:2) after 2 model calls; its answer went back to the main agent.`,
		]);
	});

	it("counts each subagent's calls apart, and the main agent's not with them", () => {
		const session = subagentSession({ subagents: "5m loop:2", session: "loop:2" });
		session.start("a1");
		session.start("a2");
		session.handle({ type: "modelCall", prompt: "p1" });
		expect(session.handle(use("a1")).refusal).toBeNull();
		expect(session.handle(use("a2")).refusal).toBeNull();
		expect(session.handle({ type: "toolCall", prompt: null, call: A }).refusal).toBeNull();
		expect(session.handle(use("a1")).refusal).toMatch(/^Timebox: this is the 2nd identical Bash call in this task/);
	});

	it("counts from the keys a hook host kept for the subagent", () => {
		const session = subagentSession({ subagents: "5m loop:3" });
		session.start("a1");
		const key = callKey(A);
		expect(session.handle(use("a1", A, [key, key])).refusal).toMatch(/the 3rd identical Bash call/);
		expect(session.handle(use("a1", B, [key, key, key, key])).refusal).toBe(
			"Timebox stopped a loop in this task: a call refused as a loop was asked for again. Write your final answer now, with what you found and what is left undone. Call no more tools.",
		);
		expect(session.state.subagents.runs.a1?.spent?.limit).toBe("loop");
	});

	it("counts nothing for a subagent without a loop guard, or a call whose tool the host does not show", () => {
		const session = subagentSession({ subagents: "5m" });
		session.start("a1");
		for (let ask = 0; ask < 5; ask++) expect(session.handle(use("a1")).refusal).toBeNull();
		const guarded = subagentSession({ subagents: "loop:2" });
		guarded.start("a1");
		for (let ask = 0; ask < 5; ask++) expect(guarded.tool("a1").refusal).toBeNull();
		expect(session.state.subagents.calls).toBeUndefined();
	});

	it("keeps the loop guard of a subagent and its conclusion in its records, read back by a reload", () => {
		const session = subagentSession({ subagents: "5m loop:3" });
		session.start("a1");
		session.reloadAsHook();
		expect(session.state.subagents.runs.a1?.budget).toEqual({ timeLimitMs: 300_000, loopLimit: 3 });
		for (let ask = 0; ask < 4; ask++) session.handle(use("a1"));
		session.reloadAsHook();
		expect(session.state.subagents.runs.a1?.spent?.limit).toBe("loop");
		session.call("a1");
		expect(session.handle(use("a1", B)).stoppedAgents).toEqual(["a1"]);
	});
});
