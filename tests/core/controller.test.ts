// The host-agnostic session behaviour (spec §7.2–§7.4, §10.2) with in-memory ports and a fake clock: turn counting
// that holds for a whole prompt, nudges and hard stops that fire once, time enforced on time, restore and shutdown.

import { describe, expect, it } from "vitest";
import { STATUS_REFRESH_INTERVAL_MS } from "../../src/core/constants.ts";
import { USAGE } from "../../src/core/messages.ts";
import { budget, MINUTE } from "../support/budgets.ts";
import { createMemoryHost } from "../support/memory-host.ts";

async function hostWith(args: string) {
	const host = createMemoryHost();
	await host.controller.sessionStart();
	await host.controller.command(args);
	return host;
}

describe("setting a budget", () => {
	it("writes one active record, confirms it and shows the status", async () => {
		const { store, ui, time } = await hostWith("15m");
		expect(store.records).toEqual([
			{ kind: "active", budget: budget({ timeLimitMs: 15 * MINUTE, startTime: time.now() }) },
		]);
		expect(ui.last).toEqual({ message: "Timebox set: 15m.", level: "info" });
		expect(ui.status).toBe("Timebox: 15m 0s left (15m budget) | no turn limit");
	});

	it("sets a turn budget from the current user-message count", async () => {
		const host = createMemoryHost();
		host.transcript.userMessages = 7;
		await host.controller.sessionStart();
		await host.controller.command("turns:5");
		expect(host.store.records).toEqual([
			{ kind: "active", budget: budget({ turnLimit: 5, startTurn: 7, startTime: host.time.now() }) },
		]);
		expect(host.ui.status).toBe("Timebox: no time limit | 5 turns left (0/5)");
	});

	it("sets both limits and the on-stop command", async () => {
		const { store, ui } = await hostWith("15m turns:3 -- lmk done");
		expect(store.records[0]).toMatchObject({
			budget: { timeLimitMs: 15 * MINUTE, turnLimit: 3, onStopCommand: "lmk done" },
		});
		expect(ui.last?.message).toBe("Timebox set: 15m and 3 turns. On stop it runs: lmk done");
	});

	it("warns about invalid input with the usage and changes nothing", async () => {
		const host = await hostWith("10m");
		const statusBefore = host.ui.status;
		await host.controller.command("15x");
		expect(host.ui.last).toEqual({
			message: `Timebox: "15x" is neither a time (30s, 15m, 2h) nor a turn count (turns:5). Nothing changed.\n${USAGE}`,
			level: "warning",
		});
		expect(host.store.records).toHaveLength(1);
		expect(host.controller.currentBudget?.timeLimitMs).toBe(10 * MINUTE);
		expect(host.ui.status).toBe(statusBefore);
	});

	it("replaces an active budget without asking and resets the nudge", async () => {
		const host = await hostWith("10m");
		host.time.advance(9 * MINUTE);
		expect(host.controller.currentBudget?.softNudgeSent).toBe(true);
		await host.controller.command("turns:4");
		expect(host.ui.last?.message).toBe("Timebox set: 4 turns. It replaces the previous budget.");
		expect(host.controller.currentBudget).toMatchObject({ turnLimit: 4, timeLimitMs: null, softNudgeSent: false });
		expect(host.time.activeIntervals).toBe(1);
		expect(host.time.activeTimeouts).toBe(0);
	});

	it("keeps the old budget when the record cannot be written", async () => {
		const host = await hostWith("10m");
		host.store.failNextAppend = new Error("disk full");
		await host.controller.command("turns:2");
		expect(host.controller.currentBudget?.timeLimitMs).toBe(10 * MINUTE);
		expect(host.ui.last).toEqual({
			message:
				"Timebox hit an internal error (/timebox): disk full. Your session goes on; check the budget with /timebox status.",
			level: "error",
		});
	});

	it("runs rapid commands in order, so the last one wins", async () => {
		const host = createMemoryHost();
		await host.controller.sessionStart();
		const all = [];
		for (let i = 0; i < 1_000; i++) all.push(host.controller.command(i % 2 === 0 ? `${(i % 50) + 1}m` : "off"));
		all.push(host.controller.command("turns:9"));
		await Promise.all(all);
		expect(host.controller.currentBudget?.turnLimit).toBe(9);
		expect(host.store.records.at(-1)).toMatchObject({ kind: "active", budget: { turnLimit: 9 } });
		expect(host.time.activeIntervals).toBe(1);
		expect(host.ui.status).toBe("Timebox: no time limit | 9 turns left (0/9)");
	});
});

describe("status and off", () => {
	it("answers status with the usage when no budget is active", async () => {
		const { ui } = await hostWith("status");
		expect(ui.last).toEqual({ message: `No active timebox.\n${USAGE}`, level: "info" });
	});

	it("answers status with the remaining budget and the on-stop command", async () => {
		const host = await hostWith("15m turns:5 -- lmk");
		host.runPrompt();
		host.runPrompt();
		host.time.advance(146_000);
		await host.controller.command("status");
		expect(host.ui.last).toEqual({
			message: "Timebox: 12m 34s left (15m budget) | 3 turns left (2/5)\nOn stop it runs: lmk",
			level: "info",
		});
	});

	it("answers status mid-run with the count held for the prompt being answered", async () => {
		const host = await hostWith("turns:5");
		host.controller.agentStart();
		host.controller.turnStart(true);
		host.transcript.userMessages++;
		await host.controller.command("status");
		expect(host.ui.last?.message).toBe("Timebox: no time limit | 5 turns left (0/5)");
	});

	it("turns an active budget off: one off record, status cleared, timers stopped", async () => {
		const host = await hostWith("15m");
		host.time.advance(MINUTE);
		await host.controller.command("off");
		expect(host.store.records.at(-1)).toEqual({ kind: "off", disabledAt: host.time.now() });
		expect(host.ui.status).toBeUndefined();
		expect(host.ui.last).toEqual({ message: "Timebox off.", level: "info" });
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
		expect(host.controller.currentBudget).toBeNull();
	});

	it.each(["off", "disable", "cancel"])("says %j has nothing to turn off and writes no record", async (word) => {
		const { ui, store } = await hostWith(word);
		expect(ui.last).toEqual({ message: "No active timebox.", level: "info" });
		expect(store.records).toEqual([]);
	});
});

describe("turn counting", () => {
	it("counts prompts, holds the count through a prompt's tool calls, and stops prompt N+1 at its first turn", async () => {
		const host = await hostWith("turns:3");
		host.runPrompt(3);
		expect(host.ui.status).toBe("Timebox: no time limit | 2 turns left (1/3)");
		host.controller.agentStart();
		host.controller.turnStart(true);
		host.transcript.userMessages++;
		host.controller.turnStart(false);
		host.controller.turnStart(false);
		expect(host.ui.status).toBe("Timebox: no time limit | 2 turns left (1/3)");
		host.controller.agentEnd();
		expect(host.ui.status).toBe("Timebox: no time limit | 1 turn left (2/3)");
		host.runPrompt(4);
		expect(host.agent.aborts).toBe(0);
		expect(host.ui.status).toBe("Timebox: no time limit | 0 turns left (3/3)");

		host.controller.agentStart();
		host.controller.turnStart(true);
		expect(host.agent.aborts).toBe(1);
		expect(host.ui.messages("error")).toEqual([
			"Timebox budget spent. Used 3 turns, 0s. The agent stops for this turn. The chat continues.",
		]);
		expect(host.ui.status).toBe("Timebox: budget spent");
	});

	it("does not count the prompt that set the budget mid-run, nor jump when a message is typed mid-run", async () => {
		const host = createMemoryHost();
		await host.controller.sessionStart();
		host.controller.agentStart();
		host.controller.turnStart(true);
		host.transcript.userMessages = 1;
		await host.controller.command("turns:2");
		host.controller.turnStart(false);
		host.transcript.userMessages = 2; // a steering message arrives inside the run
		host.controller.turnStart(false);
		expect(host.ui.status).toBe("Timebox: no time limit | 2 turns left (0/2)");
		host.controller.agentEnd();
		expect(host.ui.status).toBe("Timebox: no time limit | 1 turn left (1/2)");
	});

	it("counts from the first turn when a run starts without a prompt", async () => {
		const host = await hostWith("turns:1");
		host.transcript.userMessages = 1;
		host.controller.turnStart(true);
		expect(host.agent.aborts).toBe(1);
		expect(host.ui.last?.message).toContain("Used 1 turn,");
	});

	it("nudges at 80% turns in the last allowed prompt's own system prompt, once", async () => {
		const host = await hostWith("turns:5");
		for (let i = 0; i < 4; i++) host.runPrompt(2);
		expect(host.ui.messages("warning")).toEqual([]);
		host.controller.agentStart();
		expect(host.ui.messages("warning")).toEqual([
			"Timebox warning: no time limit | 1 turn left (4/5). The agent is now asked to wrap up.",
		]);
		expect(host.agent.systemPromptAdditions).toHaveLength(1);
		expect(host.agent.systemPromptAdditions[0]).toContain("IMPORTANT TIMEBOX WARNING");
		expect(host.agent.systemPromptAdditions[0]).toContain("this is the last prompt the budget allows (4 of 5 used)");
		host.controller.turnStart(true);
		host.transcript.userMessages++;
		host.controller.turnStart(false);
		host.controller.agentEnd();
		expect(host.ui.messages("warning")).toHaveLength(1);
		expect(host.controller.currentBudget?.softNudgeSent).toBe(true);
		expect(host.agent.aborts).toBe(0);
	});

	it("adds the CRITICAL block from 95%", async () => {
		const host = await hostWith("turns:20");
		for (let i = 0; i < 19; i++) host.runPrompt();
		host.controller.agentStart();
		expect(host.agent.systemPromptAdditions.at(-1)?.split("\n")[0]).toBe("CRITICAL TIMEBOX WARNING");
		expect(host.ui.messages("warning")).toEqual([
			"Timebox warning: no time limit | 4 turns left (16/20). The agent is now asked to wrap up.",
		]);
	});
});

describe("time enforcement", () => {
	it("warns at 80% even while idle, and adds the warning to every later prompt", async () => {
		const host = await hostWith("10m");
		host.time.advance(8 * MINUTE);
		expect(host.ui.messages("warning")).toEqual([
			"Timebox warning: 2m 0s left (10m budget) | no turn limit. The agent is now asked to wrap up.",
		]);
		host.runPrompt();
		host.runPrompt();
		expect(host.agent.systemPromptAdditions).toHaveLength(2);
		expect(host.agent.systemPromptAdditions[0]).toContain("Time left: 2m 0s of 10m.");
		host.time.advance(1.6 * MINUTE);
		host.controller.agentStart();
		expect(host.agent.systemPromptAdditions.at(-1)).toMatch(/^CRITICAL TIMEBOX WARNING/);
		expect(host.ui.messages("warning")).toHaveLength(1);
	});

	it("stops at the deadline to the millisecond while idle: notify, run the command, nothing to abort", async () => {
		const host = await hostWith("2m -- lmk done");
		host.time.advance(2 * MINUTE - 1);
		expect(host.ui.messages("error")).toEqual([]);
		host.time.advance(1);
		expect(host.ui.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 2m 0s. The agent stops for this turn. The chat continues.",
		]);
		expect(host.onStop.commands).toEqual(["lmk done"]);
		expect(host.ui.messages("info").at(-1)).toBe("Timebox ran the on-stop command: lmk done");
		expect(host.agent.aborts).toBe(0);
		expect(host.ui.status).toBe("Timebox: budget spent");
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
		expect(host.controller.currentBudget?.active).toBe(false);
	});

	it("aborts a running prompt at the deadline and again at any later turn of that run", async () => {
		const host = await hostWith("1m");
		host.controller.agentStart();
		host.controller.turnStart(true);
		host.transcript.userMessages++;
		host.time.advance(MINUTE);
		expect(host.agent.aborts).toBe(1);
		host.controller.turnStart(false);
		expect(host.agent.aborts).toBe(2);
		host.controller.agentEnd();
		host.runPrompt();
		expect(host.agent.aborts).toBe(2);
		expect(host.ui.messages("error")).toHaveLength(1);
	});

	it("stops at the first turn when the clock passed the limit without the timers firing", async () => {
		const host = await hostWith("5m turns:9");
		host.time.jump(6 * MINUTE);
		host.controller.agentStart();
		expect(host.agent.aborts).toBe(0);
		host.controller.turnStart(true);
		expect(host.agent.aborts).toBe(1);
		expect(host.ui.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 6m 0s. The agent stops for this turn. The chat continues.",
		]);
	});

	it("fires the hard stop and the on-stop command once, whichever path sees the limit first", async () => {
		const host = await hostWith("turns:1 1m -- lmk");
		host.controller.agentStart();
		host.controller.turnStart(true);
		host.time.advance(MINUTE);
		host.controller.turnStart(false);
		host.time.advance(5 * MINUTE);
		host.controller.agentEnd();
		host.runPrompt();
		expect(host.ui.messages("error")).toHaveLength(1);
		expect(host.onStop.commands).toEqual(["lmk"]);
	});

	it("leaves the turn limit to prompts: the refresh does not stop a spent turn budget while idle", async () => {
		const host = await hostWith("turns:1");
		host.runPrompt();
		host.time.advance(10 * MINUTE);
		expect(host.ui.messages("error")).toEqual([]);
		expect(host.ui.status).toBe("Timebox: no time limit | 0 turns left (1/1)");
	});

	it("refreshes the status every second", async () => {
		const host = await hostWith("1m");
		const before = host.ui.statuses.length;
		host.time.advance(3 * STATUS_REFRESH_INTERVAL_MS);
		expect(host.ui.statuses.slice(before)).toEqual([
			"Timebox: 59s left (1m budget) | no turn limit",
			"Timebox: 58s left (1m budget) | no turn limit",
			"Timebox: 57s left (1m budget) | no turn limit",
		]);
	});

	it("arms the first check of the longest budget within what a timer can hold", async () => {
		const host = await hostWith("720h");
		expect(host.time.requestedDelays).toContain(24 * 24 * 60 * MINUTE);
		host.time.jump(24 * 24 * 60 * MINUTE - 1_000);
		host.time.advance(1_000);
		expect(host.ui.messages("warning")).toHaveLength(1);
		expect(host.ui.messages("error")).toEqual([]);
	});

	it("checks again when a checkpoint timer fires before the wall clock reaches it", async () => {
		const host = await hostWith("10s");
		host.time.jump(-500);
		host.time.advance(8_000);
		expect(host.ui.messages("warning")).toEqual([]);
		host.time.advance(600);
		expect(host.ui.messages("warning")).toHaveLength(1);
	});
});

describe("after the hard stop", () => {
	it("reports the spent budget on status, clears it on off, and lets the chat continue", async () => {
		const host = await hostWith("turns:1");
		host.runPrompt();
		host.runPrompt();
		await host.controller.command("status");
		expect(host.ui.last).toEqual({
			message:
				"Timebox budget spent. Used 1 turn, 0s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.",
			level: "info",
		});
		host.runPrompt();
		expect(host.agent.aborts).toBe(1);
		await host.controller.command("off");
		expect(host.store.records.at(-1)).toMatchObject({ kind: "off" });
		expect(host.ui.status).toBeUndefined();
	});

	it("reports an on-stop command that fails", async () => {
		const host = await hostWith("1s -- missing-program");
		host.time.advance(1_000);
		host.onStop.reports[0]?.('"missing-program" exited with code 127');
		expect(host.ui.last).toEqual({
			message: 'Timebox on-stop command failed: "missing-program" exited with code 127',
			level: "warning",
		});
	});

	it("never runs the on-stop command on a nudge or on off", async () => {
		const host = await hostWith("10m -- lmk");
		host.time.advance(9 * MINUTE);
		await host.controller.command("off");
		host.time.advance(60 * MINUTE);
		expect(host.onStop.commands).toEqual([]);
	});
});

describe("restore", () => {
	async function reopen(records: unknown[], userMessages = 0, advanceMs = 0) {
		const host = createMemoryHost();
		host.store.records.push(...records);
		host.transcript.userMessages = userMessages;
		host.time.jump(advanceMs);
		await host.controller.sessionStart();
		return host;
	}

	it("restores an active budget, shows the status and says what it restored", async () => {
		const host = await reopen(
			[{ kind: "active", budget: budget({ timeLimitMs: 15 * MINUTE, onStopCommand: "lmk" }) }],
			0,
			5 * MINUTE,
		);
		expect(host.ui.last).toEqual({
			message: "Timebox restored: 10m 0s left (15m budget) | no turn limit. On stop it runs: lmk",
			level: "info",
		});
		expect(host.ui.status).toBe("Timebox: 10m 0s left (15m budget) | no turn limit");
		expect(host.time.activeIntervals).toBe(1);
	});

	it("warns that an expired budget was not restored", async () => {
		const host = await reopen([{ kind: "active", budget: budget({ timeLimitMs: MINUTE }) }], 0, 2 * MINUTE);
		expect(host.ui.notifications).toEqual([
			{
				message: "Timebox budget of this session was already spent (time ran out), so it was not restored.",
				level: "warning",
			},
		]);
		expect(host.controller.currentBudget).toBeNull();
		expect(host.ui.status).toBeUndefined();
		expect(host.time.activeIntervals).toBe(0);
	});

	it("does not bring back a used-up turn budget, nor run its command again", async () => {
		const host = await reopen([{ kind: "active", budget: budget({ turnLimit: 2, onStopCommand: "lmk" }) }], 3);
		expect(host.ui.last?.message).toBe(
			"Timebox budget of this session was already spent (all 2 turns used), so it was not restored. Its on-stop command is not run on restore: lmk",
		);
		host.runPrompt();
		expect(host.agent.aborts).toBe(0);
		expect(host.onStop.commands).toEqual([]);
	});

	it("respects the most recent off", async () => {
		const host = await reopen([
			{ kind: "active", budget: budget({ turnLimit: 5 }) },
			{ kind: "off", disabledAt: 1 },
		]);
		expect(host.ui.notifications).toEqual([]);
		expect(host.controller.currentBudget).toBeNull();
	});

	it("re-derives the nudge at 85% so it does not warn again", async () => {
		const host = await reopen([{ kind: "active", budget: budget({ timeLimitMs: 20 * MINUTE }) }], 0, 17 * MINUTE);
		expect(host.controller.currentBudget?.softNudgeSent).toBe(true);
		host.time.advance(MINUTE);
		expect(host.ui.messages("warning")).toEqual([]);
		host.controller.agentStart();
		expect(host.agent.systemPromptAdditions).toHaveLength(1);
	});

	it("counts turns from the restored budget's start", async () => {
		const host = await reopen([{ kind: "active", budget: budget({ turnLimit: 5, startTurn: 2 }) }], 4);
		expect(host.ui.status).toBe("Timebox: no time limit | 3 turns left (2/5)");
	});

	it("tells the user once that the newest record was unreadable, and uses the one before", async () => {
		const host = await reopen([
			{ kind: "active", budget: budget({ turnLimit: 5 }) },
			{ kind: "active", budget: { turnLimit: "five" } },
		]);
		expect(host.ui.notifications[0]).toEqual({
			message:
				"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.",
			level: "warning",
		});
		expect(host.ui.status).toBe("Timebox: no time limit | 5 turns left (0/5)");
	});

	it("starts clean when the records cannot be read", async () => {
		const host = createMemoryHost();
		host.store.loadRecords = () => {
			throw new Error("unreadable");
		};
		await host.controller.sessionStart();
		expect(host.ui.last?.level).toBe("error");
		expect(host.controller.currentBudget).toBeNull();
	});
});

describe("session lifecycle", () => {
	it("clears state, timers and status on shutdown and writes nothing", async () => {
		const host = await hostWith("15m turns:3");
		host.controller.shutdown();
		expect(host.controller.currentBudget).toBeNull();
		expect(host.ui.status).toBeUndefined();
		expect(host.time.activeIntervals + host.time.activeTimeouts).toBe(0);
		expect(host.store.records).toHaveLength(1);
		host.time.advance(60 * MINUTE);
		expect(host.ui.messages("error")).toEqual([]);
	});

	it("keeps exactly one status timer however often a budget is set or restored", async () => {
		const host = await hostWith("15m");
		await host.controller.command("20m");
		await host.controller.sessionStart();
		await host.controller.sessionStart();
		await host.controller.command("turns:3");
		expect(host.time.activeIntervals).toBe(1);
	});

	it("reports an error in a handler once and keeps working", async () => {
		const host = await hostWith("turns:3");
		let failures = 2;
		host.transcript.countUserMessages = () => {
			if (failures-- > 0) throw new Error("transcript gone");
			return 0;
		};
		host.controller.agentStart();
		host.controller.agentStart();
		expect(host.ui.messages("error")).toEqual([
			"Timebox hit an internal error (before agent start): transcript gone. Your session goes on; check the budget with /timebox status.",
		]);
		await host.controller.command("status");
		expect(host.ui.last?.message).toContain("Timebox: no time limit | 3 turns left (0/3)");
	});

	it("survives a UI that throws", async () => {
		const host = await hostWith("1s -- lmk");
		host.ui.notify = () => {
			throw new Error("ui gone");
		};
		host.time.advance(1_000);
		expect(host.onStop.commands).toEqual(["lmk"]);
		expect(host.controller.currentBudget?.active).toBe(false);
	});
});
