// Token and cost budgets on the fake pi: what each answer used counts, the run stops after the answer that used the
// budget up, the figure survives a reload, a model without prices is named, and /timebox report lists the budgets.

import { describe, expect, it } from "vitest";
import { MINUTE } from "../../support/budgets.ts";
import { FakePi, type FakeUsage } from "./fake-pi.ts";

/** An answer that used `tokens` (as input and output) and cost `cost` dollars. */
const used = (tokens: number, cost = 0): FakeUsage => ({
	input: tokens - 100,
	output: 100,
	cacheRead: 0,
	cacheWrite: 0,
	cost: { total: cost },
});

describe("a token budget on pi", () => {
	it("lets the call after 600 tokens go, and stops the run at the answer that reaches 1,000, before its tools", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("tokens:1000 -- say done");
		expect(pi.screen.status).toBe("Timebox: no time limit | no turn limit | 0 of 1k tokens");
		const run = await pi.prompt("loop", { llmCalls: 5, usage: () => used(600) });
		expect(run.modelCalls).toBe(2);
		expect(run.toolsRun).toBe(1);
		expect(run.aborted).toBe(true);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, 1,200 of 1,000 tokens. The agent stops for this turn. The chat continues.",
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
		await pi.timebox("status");
		expect(pi.screen.last?.message).toMatch(/^Timebox budget spent\. Used 0 turns, 0s, 1,200 of 1,000 tokens\. Set /);
	});

	it("warns at 80% of the tokens and tells the model what is left", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("tokens:1000");
		const run = await pi.prompt("go", { llmCalls: 2, usage: () => used(850) });
		expect(pi.screen.messages("warning")).toEqual(["Timebox: 150 tokens left of 1k — the model is asked to wrap up."]);
		expect(run.notes[1]).toContain("Tokens left: 150 of 1k.");
	});

	it("keeps the figure across a reload, and counts only what came after the budget was set", async () => {
		const pi = await new FakePi().start();
		await pi.prompt("before any budget", { usage: () => used(5_000, 1) });
		await pi.timebox("tokens:2k $1");
		await pi.prompt("one", { usage: () => used(600, 0.1) });
		await pi.replaceSession("reload");
		expect(pi.screen.status).toBe("Timebox: no time limit | no turn limit | $0.10 of $1.00 | 600 of 2k tokens");
		await pi.prompt("two", { usage: () => used(600, 0.1) });
		expect(pi.screen.status).toBe("Timebox: no time limit | no turn limit | $0.20 of $1.00 | 1.2k of 2k tokens");
	});
});

describe("a cost budget on pi", () => {
	it("stops at the answer that reaches $0.01, showing what was used", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("cost:0.01");
		expect(pi.screen.last?.message).toBe("Timebox set: $0.01.");
		const run = await pi.prompt("loop", { llmCalls: 5, usage: () => used(100, 0.006) });
		expect(run.modelCalls).toBe(2);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, $0.012 of $0.01. The agent stops for this turn. The chat continues.",
		]);
	});

	it("says when the model reports no cost, and sets the budget all the same", async () => {
		const pi = new FakePi();
		pi.model = { id: "free", cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
		await pi.start();
		await pi.timebox("30m cost:2");
		expect(pi.screen.last).toEqual({
			message: "Timebox set: 30m and $2.00.\nTimebox: this model reports no cost: the cost limit cannot be enforced.",
			level: "info",
		});
		expect(pi.file.custom("timebox-active")).toHaveLength(1);
	});
});

describe("/timebox report on pi", () => {
	it("lists the budgets of the session with what each used and how it ended", async () => {
		const pi = await new FakePi().start();
		await pi.timebox("report");
		expect(pi.screen.last).toEqual({ message: "Timebox report: no budget was set in this session.", level: "info" });
		await pi.timebox("turns:1");
		await pi.prompt("one", { usage: () => used(1_000, 0.02) });
		await pi.prompt("two");
		pi.time.advance(MINUTE);
		await pi.timebox("10m");
		pi.time.advance(MINUTE);
		await pi.timebox("report");
		expect(pi.screen.last?.message.split("\n")).toEqual([
			"Timebox report: 2 budgets in this session.",
			"1. 1 turn, set 2m 0s ago: used 0s, 1 turn, 1k tokens, $0.02. Spent: the prompts were used up.",
			"2. 10m, set 1m 0s ago: used 1m 0s, 0 turns, 0 tokens, $0.00. Still active.",
		]);
	});
});

describe("what pi reports of usage", () => {
	it("counts nothing for a message that is not an answer, or an answer without usage", async () => {
		const { usageOf } = await import("../../../src/adapters/pi/usage.ts");
		expect(usageOf({ role: "user", usage: used(5) })).toBeNull();
		expect(usageOf({ role: "assistant" })).toEqual({ tokens: 0, cost: 0 });
		expect(usageOf({ role: "assistant", usage: { input: -5, output: "9", cost: { total: Number.NaN } } })).toEqual({
			tokens: 0,
			cost: 0,
		});
		const pi = await new FakePi().start();
		await pi.timebox("tokens:1k");
		await pi.instance.emit({ type: "message_end", message: { role: "user", content: "hi", timestamp: 1 } });
		expect(pi.screen.status).toBe("Timebox: no time limit | no turn limit | 0 of 1k tokens");
	});

	it("takes a model without prices, or no model at all, as one that reports no cost", async () => {
		const { costReportingOf } = await import("../../../src/adapters/pi/usage.ts");
		expect(costReportingOf(undefined)).toBe("model reports none");
		expect(costReportingOf({ cost: { input: 0, output: 0.5 } })).toBe("reported");
	});
});
