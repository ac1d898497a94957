// Runs that no user sent, on the fake pi: a run an extension starts (`pi.sendMessage(…, { triggerTurn: true })`) never
// counts as a prompt, but its model calls are steps, its time and usage count and the budget stops it; and the tool
// calls a tool makes itself (pi 1.x's `ctx.executeTool()`, as codemode's scripts do) are refused like the model's own.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WRAP_UP_REFUSAL } from "../../../src/core/index.ts";
import { FakePi } from "./fake-pi.ts";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

async function startedPi(): Promise<FakePi> {
	return new FakePi().start();
}

describe("a run an extension started", () => {
	it("does not count as a prompt before the first one: turns:2 still answers two prompts and stops the third", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:2");
		const run = await pi.extensionRun("the build failed, look at it", { llmCalls: 2 });
		expect(run.aborted).toBe(false);
		expect(pi.screen.status).toBe("Timebox: no time limit | 2 turns left (0/2)");
		expect((await pi.prompt("one")).aborted).toBe(false);
		expect((await pi.prompt("two")).aborted).toBe(false);
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");
		expect((await pi.prompt("three")).aborted).toBe(true);
		expect(pi.screen.messages("error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 2 turns, 0s\. The agent stops for this turn\./),
		]);
	});

	it("between prompts is a run of its own: it counts no prompt and takes no step from the prompt before", async () => {
		const pi = await startedPi();
		await pi.timebox("turns:2 steps:2");
		await pi.prompt("one", { llmCalls: 2 });
		const run = await pi.extensionRun("tests finished", { llmCalls: 2 });
		expect(run.aborted).toBe(false);
		expect(run.toolsRun).toBe(1);
		expect(pi.screen.messages("warning")).toEqual([]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 1 turn left (1/2) | 2 steps per prompt");
		expect((await pi.prompt("two")).aborted).toBe(false);
	});

	it("has its model calls counted as steps: the call past the cap wraps it up", async () => {
		const pi = await startedPi();
		await pi.timebox("steps:2");
		const footer: (string | undefined)[] = [];
		const run = await pi.extensionRun("fix the lint errors", {
			llmCalls: 5,
			duringTool: () => {
				footer.push(pi.screen.status);
			},
		});
		expect(footer).toEqual([
			"Timebox: no time limit | no turn limit | step 1/2",
			"Timebox: no time limit | no turn limit | step 2/2",
		]);
		expect(run.toolsRun).toBe(2);
		expect(run.notes.at(-1)?.split("\n")[0]).toBe("TIMEBOX: STEPS SPENT");
		expect(run.aborted).toBe(true);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: this prompt used its 2 steps; the model was asked to finish.",
		]);
	});

	it("is stopped by the time limit mid-run, and its on-stop command runs", async () => {
		const pi = await startedPi();
		await pi.timebox("1m -- say done");
		const run = await pi.extensionRun("watch the deploy", {
			llmCalls: 4,
			duringTool: (call) => {
				if (call === 0) pi.time.advance(MINUTE);
			},
		});
		expect(run.aborted).toBe(true);
		expect(run.toolsRun).toBe(1);
		expect(pi.screen.messages("error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 1m 0s\. The agent stops for this turn\./),
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
	});

	it("uses the token budget: an answer over it stops the run before its tools run", async () => {
		const pi = await startedPi();
		await pi.timebox("tokens:1k");
		const usage = { input: 900, output: 300, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
		const run = await pi.extensionRun("summarise the logs", { llmCalls: 3, usage: () => usage });
		expect(run.aborted).toBe(true);
		expect(run.toolsRun).toBe(0);
		expect(pi.screen.messages("error")).toHaveLength(1);
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});
});

describe("a run an extension started, under a daily budget", () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), "timebox-extension-runs-"));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("takes none of today's prompts: a daily turns:2 still answers two prompts after it and refuses the third", async () => {
		const pi = new FakePi();
		pi.dailyDir = join(root, "state");
		pi.globalSettings = join(root, "settings.json");
		writeFileSync(pi.globalSettings, JSON.stringify({ timebox: { daily: "turns:2" } }));
		await pi.start();
		expect((await pi.extensionRun("the build failed, look at it", { llmCalls: 2 })).aborted).toBe(false);
		expect((await pi.prompt("one")).aborted).toBe(false);
		expect((await pi.prompt("two")).aborted).toBe(false);
		expect(await pi.prompt("three")).toMatchObject({ aborted: true, modelCalls: 0 });
		expect(pi.screen.messages("error")).toEqual([
			"Timebox: today's budget is spent (2 prompts). It resets at midnight.",
		]);
	});
});

describe("tool calls a tool makes (pi 1.x's ctx.executeTool, codemode)", () => {
	/** A tool call that a running tool makes, as pi 1.x emits it: with the calling tool's id. */
	async function nestedCall(pi: FakePi, parent: string, n: number): Promise<unknown> {
		return pi.instance.emit({
			type: "tool_call",
			toolName: "bash",
			toolCallId: `${parent}/${n}`,
			parentToolCallId: parent,
			input: { command: "echo nested" },
		});
	}

	it("are refused once the budget stopped the run, and the run is aborted", async () => {
		const pi = await startedPi();
		await pi.timebox("1m");
		const answers: unknown[] = [];
		const run = await pi.prompt("run a script", {
			llmCalls: 2,
			duringTool: async (call) => {
				answers.push(await nestedCall(pi, `t${call}`, 1));
				pi.time.advance(MINUTE);
				answers.push(await nestedCall(pi, `t${call}`, 2));
			},
		});
		expect(run.aborted).toBe(true);
		expect(answers[0]).toBeUndefined();
		expect(answers[1]).toEqual({
			block: true,
			reason: expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 1m 0s\./),
		});
	});

	it("are refused while the run wraps up in its grace period", async () => {
		const pi = await startedPi();
		await pi.timebox("1m grace:30s");
		const answers: unknown[] = [];
		const run = await pi.prompt("run a script", {
			llmCalls: 2,
			duringTool: async (call) => {
				pi.time.advance(MINUTE);
				answers.push(await nestedCall(pi, `t${call}`, 1));
			},
		});
		expect(answers).toEqual([{ block: true, reason: WRAP_UP_REFUSAL }]);
		expect(run.aborted).toBe(false);
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});
});
