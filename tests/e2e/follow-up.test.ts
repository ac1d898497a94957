// Guards the turn budget for messages queued while the agent works, on real pi: a follow-up is a prompt of its own
// (pi delivers it inside the running agent loop, with no before_agent_start), and a steering message belongs to the
// prompt it steers.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentSession } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	bashCall,
	countEvents,
	type PiSession,
	RealPi,
	SPENT,
	textAnswer,
	userText,
	waitFor,
} from "./support/real-pi.ts";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

/** The messages after the user message `text` up to the next user message. */
function runOf(pi: PiSession, text: string): { stopReasons: string[]; toolResults: number } {
	const messages = pi.session.messages;
	const from = messages.findIndex((message) => message.role === "user" && userText(message) === text);
	if (from === -1) throw new Error(`no user message "${text}" in the session`);
	const next = messages.findIndex((message, at) => at > from && message.role === "user");
	const run = messages.slice(from + 1, next === -1 ? messages.length : next);
	return {
		stopReasons: run.flatMap((message) => (message.role === "assistant" ? [message.stopReason] : [])),
		toolResults: run.filter((message) => message.role === "toolResult").length,
	};
}

/** Runs `prompt`, and once its first tool call is running, sends `queue` (a follow-up or a steering message). */
async function promptQueueingDuringTool(
	session: AgentSession,
	prompt: string,
	queue: (session: AgentSession) => Promise<void>,
): Promise<void> {
	const toolsStarted = countEvents(session, "tool_execution_start");
	const run = session.prompt(prompt);
	await waitFor(() => toolsStarted.count > 0, "the tool call to start");
	await queue(session);
	await run;
}

/** Whether a status shows more turns used than the limit, e.g. "0 turns left (3/2)". */
function showsMoreUsedThanTheLimit(status: string | undefined): boolean {
	const match = status?.match(/\((\d+)\/(\d+)\)/);
	return match !== null && match !== undefined && Number(match[1]) > Number(match[2]);
}

describe("messages queued while the agent works", () => {
	it("stops a follow-up queued during the last allowed prompt as the prompt after the limit", async () => {
		const marker = join(host.cwd, "follow-up-ran.txt");
		const pi = await host.start();
		await pi.timebox("turns:2");
		host.faux.setResponses([textAnswer("done one")]);
		await pi.prompt("first task");

		host.faux.setResponses([
			bashCall("sleep 0.5"),
			textAnswer("done two"),
			bashCall(`echo follow-up >> "${marker}"`),
			textAnswer("done follow-up"),
		]);
		await promptQueueingDuringTool(pi.session, "second task", (session) => session.followUp("one more thing"));

		expect(runOf(pi, "second task")).toEqual({ stopReasons: ["toolUse", "stop"], toolResults: 1 });
		expect(pi.screen.messages("error")).toEqual([expect.stringMatching(SPENT)]);
		expect(pi.screen.messages("error")[0]?.match(SPENT)?.[1]).toBe("2");
		expect(runOf(pi, "one more thing")).toEqual({ stopReasons: ["aborted"], toolResults: 0 });
		expect(existsSync(marker)).toBe(false);
		expect(pi.screen.statusUpdates.filter(showsMoreUsedThanTheLimit)).toEqual([]);
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});

	it("counts a steering message as part of the prompt it steers", async () => {
		const marker = join(host.cwd, "third-ran.txt");
		const pi = await host.start();
		await pi.timebox("turns:2");
		host.faux.setResponses([bashCall("sleep 0.5"), textAnswer("done one, tests checked too")]);
		await promptQueueingDuringTool(pi.session, "first task", (session) => session.steer("check the tests too"));

		// The steering message reached the model inside the first prompt's run.
		expect(runOf(pi, "first task")).toEqual({ stopReasons: ["toolUse"], toolResults: 1 });
		expect(runOf(pi, "check the tests too")).toEqual({ stopReasons: ["stop"], toolResults: 0 });
		expect(pi.screen.status).toBe("Timebox: no time limit | 1 turn left (1/2)");

		host.faux.setResponses([textAnswer("done two")]);
		await pi.prompt("second task");
		expect(runOf(pi, "second task")).toEqual({ stopReasons: ["stop"], toolResults: 0 });
		expect(pi.screen.messages("error")).toEqual([]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");

		host.faux.setResponses([bashCall(`echo three >> "${marker}"`), textAnswer("done three")]);
		await pi.prompt("third task");
		expect(runOf(pi, "third task")).toEqual({ stopReasons: ["aborted"], toolResults: 0 });
		expect(existsSync(marker)).toBe(false);
		expect(pi.screen.messages("error")).toEqual([expect.stringMatching(SPENT)]);
		expect(pi.screen.messages("error")[0]?.match(SPENT)?.[1]).toBe("2");
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});
});
