// The step cap on the fake pi: at most N model calls per prompt, then one wrap-up call that must answer in text; the
// next prompt starts afresh; the footer shows the step; the model is warned from 80%; "ask" offers to go on.
// Guards a runaway loop that never ends, and a cap that throws away the work.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MessageLike, stepOfCall } from "../../../src/adapters/pi/prompt-key.ts";
import { FakePi } from "./fake-pi.ts";

const REFUSAL =
	"Timebox: this prompt used its 3 steps. Write the final answer now, with what was done and what is left, without tools.";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-steps-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function piWith(timebox: Record<string, unknown> = {}): Promise<FakePi> {
	const pi = new FakePi();
	pi.globalSettings = join(root, "settings.json");
	writeFileSync(pi.globalSettings, JSON.stringify({ timebox }));
	return pi.start();
}

describe("steps:N on pi", () => {
	it("runs the tools of N calls, gives call N+1 the wrap-up notice, and lets a text answer end the run", async () => {
		const pi = await piWith();
		await pi.timebox("steps:3");
		expect(pi.screen.last?.message).toBe("Timebox set: 3 steps per prompt.");
		const footer: (string | undefined)[] = [];
		const run = await pi.prompt("loop", {
			llmCalls: 4,
			duringTool: () => {
				footer.push(pi.screen.status);
			},
		});
		expect(run.toolsRun).toBe(3);
		expect(run.aborted).toBe(false);
		expect(run.notes.map((note) => note?.split("\n")[0] ?? null)).toEqual([
			null,
			null,
			"CRITICAL TIMEBOX WARNING",
			"TIMEBOX: STEPS SPENT",
		]);
		expect(run.notes[2]).toContain("Steps: this is model call 3 of the 3 this prompt may make.");
		expect(footer).toEqual([
			"Timebox: no time limit | no turn limit | step 1/3",
			"Timebox: no time limit | no turn limit | step 2/3",
			"Timebox: no time limit | no turn limit | step 3/3",
		]);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: this prompt used its 3 steps; the model was asked to finish.",
		]);
		expect(pi.screen.status).toBe("Timebox: no time limit | no turn limit | 3 steps per prompt");
		expect(pi.runner.commands).toEqual([]);
	});

	it("refuses a tool the wrap-up call asks for and ends the run there, with no further call", async () => {
		const pi = await piWith();
		await pi.timebox("steps:3 -- say done");
		const run = await pi.prompt("loop", { llmCalls: 8 });
		expect(run.modelCalls).toBe(4);
		expect(run.toolsRun).toBe(3);
		expect(run.refusals).toEqual([REFUSAL]);
		expect(run.aborted).toBe(true);
		expect(pi.runner.commands).toEqual([]);
		const next = await pi.prompt("again", { llmCalls: 3 });
		expect(next.toolsRun).toBe(2);
		expect(next.aborted).toBe(false);
	});

	it("names the cap in /timebox status", async () => {
		const pi = await piWith();
		await pi.timebox("30m steps:25");
		await pi.timebox("status");
		expect(pi.screen.last?.message).toBe("Timebox: 30m 0s left (30m budget) | no turn limit | 25 steps per prompt");
	});

	it("asks at the cap with onLimit ask: continue goes on without aborting", async () => {
		const pi = await piWith({ onLimit: "ask" });
		await pi.timebox("steps:2");
		pi.screen.answers.push("Continue with 2 more steps");
		const run = await pi.prompt("loop", { llmCalls: 4 });
		expect(pi.screen.questions.map((question) => question.title)).toEqual([
			"This prompt used its 2 steps. Stop now, or continue with 2 more?",
		]);
		expect(run.aborted).toBe(false);
		expect(run.toolsRun).toBe(3);
	});

	it("asks at the cap with onLimit ask: stop ends the run", async () => {
		const pi = await piWith({ onLimit: "ask" });
		await pi.timebox("steps:2");
		pi.screen.answers.push("Stop now");
		const run = await pi.prompt("loop", { llmCalls: 4 });
		expect(run.aborted).toBe(true);
		expect(run.modelCalls).toBe(2);
		expect(pi.screen.messages("warning")).toEqual(["Timebox: this prompt used its 2 steps and was stopped."]);
	});

	it("caps a session from a default", async () => {
		const pi = new FakePi();
		pi.env = { PI_TIMEBOX: "steps:2" };
		await pi.start();
		const run = await pi.prompt("loop", { llmCalls: 6 });
		expect(run.modelCalls).toBe(3);
		expect(run.aborted).toBe(true);
	});
});

describe("which call of its run a model call is", () => {
	const user = (text: string): MessageLike => ({ role: "user", content: text, timestamp: 1 });
	const answer = (stopReason = "toolUse"): MessageLike => ({ role: "assistant", content: [], stopReason });
	const result: MessageLike = { role: "toolResult", content: [] };
	const extension: MessageLike = { role: "custom", content: "check the build", timestamp: 2 };

	it.each([
		["the prompt's first call", [answer("stop"), user("go")], 1],
		["the call after one tool", [user("go"), answer(), result], 2],
		["a call after a steering message", [user("go"), answer(), result, user("steer"), answer(), result], 3],
		["a follow-up's first call", [user("go"), answer("stop"), user("follow-up")], 1],
		["a retry after a provider error", [user("go"), answer(), result, answer("error")], 2],
		["the first call of a run an extension started", [user("go"), answer("stop"), extension], 1],
		["a later call of a run an extension started", [user("go"), answer("stop"), extension, answer(), result], 2],
		["a call after an extension's steering message", [user("go"), answer(), result, extension, answer(), result], 3],
		["a prompt's call with an extension's message beside it", [user("go"), extension, answer(), result], 2],
	])("counts %s", (_name, messages, step) => {
		expect(stepOfCall(messages as MessageLike[])).toBe(step);
	});
});
