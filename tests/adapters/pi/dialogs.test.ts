// The questions Timebox asks in pi's interactive UI, on the fake pi: before a new budget replaces an active one, and,
// with onLimit "ask", at the limit (stop now, 5 more minutes, 1 more prompt). Guards a dialog that changes a budget
// the user kept, or a limit that no longer stops when nobody answers.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MINUTE } from "../../support/budgets.ts";
import { FakePi } from "./fake-pi.ts";

let root: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-dialogs-"));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A fake pi whose user settings say `onLimit`. */
async function piAskingAtLimit(onLimit: unknown = "ask", hasUI = true): Promise<FakePi> {
	const pi = new FakePi({ hasUI });
	pi.globalSettings = join(root, "settings.json");
	writeFileSync(pi.globalSettings, JSON.stringify({ timebox: { onLimit } }));
	return pi.start();
}

describe("asking before replacing an active budget", () => {
	it("asks, and keeping the budget changes nothing", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("15m turns:3");
		pi.screen.answers.push("Keep it");
		await pi.timebox("5m");
		expect(pi.screen.questions).toEqual([
			{
				title: "Replace the active budget (15m 0s left | 3 turns left)?",
				options: ["Replace it", "Keep it"],
				timeout: 30_000,
			},
		]);
		expect(pi.screen.last).toEqual({ message: "Nothing changed: the active budget stays.", level: "info" });
		expect(pi.screen.status).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)");
		expect(pi.file.custom("timebox-active")).toHaveLength(1);
	});

	it("keeps the active budget when nobody answers within the question's 30 s", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("15m turns:3");
		pi.screen.answers.push(undefined);
		await pi.timebox("5m");
		expect(pi.screen.questions.map((question) => question.timeout)).toEqual([30_000]);
		expect(pi.screen.last).toEqual({ message: "Nothing changed: the active budget stays.", level: "info" });
		expect(pi.screen.status).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)");
	});

	it("replaces when the user says so, and without asking when there is no UI", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("15m");
		pi.screen.answers.push("Replace it");
		await pi.timebox("5m");
		expect(pi.screen.last).toEqual({ message: "Timebox set: 5m. It replaces the previous budget.", level: "info" });
		const printMode = await new FakePi({ hasUI: false }).start();
		await printMode.timebox("15m");
		await printMode.timebox("5m");
		expect(printMode.screen.questions).toEqual([]);
		expect(printMode.screen.fallbackLines.at(-1)).toBe(
			"[timebox] info: Timebox set: 5m. It replaces the previous budget.",
		);
	});
});

describe("asking at the limit (onLimit: ask)", () => {
	it("offers to stop, or go on with more; one more prompt lets the prompt that reached the limit run", async () => {
		const pi = await piAskingAtLimit();
		await pi.timebox("turns:1 -- lmk");
		await pi.prompt("one");
		pi.screen.answers.push("+1 prompt");
		const second = await pi.prompt("two", { llmCalls: 2 });
		expect(pi.screen.questions.at(-1)).toEqual({
			title: "Timebox budget spent (used 1 turn, 0s). Stop now, or go on with more?",
			options: ["Stop now", "+5 minutes", "+1 prompt"],
			timeout: 30_000,
		});
		expect(second).toMatchObject({ aborted: false, toolsRun: 1 });
		expect(pi.screen.messages("error")).toEqual([]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");
		expect(pi.runner.commands).toEqual([]);
	});

	it("stops when the user chooses to, or when nobody answers in time", async () => {
		const pi = await piAskingAtLimit();
		await pi.timebox("turns:1 -- lmk");
		await pi.prompt("one");
		pi.screen.answers.push(undefined);
		expect((await pi.prompt("two")).aborted).toBe(true);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 1 turn, 0s. The agent stops for this turn. The chat continues.",
		]);
		expect(pi.runner.commands).toEqual(["lmk"]);
	});

	it("asks when the time runs out during a tool, and five more minutes let the run go on", async () => {
		const pi = await piAskingAtLimit();
		await pi.timebox("1m");
		pi.screen.answers.push("+5 minutes");
		const run = await pi.prompt("one", {
			llmCalls: 3,
			duringTool: (call) => {
				if (call === 0) pi.time.advance(2 * MINUTE);
			},
		});
		expect(pi.screen.questions.map((question) => question.options[1])).toEqual(["+5 minutes"]);
		expect(run).toMatchObject({ aborted: false, toolsRun: 2 });
		expect(pi.screen.status).toBe("Timebox: 4m 0s left (6m budget) | no turn limit");
	});

	it("stops as usual without a UI, and names an onLimit it does not know", async () => {
		const printMode = await piAskingAtLimit("ask", false);
		await printMode.timebox("turns:1");
		await printMode.prompt("one");
		expect((await printMode.prompt("two")).aborted).toBe(true);
		expect(printMode.screen.questions).toEqual([]);
		const odd = await piAskingAtLimit("later");
		expect(odd.screen.messages("warning")).toEqual([
			`Timebox: timebox.onLimit in ${join(root, "settings.json")}: "later" is neither "stop" nor "ask", so Timebox stops at the limit.`,
		]);
	});
});
