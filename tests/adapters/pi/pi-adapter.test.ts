// The pi adapter against a fake pi that keeps pi's event order: commands, prompts, re-runs, forks, reloads and time.
// Guards the failure that matters most: a limit that silently fails to fire, or fires on the wrong prompt.

import { describe, expect, it } from "vitest";
import { budget, MINUTE } from "../../support/budgets.ts";
import { FakeTime } from "../../support/fake-time.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

async function startedPi(options: ConstructorParameters<typeof FakePi>[0] = {}) {
	return new FakePi(options).start();
}

describe("pi's real event order", () => {
	it("lets the N allowed prompts run to completion with tool calls and shows the held count mid-run", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:5");
		await pi.prompt("one");
		await pi.prompt("two");
		const seen: (string | undefined)[] = [];
		await pi.prompt("three", { llmCalls: 4, duringTool: () => void seen.push(pi.screen.status) });
		expect(seen).toEqual([
			"Timebox: no time limit | 3 turns left (2/5)",
			"Timebox: no time limit | 3 turns left (2/5)",
			"Timebox: no time limit | 3 turns left (2/5)",
		]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 2 turns left (3/5)");
		expect(pi.instance.aborts).toBe(0);
	});

	it("counts a steering message as part of the prompt it steers, without a jump mid-run", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:3");
		const seen: (string | undefined)[] = [];
		await pi.prompt("one", {
			llmCalls: 3,
			duringTool: (call) => {
				if (call === 0) pi.steer("also check the tests");
				seen.push(pi.screen.status);
			},
		});
		expect(seen).toEqual([
			"Timebox: no time limit | 3 turns left (0/3)",
			"Timebox: no time limit | 3 turns left (0/3)",
		]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 2 turns left (1/3)");
		await pi.prompt("two");
		expect((await pi.prompt("three")).aborted).toBe(false);
		expect((await pi.prompt("four")).aborted).toBe(true);
	});

	it("counts a follow-up delivered after the last allowed answer as a prompt, and stops it", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:2 -- lmk");
		await pi.prompt("one");
		const run = await pi.prompt("two", { llmCalls: 2, followUp: "and one more thing" });
		expect(run.aborted).toBe(true);
		expect(run.modelCalls).toBe(2);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 2 turns, 0s. The agent stops for this turn. The chat continues.",
		]);
		expect(pi.screen.statusUpdates.filter((text) => text?.includes("/2)"))).not.toContainEqual(
			expect.stringContaining("(3/2)"),
		);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("treats pi's re-run of a prompt (auto-retry, overflow compaction) as the same prompt", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:2");
		await pi.prompt("one");
		const seen: (string | undefined)[] = [];
		await pi.prompt("two");
		const rerun = await pi.rerun({ llmCalls: 2, duringTool: () => void seen.push(pi.screen.status) });
		expect(rerun.aborted).toBe(false);
		expect(seen).toEqual(["Timebox: no time limit | 1 turn left (1/2)"]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");
		expect(pi.screen.messages("error")).toEqual([]);
		expect((await pi.prompt("three")).aborted).toBe(true);
	});

	it("refuses a tool call once the time ran out after the model asked for it, with the stop message", async () => {
		const pi = await startedPi();
		await pi.timebox("1m -- lmk");
		const run = await pi.prompt("one", { llmCalls: 2, beforeTool: () => pi.time.jump(2 * MINUTE) });
		expect(run.refusals).toEqual([
			"Timebox budget spent. Used 0 turns, 2m 0s. The agent stops for this turn. The chat continues.",
		]);
		expect(run.toolsRun).toBe(0);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("refuses a re-run of the prompt a time stop ended while pi waited to retry it", async () => {
		const pi = await startedPi();
		await pi.timebox("2s -- lmk");
		await pi.prompt("one");
		pi.time.advance(2_000);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.instance.aborts).toBe(1);
		const rerun = await pi.rerun({ llmCalls: 2 });
		expect(rerun).toMatchObject({ aborted: true, modelCalls: 0, toolsRun: 0 });
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
		expect((await pi.prompt("two", { llmCalls: 2 })).aborted).toBe(false);
	});

	it("stops an idle session at the deadline: notify, run the command, and cancel any re-run pi has pending", async () => {
		const pi = await startedPi();
		await pi.timebox("1m -- notify-send done");
		pi.time.advance(MINUTE);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["notify-send done"]);
		expect(pi.instance.aborts).toBe(1);
	});

	it("does not stop or run the command a second time after reopening a spent session", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:1 -- lmk");
		await pi.prompt("one");
		expect((await pi.prompt("two")).aborted).toBe(true);
		await pi.replaceSession("resume");
		expect(pi.screen.last?.message).toBe(
			"Timebox budget of this session was already spent (all 1 turn used), so it was not restored. Its on-stop command was started at its stop, and is not run again: lmk",
		);
		expect((await pi.prompt("three")).aborted).toBe(false);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("keeps exactly one status timer and no live handler on a dead session across 50 replacements", async () => {
		const pi = await startedPi();
		await pi.timebox("15m turns:9");
		const reasons = ["new", "resume", "reload", "fork"] as const;
		const original = pi.file;
		for (let i = 0; i < 50; i++) {
			const reason = reasons[i % reasons.length] ?? "reload";
			await pi.replaceSession(reason, reason === "new" ? new FakeSessionFile() : original);
		}
		await pi.replaceSession("resume", original);
		expect(pi.time.activeIntervals).toBe(1);
		const before = pi.screen.notifications.length;
		pi.time.advance(16 * MINUTE);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 15m 0s, while the agent was idle. The chat continues.",
		]);
		expect(pi.screen.notifications.slice(before).filter((n) => n.level === "error")).toHaveLength(1);
		expect(pi.instances.filter((instance) => instance.stale)).toHaveLength(51);
	});

	it("stops nothing and runs no command for a session disposed without session_shutdown (SDK dispose)", async () => {
		const pi = await startedPi();
		await pi.timebox("1m -- lmk");
		const before = pi.screen.notifications.length;
		pi.instance.stale = true;
		pi.time.advance(2 * MINUTE);
		expect(pi.runner.commands).toEqual([]);
		expect(pi.screen.notifications.length).toBe(before);
		expect(pi.time.activeIntervals).toBe(0);
	});

	it("warns at 80% of the time exactly, between two status refreshes", async () => {
		const pi = await startedPi();
		await pi.timebox("3s");
		pi.time.advance(2_399);
		expect(pi.screen.messages("warning")).toEqual([]);
		pi.time.advance(1);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: 1s left of 3s — the model will be told at its next call to wrap up.",
		]);
	});

	it("counts the time down in the footer every second", async () => {
		const pi = await startedPi();
		await pi.timebox("1m");
		pi.time.advance(1_000);
		expect(pi.screen.status).toBe("Timebox: 59s left (1m budget) | no turn limit");
		pi.time.advance(1_000);
		expect(pi.screen.status).toBe("Timebox: 58s left (1m budget) | no turn limit");
	});

	it("counts the prompts of the branch /tree moved to, not those of other branches", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:3");
		const branchPoint = pi.file.leafId;
		await pi.prompt("one");
		await pi.prompt("two");
		pi.file.leafId = branchPoint;
		const before = pi.screen.notifications.length;
		await pi.instance.emit({ type: "session_tree", newLeafId: branchPoint, oldLeafId: null });
		expect(pi.screen.notifications).toHaveLength(before);
		expect(pi.screen.status).toBe("Timebox: no time limit | 3 turns left (0/3)");
		await pi.prompt("one, rewritten");
		expect(pi.screen.status).toBe("Timebox: no time limit | 2 turns left (1/3)");
	});

	it("gives a clone the budget of its path and the prompts used on it, and stops at the right prompt", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:3 -- lmk");
		await pi.prompt("one");
		await pi.replaceSession("fork", pi.file.fork(pi.file.leafId as string, "at"));
		expect(pi.screen.last).toEqual({
			message: "Timebox restored: no time limit | 2 turns left (1/3). On stop it runs: lmk",
			level: "info",
		});
		expect((await pi.prompt("two")).aborted).toBe(false);
		expect((await pi.prompt("three")).aborted).toBe(false);
		expect((await pi.prompt("four")).aborted).toBe(true);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("keeps a spent budget spent in a fork made from before it was spent, and never runs its command again", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:1 -- lmk");
		const firstPrompt = pi.file.entries.length + 1;
		await pi.prompt("one");
		expect((await pi.prompt("two")).aborted).toBe(true);
		await pi.replaceSession("fork", pi.file.fork(`e${firstPrompt}`, "before"));
		expect(pi.screen.last?.message).toMatch(/^Timebox budget of this session was already spent \(/);
		expect(pi.screen.status).toBeUndefined();
		expect((await pi.prompt("one again")).aborted).toBe(false);
		expect((await pi.prompt("two again")).aborted).toBe(false);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("keeps a budget turned off off in a clone of a branch that never saw the off", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:1 -- lmk");
		await pi.prompt("one");
		const branchPoint = pi.file.leafId as string;
		await pi.timebox("off");
		await pi.replaceSession("fork", pi.file.fork(branchPoint, "at"));
		expect(pi.screen.status).toBeUndefined();
		expect((await pi.prompt("two")).aborted).toBe(false);
		expect((await pi.prompt("three")).aborted).toBe(false);
		expect(pi.runner.commands).toEqual([]);
	});

	it("never acts from an instance a reload replaced, whatever order the command and the reload arrive in", async () => {
		const pi = await startedPi();
		const old = pi.instance;
		const command = old.commands.get("timebox");
		await pi.replaceSession("reload");
		old.stale = false;
		await command?.handler("1s -- lmk", old.context());
		old.stale = true;
		expect(pi.screen.last).toEqual({
			message:
				"Timebox: the session was reloaded or replaced while this /timebox command ran, so nothing changed. Type it again.",
			level: "warning",
		});
		pi.time.advance(5_000);
		expect(pi.screen.messages("error")).toEqual([]);
		expect(pi.runner.commands).toEqual([]);
		await pi.timebox("1s -- lmk");
		await pi.replaceSession("reload");
		pi.time.advance(5_000);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("shows the restored budget again once pi has printed its own reload line over it", async () => {
		const pi = await startedPi();
		await pi.timebox("10m -- lmk");
		await pi.replaceSession("reload");
		const restored = "Timebox restored: 10m 0s left (10m budget) | no turn limit. On stop it runs: lmk";
		expect(pi.screen.last).toEqual({ message: restored, level: "info" });
		pi.screen.notifications.push({
			message: "Reloaded keybindings, extensions, skills, prompts, themes",
			level: "info",
		});
		pi.time.advance(500);
		expect(pi.screen.last).toEqual({
			message: "Timebox restored: 10m 0s left (10m budget) | no turn limit. On stop it runs: lmk",
			level: "info",
		});
		expect(pi.screen.messages().filter((message) => message === restored)).toHaveLength(2);
	});

	it("shows nothing from an instance a reload shut down: 20 quick reloads show the restored budget 20 times and once again", async () => {
		const pi = await startedPi();
		await pi.timebox("10m -- lmk");
		for (let reload = 0; reload < 20; reload++) {
			await pi.reload();
			pi.time.advance(100);
		}
		pi.time.advance(500);
		// One notice per instance as it starts, and the second showing of the last one only.
		const restored = pi.screen.messages().filter((message) => message.startsWith("Timebox restored: "));
		expect(restored).toHaveLength(21);
		expect(pi.screen.last).toEqual({
			message: "Timebox restored: 9m 59s left (10m budget) | no turn limit. On stop it runs: lmk",
			level: "info",
		});
	});

	it("starts a new session without the old budget", async () => {
		const pi = await startedPi();
		await pi.timebox("15m");
		await pi.replaceSession("new", new FakeSessionFile());
		expect(pi.screen.status).toBeUndefined();
		expect(pi.time.activeIntervals).toBe(0);
	});
});

describe("without a UI (print mode, JSON mode, SDK)", () => {
	it("enforces the budget and writes the notifications to the fallback, never the status", async () => {
		const pi = await startedPi({ hasUI: false });
		await pi.timebox("turns:1");
		await pi.prompt("one");
		expect((await pi.prompt("two")).aborted).toBe(true);
		expect(pi.screen.notifications).toEqual([]);
		expect(pi.screen.statusUpdates).toEqual([]);
		expect(pi.screen.fallbackLines).toEqual([
			"[timebox] info: Timebox set: 1 turn.",
			"[timebox] error: Timebox budget spent. Used 1 turn, 0s. The agent stops for this turn. The chat continues.",
		]);
	});
});

describe("restore from a session file edited by hand", () => {
	it("skips damaged entries, tells the user once, and never shows NaN", async () => {
		const file = new FakeSessionFile();
		const time = new FakeTime();
		file.appendCustom("timebox-active", budget({ turnLimit: 3, startTime: time.now() }));
		file.appendCustom("timebox-active", { turnLimit: "3", startTime: null });
		const pi = await startedPi({ file, time });
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox could not read the newest budget record in this session (damaged or from a newer version) and skipped it.",
		]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 3 turns left (0/3)");
	});

	it("honours a timebox-off entry whatever its data", async () => {
		const file = new FakeSessionFile();
		file.appendCustom("timebox-active", budget({ turnLimit: 3 }));
		file.appendCustom("timebox-off", null);
		const pi = await startedPi({ file });
		expect(pi.screen.notifications).toEqual([]);
		expect(pi.screen.status).toBeUndefined();
	});
});
