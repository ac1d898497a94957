// Guards the turn and time budgets across pi's auto-retry on real pi: a prompt re-run after a retryable provider error
// (503, overloaded) is still the same prompt, and a time stop during the retry wait cancels the retry.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	bashCall,
	countEvents,
	expectSecondAnsweredThenThirdStopped,
	OVERLOADED_ERROR,
	providerError,
	RealPi,
	recordStatusAt,
	retrySettings,
	SPENT,
	settledRuns,
	sleepUntil,
	textAnswer,
	waitFor,
} from "./support/real-pi.ts";

/** pi's wait before the first retry in the turn tests: short, the wait is not what they test. */
const QUICK_RETRY_MS = 200;

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

describe("a turn budget across pi's auto-retry", () => {
	it("counts a prompt retried after a 503 once and lets it finish", async () => {
		const pi = await host.start({ settings: retrySettings(QUICK_RETRY_MS) });
		const atTools = recordStatusAt(pi.session, pi.screen, ["tool_execution_start"]);
		const retries = countEvents(pi.session, "auto_retry_start");
		await pi.timebox("turns:2");
		host.faux.setResponses([textAnswer("done one")]);
		await pi.prompt("first task");
		expect(pi.screen.status).toBe("Timebox: no time limit | 1 turn left (1/2)");

		host.faux.setResponses([providerError(OVERLOADED_ERROR), bashCall("echo two"), textAnswer("done two")]);
		await pi.prompt("second task");
		// pi retried once; the failed attempt stays in the session file, out of the model's context.
		expect(retries.count).toBe(1);
		const failed = pi.session.sessionManager
			.getEntries()
			.flatMap((entry) => (entry.type === "message" && entry.message.role === "assistant" ? [entry.message] : []))
			.filter((message): message is AssistantMessage => message.role === "assistant" && message.stopReason === "error");
		expect(failed.map((message) => message.errorMessage)).toEqual([OVERLOADED_ERROR]);
		expect(pi.screen.messages("error")).toEqual([]);
		await expectSecondAnsweredThenThirdStopped(host, pi, atTools);
	});

	it("does not count the first prompt against itself while pi retries it", async () => {
		const pi = await host.start({ settings: retrySettings(QUICK_RETRY_MS) });
		const atTools = recordStatusAt(pi.session, pi.screen, ["tool_execution_start"]);
		const retries = countEvents(pi.session, "auto_retry_start");
		await pi.timebox("turns:5");
		host.faux.setResponses([providerError(OVERLOADED_ERROR), bashCall("echo one"), textAnswer("done one")]);
		await pi.prompt("first task");

		expect(retries.count).toBe(1);
		expect(pi.screen.messages("error")).toEqual([]);
		expect(atTools).toEqual([{ event: "tool_execution_start", status: "Timebox: no time limit | 5 turns left (0/5)" }]);
		expect(pi.promptRun(1).assistant.map((message) => message.stopReason)).toEqual(["toolUse", "stop"]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 4 turns left (1/5)");
	});
});

describe("a time budget during pi's retry wait", () => {
	it("stops in the retry wait: the retry never calls the model, no tool runs and the on-stop command runs once", async () => {
		const probe = host.onStopProbe();
		const marker = join(host.cwd, "retry-ran.txt");
		// The retry would start about 3 s after the failed answer; the budget ends at 2 s, inside the wait.
		const pi = await host.start({ settings: retrySettings(3_000, 1) });
		const retries = countEvents(pi.session, "auto_retry_start");
		const answers: { at: number; message: AssistantMessage }[] = [];
		pi.session.subscribe((event) => {
			if (event.type === "message_end" && event.message.role === "assistant") {
				answers.push({ at: Date.now(), message: event.message });
			}
		});
		host.faux.setResponses([
			providerError(OVERLOADED_ERROR),
			bashCall(`touch "${marker}"`),
			textAnswer("retried and done"),
		]);
		const setAt = Date.now();
		await pi.timebox(`2s -- ${probe.command}`);
		let resolved = false;
		const prompt = pi.prompt("a task the provider is too busy for").then(() => {
			resolved = true;
		});

		await waitFor(() => retries.count === 1, "pi to start waiting for the retry", 1_500);
		expect(host.faux.state.callCount).toBe(1);
		await waitFor(() => pi.screen.firstAt("error") !== undefined, "the hard stop", 3_000);
		const stoppedAt = pi.screen.firstAt("error") ?? Number.NaN;
		const callsAtStop = host.faux.state.callCount;
		expect(stoppedAt - setAt).toBeLessThan(2_900);

		// Past the moment the retry would have run its bash call.
		await sleepUntil(setAt + 4_000);
		const answeredAfterStop = answers.filter(({ at, message }) => at >= stoppedAt && message.content.length > 0);
		expect(answeredAfterStop.map(({ message }) => message.content)).toEqual([]);
		expect(host.faux.state.callCount, "model calls after the stop").toBe(callsAtStop);
		expect(host.faux.state.callCount).toBe(1);
		expect(existsSync(marker), "the retry's bash call ran").toBe(false);
		await waitFor(() => resolved, "prompt() to resolve", 2_000);
		await prompt;

		const errors = pi.screen.messages("error");
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(SPENT);
		expect(pi.screen.messages("info")).toContain(`Timebox ran the on-stop command: ${probe.command}`);
		expect(await settledRuns(probe)).toBe(1);
		expect(pi.screen.status).toBe("Timebox: budget spent | on-stop command ran");
	});
});
