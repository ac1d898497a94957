// The cap on opencode's model calls, measured where opencode shows them: the latest answer's prompt, the bytes added
// since, the tools opencode defines first and the system prompt it builds after, the prices from opencode's list or
// from the calls, and the cap written at chat.params only where opencode sends a limit, never raising it.

import type { AssistantMessage, Model, UserMessage } from "@opencode-ai/sdk";
import { describe, expect, it } from "vitest";
import { textSize } from "../../../src/adapters/node/text-size.ts";
import type { CallMessage } from "../../../src/adapters/opencode/calls.ts";
import {
	OPENCODE_ANSWER_LIMIT,
	OpencodeRequests,
	pricesOfModel,
	providersLookup,
} from "../../../src/adapters/opencode/request-cap.ts";

const MODEL = { providerID: "fake", modelID: "fake-model" };
const bytes = textSize;

function user(id: string): CallMessage {
	const info: UserMessage = { id, sessionID: "s", role: "user", time: { created: 1 }, agent: "build", model: MODEL };
	return { info, parts: [{ id: `p_${id}`, sessionID: "s", messageID: id, type: "text", text: "fix it" }] };
}

function answer(id: string, input: number): CallMessage {
	const info = {
		id,
		sessionID: "s",
		role: "assistant",
		time: { created: 1, completed: 2 },
		parentID: "u1",
		modelID: "fake-model",
		providerID: "fake",
		mode: "build",
		path: { cwd: "/", root: "/" },
		cost: 0,
		tokens: { input, output: 10, reasoning: 0, cache: { read: 100, write: 0 } },
	} as AssistantMessage;
	return { info, parts: [] };
}

const priced = (cost: Partial<Model["cost"]>, output = 0) => ({
	cost: { input: 0, output: 0, cache: { read: 0, write: 0 }, ...cost },
	limit: { context: 0, output },
});

describe("a model's prices", () => {
	it.each<[string, unknown, unknown]>([
		[
			"its prices",
			priced({ input: 3, output: 15, cache: { read: 0.3, write: 3.75 } }),
			{ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		],
		[
			"the dearer tier above 200k tokens",
			priced({
				input: 3,
				output: 15,
				experimentalOver200K: { input: 6, output: 22.5, cache: { read: 0.6, write: 7.5 } },
			}),
			{ input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 },
		],
		["none for a model priced at zero", priced({}), undefined],
		["none for no model", undefined, undefined],
		["none for a model without cache prices", { cost: { input: 0, output: 0 } }, undefined],
	])("are %s", (_name, model, prices) => {
		expect(pricesOfModel(model as Pick<Model, "cost"> | undefined)).toEqual(prices);
	});

	it("are looked up in opencode's list of providers, and nothing when the list fails or lacks the model", async () => {
		const model = priced({ input: 1 }) as Model;
		const listed = providersLookup(async () => ({
			data: { providers: [{ id: "fake", models: { "fake-model": model } }] },
		}));
		expect(await listed(MODEL)).toBe(model);
		expect(await listed({ providerID: "other", modelID: "x" })).toBeUndefined();
		expect(await providersLookup(async () => ({}))(MODEL)).toBeUndefined();
		expect(await providersLookup(() => Promise.reject(new Error("gone")))(MODEL)).toBeUndefined();
	});
});

describe("an opencode call's size", () => {
	const requests = () => new OpencodeRequests(async () => undefined);

	it("is everything it shows before any answer: the tools defined, the session's system prompt, every message", async () => {
		const sizes = requests();
		await sizes.hooks["tool.definition"]?.({ toolID: "bash" }, { description: "Runs.", parameters: {} });
		await sizes.hooks["experimental.chat.system.transform"]?.(
			{ sessionID: "s", model: {} as Model },
			{ system: ["sys"] },
		);
		// A call of no session (opencode's title generator) is no session's.
		await sizes.hooks["experimental.chat.system.transform"]?.(
			{ model: {} as Model },
			{ system: ["a title generator"] },
		);
		// The system prompt counts from the agent's chat.params on: before it, the session's next call has none.
		// Before any call of the agent, its answers are held at opencode's own largest.
		expect(await sizes.measure("s", [user("u1")], MODEL)).toEqual({
			addedBytes: bytes({ description: "Runs.", parameters: {} }) + bytes(user("u1")),
			answerLimit: OPENCODE_ANSWER_LIMIT,
		});
		sizes.params(
			{ sessionID: "s", agent: "build", model: { providerID: "fake", id: "fake-model", ...priced({ output: 15 }) } },
			{ maxOutputTokens: 8_000 },
			true,
		);
		expect(await sizes.measure("s", [user("u1")], MODEL)).toEqual({
			addedBytes: bytes({ description: "Runs.", parameters: {} }) + bytes(["sys"]) + bytes(user("u1")),
			prices: { input: 0, output: 15, cacheRead: 0, cacheWrite: 0 },
			answerLimit: 8_000,
		});
	});

	it("is the latest answer's prompt and the bytes from it on, with what the fixed part grew by since its call", async () => {
		const sizes = requests();
		const first = [user("u1")];
		await sizes.measure("s", first, MODEL);
		sizes.answered(answer("a1", 900).info);
		sizes.answered(user("u9").info);
		const later = [user("u1"), answer("a1", 900), user("u2")];
		expect(await sizes.measure("s", later, MODEL)).toEqual({
			answeredInput: 1_000,
			addedBytes: bytes(answer("a1", 900)) + bytes(user("u2")),
			answerLimit: OPENCODE_ANSWER_LIMIT,
		});
		// An answer it did not see come (an earlier process's) counts the whole fixed part again.
		await sizes.hooks["tool.definition"]?.({ toolID: "read" }, { description: "Reads.", parameters: {} });
		expect((await sizes.measure("s", [user("u1"), answer("a0", 500), user("u2")], MODEL))?.addedBytes).toBe(
			bytes(answer("a0", 500)) + bytes(user("u2")) + bytes({ description: "Reads.", parameters: {} }),
		);
	});

	it("counts all of the fixed part again after an answer to a call let go unmeasured (no tokens or cost budget)", async () => {
		const sizes = requests();
		await sizes.hooks["tool.definition"]?.({ toolID: "bash" }, { description: "Runs.", parameters: {} });
		await sizes.measure("s", [user("u1")], MODEL);
		const seen: object[] = [];
		await sizes.handled(
			{ sessionId: "s", model: MODEL },
			[user("u1")],
			async (request) => {
				seen.push(request);
				return {};
			},
			false,
		);
		expect(seen).toEqual([{}]);
		sizes.answered(answer("a1", 900).info);
		// The unmeasured call's part is not known: all of this one's counts, never less than it grew.
		expect((await sizes.measure("s", [user("u1"), answer("a1", 900), user("u2")], MODEL))?.addedBytes).toBe(
			bytes(answer("a1", 900)) + bytes(user("u2")) + bytes({ description: "Runs.", parameters: {} }),
		);
	});

	it("is nothing to cap where it cannot be read: the call goes as before", async () => {
		const odd = { info: user("u1").info, parts: [] } as CallMessage;
		Object.defineProperty(odd, "parts", {
			enumerable: true,
			get: () => {
				throw new Error("opencode is shutting down");
			},
		});
		expect(await requests().requestOf("s", [odd], MODEL)).toEqual({});
		expect(await requests().requestOf("s", [user("u1")], MODEL)).toEqual({
			request: { addedBytes: bytes(user("u1")), answerLimit: OPENCODE_ANSWER_LIMIT },
		});
	});

	it("holds a call's answer at the largest opencode's list gives its model, or at opencode's own", async () => {
		const small = new OpencodeRequests(async () => priced({}, 4_096) as Model);
		expect((await small.measure("s", [user("u1")], MODEL))?.answerLimit).toBe(4_096);
		const large = new OpencodeRequests(async () => priced({}, 128_000) as Model);
		expect((await large.measure("s", [user("u1")], MODEL))?.answerLimit).toBe(OPENCODE_ANSWER_LIMIT);
	});
});

describe("the cap at chat.params", () => {
	const call = (agent: string) => ({
		sessionID: "s",
		agent,
		model: { providerID: "fake", id: "fake-model", ...priced({}) },
	});

	it("lowers opencode's limit on the agent's call, once, and leaves the title call's alone", () => {
		const sizes = new OpencodeRequests(async () => undefined);
		sizes.cap("s", 5_000);
		const title = { maxOutputTokens: 32_000 as number | undefined };
		sizes.params(call("title"), title, false);
		expect(title.maxOutputTokens).toBe(32_000);
		const agent = { maxOutputTokens: 32_000 as number | undefined };
		sizes.params(call("build"), agent, true);
		expect(agent.maxOutputTokens).toBe(5_000);
		const next = { maxOutputTokens: 32_000 as number | undefined };
		sizes.params(call("build"), next, true);
		expect(next.maxOutputTokens).toBe(32_000);
	});

	it("never raises a lower limit, nor sets one where opencode sends none (a provider that refuses the field)", () => {
		const sizes = new OpencodeRequests(async () => undefined);
		sizes.cap("s", 5_000);
		const lower = { maxOutputTokens: 4_000 as number | undefined };
		sizes.params(call("build"), lower, true);
		expect(lower.maxOutputTokens).toBe(4_000);
		sizes.cap("s", 5_000);
		const none = { maxOutputTokens: undefined };
		sizes.params(call("build"), none, true);
		expect(none.maxOutputTokens).toBeUndefined();
	});
});
