// Token and cost budgets on real pi, with a scripted model whose answers report the tokens and dollars the test picks:
// the call that reaches the limit is the last one sent, the stop says what was used, the figure survives a reload and a
// clone, and a model without prices is named when a cost budget is set.

import type { FauxResponseStep } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { meter } from "./support/metered.ts";
import { bashCall, cloneSession, RealPi, RecordingUI, textAnswer } from "./support/real-pi.ts";

let host: RealPi;
let unmeter: () => void = () => {};

afterEach(async () => {
	unmeter();
	await host.dispose();
});

/** Calls the scripted model received, by whether pi had already aborted them (such a call is never sent to a provider). */
let received: { aborted: boolean }[] = [];

/** Six answers that each call bash, then a closing one: a loop only the budget ends. Each records how it was called. */
const loop = (): FauxResponseStep[] => {
	received = [];
	const record =
		(step: FauxResponseStep): FauxResponseStep =>
		(context, options, state, model) => {
			received.push({ aborted: options?.signal?.aborted === true });
			return typeof step === "function" ? step(context, options, state, model) : step;
		};
	return [...Array.from({ length: 6 }, () => record(bashCall("echo step"))), record(textAnswer("done"))];
};

/** The calls that went out: pi hands the model a call it has already aborted, which a provider never sends. */
const sent = () => received.filter((call) => !call.aborted).length;

describe("a token budget on real pi", () => {
	it("sends the call after 600 tokens, stops before the one after 1,200, and says what was used", async () => {
		host = new RealPi();
		unmeter = meter(host.faux, () => ({ tokens: 600, cost: 0 }));
		const pi = await host.start();
		host.faux.setResponses(loop());
		await pi.timebox("tokens:1000");
		await pi.prompt("loop until told otherwise");
		expect(sent()).toBe(2);
		const run = pi.promptRun(1);
		expect(run.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "toolUse", "aborted"]);
		expect(run.assistant.at(-1)?.content).toEqual([]);
		expect(run.toolResults.filter((result) => !result.isError)).toHaveLength(1);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, 1,200 of 1,000 tokens. The agent stops for this turn. The chat continues.",
		]);
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});

	it("keeps the figure across a reload and in a clone", async () => {
		host = new RealPi();
		unmeter = meter(host.faux, () => ({ tokens: 300, cost: 0 }));
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile(), { ui });
		host.faux.setResponses([textAnswer("one"), textAnswer("two")]);
		await runtime.session.prompt("/timebox tokens:2k");
		await runtime.session.prompt("first");
		await runtime.session.prompt("second");
		expect(ui.status).toBe("Timebox: no time limit | no turn limit | 600 of 2k tokens");
		const file = runtime.session.sessionFile as string;

		const reloaded = new RecordingUI();
		await host.startRuntime(host.openSessionFile(file), { ui: reloaded });
		expect(reloaded.messages("info")).toEqual(["Timebox restored: no time limit | no turn limit | 600 of 2k tokens."]);

		const before = ui.notifications.length;
		await cloneSession(runtime);
		expect(ui.notifications.slice(before)).toEqual([
			{ message: "Timebox restored: no time limit | no turn limit | 600 of 2k tokens.", level: "info" },
		]);
		host.faux.setResponses([textAnswer("three")]);
		await runtime.session.prompt("third");
		expect(ui.status).toBe("Timebox: no time limit | no turn limit | 900 of 2k tokens");
	});
});

describe("a cost budget on real pi", () => {
	it("sends the call after $0.006, stops before the one after $0.012, and says what was used", async () => {
		host = new RealPi({ priced: true });
		unmeter = meter(host.faux, () => ({ tokens: 100, cost: 0.006 }));
		const pi = await host.start();
		host.faux.setResponses(loop());
		await pi.timebox("cost:0.01");
		expect(pi.screen.messages("info")).toEqual(["Timebox set: $0.01."]);
		await pi.prompt("loop until told otherwise");
		expect(sent()).toBe(2);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, $0.012 of $0.01. The agent stops for this turn. The chat continues.",
		]);
	});

	it("says when the model reports no cost, as pi's scripted model does", async () => {
		host = new RealPi();
		const pi = await host.start();
		await pi.timebox("30m $2");
		expect(pi.screen.notifications).toEqual([
			{
				message: "Timebox set: 30m and $2.00.\nTimebox: this model reports no cost: the cost limit cannot be enforced.",
				level: "info",
			},
		]);
	});
});

describe("/timebox report on real pi", () => {
	it("lists the session's budgets with what each used", async () => {
		host = new RealPi({ priced: true });
		unmeter = meter(host.faux, () => ({ tokens: 1_500, cost: 0.25 }));
		const pi = await host.start();
		host.faux.setResponses([textAnswer("one")]);
		await pi.timebox("turns:2 $5");
		await pi.prompt("first");
		await pi.timebox("report");
		expect(pi.screen.notifications.at(-1)?.message).toMatch(
			/^Timebox report: 1 budget in this session\.\n1\. 2 turns and \$5\.00, set \d+s ago: used \d+s, 1 turn, 1\.5k tokens, \$0\.25\. Still active\.$/,
		);
	});
});
