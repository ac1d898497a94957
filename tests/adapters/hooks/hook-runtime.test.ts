// The reply of one hook: the subagents the rules stopped are carried out to the host, as every other part of an answer.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HookRuntime } from "../../../src/adapters/hooks/hook-runtime.ts";
import { SessionLog } from "../../../src/adapters/node/session-log.ts";
import { parseDailyBudget } from "../../../src/core/index.ts";
import { START } from "../../support/budgets.ts";
import { MemoryLedger, RecordingStarter } from "../../support/memory-host.ts";

const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function hookRuntime(): HookRuntime {
	const folder = mkdtempSync(join(tmpdir(), "timebox-hook-runtime-"));
	folders.push(folder);
	const deps = {
		store: new SessionLog(folder, "session-1"),
		ledger: new MemoryLedger(),
		clock: { now: () => START },
		onStop: new RecordingStarter(),
	};
	return new HookRuntime(deps, null);
}

describe("a hook's reply with subagents", () => {
	it("names the subagents to stop, and keeps their records in the session's log for the next hook", async () => {
		const hook = hookRuntime();
		hook.runtime.command("subagents steps:1", { newBudgetId: "budget-1", report: () => "" });
		hook.runtime.handle({ type: "agentStart", agent: "a1", parent: null, agentType: "Explore", task: "look" });
		hook.runtime.handle({ type: "modelCall", prompt: null, agent: "a1" });
		hook.runtime.handle({ type: "modelCall", prompt: null, agent: "a1" });
		hook.runtime.handle({ type: "toolCall", prompt: null, agent: "a1" });
		hook.runtime.handle({ type: "modelCall", prompt: null, agent: "a1" });
		const answer = hook.runtime.handle({ type: "toolCall", prompt: null, agent: "a1" });
		const reply = await hook.reply(answer);
		expect(reply.stoppedAgents).toEqual(["a1"]);
		expect(reply.refusal).toBe(
			"Timebox: this subagent was stopped: its budget, or the session's, is spent. Nothing more runs for it.",
		);
	});

	it("leaves the field out when no subagent is stopped", async () => {
		const hook = hookRuntime();
		const reply = await hook.reply(hook.runtime.handle({ type: "timeCheck" }));
		expect(reply).not.toHaveProperty("stoppedAgents");
	});
});

describe("a hook's runtime made for a named prompt's run", () => {
	it("has the daily budgets hear its events, from the day's part the log holds", async () => {
		const folder = mkdtempSync(join(tmpdir(), "timebox-hook-runtime-"));
		folders.push(folder);
		const counted: string[] = [];
		const budget = parseDailyBudget("turns:5", "user", "TIMEBOX_DAILY");
		if ("warning" in budget) throw new Error(budget.warning);
		const deps = {
			store: new SessionLog(folder, "session-1"),
			ledger: new MemoryLedger(),
			clock: { now: () => START },
			onStop: new RecordingStarter(),
			daily: {
				budgets: [budget],
				ledger: {
					standings: () => [],
					countPrompt: () => {
						counted.push("p1");
						return true;
					},
					addUse: () => {},
					adjust: () => undefined,
					problem: () => null,
				},
			},
		};
		const hook = new HookRuntime(deps, "p1");
		hook.handle({ type: "modelCall", prompt: "p1" });
		expect(counted).toEqual(["p1"]);
		// Made for no named prompt, the day hears nothing of it.
		new HookRuntime(deps, null).handle({ type: "modelCall", prompt: "p2" });
		expect(counted).toEqual(["p1"]);
	});
});
