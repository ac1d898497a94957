// What the user reads of subagents: `/timebox status` lists the running ones with what each has left, and
// `/timebox report` every subagent of the session with its budget, what it used and how it ended, after a reload too.

import { describe, expect, it } from "vitest";
import { NOTHING_RECORDED } from "../../../src/core/model/events.ts";
import { sessionReport } from "../../../src/core/text/report.ts";
import { said, subagentSession } from "../../support/subagents.ts";

describe("/timebox status with subagents", () => {
	it("lists each running subagent with what it has left, and one that concludes", () => {
		const session = subagentSession({ subagents: { "*": "5m steps:30", Plan: "steps:1" }, session: "1h" });
		session.call();
		session.start("a1");
		session.start("a2", { agentType: "general", task: "fix it" });
		session.start("a3", { agentType: "Plan", task: "plan the fix" });
		session.start("a4", { agentType: "Plan", task: "plan the tests" });
		session.call("a1");
		session.call("a3");
		session.call("a3");
		session.end("a4");
		session.advance(70_000);
		expect(said(session.command("status"))).toEqual([
			[
				"info: Timebox: 58m 50s left (1h budget) | no turn limit",
				"Subagents running: 3.",
				'- "find the flaky test" (Explore): 3m 50s and 29 model calls left',
				'- "fix it" (general): 3m 50s and 30 model calls left',
				'- "plan the fix" (Plan): concluding at its 1-step budget',
			].join("\n"),
		]);
	});

	it("lists them without a session budget, and says nothing of them when none runs", () => {
		const session = subagentSession();
		expect(said(session.command("status"))).toEqual(["info: No active timebox.\nSet one with /timebox 15m turns:3."]);
		session.start("a1");
		session.call("a1");
		expect(said(session.command("status"))).toEqual([
			[
				"info: No active timebox.",
				"Set one with /timebox 15m turns:3.",
				"Subagents running: 1.",
				'- "find the flaky test" (Explore): no budget of its own; used 0s, 1 model call',
			].join("\n"),
		]);
	});
});

describe("/timebox report with subagents", () => {
	it("lists every subagent: its type, task, budget, use and how it ended", () => {
		const session = subagentSession({ subagents: { "*": "5m steps:2", general: "tokens:1k" }, session: "1h" });
		session.call();
		session.start("answered", { task: "read the readme" });
		session.call("answered");
		session.used(1_500, 0.02, "answered");
		session.end("answered");
		session.start("concluded");
		session.call("concluded");
		session.call("concluded");
		session.call("concluded");
		session.end("concluded");
		session.start("stopped", { agentType: "general", task: "look at every test in the repository once" });
		session.call("stopped");
		session.used(2_000, 0, "stopped");
		session.call("stopped");
		session.tool("stopped");
		session.call("stopped");
		session.tool("stopped");
		session.start("running", { agentType: "Plan", task: "plan" });
		session.start("concluding");
		session.call("concluding");
		session.call("concluding");
		session.call("concluding");
		session.advance(60_000);
		const report = sessionReport(session.store.history(), () => NOTHING_RECORDED, session.now());
		expect(report.split("\n").slice(2)).toEqual([
			"5 subagents in this session:",
			'- "read the readme" (Explore): budget 5m and 2 model calls; used 0s, 1 model call, 1.5k tokens, $0.02. Answered.',
			'- "find the flaky test" (Explore): budget 5m and 2 model calls; used 0s, 3 model calls. Concluded at its 2-step budget.',
			'- "look at every test in the…" (general): budget 1k tokens; used 0s, 3 model calls, 2k tokens. Stopped at its 1k-token budget.',
			'- "plan" (Plan): budget 5m and 2 model calls; used 1m 0s, 0 model calls. Still running.',
			'- "find the flaky test" (Explore): budget 5m and 2 model calls; used 1m 0s, 3 model calls. Concluding at its 2-step budget.',
		]);
	});

	it("lists subagents where no session budget was set, after a reload too", () => {
		const session = subagentSession();
		session.start("a1");
		session.reload();
		expect(sessionReport(session.store.history(), () => NOTHING_RECORDED, session.now()).split("\n")).toEqual([
			"Timebox report: no budget was set in this session.",
			"1 subagent in this session:",
			'- "find the flaky test" (Explore): no budget of its own; used 0s, 0 model calls. Still running.',
		]);
	});

	it("says a subagent stopped with the session's budget", () => {
		const session = subagentSession({ session: "1m" });
		session.call();
		session.start("a1");
		session.advance(60_000);
		session.timeCheck();
		const report = sessionReport(session.store.history(), () => NOTHING_RECORDED, session.now());
		expect(report).toContain("used 1m 0s, 0 model calls. Stopped with the session's budget.");
	});
});
