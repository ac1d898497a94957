// Guards the turn budget on real pi: N prompts with tool calls run to the end, prompt N+1 is stopped, the nudge lands.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "@mariozechner/pi-ai";
import { type FauxResponseStep, fauxAssistantMessage, fauxText, fauxToolCall } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BUDGET_IN_FORCE_PROMPT } from "../../src/core/index.ts";
import { budgetNote, type PiSession, RealPi } from "./support/real-pi.ts";

const SPENT = /^Timebox budget spent\. Used (\d+) turns?, \d+s\. The agent stops for this turn\. The chat continues\.$/;

/** One LLM answer that calls `bash` with `command`. */
function bashCall(command: string): FauxResponseStep {
	return fauxAssistantMessage(fauxToolCall("bash", { command }), { stopReason: "toolUse" });
}

/** The answers of one prompt: each command in its own tool-calling turn, then a closing text. */
function toolRun(commands: readonly string[], closing: string): FauxResponseStep[] {
	return [...commands.map(bashCall), fauxAssistantMessage(fauxText(closing))];
}

/** The `timebox` status each time a tool starts, as the user would see it in the footer at that moment. */
function recordStatusAtToolStart(pi: PiSession): (string | undefined)[] {
	const seen: (string | undefined)[] = [];
	pi.session.subscribe((event) => {
		if (event.type === "tool_execution_start") seen.push(pi.screen.status);
	});
	return seen;
}

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	vi.restoreAllMocks();
	await host.dispose();
});

describe("a turn budget on real pi", () => {
	it("lets two tool-calling prompts finish and stops the third at its first turn", async () => {
		const marker = join(host.cwd, "third-ran.txt");
		const pi = await host.start();
		const statusAtTools = recordStatusAtToolStart(pi);
		await pi.timebox("turns:2");
		expect(pi.screen.notifications).toEqual([{ message: "Timebox set: 2 turns.", level: "info" }]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 2 turns left (0/2)");

		host.faux.setResponses(toolRun(["echo one", "echo one-again"], "done one"));
		await pi.prompt("first task");
		const first = pi.promptRun(1);
		expect(first.toolResults.map((result) => [result.isError, result.content])).toEqual([
			[false, [{ type: "text", text: "one\n" }]],
			[false, [{ type: "text", text: "one-again\n" }]],
		]);
		expect(first.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "toolUse", "stop"]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 1 turn left (1/2)");
		// The prompt being answered never counts against itself, not even after it enters the transcript (2nd tool).
		expect(statusAtTools).toEqual([
			"Timebox: no time limit | 2 turns left (0/2)",
			"Timebox: no time limit | 2 turns left (0/2)",
		]);

		host.faux.setResponses(toolRun(["echo two"], "done two"));
		await pi.prompt("second task");
		const second = pi.promptRun(2);
		expect(second.toolResults.map((result) => result.content)).toEqual([[{ type: "text", text: "two\n" }]]);
		expect(second.assistant.at(-1)?.stopReason).toBe("stop");
		expect(statusAtTools.at(-1)).toBe("Timebox: no time limit | 1 turn left (1/2)");
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (2/2)");
		expect(pi.screen.messages("error")).toEqual([]);

		host.faux.setResponses(toolRun([`echo three >> "${marker}"`], "done three"));
		const callsBefore = host.faux.state.callCount;
		await pi.prompt("third task");
		const third = pi.promptRun(3);
		expect(third.assistant.at(-1)?.stopReason).toBe("aborted");
		expect(third.toolResults).toEqual([]);
		expect(existsSync(marker)).toBe(false);
		// At most the first answer was requested before the abort landed; the closing answer never was.
		expect(host.faux.state.callCount - callsBefore).toBeLessThanOrEqual(1);
		expect(host.faux.getPendingResponseCount()).toBeGreaterThanOrEqual(1);
		const errors = pi.screen.messages("error");
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(SPENT);
		expect(errors[0]?.match(SPENT)?.[1]).toBe("2");
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});

	it("ends every model call of the fifth prompt of turns:5 with the warning, the system prompt the same at every call", async () => {
		const seen: (string | null)[] = [];
		const systemPrompts = new Set<string>();
		const record = (context: Context) => {
			seen.push(budgetNote(context));
			systemPrompts.add(context.systemPrompt ?? "");
		};
		const answer =
			(text: string): FauxResponseStep =>
			(context: Context) => {
				record(context);
				return fauxAssistantMessage(fauxText(text));
			};
		const toolAnswer =
			(command: string): FauxResponseStep =>
			(context: Context) => {
				record(context);
				return fauxAssistantMessage(fauxToolCall("bash", { command }), { stopReason: "toolUse" });
			};
		const pi = await host.start();
		const statusAtTools = recordStatusAtToolStart(pi);
		await pi.timebox("turns:5");
		for (let prompt = 1; prompt <= 4; prompt++) {
			host.faux.setResponses([answer(`done ${prompt}`)]);
			await pi.prompt(`task ${prompt}`);
		}
		expect(seen).toEqual([null, null, null, null]);
		expect(pi.screen.messages("warning")).toEqual([]);

		host.faux.setResponses([toolAnswer("echo five"), answer("done 5")]);
		await pi.prompt("task 5");
		const fifth = seen.slice(4);
		expect(fifth).toHaveLength(2);
		for (const note of fifth) {
			expect(note).toContain("IMPORTANT TIMEBOX WARNING");
			expect(note).toContain("Turns: this is the last prompt the budget allows (4 of 5 used).");
		}
		// The system prompt says only that a budget is in force, the same at every call: the prompt cache holds.
		expect(systemPrompts.size).toBe(1);
		expect([...systemPrompts][0]?.endsWith(BUDGET_IN_FORCE_PROMPT)).toBe(true);
		expect([...systemPrompts][0]).not.toContain("WARNING");
		expect(pi.screen.messages("warning")).toEqual(["Timebox: 1 prompt left of 5 — the model is asked to wrap up."]);
		expect(pi.promptRun(5).assistant.at(-1)?.stopReason).toBe("stop");
		expect(statusAtTools).toEqual(["Timebox: no time limit | 1 turn left (4/5)"]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 0 turns left (5/5)");
		expect(pi.screen.messages("error")).toEqual([]);
	});

	it("enforces the budget without a UI and writes the notifications to stderr", async () => {
		const written: string[] = [];
		const write = process.stderr.write.bind(process.stderr);
		vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
			const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
			if (text.startsWith("[timebox]")) {
				written.push(text);
				return true;
			}
			return (write as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean)(chunk, ...rest);
		});
		const pi = await host.start({ withUI: false });
		await pi.timebox("turns:1");
		host.faux.setResponses(toolRun(["echo one"], "done one"));
		await pi.prompt("first task");
		expect(pi.promptRun(1).assistant.at(-1)?.stopReason).toBe("stop");

		host.faux.setResponses(toolRun(["echo two"], "done two"));
		await pi.prompt("second task");
		expect(pi.promptRun(2).assistant.at(-1)?.stopReason).toBe("aborted");
		expect(pi.promptRun(2).toolResults).toEqual([]);
		expect(written).toHaveLength(2);
		expect(written[0]).toBe("[timebox] info: Timebox set: 1 turn.\n");
		expect(written[1]).toMatch(
			/^\[timebox\] error: Timebox budget spent\. Used 1 turn, \d+s\. The agent stops for this turn\. The chat continues\.\n$/,
		);
	});
});
