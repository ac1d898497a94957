// The cap on pi's model calls: what a call tells of its size (the latest answer's prompt, the bytes added since, the
// system prompt and tools), the cap written into each API's field of the request pi is about to send (never raised, a
// thinking budget lowered beside it), and a run on the fake pi whose requests carry the cap and whose call that cannot
// hold a minimal answer is never sent.

import { describe, expect, it } from "vitest";
import { textSize } from "../../../src/adapters/node/text-size.ts";
import { cappedPayload } from "../../../src/adapters/pi/request-cap.ts";
import { pricesOf, RequestMeter, requestOfCall } from "../../../src/adapters/pi/request-size.ts";
import { MIN_ANSWER_TOKENS, NOTE_ALLOWANCE_BYTES } from "../../../src/core/index.ts";
import { BASE_SYSTEM_PROMPT, FakePi, type FakeUsage } from "./fake-pi.ts";

const bytes = textSize;

describe("the cap written into a request", () => {
	it.each<[string, string, Record<string, unknown>, unknown]>([
		["Anthropic's max_tokens", "anthropic-messages", { max_tokens: 32_000 }, { max_tokens: 5_000 }],
		[
			"Anthropic's thinking budget, below the answer",
			"anthropic-messages",
			{ max_tokens: 32_000, thinking: { type: "enabled", budget_tokens: 16_384 } },
			{ max_tokens: 5_000, thinking: { type: "enabled", budget_tokens: 3_976 } },
		],
		[
			"a thinking budget already below it, kept",
			"anthropic-messages",
			{ max_tokens: 32_000, thinking: { type: "enabled", budget_tokens: 1_024 } },
			{ max_tokens: 5_000, thinking: { type: "enabled", budget_tokens: 1_024 } },
		],
		[
			"adaptive thinking, as it is",
			"anthropic-messages",
			{ max_tokens: 9e3, thinking: { type: "adaptive" } },
			{ max_tokens: 5_000, thinking: { type: "adaptive" } },
		],
		[
			"Bedrock's maxTokens and thinking budget",
			"bedrock-converse-stream",
			{ inferenceConfig: { maxTokens: 32_000 }, additionalModelRequestFields: { thinking: { budget_tokens: 8_192 } } },
			{ inferenceConfig: { maxTokens: 5_000 }, additionalModelRequestFields: { thinking: { budget_tokens: 3_976 } } },
		],
		[
			"Bedrock without thinking",
			"bedrock-converse-stream",
			{ inferenceConfig: { maxTokens: 32_000 } },
			{ inferenceConfig: { maxTokens: 5_000 } },
		],
		[
			"OpenAI's max_completion_tokens",
			"openai-completions",
			{ max_completion_tokens: 32_000 },
			{ max_completion_tokens: 5_000 },
		],
		["a compatible server's max_tokens", "openai-completions", { max_tokens: 32_000 }, { max_tokens: 5_000 }],
		["max_tokens where pi sent no limit", "openai-completions", { model: "m" }, { model: "m", max_tokens: 5_000 }],
		[
			"the Responses API's max_output_tokens",
			"openai-responses",
			{ max_output_tokens: 32_000 },
			{ max_output_tokens: 5_000 },
		],
		["Azure's", "azure-openai-responses", {}, { max_output_tokens: 5_000 }],
		[
			"ChatGPT's, where pi sends it",
			"openai-codex-responses",
			{ max_output_tokens: 32_000 },
			{ max_output_tokens: 5_000 },
		],
		[
			"Gemini's maxOutputTokens",
			"google-generative-ai",
			{ config: { maxOutputTokens: 65_536 } },
			{ config: { maxOutputTokens: 5_000 } },
		],
		[
			"Gemini's thinking budget",
			"google-vertex",
			{ config: { maxOutputTokens: 65_536, thinkingConfig: { thinkingBudget: 24_576 } } },
			{ config: { maxOutputTokens: 5_000, thinkingConfig: { thinkingBudget: 3_976 } } },
		],
		[
			"Gemini's dynamic thinking, as it is",
			"google-generative-ai",
			{ config: { maxOutputTokens: 65_536, thinkingConfig: { thinkingBudget: -1 } } },
			{ config: { maxOutputTokens: 5_000, thinkingConfig: { thinkingBudget: -1 } } },
		],
		["Mistral's maxTokens", "mistral-conversations", { maxTokens: 32_000 }, { maxTokens: 5_000 }],
		["pi's own API's", "pi-messages", { options: { maxTokens: 32_000 } }, { options: { maxTokens: 5_000 } }],
	])("lowers %s", (_name, api, payload, expected) => {
		const before = structuredClone(payload);
		expect(cappedPayload({ api }, payload, 5_000)).toEqual(expected);
		expect(payload).toEqual(before);
	});

	it("sets an absent limit no higher than the model's largest answer", () => {
		const model = { api: "openai-responses", maxTokens: 4_000 };
		expect(cappedPayload(model, {}, 5_000)).toEqual({ max_output_tokens: 4_000 });
		expect(cappedPayload({ ...model, maxTokens: 0 }, {}, 5_000)).toEqual({ max_output_tokens: 5_000 });
		expect(cappedPayload(model, { max_output_tokens: 32_000 }, 5_000)).toEqual({ max_output_tokens: 5_000 });
		expect(cappedPayload(undefined, { max_output_tokens: 32_000 }, 5_000)).toBeUndefined();
	});

	it.each<[string, string, unknown]>([
		["a lower limit the request has", "anthropic-messages", { max_tokens: 4_000 }],
		["the same limit", "openai-responses", { max_output_tokens: 5_000 }],
		["ChatGPT's field where pi leaves it out", "openai-codex-responses", { input: [] }],
		["a Gemini request without its config", "google-generative-ai", { contents: [] }],
		["a Gemini request capped lower", "google-vertex", { config: { maxOutputTokens: 1_000 } }],
		["pi's own API's, capped lower", "pi-messages", { options: { maxTokens: 1_000 } }],
		["Bedrock without its inference config", "bedrock-converse-stream", { messages: [] }],
		["an API Timebox does not know", "timebox-demo", { max_tokens: 32_000 }],
		["a request that is no object", "anthropic-messages", "text"],
		["a request that is a list", "anthropic-messages", [1]],
	])("leaves alone %s", (_name, api, payload) => {
		expect(cappedPayload({ api, maxTokens: 32_000 }, payload, 5_000)).toBeUndefined();
	});
});

describe("a call's size", () => {
	const fixed = (systemPrompt: unknown, toolNames: string[] = ["bash"]) => {
		let read = 0;
		return {
			part: {
				systemPrompt,
				toolNames,
				definitions: () => {
					read++;
					return [{ name: "bash" }];
				},
			},
			reads: () => read,
		};
	};
	const user = { role: "user", content: "fix the test", timestamp: 1 };
	const answer = {
		role: "assistant",
		content: "calls bash",
		timestamp: 2,
		usage: { input: 1_000, output: 50, cacheRead: 9_000, cacheWrite: 500 },
	};
	const result = { role: "toolResult", content: "ok", timestamp: 3 };

	it("is all of it before any answer: the system prompt, the tools and every message", () => {
		const meter = new RequestMeter();
		expect(meter.measure([user], fixed("system").part)).toEqual({
			addedBytes: bytes("system") + bytes([{ name: "bash" }]) + bytes(user),
		});
	});

	it("is the latest answer's prompt, and the bytes of that answer and what came after it", () => {
		const meter = new RequestMeter();
		const { part } = fixed("system");
		meter.measure([user], part);
		meter.answer(answer);
		expect(meter.measure([user, answer, result], part)).toEqual({
			answeredInput: 10_500,
			addedBytes: bytes(answer) + bytes(result),
		});
	});

	it("adds what the system prompt grew by since that answer's call, and all of it for an answer it did not see", () => {
		const meter = new RequestMeter();
		meter.measure([user], fixed("system").part);
		meter.answer(answer);
		const grown = fixed("system, and more");
		expect(meter.measure([user, answer, result], grown.part).addedBytes).toBe(
			bytes(answer) + bytes(result) + bytes("system, and more") - bytes("system"),
		);
		const reloaded = new RequestMeter();
		expect(reloaded.measure([user, answer, result], grown.part).addedBytes).toBe(
			bytes(answer) + bytes(result) + bytes("system, and more") + bytes([{ name: "bash" }]),
		);
	});

	it("counts all of the part outside the messages after an answer to a call let go unmeasured", () => {
		const meter = new RequestMeter();
		const { part } = fixed("system");
		meter.measure([user], part);
		expect(meter.skip()).toBeUndefined();
		meter.answer(answer);
		// The unmeasured call's part is not known: all of this one's counts, never less than it grew.
		expect(meter.measure([user, answer, result], part).addedBytes).toBe(
			bytes(answer) + bytes(result) + bytes("system") + bytes([{ name: "bash" }]),
		);
	});

	it("skips an answer that reported no prompt (an aborted one), counting its bytes", () => {
		const aborted = { role: "assistant", content: "", timestamp: 4, usage: { input: 0, output: 0 } };
		const meter = new RequestMeter();
		const { part } = fixed("system");
		meter.measure([user], part);
		meter.answer(answer);
		meter.answer({ role: "toolResult" });
		expect(meter.measure([user, answer, result, aborted, user], part)).toEqual({
			answeredInput: 10_500,
			addedBytes: bytes(answer) + bytes(result) + bytes(aborted) + bytes(user),
		});
	});

	it("counts a system prompt the host does not give as nothing", () => {
		expect(new RequestMeter().measure([user], fixed(undefined).part)).toEqual({
			addedBytes: bytes([{ name: "bash" }]) + bytes(user),
		});
	});

	it("reads the tools' definitions again only when the active tools change, and oh-my-pi's system prompt sections", () => {
		const meter = new RequestMeter();
		const sections = ["one", "two"];
		const same = fixed(sections);
		meter.measure([user], same.part);
		meter.measure([user], same.part);
		expect(same.reads()).toBe(1);
		const more = fixed(sections, ["bash", "read"]);
		expect(meter.measure([user], more.part).addedBytes).toBe(bytes(sections) + bytes([{ name: "bash" }]) + bytes(user));
		expect(more.reads()).toBe(1);
	});

	it("is nothing to cap where pi cannot say it: the call goes as before", () => {
		const pi = { getActiveTools: () => ["bash"], getAllTools: () => [] };
		const broken = {
			getSystemPrompt: () => {
				throw new Error("stale");
			},
			model: undefined,
		};
		expect(requestOfCall(new RequestMeter(), [user], pi, broken)).toBeUndefined();
		expect(requestOfCall(new RequestMeter(), [user], pi, { getSystemPrompt: () => "s", model: undefined })).toEqual({
			addedBytes: bytes("s") + bytes([]) + bytes(user),
		});
		const model = { maxTokens: 32_000, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
		const known = { getSystemPrompt: () => "s", model } as unknown as Parameters<typeof requestOfCall>[3];
		expect(requestOfCall(new RequestMeter(), [user], pi, known)).toEqual({
			addedBytes: bytes("s") + bytes([]) + bytes(user),
			prices: model.cost,
			answerLimit: 32_000,
		});
	});

	it.each<[string, unknown, unknown]>([
		[
			"pi's prices",
			{ cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
			{ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		],
		["a model priced at zero as none", { cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }, undefined],
		["a model without prices as none", { cost: null }, undefined],
		["no model as none", undefined, undefined],
		[
			"a price that is not a price as nothing",
			{ cost: { input: "3", output: 15 } },
			{ input: 0, output: 15, cacheRead: 0, cacheWrite: 0 },
		],
	])("reads %s", (_name, model, prices) => {
		expect(pricesOf(model as { cost?: unknown } | undefined)).toEqual(prices);
	});
});

describe("a tokens: budget on the fake pi that sends requests", () => {
	/** An answer that used `input` prompt tokens and as many output tokens as it was allowed. */
	const asAllowed = (input: number): FakeUsage => ({
		input,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		cost: { total: 0 },
	});

	it("caps each request's max_tokens at what is left, and never sends the call that cannot hold a minimal answer", async () => {
		const pi = new FakePi();
		pi.requests = { payload: { model: "fake-model", max_tokens: 32_000, messages: [] } };
		await pi.start();
		await pi.timebox("tokens:60k -- say done");
		const run = await pi.prompt("loop", { llmCalls: 10, usage: () => asAllowed(20_000) });
		const caps = run.payloads.map((payload) => (payload as { max_tokens: number }).max_tokens);
		// The first call: nothing spent, its input bounded by the system prompt, the tools and the prompt.
		const first = pi.file.messages()[0];
		const fixedBytes =
			bytes(BASE_SYSTEM_PROMPT) +
			bytes([{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }]);
		expect(caps[0]).toBe(Math.min(32_000, 60_000 - (fixedBytes + bytes(first) + NOTE_ALLOWANCE_BYTES)));
		expect(caps.length).toBeGreaterThan(1);
		for (const cap of caps) expect(cap).toBeGreaterThanOrEqual(MIN_ANSWER_TOKENS);
		expect(run.modelCalls).toBe(caps.length);
		expect(run.modelCalls).toBeLessThan(10);
		expect(run.aborted).toBe(true);
		expect(pi.screen.messages("error")).toEqual([
			`Timebox budget spent. Used 0 turns, 0s, ${(20_000 * caps.length).toLocaleString("en-US")} of 60,000 tokens (too little left for the next model call). The agent stops for this turn. The chat continues.`,
		]);
		expect(pi.runner.commands).toEqual(["say done"]);
	});

	it("sends each request as it is without a tokens: or cost: budget", async () => {
		const pi = new FakePi();
		pi.requests = { payload: { max_tokens: 32_000 } };
		await pi.start();
		await pi.timebox("30m turns:5");
		const run = await pi.prompt("loop", { llmCalls: 3 });
		expect(run.payloads).toEqual([{ max_tokens: 32_000 }, { max_tokens: 32_000 }, { max_tokens: 32_000 }]);
		// Nor is a call measured: nothing caps it, and a fresh process's first call pays for no walk of its request.
		expect(pi.toolListReads).toBe(0);
		await pi.timebox("tokens:60k");
		await pi.prompt("capped", { llmCalls: 2 });
		expect(pi.toolListReads).toBe(2);
	});
});
