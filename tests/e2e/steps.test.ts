// The step cap on real pi, with a scripted model that loops on bash: N calls run their tools, call N+1 carries the
// wrap-up notice, a text answer ends the run normally, a tool asked for then is refused and ends it, the next prompt
// starts afresh, a retried call counts once, "ask" offers to go on, and `PI_TIMEBOX="steps:2"` caps `pi -p`.

import { writeFileSync } from "node:fs";
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
