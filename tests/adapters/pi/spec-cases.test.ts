// The pi adapter's behaviour, case by case as the shared contract numbers them (1 to 20), on a fake pi that keeps pi's
// event order and records what a user would see: notifications, the status, the entries written, the abort, the
// on-stop command, and what reached the model.

import { describe, expect, it } from "vitest";
import { BUDGET_IN_FORCE_PROMPT, USAGE } from "../../../src/core/index.ts";
import { MINUTE } from "../../support/budgets.ts";
import { BASE_SYSTEM_PROMPT, FakePi } from "./fake-pi.ts";

async function startedPi(options: ConstructorParameters<typeof FakePi>[0] = {}) {
	return new FakePi(options).start();
}

describe("the pi adapter's cases, numbered as the contract numbers them", () => {
	it("10.2 #1: /timebox 15m writes one timebox-active entry, notifies and sets the status", async () => {
		const pi = await startedPi();
		await pi.timebox("15m");
		expect(pi.file.custom("timebox-active")).toEqual([
			{
				version: 2,
				id: "budget-1",
				timeLimitMs: 15 * MINUTE,
				turnLimit: null,
				startTime: pi.time.now(),
				onStopCommand: null,
			},
		]);
		expect(pi.screen.last).toEqual({ message: "Timebox set: 15m.", level: "info" });
		expect(pi.screen.status).toBe("Timebox: 15m 0s left (15m budget) | no turn limit");
	});

	it("10.2 #2: /timebox turns:5 sets turnLimit 5", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:5");
		expect(pi.file.custom("timebox-active")).toEqual([
			{ version: 2, id: "budget-1", timeLimitMs: null, turnLimit: 5, startTime: pi.time.now(), onStopCommand: null },
		]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 5 turns left (0/5)");
	});

	it("10.2 #3: /timebox 15m turns:3 sets both limits", async () => {
		const pi = await startedPi();
		await pi.timebox("15m turns:3");
		expect(pi.file.custom("timebox-active")).toMatchObject([{ timeLimitMs: 15 * MINUTE, turnLimit: 3 }]);
		expect(pi.screen.status).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)");
	});

	it("10.2 #4: /timebox 15x warns, writes nothing and changes nothing", async () => {
		const pi = await startedPi();
		await pi.timebox("15x");
		expect(pi.screen.last?.level).toBe("warning");
		expect(pi.screen.last?.message).toContain('"15x" is not a budget word');
		expect(pi.screen.last?.message).toContain(USAGE);
		expect(pi.file.entries).toEqual([]);
		expect(pi.screen.status).toBeUndefined();
	});

	it("10.2 #5: /timebox status before and after setting", async () => {
		const pi = await startedPi();
		await pi.timebox("status");
		expect(pi.screen.last).toEqual({
			message: "No active timebox.\nSet one with /timebox 15m turns:3.",
			level: "info",
		});
		await pi.timebox("10m turns:2");
		pi.time.advance(61_000);
		await pi.timebox("status");
		expect(pi.screen.last).toEqual({
			message: "Timebox: 8m 59s left (10m budget) | 2 turns left (0/2)",
			level: "info",
		});
	});

	it("10.2 #6: /timebox off with an active budget writes timebox-off, clears the status and notifies", async () => {
		const pi = await startedPi();
		await pi.timebox("15m");
		await pi.timebox("off");
		expect(pi.file.custom("timebox-off")).toEqual([{ version: 2, budgetId: "budget-1", disabledAt: pi.time.now() }]);
		expect(pi.screen.status).toBeUndefined();
		expect(pi.screen.last).toEqual({ message: "Timebox off.", level: "info" });
	});

	it("10.2 #7: /timebox off with no budget notifies and writes nothing", async () => {
		const pi = await startedPi();
		await pi.timebox("off");
		expect(pi.screen.last).toEqual({ message: "No active timebox.", level: "info" });
		expect(pi.file.entries).toEqual([]);
	});

	it("10.2 #7: /timebox off after the budget was spent (no longer active) writes no timebox-off", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:1");
		await pi.prompt("one");
		await pi.prompt("two");
		expect(pi.screen.status).toBe("Timebox: budget spent");
		await pi.timebox("off");
		expect(pi.file.custom("timebox-off")).toEqual([]);
		expect(pi.screen.status).toBeUndefined();
	});

	it("10.2 #8: soft nudge at 80% time: warns once, softNudgeSent set", async () => {
		const pi = await startedPi();
		await pi.timebox("10m");
		pi.time.advance(8 * MINUTE);
		await pi.prompt("next step");
		await pi.prompt("and another");
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: 2m 0s left of 10m — the model will be told at its next call to wrap up.",
		]);
	});

	it("10.2 #9: soft nudge at 80% turns: the 5th prompt of turns:5 is warned, in every one of its model calls", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:5");
		for (let i = 1; i <= 4; i++) await pi.prompt(`prompt ${i}`, { llmCalls: 2 });
		expect(pi.screen.messages("warning")).toEqual([]);
		const fifth = await pi.prompt("prompt 5", { llmCalls: 3 });
		expect(pi.screen.messages("warning")).toEqual(["Timebox: 1 prompt left of 5 — the model is asked to wrap up."]);
		expect(fifth.notes).toHaveLength(3);
		for (const note of fifth.notes) expect(note).toContain("IMPORTANT TIMEBOX WARNING");
		expect(fifth.systemPrompt).toBe(BASE_SYSTEM_PROMPT + BUDGET_IN_FORCE_PROMPT);
		expect(fifth.aborted).toBe(false);
	});

	it("10.2 #10: before_agent_start adds to the system prompt only while a budget is in force, the same text every start", async () => {
		const pi = await startedPi();
		expect((await pi.prompt("before any budget")).systemPrompt).toBe(BASE_SYSTEM_PROMPT);
		await pi.timebox("10m");
		const first = await pi.prompt("one");
		pi.time.advance(8 * MINUTE);
		const warned = await pi.prompt("two");
		expect(first.systemPrompt).toBe(BASE_SYSTEM_PROMPT + BUDGET_IN_FORCE_PROMPT);
		expect(warned.systemPrompt).toBe(first.systemPrompt);
		await pi.timebox("off");
		expect((await pi.prompt("after")).systemPrompt).toBe(BASE_SYSTEM_PROMPT);
	});

	it("10.2 #10: after the nudge, the model call ends with the warning and the details, never written to the session", async () => {
		const pi = await startedPi();
		await pi.timebox("10m turns:5");
		pi.time.advance(8 * MINUTE);
		const { notes, systemPrompt } = await pi.prompt("go on");
		expect(systemPrompt).toBe(BASE_SYSTEM_PROMPT + BUDGET_IN_FORCE_PROMPT);
		expect(notes[0]?.startsWith("IMPORTANT TIMEBOX WARNING")).toBe(true);
		expect(notes[0]).toContain("Time left: 2m 0s of 10m.");
		expect(notes[0]).toContain("Turns left: 5 prompts, this one included (0 of 5 used).");
		expect(notes[0]).toContain("Wrap up now");
		expect(JSON.stringify(pi.file.entries)).not.toContain("TIMEBOX WARNING");
	});

	it("10.2 #11: at 95% the injected prompt says CRITICAL TIMEBOX WARNING", async () => {
		const pi = await startedPi();
		await pi.timebox("20m");
		pi.time.advance(19 * MINUTE);
		const { notes } = await pi.prompt("still there?");
		expect(notes[0]).toContain("CRITICAL TIMEBOX WARNING");
	});

	it("10.2 #12: hard stop on time mid-run: error notify, abort, budget inactive, status timer stopped", async () => {
		const pi = await startedPi();
		await pi.timebox("5m");
		const run = await pi.prompt("long job", { llmCalls: 3, duringTool: () => pi.time.advance(5 * MINUTE) });
		expect(run.aborted).toBe(true);
		expect(pi.instance.aborts).toBe(1);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 5m 0s. The agent stops for this turn. The chat continues.",
		]);
		expect(pi.screen.status).toBe("Timebox: budget spent");
		expect(pi.time.activeIntervals + pi.time.activeTimeouts).toBe(0);
	});

	it("10.2 #12: a turn_start finds the time ran out before any timer fired: the stop comes there, once", async () => {
		const pi = await startedPi();
		await pi.timebox("5m -- lmk");
		pi.time.jump(6 * MINUTE);
		await pi.instance.emit({ type: "turn_start", turnIndex: 0, timestamp: pi.time.now() });
		expect(pi.instance.aborts).toBe(1);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
		await pi.instance.emit({ type: "turn_start", turnIndex: 1, timestamp: pi.time.now() });
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("10.2 #13: hard stop on turns: prompt limit+1 is stopped at its first turn", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:2");
		expect((await pi.prompt("one", { llmCalls: 3 })).aborted).toBe(false);
		expect((await pi.prompt("two", { llmCalls: 3 })).aborted).toBe(false);
		const third = await pi.prompt("three", { llmCalls: 3 });
		expect(third.aborted).toBe(true);
		expect(pi.instance.aborts).toBe(1);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 2 turns, 0s. The agent stops for this turn. The chat continues.",
		]);
		// The stop is said below the prompt it stopped, once its run has ended.
		expect(pi.screen.timeline.slice(-3)).toEqual([
			"prompt: three",
			"Operation aborted",
			"error: Timebox budget spent. Used 2 turns, 0s. The agent stops for this turn. The chat continues.",
		]);
	});

	it("10.2 #14: restores an active budget on reload: state, status and an info notification", async () => {
		const pi = await startedPi();
		await pi.timebox("15m turns:4 -- lmk done");
		await pi.prompt("one");
		pi.time.advance(5 * MINUTE);
		await pi.replaceSession("reload");
		expect(pi.screen.last).toEqual({
			message: "Timebox restored: 10m 0s left (15m budget) | 3 turns left (1/4). On stop it runs: lmk done",
			level: "info",
		});
		expect(pi.screen.status).toBe("Timebox: 10m 0s left (15m budget) | 3 turns left (1/4)");
	});

	it("10.2 #15: does not restore an expired budget and warns", async () => {
		const pi = await startedPi();
		await pi.timebox("2m");
		await pi.replaceSession("reload");
		pi.time.jump(3 * MINUTE);
		await pi.replaceSession("reload");
		expect(pi.screen.last).toEqual({
			message: "Timebox budget of this session was already spent (time ran out), so it was not restored.",
			level: "warning",
		});
		expect(pi.screen.status).toBeUndefined();
		expect(pi.time.activeIntervals).toBe(0);
	});

	it("10.2 #16: restore respects the most recent off", async () => {
		const pi = await startedPi();
		await pi.timebox("15m");
		await pi.timebox("off");
		const before = pi.screen.notifications.length;
		await pi.replaceSession("reload");
		expect(pi.screen.notifications.length).toBe(before);
		expect(pi.screen.status).toBeUndefined();
	});

	it("10.2 #17: restore re-derives the nudge at 85% elapsed", async () => {
		const pi = await startedPi();
		await pi.timebox("20m");
		await pi.replaceSession("reload");
		pi.time.jump(17 * MINUTE);
		await pi.replaceSession("reload");
		pi.time.advance(MINUTE);
		expect(pi.screen.messages("warning")).toEqual([]);
		expect((await pi.prompt("hi")).notes[0]).toContain("IMPORTANT TIMEBOX WARNING");
	});

	it("10.2 #18: shutdown clears state, stops the timer, clears the status and writes nothing", async () => {
		const pi = await startedPi();
		await pi.timebox("15m");
		const entries = pi.file.entries.length;
		const instance = pi.instance;
		await instance.emit({ type: "session_shutdown", reason: "quit" });
		expect(pi.screen.status).toBeUndefined();
		// The in-memory budget is gone: the instance adds nothing to a system prompt any more.
		expect(
			await instance.emit({ type: "before_agent_start", prompt: "x", systemPrompt: BASE_SYSTEM_PROMPT }),
		).toBeUndefined();
		expect(pi.time.activeIntervals + pi.time.activeTimeouts).toBe(0);
		expect(pi.file.entries.length).toBe(entries);
	});

	it("10.2 #19: starting the timer is idempotent: one interval however often a budget is set", async () => {
		const pi = await startedPi();
		await pi.timebox("15m");
		await pi.timebox("20m");
		await pi.timebox("turns:3");
		expect(pi.time.activeIntervals).toBe(1);
	});

	it("10.2 #20: replacing a budget while active resets softNudgeSent", async () => {
		const pi = await startedPi();
		await pi.timebox("10m");
		pi.time.advance(9 * MINUTE);
		await pi.timebox("10m");
		const { notes } = await pi.prompt("fresh start");
		expect(notes).toEqual([null]);
		expect(pi.screen.last?.message).toBe("Timebox set: 10m. It replaces the previous budget.");
	});
});
