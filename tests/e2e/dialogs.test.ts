// Guards Timebox's questions on real pi with an SDK UI context: the replace question keeps the budget on "no", and
// with onLimit "ask" the limit asks, holds the model back while the question is open, and "+1 prompt" lets the prompt
// that reached the limit run to its end without an abort.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bashCall, RealPi, textAnswer } from "./support/real-pi.ts";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

describe("Timebox's questions on real pi", () => {
	it("asks before replacing an active budget, and keeping it changes nothing", async () => {
		const pi = await host.start();
		await pi.timebox("15m turns:3");
		pi.screen.answers.push("Keep it");
		await pi.timebox("5m");
		expect(pi.screen.questions.map((question) => question.title)).toEqual([
			"Replace the active budget (15m 0s left | 3 turns left)?",
		]);
		expect(pi.screen.messages("info").at(-1)).toBe("Nothing changed: the active budget stays.");
		expect(pi.screen.status).toMatch(/^Timebox: (15m 0s|14m 59s) left \(15m budget\) \| 3 turns left \(0\/3\)$/);
	});

	it("asks at the limit, holds the model while it asks, and one more prompt lets the run finish", async () => {
		writeFileSync(join(host.agentDir, "settings.json"), JSON.stringify({ timebox: { onLimit: "ask" } }));
		const pi = await host.start();
		await pi.timebox("turns:1");
		host.faux.setResponses([textAnswer("one"), bashCall("echo two"), textAnswer("done two")]);
		await pi.prompt("first");
		pi.screen.answers.push("+1 prompt");
		pi.screen.answerDelayMs = 300;
		const callsBefore = host.faux.state.callCount;
		await pi.prompt("second");
		expect(pi.screen.questions.map((question) => question.title)).toEqual([
			"Timebox budget spent (used 1 turn, 0s). Stop now, or go on with more?",
		]);
		expect(pi.screen.questions[0]?.timeout).toBe(30_000);
		const second = pi.promptRun(2);
		expect(second.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "stop"]);
		expect(second.toolResults.map((result) => result.content)).toEqual([[{ type: "text", text: "two\n" }]]);
		expect(host.faux.state.callCount - callsBefore).toBe(2);
		expect(pi.screen.messages("error")).toEqual([]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");
		expect(JSON.parse(readFileSync(join(host.agentDir, "settings.json"), "utf8"))).toEqual({
			timebox: { onLimit: "ask" },
		});
	});

	it("counts for the day a prompt held by the question only once the user lets it run: never one stopped there", async () => {
		const settings = { timebox: { onLimit: "ask", daily: "turns:5" } };
		writeFileSync(join(host.agentDir, "settings.json"), JSON.stringify(settings));
		const pi = await host.start();
		await pi.timebox("turns:1");
		host.faux.setResponses([textAnswer("one"), textAnswer("two")]);
		await pi.prompt("first");
		pi.screen.answers.push("Stop now");
		await pi.prompt("second");
		expect(pi.screen.messages("error").at(-1)).toMatch(/^Timebox budget spent\. Used 1 turn/);
		await pi.timebox("today");
		expect(pi.screen.messages("info").at(-1)).toMatch(/: 1 of 5 prompts used, 4 left\./);
		await pi.timebox("turns:1");
		host.faux.setResponses([textAnswer("three"), textAnswer("four")]);
		await pi.prompt("third");
		pi.screen.answers.push("+1 prompt");
		await pi.prompt("fourth");
		expect(pi.screen.questions).toHaveLength(2);
		expect(pi.promptRun(4).assistant.at(-1)?.stopReason).toBe("stop");
		await pi.timebox("today");
		expect(pi.screen.messages("info").at(-1)).toMatch(/: 3 of 5 prompts used, 2 left\./);
	});

	it("stops at the limit when nobody answers the question", async () => {
		writeFileSync(join(host.agentDir, "settings.json"), JSON.stringify({ timebox: { onLimit: "ask" } }));
		const pi = await host.start();
		await pi.timebox("turns:1");
		host.faux.setResponses([textAnswer("one"), textAnswer("two")]);
		await pi.prompt("first");
		pi.screen.answers.push(undefined);
		await pi.prompt("second");
		expect(pi.promptRun(2).assistant.at(-1)?.stopReason).toBe("aborted");
		expect(pi.screen.messages("error")).toHaveLength(1);
	});
});
