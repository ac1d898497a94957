// The rules of what a hook leaves the next in the session's log (run/session-log.ts), fed the lines as read: each
// returns the lines to write as effects, which the one executor carries out, and a line taken is taken once. And a
// response the host names, kept by the rules before anything else, with its cost only where the host sees cost.

import { describe, expect, it } from "vitest";
import { LOG_FOLD_KEEP_BYTES } from "../../src/core/constants.ts";
import { callKey } from "../../src/core/loop/calls.ts";
import type { Effect, LogLine } from "../../src/core/model/events.ts";
import { emptyLogFold } from "../../src/core/model/log-fold.ts";
import { carryOut, noAnswer } from "../../src/core/run/executor.ts";
import { NO_DAILY_PART } from "../../src/core/run/runtime.ts";
import * as sessionLog from "../../src/core/run/session-log.ts";
import { transitionWithSubagents } from "../../src/core/subagents/compose.ts";
import { TRANSCRIPT_UNREADABLE } from "../../src/core/text/notices.ts";
import { budget, START } from "../support/budgets.ts";
import { session } from "../support/session.ts";

const written = (effects: readonly Effect[]): LogLine[] =>
	effects.flatMap((effect) => (effect.kind === "logLine" ? [effect.line] : []));

/** The log after the effects' lines are written, as the next hook reads it. */
const withWritten = (lines: readonly LogLine[], effects: readonly Effect[]): LogLine[] => [
	...lines,
	...written(effects),
];

describe("the log's queues", () => {
	it("gives what a parent is owed once, with its next model call, and nothing to another agent", () => {
		const owed = sessionLog.owe(null, ["a1 stopped at its budget."], START);
		let lines = withWritten([], owed);
		expect(sessionLog.owedTo(lines, "a2", START).value).toEqual([]);
		const first = sessionLog.owedTo(lines, null, START + 1);
		expect(first.value).toEqual(["a1 stopped at its budget."]);
		expect(written(first.effects)).toEqual([{ kind: "paid", to: null, at: START + 1 }]);
		lines = withWritten(lines, first.effects);
		expect(sessionLog.owedTo(lines, null, START + 2)).toEqual({ value: [], effects: [] });
	});

	it("shows what a watcher told nobody with the next prompt, once", () => {
		let lines = withWritten([], sessionLog.keepUntold(["Timebox: time is up."], START));
		const next = sessionLog.untoldNotices(lines, START + 1);
		expect(next.value).toEqual(["Timebox: time is up."]);
		lines = withWritten(lines, next.effects);
		expect(sessionLog.untoldNotices(lines, START + 2)).toEqual({ value: [], effects: [] });
	});

	it("lets a starting subagent take the oldest call of its type, once, and knows it by the call's id after", () => {
		let lines = withWritten(
			[],
			[
				...sessionLog.keepSpawn("call-1", null, { agentType: "Plan", task: "plan it" }, START),
				...sessionLog.keepSpawn("call-2", null, { agentType: "Explore", task: "find it" }, START),
			],
		);
		const taken = sessionLog.takeSpawn(lines, "host-a", "Explore", START + 1);
		expect(taken.value).toMatchObject({ id: "call-2", task: "find it" });
		expect(written(taken.effects)).toEqual([{ kind: "spawn-taken", index: 1, agent: "host-a", at: START + 1 }]);
		lines = withWritten(lines, taken.effects);
		expect(sessionLog.ruleIdOf(lines, "host-a")).toBe("call-2");
		expect(sessionLog.ruleIdOf(lines, "host-b")).toBe("host-b");
		// Of another type, the oldest left; then none.
		const other = sessionLog.takeSpawn(lines, "host-b", "General", START + 2);
		expect(other.value).toMatchObject({ id: "call-1" });
		lines = withWritten(lines, other.effects);
		expect(sessionLog.takeSpawn(lines, "host-c", null, START + 3)).toEqual({ value: null, effects: [] });
	});

	it("keeps a refused subagent's reason for whatever it does next", () => {
		const lines = withWritten([], sessionLog.refuseSpawn("a1", "The session's budget is spent.", START));
		expect(sessionLog.refusedSpawn(lines, "a1")).toBe("The session's budget is spent.");
		expect(sessionLog.refusedSpawn(lines, "a2")).toBeNull();
	});
});

describe("the lines of a prompt's run", () => {
	it("counts another model call only while a budget stands and a prompt is named", () => {
		const standing = session({ budget: budget({ turnLimit: 3 }), lastPrompt: "p1" });
		expect(written(sessionLog.nextCallLines(standing, "p1", START))).toEqual([
			{ kind: "call", promptId: "p1", at: START },
		]);
		expect(sessionLog.nextCallLines(standing, null, START)).toEqual([]);
		expect(sessionLog.nextCallLines(session({ budget: null }), "p1", START)).toEqual([]);
	});

	it("ends a named prompt's run, and no unnamed one", () => {
		expect(written(sessionLog.runEndedLines("p1", START))).toEqual([{ kind: "ended", promptId: "p1", at: START }]);
		expect(sessionLog.runEndedLines(null, START)).toEqual([]);
	});

	it("keeps a claim the ledger could not take once, and says it was kept already the second time", () => {
		const claim = { kind: "nudged" as const, budgetId: "b1" };
		const kept = sessionLog.claimKept(claim, [], START);
		expect(kept).not.toBeNull();
		const lines = withWritten([], kept ?? []);
		expect(lines).toEqual([{ kind: "claim", claim, at: START }]);
		expect(sessionLog.claimKept(claim, lines, START + 1)).toBeNull();
		expect(sessionLog.claimKept({ kind: "off", budgetId: "b1" }, lines, START + 1)).not.toBeNull();
	});

	it("writes back the daily part's changes, and reads them back as they were", () => {
		const before = sessionLog.dailyPartOf([{ kind: "prompt", promptId: "p1", at: START }], "p1");
		expect(before.session).toEqual({ given: [], runStartedAt: START, stopped: false });
		const changed = {
			...NO_DAILY_PART,
			session: { given: ["80%"], runStartedAt: null, stopped: true },
		};
		const lines = written(sessionLog.dailyPartLines("p1", before, changed, START + 5));
		expect(lines).toEqual([
			{ kind: "daily-warned", level: "80%", at: START + 5 },
			{ kind: "daily-stopped", promptId: "p1", at: START + 5 },
			{ kind: "daily-ended", promptId: "p1", at: START + 5 },
		]);
		const again = sessionLog.dailyPartOf([{ kind: "prompt", promptId: "p1", at: START }, ...lines], "p1");
		expect(again.session).toEqual({ given: ["80%"], runStartedAt: null, stopped: true });
		expect(sessionLog.dailyPartLines("p1", again, again, START + 6)).toEqual([]);
	});

	it("passes over a prompt that never ran after all: it is not the latest, and no run of it goes on", () => {
		const lines: LogLine[] = [
			{ kind: "prompt", promptId: "p1", at: START },
			{ kind: "prompt", promptId: "p2", at: START + 1 },
			{ kind: "prompt", promptId: "p2", at: START + 2 },
			{ kind: "prompt-dropped", promptId: "p2", at: START + 3 },
		];
		expect(sessionLog.latestPrompt(lines)).toBe("p2");
		expect(sessionLog.latestPrompt([...lines, { kind: "prompt-dropped", promptId: "p2", at: START + 4 }])).toBe("p1");
		expect(sessionLog.latestPrompt([{ kind: "prompt-dropped", promptId: "p1", at: START }])).toBeNull();
		expect(sessionLog.latestPrompt([])).toBeNull();
		expect(sessionLog.dailyPartOf(lines, "p2").session.runStartedAt).toBeNull();
		expect(sessionLog.dailyPartOf(lines, "p1").session.runStartedAt).toBe(START);
	});
});

describe("what a transcript said was used", () => {
	it("keeps each response with how far the transcript was read, and adds its tokens to today's use", () => {
		const found = { responses: [{ id: "r1", tokens: 120 }], offset: 900, unreadable: false };
		expect(sessionLog.transcriptUsage(found, 0, [], START)).toEqual({
			effects: [
				{ kind: "recordUsage", usage: { responseId: "r1", used: { tokens: 120 }, at: START, offset: 900 } },
				{ kind: "addDailyUse", use: { tokens: 120 } },
			],
			notice: null,
		});
	});

	it("keeps how far it was read when nothing new was used, and says an unreadable format once", () => {
		const found = { responses: [], offset: 950, unreadable: true };
		const first = sessionLog.transcriptUsage(found, 900, [], START);
		expect(written(first.effects)).toEqual([
			{ kind: "transcript", offset: 950 },
			{ kind: "transcript-unreadable", at: START },
		]);
		expect(first.notice).toBe(TRANSCRIPT_UNREADABLE);
		const again = sessionLog.transcriptUsage(found, 950, written(first.effects), START + 1);
		expect(again).toEqual({ effects: [], notice: null });
	});
});

describe("a response the host names", () => {
	const running = session({ budget: budget({ tokenLimit: 1_000 }), lastPrompt: "p1", running: true });

	it("is kept first, with its cost, before what the budget does with it", () => {
		const result = transitionWithSubagents(
			running,
			{ type: "modelResponse", tokens: 10, cost: 0.5, responseId: "m1" },
			START,
		);
		expect(result.effects[0]).toEqual({
			kind: "recordUsage",
			usage: { responseId: "m1", used: { tokens: 10, cost: 0.5 }, at: START },
		});
	});

	it("is kept without a cost where the host sees none, and a response it names not is not kept", () => {
		const unseen = transitionWithSubagents(
			running,
			{ type: "modelResponse", tokens: 10, cost: 0, responseId: "subagent:a1", costSeen: false },
			START,
		);
		expect(unseen.effects[0]).toEqual({
			kind: "recordUsage",
			usage: { responseId: "subagent:a1", used: { tokens: 10 }, at: START },
		});
		const unnamed = transitionWithSubagents(running, { type: "modelResponse", tokens: 10, cost: 0 }, START);
		expect(unnamed.effects.some((effect) => effect.kind === "recordUsage")).toBe(false);
	});
});

describe("the tool calls a loop guard counts", () => {
	const A = { tool: "bash", input: { command: "npm test" } };
	const key = callKey(A);
	const guarded = { ...session({ budget: budget({ loopLimit: 3 }) }), lastPrompt: "p2" };
	const tool = (promptId: string, agent: string | null, k = key): LogLine => ({
		kind: "tool",
		promptId,
		agent,
		key: k,
		at: START,
	});

	it("gives the run's earlier keys, oldest first, read back no further than the run's prompt, and keeps this one", () => {
		const lines: LogLine[] = [
			{ kind: "prompt", promptId: "p1", at: START },
			tool("p1", null, "1111111111111111"),
			// A line before the run's prompt is another run's, and is not read: a hand-made tool line of p2 there proves it.
			tool("p2", null, "2222222222222222"),
			{ kind: "prompt", promptId: "p2", at: START },
			tool("p2", null),
			tool("p2", "a1", "3333333333333333"),
			tool("p2", null, "4444444444444444"),
		];
		const taken = sessionLog.loopCalls(lines, guarded, "p2", null, A, START + 1);
		expect(taken.value).toEqual([key, "4444444444444444"]);
		expect(written(taken.effects)).toEqual([{ kind: "tool", promptId: "p2", agent: null, key, at: START + 1 }]);
	});

	it("gives a subagent its own keys, read back no further than the call that started it", () => {
		const withAgent = transitionWithSubagents(
			{ ...session({ budget: budget({ timeLimitMs: 60_000 }) }), lastPrompt: "p1" },
			{ type: "agentStart", agent: "call_1", parent: null, agentType: "Explore", task: "look" },
			START,
		).state;
		const state = {
			...withAgent,
			subagents: {
				...withAgent.subagents,
				runs: {
					call_1: {
						...(withAgent.subagents.runs.call_1 as NonNullable<(typeof withAgent.subagents.runs)[string]>),
						budget: { timeLimitMs: null, loopLimit: 2 },
					},
				},
			},
		};
		const lines: LogLine[] = [
			tool("p0", "call_1", "1111111111111111"),
			{ kind: "spawn", id: "call_1", agent: null, agentType: "Explore", task: "look", at: START },
			tool("p1", null),
			tool("p9", "call_1"),
		];
		expect(sessionLog.loopCalls(lines, state, "p1", "call_1", A, START).value).toEqual([key]);
		// One without a loop guard of its own counts nothing, nor does a session without one, nor a run with no name.
		expect(sessionLog.loopCalls(lines, withAgent, "p1", "call_1", A, START)).toEqual({ value: undefined, effects: [] });
		expect(sessionLog.loopCalls(lines, session(), "p1", null, A, START)).toEqual({ value: undefined, effects: [] });
		expect(sessionLog.loopCalls(lines, guarded, null, null, A, START)).toEqual({ value: undefined, effects: [] });
	});
});

describe("the summary of the log", () => {
	const fold = emptyLogFold();

	it("is kept once a read read as far past the kept one as the rules say, or further", () => {
		expect(sessionLog.keepFold({ fold, bytes: LOG_FOLD_KEEP_BYTES })).toEqual([{ kind: "keepLogFold", fold }]);
		expect(sessionLog.keepFold({ fold, bytes: 10 * LOG_FOLD_KEEP_BYTES })).toEqual([{ kind: "keepLogFold", fold }]);
	});

	it("is not kept for a read that read less past it, nor where nothing was read", () => {
		expect(sessionLog.keepFold({ fold, bytes: LOG_FOLD_KEEP_BYTES - 1 })).toEqual([]);
		expect(sessionLog.keepFold(null)).toEqual([]);
	});

	it("is kept by the one executor through the store", () => {
		const kept: unknown[] = [];
		const ports = {
			store: { append: () => {}, keepFold: (given: unknown) => kept.push(given) },
			ledger: { claim: () => true },
			setStatus: () => {},
			abortRun: () => {},
			onStop: { start: () => {} },
			problem: (where: string) => kept.push(where),
		};
		carryOut([{ kind: "keepLogFold", fold }], ports, noAnswer(), () => {});
		expect(kept).toEqual([fold]);
		// A store that keeps no summary is given none, and nothing fails.
		carryOut([{ kind: "keepLogFold", fold }], { ...ports, store: { append: () => {} } }, noAnswer(), () => {});
		expect(kept).toEqual([fold]);
	});
});
