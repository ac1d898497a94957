// Usage from message.updated against token and cost budgets, what a restarted opencode (same data folder) keeps, and
// the session log's prompts and steps.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIN_ANSWER_TOKENS, NOTE_ALLOWANCE_BYTES } from "../../../src/core/index.ts";
import {
	createWorld,
	FakeOpencode,
	FREE,
	MAIN,
	notesOf,
	PRICED,
	removeWorld,
	type Usage,
	type World,
} from "./fake-opencode.ts";

const MINUTE = 60_000;
const SPENT = (used: string) =>
	`Timebox budget spent. Used ${used}. The agent stops for this turn. The chat continues.`;

/** 600 tokens of every kind opencode counts, for `cost` dollars. */
const used600 = (cost = 0): Usage => ({ input: 300, output: 100, reasoning: 100, cacheRead: 50, cacheWrite: 50, cost });
/** An answer of 40,000 tokens, 30,000 of them its prompt. */
const used40k = (cost = 0): Usage => ({ input: 20_000, output: 8_000, reasoning: 2_000, cacheRead: 10_000, cost });

let world: World;

beforeEach(() => {
	world = createWorld();
});

afterEach(() => removeWorld(world));

/** The session log's lines of one kind. */
function logged(kind: string, session = MAIN): Record<string, unknown>[] {
	return readFileSync(join(world.dataDir, "sessions", `${session}.jsonl`), "utf8")
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => JSON.parse(line) as Record<string, unknown>)
		.filter((line) => line.kind === kind);
}

describe("a token budget", () => {
	it("caps each call's answer at what is left, counts each answer once, and never sends the call that cannot fit", async () => {
		const opencode = await FakeOpencode.start(world);
		await opencode.timebox("tokens:100k -- say done");
		const job = await opencode.prompt("loop", { calls: 5, usage: () => used40k() });
		const refusal = SPENT("0 turns, 0s, 80,000 of 100,000 tokens (too little left for the next model call)");
		expect(job.calls.map((call) => call.refusal)).toEqual([null, null, refusal]);
		// Each call's limit is what is left less the bound on its input; the third, which cannot fit, is not sent.
		const [first, second] = job.calls.map((call) => call.maxOutputTokens);
		expect(first).toBe(32_000);
		expect(second).toBeLessThan(100_000 - 40_000 - 30_000 - NOTE_ALLOWANCE_BYTES);
		expect(second).toBeGreaterThan(MIN_ANSWER_TOKENS);
		expect(opencode.messages("error")).toEqual([refusal]);
		expect(world.runner.commands).toEqual(["say done"]);
		// opencode reports an answer again (a part changed): it counted already.
		const answer = opencode.conversation().messages.findLast((message) => message.info.role === "assistant")?.info;
		if (answer?.role !== "assistant") throw new Error("the run has answers");
		await opencode.event({ type: "message.updated", properties: { info: answer } });
		expect(logged("usage").map((line) => line.tokens)).toEqual([0, 40_000, 40_000, 0]);
		await opencode.timebox("status");
		expect(opencode.last?.message).toMatch(
			/^Timebox budget spent\. Used 0 turns, 0s, 80,000 of 100,000 tokens \(too little left for the next model call\)\. Set /,
		);
	});

	it("stops at the answer that passes the limit where the model answers more than it was allowed", async () => {
		const opencode = await FakeOpencode.start(world);
		await opencode.timebox("tokens:30k -- say done");
		const job = await opencode.prompt("loop", { calls: 5, usage: () => used40k() });
		expect(job.calls.map((call) => call.refusal)).toEqual([null]);
		expect(job.aborted).toBe(true);
		expect(opencode.client.aborts).toEqual([MAIN]);
		expect(opencode.messages("error")).toEqual([SPENT("0 turns, 0s, 40,000 of 30,000 tokens")]);
		expect(world.runner.commands).toEqual(["say done"]);
		const conversation = opencode.conversation();
		expect((await opencode.call(conversation, conversation.lastPrompt())).refusal).toBe(SPENT("0 turns, 0s"));
	});

	it("writes what each answer used to the session log, so opencode run -c keeps the count and the budget", async () => {
		const first = await FakeOpencode.start(world);
		await first.timebox("tokens:190k");
		await first.prompt("one", { calls: 2, usage: () => used40k(0.01) });
		expect(logged("usage").map((line) => [line.tokens, line.cost])).toEqual([
			[0, 0],
			[40_000, 0.01],
			[40_000, 0.01],
		]);
		const second = await first.restart();
		// The restarted opencode reports the stored answers again: they counted already.
		for (const message of second.conversation().messages) {
			if (message.info.role === "assistant")
				await second.event({ type: "message.updated", properties: { info: message.info } });
		}
		await second.timebox("status");
		expect(second.last).toEqual({
			message: "Timebox: no time limit | no turn limit | 80k of 190k tokens",
			level: "info",
		});
		const two = await second.prompt("two", { calls: 4, usage: () => used40k() });
		const refusal = SPENT("1 turn, 0s, 160,000 of 190,000 tokens (too little left for the next model call)");
		expect(two.calls.map((call) => call.refusal)).toEqual([null, null, refusal]);
	});

	it("counts an answer opencode completed before the plugin heard of it at the next call, and once", async () => {
		const opencode = await FakeOpencode.start(world, { interactive: true });
		await opencode.timebox("tokens:100k");
		await opencode.prompt("one", { usage: () => used40k() });
		const conversation = opencode.conversation();
		const prompt = conversation.addUser("two");
		// opencode stored the next answer complete, and sends the call after it before message.updated reaches the plugin.
		const late = conversation.addAssistant(prompt.info.id, used40k());
		late.time.completed = world.time.now();
		late.finish = "tool-calls";
		const next = await opencode.call(conversation, prompt.info);
		expect(next.refusal).toBe(SPENT("0 turns, 0s, 80,000 of 100,000 tokens (too little left for the next model call)"));
		await opencode.event({ type: "message.updated", properties: { info: late } });
		expect(logged("usage").filter((line) => line.responseId === late.id)).toHaveLength(1);
	});

	it("leaves a call uncapped where opencode sends no limit, and never raises a lower one", async () => {
		const opencode = await FakeOpencode.start(world);
		await opencode.timebox("tokens:100k");
		opencode.maxOutputTokens = undefined;
		expect((await opencode.prompt("one")).calls.map((call) => call.maxOutputTokens)).toEqual([undefined]);
		opencode.maxOutputTokens = 1_000;
		expect((await opencode.prompt("two")).calls.map((call) => call.maxOutputTokens)).toEqual([1_000]);
	});
});

describe("a cost budget", () => {
	it("caps the answer at the dollars left, at the model's prices, and stops the call that cannot pay for a minimal one", async () => {
		const opencode = await FakeOpencode.start(world);
		await opencode.timebox("cost:1");
		expect(opencode.last?.message).toBe("Timebox set: $1.00.");
		const job = await opencode.prompt("loop", { calls: 5, usage: () => used600(0.49) });
		expect(job.calls).toHaveLength(3);
		expect(job.calls[1]?.maxOutputTokens).toBeLessThan(((1 - 0.49) * 1_000_000) / 15);
		expect(opencode.messages("error")).toEqual([
			SPENT("0 turns, 0s, $0.98 of $1.00 (too little left for the next model call)"),
		]);
	});

	it("takes the prices of a model opencode's list does not have from its calls", async () => {
		const opencode = await FakeOpencode.start(world, { interactive: true });
		opencode.client.failProviders = true;
		await opencode.timebox("cost:0.01");
		const job = await opencode.prompt("loop", { calls: 5, usage: () => used600(0.006) });
		// The first call, with no prices yet, goes; the second is measured at the prices the first call showed.
		expect(job.calls.map((call) => call.refusal)).toEqual([
			null,
			SPENT("0 turns, 0s, $0.006 of $0.01 (too little left for the next model call)"),
		]);
	});
});

describe("a session with no budget of tokens or cost", () => {
	it("sends its calls unmeasured, never asking opencode's server for the model's prices before a call goes", async () => {
		const opencode = await FakeOpencode.start(world, { interactive: true });
		await opencode.timebox("1h turns:5");
		await opencode.prompt("loop", { calls: 2, usage: () => used600(0.01) });
		expect(opencode.client.providersAsked).toBe(0);
		// In a TUI's process under a budget of tokens, its first call is measured, at the model's prices and limits looked
		// up once (a later call knows them from the call before it; in opencode run, from the command's own call).
		const capped = await FakeOpencode.start(world, { interactive: true });
		await capped.timebox("tokens:100k");
		await capped.prompt("more", { calls: 2, usage: () => used600(0.01) });
		expect(capped.client.providersAsked).toBe(1);
	});
});

describe("a restarted opencode", () => {
	it("keeps a turn budget's count", async () => {
		const first = await FakeOpencode.start(world, { interactive: true });
		await first.timebox("turns:2");
		await first.prompt("one");
		const second = await first.restart({ interactive: false });
		await second.timebox("status");
		expect(second.last?.message).toBe("Timebox: no time limit | 1 turn left (1/2)");
		await second.prompt("two");
		expect((await second.prompt("three")).calls[0]?.refusal).toBe(SPENT("2 turns, 0s"));
	});

	it("keeps a spent budget spent and never runs the on-stop command twice", async () => {
		const first = await FakeOpencode.start(world);
		await first.timebox("turns:1 -- say done");
		await first.prompt("one");
		expect((await first.prompt("two")).calls[0]?.refusal).toBe(SPENT("1 turn, 0s"));
		expect(world.runner.commands).toEqual(["say done"]);
		const second = await first.restart();
		const three = await second.prompt("three", { calls: 2 });
		expect(three.calls.map((call) => call.refusal)).toEqual([null, null]);
		await second.timebox("status");
		expect(second.messages()).toEqual([
			"Timebox budget spent. Used 1 turn, 0s. Set a new budget with /timebox <budget>, or clear this one with /timebox off.",
		]);
		expect(world.runner.commands).toEqual(["say done"]);
	});

	it("refuses the next prompt after the time ran out while opencode was closed, and runs the on-stop once", async () => {
		const first = await FakeOpencode.start(world);
		await first.timebox("1m -- say done");
		await first.prompt("one");
		await first.dispose();
		world.time.advance(5 * MINUTE);
		expect(world.runner.commands).toEqual([]);
		const second = await FakeOpencode.start(world);
		const late = await second.prompt("two");
		expect(late.calls.map((call) => call.refusal)).toEqual([SPENT("1 turn, 5m 0s")]);
		expect(second.messages("error")).toEqual([SPENT("1 turn, 5m 0s")]);
		expect(world.runner.commands).toEqual(["say done"]);
		const third = await second.restart();
		expect((await third.prompt("three")).calls.map((call) => call.refusal)).toEqual([null]);
		world.time.advance(5 * MINUTE);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(third.messages("error")).toEqual([]);
	});
});

describe("the session log", () => {
	it("holds each prompt once, however many calls it makes, and after a restart that sends its call again", async () => {
		const first = await FakeOpencode.start(world);
		await first.timebox("turns:3");
		const one = await first.prompt("one", { calls: 3 });
		expect(logged("prompt").map((line) => line.promptId)).toEqual([one.prompt]);
		const second = await first.restart();
		const conversation = second.conversation();
		const again = await second.call(conversation, conversation.lastPrompt());
		expect(again.refusal).toBeNull();
		expect(logged("prompt").map((line) => line.promptId)).toEqual([one.prompt]);
		const third = await second.restart();
		await third.timebox("status");
		expect(third.last?.message).toBe("Timebox: no time limit | 2 turns left (1/3)");
		expect(third.messages()[0]).toBe("Timebox restored: no time limit | 2 turns left (1/3).");
	});

	it("counts a call opencode sends again as one step", async () => {
		const opencode = await FakeOpencode.start(world);
		await opencode.timebox("steps:2");
		const conversation = opencode.conversation();
		const prompt = conversation.addUser("loop");
		await opencode.hook("chat.message")({ sessionID: MAIN }, { message: prompt.info, parts: prompt.parts });
		expect((await opencode.call(conversation, prompt.info)).refusal).toBeNull();
		expect((await opencode.call(conversation, prompt.info)).refusal).toBeNull();
		await opencode.answer(conversation, prompt.info.id, used600(), "tool-calls");
		const second = await opencode.call(conversation, prompt.info);
		expect(second.refusal).toBeNull();
		expect(notesOf(second.sent).join("\n")).toContain("Steps: this is model call 2 of the 2 this prompt may make.");
		expect(notesOf(second.sent).join("\n")).not.toContain("STEPS SPENT");
	});
});

describe("whether the model reports its cost", () => {
	it("is the agent's model's, not the title call's small model", async () => {
		const opencode = await FakeOpencode.start(world);
		await opencode.prompt("one", { model: PRICED, titleModel: FREE });
		// opencode's title call may come after the agent's first call: its small model's prices do not count.
		const conversation = opencode.conversation();
		await opencode.hook("chat.params")(
			opencode.paramsInput(MAIN, "title", conversation.lastPrompt(), FREE),
			opencode.paramsOutput(),
		);
		// Nor does the model that writes the summary when opencode compacts the session.
		await opencode.hook("chat.params")(
			opencode.paramsInput(MAIN, "compaction", conversation.lastPrompt(), FREE),
			opencode.paramsOutput(),
		);
		await opencode.timebox("cost:1");
		expect(opencode.last?.message).toBe("Timebox set: $1.00.");
		await opencode.prompt("two", { model: FREE, title: false });
		await opencode.timebox("cost:2");
		expect(opencode.last?.message).toBe(
			"Timebox set: $2.00. It replaces the previous budget.\nTimebox: this model reports no cost: the cost limit cannot be enforced.",
		);
	});
});
