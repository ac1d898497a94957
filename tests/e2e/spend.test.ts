// Token and cost budgets on real pi. Against a loopback fake of the Anthropic Messages API that always answers with as
// many tokens as the request allows (and reports its input from the request's size), each request's max_tokens is what
// is left of the budget less the bound on the call's input, the budget never ends above its limit, and the call that
// cannot hold a minimal answer never reaches the API. With pi's scripted model (its answers report the tokens and
// dollars the test picks): the figure survives a reload and a clone, an answer that passes the limit stops the run, and
// a model without prices is named when a cost budget is set.

import type { Api, FauxResponseStep, Model } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAnthropic, type ModelRequest } from "../../demo/fakes/anthropic.ts";
import { BYTES_PER_TOKEN } from "../../demo/fakes/as-allowed.ts";
import { MIN_ANSWER_TOKENS } from "../../src/core/index.ts";
import { meter } from "./support/metered.ts";
import { bashCall, cloneSession, RealPi, RecordingUI, textAnswer } from "./support/real-pi.ts";

let host: RealPi;
let api: FakeAnthropic | undefined;
let unmeter: () => void = () => {};

afterEach(async () => {
	unmeter();
	await host.dispose();
	await api?.close();
	api = undefined;
});

/** pi's default limit on an answer of a model that allows 32,000 output tokens. */
const PI_MAX_TOKENS = 32_000;

/** A model of the Anthropic Messages API at the fake's address, priced as Sonnet. */
function anthropicAt(url: string): Model<Api> {
	return {
		id: "claude-fake",
		name: "Claude (fake)",
		api: "anthropic-messages",
		provider: "fake-anthropic",
		baseUrl: url,
		reasoning: false,
		input: ["text"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: PI_MAX_TOKENS,
	};
}

/** What the fake reported a request used: its input from its size, its output its max_tokens. */
function usedBy(request: ModelRequest): { tokens: number; cost: number } {
	const input = Math.ceil((request.bytes ?? 0) / BYTES_PER_TOKEN);
	const output = request.body.max_tokens ?? 0;
	return { tokens: input + output, cost: (input * 3 + output * 15) / 1_000_000 };
}

/** A fake API that answers every main-loop request with a bash call and as many tokens as it allows. */
async function loopingApi(): Promise<FakeAnthropic> {
	const fake = await FakeAnthropic.start();
	fake.answerAsAllowed();
	fake.respond = () => ({ tools: [{ name: "bash", input: { command: "echo step" } }] });
	return fake;
}

describe("the cap on each request of real pi (anthropic-messages)", () => {
	it("is what is left of the tokens less the input's bound; the budget ends within it, the unfit call unsent", async () => {
		api = await loopingApi();
		host = new RealPi();
		const pi = await host.start({ model: anthropicAt(api.url) });
		await pi.timebox("tokens:60k");
		await pi.prompt("loop until told otherwise");
		const caps = api.requests.map((request) => request.body.max_tokens ?? 0);
		expect(caps[0]).toBe(PI_MAX_TOKENS);
		expect(caps.length).toBeGreaterThan(1);
		for (const cap of caps.slice(1)) {
			expect(cap).toBeLessThan(PI_MAX_TOKENS);
			expect(cap).toBeGreaterThanOrEqual(MIN_ANSWER_TOKENS);
		}
		const used = api.requests.reduce((sum, request) => sum + usedBy(request).tokens, 0);
		expect(used).toBeLessThanOrEqual(60_000);
		expect(pi.screen.messages("error")).toEqual([
			`Timebox budget spent. Used 0 turns, 0s, ${used.toLocaleString("en-US")} of 60,000 tokens (too little left for the next model call). The agent stops for this turn. The chat continues.`,
		]);
		// Every answer pi got came from a request the API received; the call that did not fit was aborted unsent.
		const run = pi.promptRun(1);
		expect(run.assistant.map((message) => message.stopReason)).toEqual([...caps.map(() => "toolUse"), "aborted"]);
	});

	it("is what is left of the dollars at the model's prices", async () => {
		api = await loopingApi();
		host = new RealPi();
		const pi = await host.start({ model: anthropicAt(api.url) });
		await pi.timebox("$0.50");
		await pi.prompt("loop until told otherwise");
		const caps = api.requests.map((request) => request.body.max_tokens ?? 0);
		expect(caps[0]).toBeLessThan(PI_MAX_TOKENS);
		const cost = api.requests.reduce((sum, request) => sum + usedBy(request).cost, 0);
		expect(cost).toBeLessThanOrEqual(0.5);
		expect(pi.screen.messages("error")).toEqual([
			expect.stringMatching(
				/^Timebox budget spent\. Used 0 turns, 0s, \$0\.\d+ of \$0\.50 \(too little left for the next model call\)\. The agent stops/,
			),
		]);
	});
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

describe("a token budget on real pi with its scripted model", () => {
	it("stops the run at the answer that passes the limit, before its tools, and says what was used", async () => {
		host = new RealPi();
		// The answer reports far more than the budget allowed it, as only a model that ignores the cap would.
		unmeter = meter(host.faux, () => ({ tokens: 1_200_000, cost: 0 }));
		const pi = await host.start();
		host.faux.setResponses(loop());
		await pi.timebox("tokens:1m");
		await pi.prompt("loop until told otherwise");
		expect(sent()).toBe(1);
		const run = pi.promptRun(1);
		expect(run.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "aborted"]);
		expect(run.toolResults.filter((result) => !result.isError)).toHaveLength(0);
		expect(pi.screen.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 0s, 1,200,000 of 1,000,000 tokens. The agent stops for this turn. The chat continues.",
		]);
		expect(pi.screen.status).toBe("Timebox: budget spent");
	});

	it("keeps the figure across a reload and in a clone", async () => {
		host = new RealPi();
		unmeter = meter(host.faux, () => ({ tokens: 30_000, cost: 0 }));
		const ui = new RecordingUI();
		const runtime = await host.startRuntime(host.newSessionFile(), { ui });
		host.faux.setResponses([textAnswer("one"), textAnswer("two")]);
		await runtime.session.prompt("/timebox tokens:2m");
		await runtime.session.prompt("first");
		await runtime.session.prompt("second");
		expect(ui.status).toBe("Timebox: no time limit | no turn limit | 60k of 2m tokens");
		const file = runtime.session.sessionFile as string;

		const reloaded = new RecordingUI();
		await host.startRuntime(host.openSessionFile(file), { ui: reloaded });
		expect(reloaded.messages("info")).toEqual(["Timebox restored: no time limit | no turn limit | 60k of 2m tokens."]);

		const before = ui.notifications.length;
		await cloneSession(runtime);
		expect(ui.notifications.slice(before)).toEqual([
			{ message: "Timebox restored: no time limit | no turn limit | 60k of 2m tokens.", level: "info" },
		]);
		host.faux.setResponses([textAnswer("three")]);
		await runtime.session.prompt("third");
		expect(ui.status).toBe("Timebox: no time limit | no turn limit | 90k of 2m tokens");
	});
});

describe("a cost budget on real pi with its scripted model", () => {
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
