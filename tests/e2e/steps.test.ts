// The step cap on real pi, with a scripted model that loops on bash: N calls run their tools, call N+1 carries the
// wrap-up notice, a text answer ends the run normally, a tool asked for then is refused and ends it, the next prompt
// starts afresh, a retried call counts once, "ask" offers to go on, and `PI_TIMEBOX="steps:2"` caps `pi -p`. And the
// loop guard, loop:N, which ends a run the same way when the model asks for the same tool call again and again.

import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Context, FauxResponseStep } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../support/processes.ts";
import {
	bashCall,
	budgetNote,
	OVERLOADED_ERROR,
	providerError,
	RealPi,
	recordStatusAt,
	retrySettings,
	sleep,
	textAnswer,
} from "./support/real-pi.ts";

const REFUSAL =
	"Timebox: this prompt used its 3 steps. Write the final answer now, with what was done and what is left, without tools.";

let host: RealPi;
beforeEach(() => {
	host = new RealPi();
});
afterEach(async () => {
	await host.dispose();
});

/** Records the budget note of each call it answers, then answers as `step` says. */
function noted(notes: (string | null)[], step: FauxResponseStep): FauxResponseStep {
	return (context: Context, options, state, model) => {
		notes.push(budgetNote(context)?.split("\n")[0] ?? null);
		return typeof step === "function" ? step(context, options, state, model) : step;
	};
}

describe("steps:N on real pi", () => {
	it("runs 3 calls' tools, gives the 4th the wrap-up notice, and lets its text answer end the run", async () => {
		const pi = await host.start();
		const statuses = recordStatusAt(pi.session, pi.screen, ["tool_execution_start"]);
		const notes: (string | null)[] = [];
		host.faux.setResponses([
			...Array.from({ length: 3 }, () => noted(notes, bashCall("echo step"))),
			noted(notes, textAnswer("Done: three steps. Left: the rest.")),
		]);
		await pi.timebox("steps:3");
		await pi.prompt("loop until told otherwise");
		const run = pi.promptRun(1);
		expect(run.toolResults.filter((result) => !result.isError)).toHaveLength(3);
		expect(run.assistant.at(-1)?.stopReason).toBe("stop");
		expect(notes).toEqual([null, null, "CRITICAL TIMEBOX WARNING", "TIMEBOX: STEPS SPENT"]);
		expect(statuses.map((sample) => sample.status)).toEqual([
			"Timebox: no time limit | no turn limit | step 1/3",
			"Timebox: no time limit | no turn limit | step 2/3",
			"Timebox: no time limit | no turn limit | step 3/3",
		]);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox: this prompt used its 3 steps; the model was asked to finish.",
		]);
	});

	it("refuses a tool the wrap-up call asks for, sends no 5th call, and gives the next prompt 3 fresh calls", async () => {
		const pi = await host.start();
		host.faux.setResponses([...Array.from({ length: 5 }, () => bashCall("echo step")), textAnswer("never")]);
		await pi.timebox("steps:3");
		await pi.prompt("loop until told otherwise");
		const run = pi.promptRun(1);
		expect(run.toolResults.filter((result) => !result.isError)).toHaveLength(3);
		expect(run.toolResults.at(-1)?.content).toEqual([{ type: "text", text: REFUSAL }]);
		expect(run.assistant.map((message) => message.stopReason)).toEqual([
			"toolUse",
			"toolUse",
			"toolUse",
			"toolUse",
			"aborted",
		]);
		host.faux.setResponses([bashCall("echo one"), bashCall("echo two"), textAnswer("done")]);
		await pi.prompt("a new task");
		expect(pi.promptRun(2).toolResults.filter((result) => !result.isError)).toHaveLength(2);
		expect(pi.promptRun(2).assistant.at(-1)?.stopReason).toBe("stop");
	});

	it("counts a call pi sends again after a provider error once", async () => {
		const pi = await host.start({ settings: retrySettings(50) });
		const notes: (string | null)[] = [];
		host.faux.setResponses([
			noted(notes, bashCall("echo one")),
			noted(notes, providerError(OVERLOADED_ERROR)),
			noted(notes, bashCall("echo two")),
			noted(notes, textAnswer("done")),
		]);
		await pi.timebox("steps:3");
		await pi.prompt("work");
		expect(notes).toEqual([null, null, null, "CRITICAL TIMEBOX WARNING"]);
		expect(pi.screen.messages("warning")).toEqual([]);
		expect(pi.promptRun(1).assistant.at(-1)?.stopReason).toBe("stop");
	});

	it("asks at the cap with onLimit ask: continue goes on without aborting, stop ends the run", async () => {
		writeFileSync(join(host.agentDir, "settings.json"), JSON.stringify({ timebox: { onLimit: "ask" } }));
		const pi = await host.start();
		pi.screen.answers.push("Continue with 2 more steps", "Stop now");
		host.faux.setResponses([...Array.from({ length: 6 }, () => bashCall("echo step")), textAnswer("never")]);
		await pi.timebox("steps:2");
		await pi.prompt("loop until told otherwise");
		expect(pi.screen.questions.map((question) => question.title)).toEqual([
			"This prompt used its 2 steps. Stop now, or continue with 2 more?",
			"This prompt used its 2 steps. Stop now, or continue with 2 more?",
		]);
		const run = pi.promptRun(1);
		expect(run.toolResults.filter((result) => !result.isError)).toHaveLength(4);
		expect(run.assistant.at(-1)?.stopReason).toBe("aborted");
		expect(pi.screen.messages("warning")).toEqual(["Timebox: this prompt used its 2 steps and was stopped."]);
	});
});

describe("loop:N on real pi", () => {
	const REFUSED = (tool: string, view: string) =>
		`Timebox: this is the 3rd identical ${tool} call in this run (${view}); its result will not change. Change your approach or finish with what you have.`;
	const STOPPED = "Timebox stopped a loop: bash (echo same) asked for 4 times in this run.";

	/**
	 * Records the result of the last tool the model reads in each request, and whether the request was aborted before it
	 * was made (a real provider sends nothing then), then answers as `step` says.
	 */
	function reading(read: { text: string; aborted: boolean }[], step: FauxResponseStep): FauxResponseStep {
		return (context: Context, options, state, model) => {
			const last = context.messages.at(-1);
			const text =
				last?.role === "toolResult" ? last.content.map((part) => ("text" in part ? part.text : "")).join("") : "";
			read.push({ text, aborted: options?.signal?.aborted === true });
			return typeof step === "function" ? step(context, options, state, model) : step;
		};
	}

	it("refuses the 3rd identical call with why, stops the run at the 4th ask, and keeps the budget, running nothing", async () => {
		const pi = await host.start();
		const marker = join(host.root, "on-stop-ran");
		const read: { text: string; aborted: boolean }[] = [];
		host.faux.setResponses([
			...Array.from({ length: 4 }, () => reading(read, bashCall("echo same"))),
			reading(read, textAnswer("never")),
		]);
		await pi.timebox(`loop:3 -- touch "${marker}"`);
		await pi.prompt("run it until it passes");
		const run = pi.promptRun(1);
		expect(run.toolResults.map((result) => result.isError)).toEqual([false, false, true, true]);
		// The model read the refusal with its 4th request; the 4th ask stopped the run: pi's next request was aborted
		// before it was made (pi hands its provider the run's signal, aborted already), and answered nothing.
		expect(read.map((request) => request.text).slice(0, 4)).toEqual([
			"",
			"same\n",
			"same\n",
			REFUSED("bash", "echo same"),
		]);
		expect(read.map((request) => request.aborted)).toEqual([false, false, false, false, true]);
		expect(run.assistant.map((message) => message.stopReason)).toEqual([
			"toolUse",
			"toolUse",
			"toolUse",
			"toolUse",
			"aborted",
		]);
		expect(pi.screen.messages("warning")).toEqual([
			"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
			STOPPED,
		]);
		expect(pi.screen.messages("error")).toEqual([]);
		await sleep(300);
		expect(existsSync(marker)).toBe(false);
		// The budget stays in force: A B A B in the next prompt refuses each at its 3rd, and stops at the next ask.
		const calls = ["echo a", "echo b", "echo a", "echo b", "echo a", "echo b", "echo a"];
		host.faux.setResponses([...calls.map((command) => bashCall(command)), textAnswer("never")]);
		await pi.prompt("alternate");
		const alternating = pi.promptRun(2);
		expect(alternating.toolResults.map((result) => result.isError)).toEqual([
			false,
			false,
			false,
			false,
			true,
			true,
			true,
		]);
		expect(alternating.toolResults[4]?.content).toEqual([{ type: "text", text: REFUSED("bash", "echo a") }]);
		expect(alternating.toolResults[5]?.content).toEqual([{ type: "text", text: REFUSED("bash", "echo b") }]);
		expect(pi.screen.messages("warning").at(-1)).toBe(
			"Timebox stopped a loop: bash (echo a) asked for 4 times in this run.",
		);
		// A new prompt starts the count again.
		host.faux.setResponses([bashCall("echo same"), bashCall("echo same"), textAnswer("done")]);
		await pi.prompt("once more, twice");
		expect(pi.promptRun(3).toolResults.map((result) => result.isError)).toEqual([false, false]);
		expect(pi.promptRun(3).assistant.at(-1)?.stopReason).toBe("stop");
		expect(existsSync(marker)).toBe(false);
	});
});

describe("a step cap from PI_TIMEBOX in pi -p", () => {
	it("ends the demo model's loop after 2 calls with the model's own summary", async () => {
		const repo = resolve(import.meta.dirname, "../..");
		const env: NodeJS.ProcessEnv = {
			...process.env,
			HOME: host.home,
			PI_OFFLINE: "1",
			PI_CODING_AGENT_DIR: host.agentDir,
			PI_TIMEBOX: "steps:2",
		};
		const result = await runProcess(
			join(repo, "node_modules/.bin/pi"),
			["-e", repo, "-e", join(repo, "demo/offline-model.ts"), "--model", "timebox-demo/scripted", "-p", "loop please"],
			{ cwd: host.cwd, env, timeoutMs: 60_000 },
		);
		expect(result.stderr).toContain("[timebox] info: Timebox set from PI_TIMEBOX: 2 steps per prompt.");
		expect(result.stderr).toContain(
			"[timebox] warning: Timebox: this prompt used its 2 steps; the model was asked to finish.",
		);
		expect(result.stdout).toContain("Timebox says this prompt must finish now");
		expect(result.code).toBe(0);
	});
});
