// What the model reads of its budget on real pi, call by call, with a scripted model that records each request; and the
// wrap-up a grace period gives it at the limit. Guards a warning that never reaches the calls of a long run, a note
// written into the session, and a grace period that cuts the model off, or never stops it.

import { readFileSync } from "node:fs";
import { type Context, type FauxResponseStep, fauxAssistantMessage, fauxText, fauxToolCall } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { budgetNote, RealPi, settledRuns } from "./support/real-pi.ts";

const REFUSAL =
	"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

/** One model call as the scripted model saw it: when (ms after the budget was set) and the budget note it carried. */
interface SeenCall {
	at: number;
	note: string | null;
}

/** A model answer that records the call, then answers as `answer` says. */
function recorded(seen: SeenCall[], since: () => number, answer: () => FauxResponseStep): FauxResponseStep {
	return (context: Context, options, state, model) => {
		seen.push({ at: Date.now() - since(), note: budgetNote(context) });
		const step = answer();
		return typeof step === "function" ? step(context, options, state, model) : step;
	};
}

const bash = (command: string): FauxResponseStep =>
	fauxAssistantMessage(fauxToolCall("bash", { command }), { stopReason: "toolUse" });
const text = (words: string): FauxResponseStep => fauxAssistantMessage(fauxText(words));

describe("the budget note on every model call, on real pi", () => {
	it("gives a 10 s budget's tool loop the warning after 8 s and the critical block after 9.5 s, and none before", async () => {
		const manager = host.newSessionFile();
		const pi = await host.start({ sessionManager: manager });
		const seen: SeenCall[] = [];
		let setAt = 0;
		// Each call sleeps until just before the next point the test looks at: calls land near 1, 3, 5, 7, 8.6 and 9.7 s.
		const targets = [1_000, 3_000, 5_000, 7_000, 8_600, 9_700, 12_000];
		const nextSleep = () => {
			const next = targets.shift() ?? 12_000;
			return `sleep ${Math.max(0, (next - (Date.now() - setAt) - 20) / 1_000).toFixed(2)}`;
		};
		host.faux.setResponses(
			Array.from({ length: 12 }, () =>
				recorded(
					seen,
					() => setAt,
					() => bash(nextSleep()),
				),
			),
		);
		setAt = Date.now();
		await pi.timebox("10s");
		await pi.prompt("loop until told otherwise");

		console.log(`calls at ${seen.map((call) => `${call.at}ms:${call.note?.split(" ")[0] ?? "-"}`).join(" ")}`);
		const before = seen.filter((call) => call.at < 7_900);
		const warned = seen.filter((call) => call.at > 8_100 && call.at < 9_400);
		// A call pi makes after the stop is refused: it carries no block.
		const critical = seen.filter((call) => call.at > 9_550 && call.at < 9_980);
		for (const call of seen.filter((call) => call.at > 10_050)) expect(call.note).toBeNull();
		expect(before.length).toBeGreaterThanOrEqual(4);
		for (const call of before) expect(call.note).toBeNull();
		expect(warned.length).toBeGreaterThanOrEqual(1);
		for (const call of warned) expect(call.note?.split("\n")[0]).toBe("IMPORTANT TIMEBOX WARNING");
		expect(critical.length).toBeGreaterThanOrEqual(1);
		for (const call of critical) expect(call.note?.split("\n")[0]).toBe("CRITICAL TIMEBOX WARNING");
		for (const call of [...warned, ...critical]) expect(call.note).toMatch(/\nTime left: \d+s of 10s\.\n/);

		const file = readFileSync(pi.sessionFile, "utf8");
		expect(file).not.toContain("TIMEBOX WARNING");
		expect(file).not.toContain("Time left:");
		expect(pi.screen.messages("error")).toHaveLength(1);
	});

	it("gives every call of an aware budget a line with what is left", async () => {
		const pi = await host.start();
		const seen: SeenCall[] = [];
		host.faux.setResponses([
			recorded(
				seen,
				() => 0,
				() => bash("echo one"),
			),
			recorded(
				seen,
				() => 0,
				() => bash("echo two"),
			),
			recorded(
				seen,
				() => 0,
				() => text("done"),
			),
		]);
		await pi.timebox("15m turns:5 aware");
		expect(pi.screen.messages("info")).toEqual([
			"Timebox set: 15m and 5 turns; the model is told what is left at every call.",
		]);
		await pi.prompt("go");
		expect(seen).toHaveLength(3);
		for (const call of seen) {
			expect(call.note).toMatch(/^Timebox: (?:15m 0s|14m 59s) and 5 prompts left of 15m \/ 5 prompts\.$/);
		}
	});
});

describe("a grace period at the limit, on real pi", () => {
	it("refuses the next tool with the reason, lets the model answer in text, and runs on-stop once after the run", async () => {
		const probe = host.onStopProbe();
		const pi = await host.start();
		const seen: SeenCall[] = [];
		let ranBeforeAnswer = -1;
		host.faux.setResponses([
			recorded(
				seen,
				() => 0,
				() => bash("sleep 3"),
			),
			recorded(
				seen,
				() => 0,
				() => bash("echo more work"),
			),
			recorded(
				seen,
				() => 0,
				() => {
					ranBeforeAnswer = probe.runs();
					return text("Done: slept. Left: more work.");
				},
			),
		]);
		await pi.timebox(`2s grace:5s -- ${probe.command}`);
		await pi.prompt("work until told otherwise");

		const run = pi.promptRun(1);
		expect(run.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "toolUse", "stop"]);
		expect(run.toolResults[1]?.isError).toBe(true);
		expect(run.toolResults[1]?.content).toEqual([{ type: "text", text: REFUSAL }]);
		expect(seen[1]?.note?.split("\n")[0]).toBe("TIMEBOX: BUDGET SPENT");
		expect(seen[2]?.note?.split("\n")[0]).toBe("TIMEBOX: BUDGET SPENT");
		expect(ranBeforeAnswer).toBe(0);
		expect(await settledRuns(probe)).toBe(1);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 2s. The agent is wrapping up: its tools are refused, and it has 5s to write its final answer. The chat continues.",
		]);
		expect(pi.screen.status).toBe("Timebox: budget spent | on-stop command ran");
	});

	it("stops a model that asks for tools again after the refusal, and runs on-stop once", async () => {
		const probe = host.onStopProbe();
		const pi = await host.start();
		host.faux.setResponses([bash("sleep 3"), bash("echo again"), bash("echo and again"), text("never sent")]);
		await pi.timebox(`2s grace:5s -- ${probe.command}`);
		const setAt = Date.now();
		await pi.prompt("work until told otherwise");
		const elapsed = Date.now() - setAt;

		const run = pi.promptRun(1);
		expect(run.assistant.at(-1)?.stopReason).toBe("aborted");
		expect(run.toolResults.slice(1).map((result) => result.content)).toEqual([
			[{ type: "text", text: REFUSAL }],
			[{ type: "text", text: REFUSAL }],
		]);
		expect(elapsed).toBeLessThan(2_000 + 5_000);
		expect(pi.screen.messages("warning")).toContain("Timebox stopped the agent: the model asked for tools again.");
		expect(await settledRuns(probe)).toBe(1);
	});

	it("aborts a run still busy when the grace period ends, within a second of its end", async () => {
		const probe = host.onStopProbe();
		const pi = await host.start();
		host.faux.setResponses([bash("sleep 20"), text("never sent")]);
		await pi.timebox(`2s grace:3s -- ${probe.command}`);
		const setAt = Date.now();
		await pi.prompt("run the long job");
		const elapsed = Date.now() - setAt;
		console.log(`grace stop: the run ended ${elapsed - 5_000} ms after the end of the grace period`);
		expect(elapsed).toBeGreaterThanOrEqual(5_000);
		expect(elapsed - 5_000).toBeLessThan(1_000);
		expect(pi.screen.messages("warning")).toContain("Timebox stopped the agent: the time to wrap up ran out.");
		expect(await settledRuns(probe)).toBe(1);
	});
});
