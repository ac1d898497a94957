// Guards the turn budget across pi's overflow compaction on real pi: a prompt whose answer overflowed the context is
// compacted and re-run by pi, and that re-run is the same prompt: it is answered and counts once.

import type { Context, FauxResponseStep } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	bashCall,
	CONTEXT_OVERFLOW_ERROR,
	countEvents,
	expectSecondAnsweredThenThirdStopped,
	type PiSession,
	providerError,
	RealPi,
	recordStatusAt,
	textAnswer,
	userText,
	waitFor,
} from "./support/real-pi.ts";

/** The start of the system prompt pi's compaction sends to summarise the session. */
const SUMMARY_REQUEST = "You are a context summarization assistant.";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

/** Wraps a scripted answer so the request it answers is kept in `seen`. */
function seeing(seen: Context[], step: FauxResponseStep): FauxResponseStep {
	return (context, options, state, model) => {
		seen.push(context);
		return typeof step === "function" ? step(context, options, state, model) : step;
	};
}

/**
 * One prompt's answers when its first answer overflows the context: the overflow error, the summary pi asks for to
 * compact, then the re-run (a bash call and a closing text). Every request is kept in `seen`.
 */
function overflowThenAnswer(seen: Context[], command: string, closing: string): FauxResponseStep[] {
	return [
		seeing(seen, providerError(CONTEXT_OVERFLOW_ERROR)),
		seeing(seen, textAnswer("## Goal\nThe user works through a list of tasks.")),
		seeing(seen, bashCall(command)),
		seeing(seen, textAnswer(closing)),
	];
}

/**
 * Sends `text` and waits for its re-run: `prompt()` resolves when the overflowed attempt ends, and pi compacts and
 * re-runs the prompt after that (`agent.continue()` 100 ms after the compaction), so two agent runs end in all.
 */
async function promptThroughCompaction(pi: PiSession, text: string): Promise<void> {
	const runsEnded = countEvents(pi.session, "agent_end");
	await pi.prompt(text);
	await waitFor(() => runsEnded.count >= 2, "pi to compact and re-run the prompt");
	await pi.session.agent.waitForIdle();
}

/** Checks that pi compacted once and re-ran `prompt`: the summary request, then the prompt itself again. */
function expectCompactedAndRerun(pi: PiSession, seen: Context[], prompt: string): void {
	expect(seen).toHaveLength(4);
	expect(seen[1]?.systemPrompt).toContain(SUMMARY_REQUEST);
	const rerun = seen[2]?.messages ?? [];
	expect(rerun.at(-1)?.role).toBe("user");
	expect(userText(rerun.at(-1) ?? { role: "none" })).toBe(prompt);
	const entries = pi.session.sessionManager.getEntries();
	expect(entries.filter((entry) => entry.type === "compaction")).toHaveLength(1);
	// The prompt entered the session once, before the compaction; the re-run added no user message.
	const prompts = entries.flatMap((entry) =>
		entry.type === "message" && entry.message.role === "user" ? [userText(entry.message)] : [],
	);
	expect(prompts.filter((text) => text === prompt)).toHaveLength(1);
}

describe("a turn budget across pi's overflow compaction", () => {
	it("counts a prompt compacted and re-run after a context overflow once and lets it finish", async () => {
		const pi = await host.start();
		const atTools = recordStatusAt(pi.session, pi.screen, ["tool_execution_start"]);
		const compactions = countEvents(pi.session, "compaction_end");
		await pi.timebox("turns:2");
		host.faux.setResponses([textAnswer("done one")]);
		await pi.prompt("first task");
		expect(pi.screen.status).toBe("Timebox: no time limit | 1 turn left (1/2)");

		const seen: Context[] = [];
		host.faux.setResponses(overflowThenAnswer(seen, "echo two", "done two"));
		await promptThroughCompaction(pi, "second task");
		expect(compactions.count).toBe(1);
		expect(pi.screen.messages("error")).toEqual([]);
		expectCompactedAndRerun(pi, seen, "second task");
		await expectSecondAnsweredThenThirdStopped(host, pi, atTools);
	});

	it("does not count the first prompt against itself while pi compacts and re-runs it", async () => {
		const pi = await host.start();
		const atTools = recordStatusAt(pi.session, pi.screen, ["tool_execution_start"]);
		const compactions = countEvents(pi.session, "compaction_end");
		await pi.timebox("turns:5");
		const seen: Context[] = [];
		host.faux.setResponses(overflowThenAnswer(seen, "echo one", "done one"));
		await promptThroughCompaction(pi, "first task");

		expect(compactions.count).toBe(1);
		expect(pi.screen.messages("error")).toEqual([]);
		expectCompactedAndRerun(pi, seen, "first task");
		expect(atTools).toEqual([{ event: "tool_execution_start", status: "Timebox: no time limit | 5 turns left (0/5)" }]);
		expect(pi.promptRun(1).assistant.map((message) => message.stopReason)).toEqual(["toolUse", "stop"]);
		expect(pi.screen.status).toBe("Timebox: no time limit | 4 turns left (1/5)");
	});
});
