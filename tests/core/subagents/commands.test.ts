// The subagent budget: `/timebox subagents` (show, off, set; bad words refused with nothing changed), the
// `subagents` setting and TIMEBOX_SUBAGENTS named with their source when bad, and the budget kept across reloads.

import { describe, expect, it } from "vitest";
import { SUBAGENTS_ENV } from "../../../src/core/constants.ts";
import { parseCommand, parseTaskBudget } from "../../../src/core/grammar/command.ts";
import { planCommand } from "../../../src/core/grammar/command-plan.ts";
import { START } from "../../support/budgets.ts";
import { said, subagentSession } from "../../support/subagents.ts";

describe("/timebox subagents", () => {
	it("parses a budget, off and nothing, and refuses turns, the session's words and an empty budget", () => {
		expect(parseCommand("subagents 5m steps:30")).toEqual({
			kind: "subagents",
			action: "set",
			budget: { timeLimitMs: 300_000, stepLimit: 30 },
			words: "5m steps:30",
		});
		expect(parseCommand("SUBAGENTS tokens:200k $2")).toMatchObject({
			action: "set",
			budget: { timeLimitMs: null, tokenLimit: 200_000, costLimit: 2 },
		});
		expect(parseCommand("subagents")).toEqual({ kind: "subagents", action: "show" });
		expect(parseCommand(" subagents off ")).toEqual({ kind: "subagents", action: "off" });
		expect(parseCommand("subagents 5m turns:3")).toEqual({
			kind: "invalid",
			reason:
				"turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>.",
		});
		expect(parseTaskBudget("5m aware")).toEqual({
			invalid:
				"aware and grace belong to the session's budget: a subagent budget takes a time, steps, tokens, cost or loop.",
		});
		expect(parseTaskBudget("5m grace:10s")).toMatchObject({ invalid: expect.stringContaining("aware and grace") });
		expect(parseTaskBudget("5m -- say done")).toEqual({
			invalid: "A subagent budget runs no on-stop command: the session's runs when the session stops.",
		});
		expect(parseTaskBudget("")).toEqual({
			invalid: "No budget given: give a time, steps:<n>, tokens:<n>, cost:<dollars> or loop:<n>.",
		});
		expect(parseTaskBudget("soon")).toEqual({
			invalid: '"soon" is not a budget word: a time (30s, 15m, 2h), steps:25, tokens:200k, cost:2.50 or loop:3.',
		});
	});

	it("sets the budget for subagents started from then on, shows it, and turns it off", () => {
		const session = subagentSession();
		expect(said(session.command("subagents"))).toEqual([
			"info: Timebox: no subagent budget. Set one with /timebox subagents 5m steps:30.",
		]);
		expect(session.start("before").context).toEqual([]);
		expect(said(session.command("subagents 5m steps:30"))).toEqual([
			"info: Timebox: every subagent started from now on gets 5m and 30 model calls, as well as the session's budget.",
		]);
		expect(said(session.command("subagents"))).toEqual([
			"info: Timebox: subagent budget (/timebox subagents): every subagent: 5m and 30 model calls.",
		]);
		expect(session.start("after").context).toHaveLength(1);
		expect(session.state.subagents.runs.before?.budget).toBeNull();
		expect(said(session.command("subagents off"))).toEqual([
			"info: Timebox: subagent budget off. Subagents still count against the session's budget.",
		]);
		expect(session.start("later").context).toEqual([]);
		expect(session.store.records).toContainEqual({ kind: "subagents", version: 2, budgets: null, at: START });
	});

	it("refuses bad words with the reason and changes nothing", () => {
		const session = subagentSession({ subagents: "2m" });
		const answer = session.command("subagents turns:3");
		expect(answer.notices[0]?.message).toMatch(
			/^Timebox: turns: counts the prompts you send.* Nothing changed\.\nUsage:/s,
		);
		expect(answer.notices[0]?.level).toBe("warning");
		expect(session.state.subagents.budgets?.byType["*"]?.words).toBe("2m");
	});

	it("leaves the session's budget alone, though the session's rules alone would be asked", () => {
		const view = {
			budget: null,
			spent: null,
			usedTurns: 0,
			now: START,
			newBudgetId: "b",
			spend: { tokens: 0, cost: 0 },
		};
		expect(planCommand({ kind: "status" }, view).reply.message).toBe(
			"No active timebox.\nSet one with /timebox 15m turns:3.",
		);
		expect(planCommand({ kind: "subagents", action: "show" }, view)).toEqual({
			change: "none",
			reply: { message: "Timebox: no subagent budget. Set one with /timebox subagents 5m steps:30.", level: "info" },
		});
	});
});

describe("the subagents setting", () => {
	it("gives each agent type its own budget, and every other type the one for '*'", () => {
		const session = subagentSession({ subagents: { "*": "5m steps:30", Explore: "2m steps:15" } });
		session.start("e", { agentType: "Explore" });
		session.start("g", { agentType: "general" });
		expect(session.state.subagents.runs.e?.budget).toEqual({ timeLimitMs: 120_000, stepLimit: 15 });
		expect(session.state.subagents.runs.g?.budget).toEqual({ timeLimitMs: 300_000, stepLimit: 30 });
		expect(said(session.command("subagents"))).toEqual([
			"info: Timebox: subagent budget (settings): every subagent: 5m and 30 model calls; Explore subagents: 2m and 15 model calls.",
		]);
	});

	it("gives no budget to a type without one where there is no '*'", () => {
		const session = subagentSession({ subagents: { Explore: "2m" } });
		session.start("g", { agentType: "general" });
		expect(session.state.subagents.runs.g?.budget).toBeNull();
	});

	it("names a bad value with its source, and changes nothing", () => {
		expect(said(subagentSession({ subagents: "5m turns:2", source: SUBAGENTS_ENV }).loaded)).toEqual([
			'warning: Timebox: TIMEBOX_SUBAGENTS: "5m turns:2" has a bad budget for "*" (turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>), so it is ignored.',
		]);
		// Asked, it is said again, as a warning: no subagent gets a budget, and not because none was set. Off then leaves none.
		const bad = subagentSession({ subagents: "5m turns:2", source: SUBAGENTS_ENV });
		expect(said(bad.command("subagents"))).toEqual(said(bad.loaded));
		bad.command("subagents 5m");
		expect(said(bad.command("subagents"))).toEqual([
			"info: Timebox: subagent budget (/timebox subagents): every subagent: 5m.",
		]);
		bad.command("subagents off");
		expect(said(bad.command("subagents"))).toEqual([
			"info: Timebox: no subagent budget. Set one with /timebox subagents 5m steps:30.",
		]);
		const notText = subagentSession({ subagents: { Explore: 5 } });
		expect(said(notText.loaded)[0]).toBe(
			'warning: Timebox: settings: {"Explore":5} has a bad budget for "Explore" (it is not text), so it is ignored.',
		);
		for (const value of [42, [], {}, null]) {
			const session = subagentSession({ subagents: value });
			expect(said(session.loaded)[0]).toContain("is not a subagent budget");
			expect(session.state.subagents.budgets).toBeNull();
		}
	});

	it("gives way to a budget set with the command, which a reload keeps; off is kept too", () => {
		const session = subagentSession({ subagents: "2m" });
		session.command("subagents 7m");
		session.reload();
		expect(session.state.subagents.budgets?.byType["*"]?.budget).toEqual({ timeLimitMs: 420_000 });
		session.command("subagents off");
		session.reload();
		expect(session.state.subagents.budgets).toBeNull();
	});
});

describe("subagents across reloads", () => {
	it("sees a running subagent with its steps and usage after a reload, and goes on with its budget", () => {
		const session = subagentSession({ subagents: "steps:2" });
		session.start("a1");
		session.call("a1");
		session.used(300, 0.1, "a1");
		expect(said(session.reload())).toEqual([]);
		expect(session.state.subagents.runs.a1).toMatchObject({ steps: 1, spend: { tokens: 300, cost: 0.1 }, told: true });
		expect(session.call("a1").context).toEqual([expect.stringContaining("CRITICAL TIMEBOX WARNING")]);
		expect(session.call("a1").context).toEqual([expect.stringContaining("TASK BUDGET SPENT")]);
		session.reload();
		expect(session.tool("a1").refusal).toContain("your budget for this task is spent");
		session.reload();
		session.call("a1");
		session.reload();
		expect(session.tool("a1").stoppedAgents).toEqual(["a1"]);
		session.reload();
		expect(session.end("a1").context).toEqual([expect.stringContaining("stopped at its 2-step budget")]);
		session.reload();
		expect(session.state.subagents.runs).toEqual({});
	});

	it("skips a damaged subagent record without a word, and keeps the session's budget", () => {
		const session = subagentSession({ session: "10m" });
		session.store.items.push({ kind: "record", record: { kind: "subagent", version: 2, agent: { id: 5 } } });
		expect(said(session.reload())).toEqual([expect.stringContaining("Timebox restored")]);
		expect(session.state.standing?.budget.timeLimitMs).toBe(600_000);
	});
});
