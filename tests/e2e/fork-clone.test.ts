// Guards budgets across pi's /clone and /fork on real pi (file-backed sessions, replaced through pi's runtime as the
// commands do): a live budget carries its count over, a spent one stays spent, and one turned off stays off.

import type { AgentSessionRuntime } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	ALREADY_SPENT_PREFIX,
	answerEntry,
	cloneSession,
	forkBefore,
	PiSession,
	RealPi,
	RecordingUI,
	SPENT,
	settledRuns,
	sleep,
	textAnswer,
	userEntry,
	userText,
} from "./support/real-pi.ts";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

/** A pattern for texts that start with `prefix`. */
function startsWith(prefix: string): RegExp {
	return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
}

/** Sends `text` in the runtime's current session with one scripted answer queued. */
async function answered(runtime: AgentSessionRuntime, text: string): Promise<void> {
	host.faux.setResponses([textAnswer(`answer to ${text}`)]);
	await runtime.session.prompt(text);
}

/** The runtime's current session as the test helpers read it. */
function current(runtime: AgentSessionRuntime, ui: RecordingUI): PiSession {
	return new PiSession(runtime.session, ui);
}

/** The last assistant message of the prompt `text` in the runtime's current session. */
function lastAnswerTo(runtime: AgentSessionRuntime, text: string): string | undefined {
	const messages = runtime.session.messages;
	const from = messages.findLastIndex((message) => message.role === "user" && userText(message) === text);
	if (from === -1) throw new Error(`no prompt "${text}" in the session`);
	const next = messages.findIndex((message, at) => at > from && message.role === "user");
	const run = messages.slice(from + 1, next === -1 ? messages.length : next);
	const last = run.findLast((message) => message.role === "assistant");
	return last?.role === "assistant" ? last.stopReason : undefined;
}

/** Timebox's own custom entries in the runtime's current session. */
function timeboxEntries(runtime: AgentSessionRuntime): string[] {
	return runtime.session.sessionManager
		.getEntries()
		.flatMap((entry) => (entry.type === "custom" && entry.customType.startsWith("timebox") ? [entry.customType] : []));
}

describe("budgets across /clone and /fork", () => {
	it("carries a live turn budget into a clone with its used turns and stops there after the limit", async () => {
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile(), { ui });
		await runtime.session.prompt("/timebox turns:3");
		await answered(runtime, "first task");
		expect(ui.status).toBe("Timebox: no time limit | 2 turns left (1/3)");
		const original = runtime.session.sessionFile;

		const before = ui.notifications.length;
		await cloneSession(runtime);
		expect(runtime.session.sessionFile).not.toBe(original);
		expect(ui.notifications.slice(before)).toEqual([
			{ message: "Timebox restored: no time limit | 2 turns left (1/3).", level: "info" },
		]);
		expect(ui.status).toBe("Timebox: no time limit | 2 turns left (1/3)");

		await answered(runtime, "second task");
		expect(lastAnswerTo(runtime, "second task")).toBe("stop");
		await answered(runtime, "third task");
		expect(lastAnswerTo(runtime, "third task")).toBe("stop");
		expect(ui.status).toBe("Timebox: no time limit | 0 turns left (3/3)");
		expect(ui.messages("error")).toEqual([]);

		await answered(runtime, "fourth task");
		expect(lastAnswerTo(runtime, "fourth task")).toBe("aborted");
		expect(current(runtime, ui).promptRun(4).toolResults).toEqual([]);
		const errors = ui.messages("error");
		expect(errors).toHaveLength(1);
		expect(errors[0]?.match(SPENT)?.[1]).toBe("3");
		expect(ui.status).toBe("Timebox: budget spent");
	});

	it("keeps a spent budget spent in a fork from before its prompts and never runs its on-stop command again", async () => {
		const probe = host.onStopProbe();
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile(), { ui });
		// An answered prompt first: pi writes the session file, and so a fork's, only once it holds an answer.
		await answered(runtime, "hello");
		await runtime.session.prompt(`/timebox turns:1 -- ${probe.command}`);
		await answered(runtime, "first task");
		await answered(runtime, "second task");
		expect(lastAnswerTo(runtime, "second task")).toBe("aborted");
		expect(ui.messages("error")).toHaveLength(1);
		expect(await settledRuns(probe)).toBe(1);

		// /fork at "first task": the new session holds "hello", its answer and the budget record, and no prompt since.
		const before = ui.notifications.length;
		const updatesBefore = ui.statusUpdates.length;
		await forkBefore(runtime, userEntry(runtime.session, "first task").id);
		expect(timeboxEntries(runtime)).toHaveLength(1);
		expect(runtime.session.messages.filter((message) => message.role === "user").map(userText)).toEqual(["hello"]);
		expect(ui.notifications.slice(before)).toEqual([
			{ message: expect.stringMatching(startsWith(ALREADY_SPENT_PREFIX)), level: "warning" },
		]);
		expect(ui.statusUpdates.slice(updatesBefore).filter((status) => status !== undefined)).toEqual([]);
		expect(ui.status).toBeUndefined();

		await answered(runtime, "first task again");
		await answered(runtime, "second task again");
		expect(lastAnswerTo(runtime, "first task again")).toBe("stop");
		expect(lastAnswerTo(runtime, "second task again")).toBe("stop");
		expect(runtime.session.messages.filter((message) => message.role === "assistant")).not.toContainEqual(
			expect.objectContaining({ stopReason: "aborted" }),
		);
		await sleep(300);
		expect(probe.runs()).toBe(1);
		expect(ui.notifications.slice(before)).toHaveLength(1);
		expect(ui.status).toBeUndefined();
	});

	it("does not bring a budget turned off on one branch back in a clone of another", async () => {
		const probe = host.onStopProbe();
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile(), { ui });
		await runtime.session.prompt(`/timebox turns:2 -- ${probe.command}`);
		await answered(runtime, "task A");
		await answered(runtime, "task B");
		await runtime.session.prompt("/timebox off");
		expect(ui.notifications.at(-1)).toEqual({ message: "Timebox off.", level: "info" });
		expect(ui.status).toBeUndefined();
		// The "off" is the newest entry of the original session; the clone ends at A's answer, before it.
		expect(timeboxEntries(runtime)).toHaveLength(2);

		const before = ui.notifications.length;
		const updatesBefore = ui.statusUpdates.length;
		await cloneSession(runtime, answerEntry(runtime.session, "task A").id);
		expect(timeboxEntries(runtime)).toHaveLength(1);
		expect(runtime.session.messages.filter((message) => message.role === "user").map(userText)).toEqual(["task A"]);
		expect(ui.notifications.slice(before)).toEqual([]);
		expect(ui.statusUpdates.slice(updatesBefore).filter((status) => status !== undefined)).toEqual([]);

		await answered(runtime, "task C");
		await answered(runtime, "task D");
		expect(lastAnswerTo(runtime, "task C")).toBe("stop");
		expect(lastAnswerTo(runtime, "task D")).toBe("stop");
		await sleep(300);
		expect(probe.runs()).toBe(0);
		expect(ui.notifications.slice(before)).toEqual([]);
		expect(ui.status).toBeUndefined();
	});
});
