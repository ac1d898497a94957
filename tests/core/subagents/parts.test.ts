// The parts under the subagent rules: records read back (damaged ones skipped), the timers a live host arms for
// subagents, the answer that names each stopped subagent once, and the texts with every limit.

import { describe, expect, it } from "vitest";
import type { SubagentRun } from "../../../src/core/model/budget.ts";
import { foldHistory } from "../../../src/core/model/history.ts";
import { parseRecord } from "../../../src/core/model/records.ts";
import { mergeAnswer, noAnswer } from "../../../src/core/run/executor.ts";
import { LiveSession } from "../../../src/core/run/live-session.ts";
import { nextCheckIn } from "../../../src/core/run/time-checks.ts";
import { EMPTY_SESSION, transition } from "../../../src/core/session/index.ts";
import { subagentLimitPhrase, subagentParentLine, subagentStopCause } from "../../../src/core/subagents/messages.ts";
import { parseSubagentRun } from "../../../src/core/subagents/records.ts";
import {
	hasSubagentTimers,
	leftText,
	NO_SUBAGENTS,
	nextSubagentCheckIn,
	usedText,
	withRun,
} from "../../../src/core/subagents/state.ts";
import { START } from "../../support/budgets.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { MemoryLedger, MemoryStore, MemoryUI, RecordingStarter, sequentialIds } from "../../support/memory-host.ts";

const RUN: SubagentRun = {
	id: "a1",
	parent: null,
	agentType: "Explore",
	task: "look",
	budget: { timeLimitMs: 60_000, stepLimit: 3, tokenLimit: 1_000, costLimit: 0.5 },
	startedAt: START,
	steps: 1,
	spend: { tokens: 10, cost: 0.01 },
	warned: false,
	told: true,
	spent: null,
	wrapUp: null,
	ended: null,
	closed: false,
	endedAt: null,
};

describe("a subagent's record read back", () => {
	it("reads what was written, a wrap-up with or without a refusal, and every ending", () => {
		expect(parseSubagentRun(RUN)).toEqual(RUN);
		expect(parseSubagentRun({ ...RUN, warned: true })).toEqual({ ...RUN, warned: true });
		const spent = {
			...RUN,
			budget: null,
			spent: { limit: "steps", at: START },
			wrapUp: { until: START + 1, calls: 1, refusedAt: 1 },
			ended: "stopped",
			closed: true,
			endedAt: START + 2,
		};
		expect(parseSubagentRun(spent)).toEqual(spent);
		expect(parseSubagentRun({ ...spent, wrapUp: { until: 1, calls: 0 } })?.wrapUp).toEqual({
			until: 1,
			calls: 0,
			refusedAt: null,
		});
		expect(parseSubagentRun({ ...spent, wrapUp: "soon", ended: "gone", endedAt: "later" })).toMatchObject({
			wrapUp: null,
			ended: null,
			endedAt: null,
		});
		expect(parseSubagentRun({ ...RUN, budget: { timeLimitMs: null, costLimit: 2 } })?.budget).toEqual({
			timeLimitMs: null,
			costLimit: 2,
		});
	});

	it("is unusable when a field it needs is damaged", () => {
		for (const damaged of [
			null,
			[],
			{ ...RUN, id: 1 },
			{ ...RUN, agentType: null },
			{ ...RUN, task: 3 },
			{ ...RUN, parent: 3 },
			{ ...RUN, startedAt: "then" },
			{ ...RUN, steps: -1 },
			// What JSON reads 1e999 as.
			{ ...RUN, startedAt: Number.POSITIVE_INFINITY },
			{ ...RUN, spend: null },
			{ ...RUN, spend: { tokens: 1 } },
			{ ...RUN, spend: { cost: 1 } },
			{ ...RUN, budget: "5m" },
			{ ...RUN, budget: undefined },
			{ ...RUN, budget: {} },
			{ ...RUN, spent: { limit: "mood", at: 1 } },
			{ ...RUN, spent: { limit: "time" } },
			{ ...RUN, spent: "yes" },
		]) {
			expect(parseSubagentRun(damaged)).toBeNull();
		}
	});

	it("reads the budget record, and skips one that is damaged without calling the newest record unusable", () => {
		expect(parseRecord({ kind: "subagents", budgets: { "*": "5m" } })).toEqual({
			kind: "subagents",
			budgets: { "*": "5m" },
		});
		expect(parseRecord({ kind: "subagents", budgets: null })).toEqual({ kind: "subagents", budgets: null });
		expect(parseRecord({ kind: "subagents", budgets: "5m" })).toBeNull();
		expect(parseRecord({ kind: "subagents", budgets: { "*": 5 } })).toBeNull();
		expect(parseRecord({ kind: "subagent", agent: RUN })).toEqual({ kind: "subagent", agent: RUN });
		const history = foldHistory([
			{ kind: "record", record: { kind: "subagents", budgets: 5 } },
			{ kind: "record", record: { kind: "subagent", agent: null } },
			{ kind: "record", record: null },
		]);
		expect(history).toMatchObject({ newestUnusable: true, hasRecords: true });
		expect(history).not.toHaveProperty("subagentBudgets");
		expect(history).not.toHaveProperty("subagents");
		expect(foldHistory([{ kind: "record", record: { kind: "subagent", agent: RUN } }])).toMatchObject({
			hasRecords: false,
			newestUnusable: false,
			subagents: [RUN],
		});
	});
});

describe("the subagents' time checks", () => {
	it("are due at 80% of a subagent's time, then at its limit, then at the end of its time to conclude", () => {
		const running = withRun(NO_SUBAGENTS, RUN);
		expect(hasSubagentTimers(running)).toBe(true);
		expect(nextSubagentCheckIn(running, START)).toBe(48_000);
		expect(nextSubagentCheckIn(withRun(NO_SUBAGENTS, { ...RUN, warned: true }), START)).toBe(60_000);
		const concluding = withRun(NO_SUBAGENTS, {
			...RUN,
			spent: { limit: "time", at: START },
			wrapUp: { until: START + 5_000, calls: 0, refusedAt: null },
		});
		expect(hasSubagentTimers(concluding)).toBe(true);
		expect(nextSubagentCheckIn(concluding, START + 5_000)).toBe(1);
		for (const idle of [
			{ ...RUN, budget: { timeLimitMs: null, stepLimit: 3 } },
			{ ...RUN, budget: null },
			{ ...RUN, ended: "stopped" as const },
			{ ...RUN, spent: { limit: "steps" as const, at: START } },
		]) {
			expect(hasSubagentTimers(withRun(NO_SUBAGENTS, idle))).toBe(false);
			expect(nextSubagentCheckIn(withRun(NO_SUBAGENTS, idle), START)).toBeNull();
		}
	});

	it("join the session's: whichever comes first", () => {
		const agents = withRun(NO_SUBAGENTS, RUN);
		expect(nextCheckIn({ ...EMPTY_SESSION, subagents: agents }, START)).toBe(48_000);
		expect(nextCheckIn(EMPTY_SESSION, START)).toBeNull();
		const session = transition(EMPTY_SESSION, { type: "command", args: "10s", newBudgetId: "b" }, START).state;
		expect(nextCheckIn(session, START)).toBe(8_000);
		expect(nextCheckIn({ ...session, subagents: agents }, START)).toBe(8_000);
		const late = transition(EMPTY_SESSION, { type: "command", args: "10m", newBudgetId: "b" }, START).state;
		expect(nextCheckIn({ ...late, subagents: agents }, START)).toBe(48_000);
	});

	it("fire on a live host with no session budget, where the setting gives subagents a time", () => {
		const time = new FakeTime(START);
		const ui = new MemoryUI();
		const stopped: string[] = [];
		const live = new LiveSession({
			stopAgent: (agent) => {
				stopped.push(agent);
				if (agent === "a2") throw new Error("no such subagent");
			},
			store: new MemoryStore(),
			ledger: new MemoryLedger(),
			ui,
			clock: time,
			scheduler: time,
			onStop: new RecordingStarter(),
			agent: { abortCurrentTurn: () => {} },
			newBudgetId: sequentialIds(),
		});
		live.onSessionStart("restore", false, null, { subagents: { value: "10s", source: "settings" } });
		live.dispatch({ type: "agentStart", agent: "a1", parent: null, agentType: "Explore", task: "look around" });
		live.dispatch({ type: "agentStart", agent: "a2", parent: null, agentType: "Plan", task: "plan" });
		time.advance(8_000);
		expect(ui.messages("warning")).toEqual([
			'Timebox: subagent "look around" (Explore) used 80% of its budget (2s left); it is asked to wrap up.',
			'Timebox: subagent "plan" (Plan) used 80% of its budget (2s left); it is asked to wrap up.',
		]);
		time.advance(2_000 + 30_000);
		expect(ui.messages("info")).toEqual([
			'Timebox: subagent "look around" (Explore) stopped at its 10s budget after 0 model calls; its answer went back to the main agent.',
			'Timebox: subagent "plan" (Plan) stopped at its 10s budget after 0 model calls; its answer went back to the main agent.',
		]);
		// The host is told to stop each, by the time check that stopped them; a failure to is said once.
		expect(stopped).toEqual(["a1", "a2"]);
		expect(ui.messages("error")).toEqual([
			"Timebox hit an internal error (stop a subagent): no such subagent. Your session goes on; check the budget with /timebox status.",
		]);
		live.onShutdown();
	});
});

describe("the answer and the texts", () => {
	it("names a subagent to stop once, however many rules stop it", () => {
		const answer = noAnswer();
		answer.stoppedAgents.push("a1");
		mergeAnswer(answer, { ...noAnswer(), stoppedAgents: ["a1", "a2"] });
		expect(answer.stoppedAgents).toEqual(["a1", "a2"]);
	});

	it("says each limit, the session's too", () => {
		expect(subagentLimitPhrase("time", RUN.budget)).toBe("its 1m budget");
		expect(subagentLimitPhrase("steps", RUN.budget)).toBe("its 3-step budget");
		expect(subagentLimitPhrase("tokens", RUN.budget)).toBe("its 1k-token budget");
		expect(subagentLimitPhrase("cost", RUN.budget)).toBe("its $0.50 budget");
		expect(subagentStopCause("session", null)).toBe("with the session's budget");
		expect(subagentStopCause("parent", null)).toBe("with the agent that started it");
		expect(subagentStopCause("steps", RUN.budget)).toBe("at its 3-step budget");
		expect(subagentParentLine("cost", null, "1s")).toBe(
			"Timebox: this subagent stopped at its $0.00 budget (used 1s); its answer may be partial.",
		);
		for (const limit of ["time", "steps", "tokens"] as const) {
			expect(subagentLimitPhrase(limit, null)).toMatch(/^its 0/);
		}
		expect(subagentLimitPhrase("loop", { timeLimitMs: null, loopLimit: 3 })).toBe("its loop guard (loop:3)");
		expect(subagentLimitPhrase("loop", null)).toBe("its loop guard (loop:0)");
	});

	it("leaves the subagents' events to their rules when the session's rules alone hear them", () => {
		expect(
			transition(EMPTY_SESSION, { type: "agentStart", agent: "a", parent: null, agentType: "x", task: "y" }, START),
		).toEqual({ state: EMPTY_SESSION, effects: [] });
		expect(transition(EMPTY_SESSION, { type: "agentEnd", agent: "a" }, START)).toEqual({
			state: EMPTY_SESSION,
			effects: [],
		});
	});
});

describe("what a subagent has left and used", () => {
	it("says so without a budget, and while it runs", () => {
		expect(leftText({ ...RUN, budget: null }, START)).toBe("no budget");
		expect(usedText({ ...RUN, spend: { tokens: 0, cost: 0 } }, START + 5_000)).toBe("5s, 1 model call");
	});
});
