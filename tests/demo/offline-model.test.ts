// Tests for the demo's offline scripted model: what it answers, how it streams, and that it honours abort.
import type {
	Api,
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	Message,
	Model,
	SimpleStreamOptions,
} from "@mariozechner/pi-ai";
import type { ExtensionAPI, ProviderConfig } from "@mariozechner/pi-coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import offlineModel, {
	abortableDelay,
	type ChunkDelay,
	createScriptedStream,
	DEMO_API,
	DEMO_API_KEY,
	DEMO_COMMAND,
	DEMO_MODEL_ID,
	DEMO_MODEL_NAME,
	DEMO_PROVIDER,
	LOOP_COMMAND,
	NUDGE_MARKER,
	scriptedReply,
} from "../../demo/offline-model.ts";

const MODEL: Model<Api> = {
	id: DEMO_MODEL_ID,
	name: DEMO_MODEL_NAME,
	api: DEMO_API,
	provider: DEMO_PROVIDER,
	baseUrl: "http://offline.invalid",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 128000,
	maxTokens: 4096,
};

const instant: ChunkDelay = () => Promise.resolve();

function userMessage(text: string): Message {
	return { role: "user", content: text, timestamp: 1 };
}

function toolCallMessage(): Message {
	return {
		role: "assistant",
		content: [{ type: "toolCall", id: "call-1", name: "bash", arguments: { command: DEMO_COMMAND } }],
		api: DEMO_API,
		provider: DEMO_PROVIDER,
		model: DEMO_MODEL_ID,
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "toolUse",
		timestamp: 2,
	};
}

function toolResultMessage(): Message {
	return {
		role: "toolResult",
		toolCallId: "call-1",
		toolName: "bash",
		content: [{ type: "text", text: "demo step done\n" }],
		isError: false,
		timestamp: 3,
	};
}

function firstCall(prompt: string, systemPrompt = "You are pi."): Context {
	return { systemPrompt, messages: [userMessage(prompt)] };
}

/** A later call of a run: the tool's result, and Timebox's note after it when there is one (pi sends it as a user message). */
function afterToolResult(prompt: string, note: string | null = null): Context {
	const messages = [userMessage(prompt), toolCallMessage(), toolResultMessage()];
	return { systemPrompt: "You are pi.", messages: note === null ? messages : [...messages, userMessage(note)] };
}

async function collect(stream: AssistantMessageEventStream): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) {
		events.push(event);
	}
	return events;
}

function run(
	context: Context,
	delay: ChunkDelay = instant,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return createScriptedStream({ delay, chunkDelayMs: () => 0 })(MODEL, context, options);
}

function streamedText(events: readonly AssistantMessageEvent[]): string {
	return events.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
}

function textOf(message: AssistantMessage): string {
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("scriptedReply", () => {
	it("answers the first call of a prompt with a short text and one fixed bash call", () => {
		const reply = scriptedReply(firstCall('list files"; rm -rf / #'));

		expect(reply.text.length).toBeGreaterThan(0);
		expect(reply.toolCall).toEqual({ name: "bash", arguments: { command: DEMO_COMMAND } });
	});

	it("never puts the user's text into the command", () => {
		const reply = scriptedReply(firstCall("$(touch /tmp/pwned)"));

		expect(JSON.stringify(reply.toolCall)).not.toContain("pwned");
	});

	it("answers after a tool result with text that quotes the prompt and no tool call", () => {
		const reply = scriptedReply(afterToolResult("What is the capital of France?"));

		expect(reply.toolCall).toBeUndefined();
		expect(reply.text).toContain('"What is the capital of France?"');
		expect(reply.text).not.toContain("wrapping up");
	});

	it("quotes the latest prompt when the user message has content blocks", () => {
		const context = afterToolResult("ignored");
		context.messages[0] = {
			role: "user",
			content: [
				{ type: "text", text: "Summarise" },
				{ type: "text", text: "the  README\n" },
			],
			timestamp: 1,
		};

		expect(scriptedReply(context).text).toContain('"Summarise the README"');
	});

	it("shortens a long prompt in the quote", () => {
		const reply = scriptedReply(afterToolResult("word ".repeat(100)));

		expect(reply.text).toContain("…");
		expect(reply.text.length).toBeLessThan(400);
	});

	it("wraps up when Timebox's nudge block ends the call", () => {
		const reply = scriptedReply(afterToolResult("Refactor it", `IMPORTANT ${NUDGE_MARKER}\nTime left`));

		expect(reply.toolCall).toBeUndefined();
		expect(reply.text).toContain("timebox is nearly spent");
		expect(reply.text).toContain("wrapping up");
		expect(reply.text).toContain('"Refactor it"');
	});

	it("says what the warning block says is left, and claims no budget when there is no block", () => {
		const block = [
			`CRITICAL ${NUDGE_MARKER}`,
			"Time left: 30s of 10m.",
			"Turns: this is the last prompt the budget allows (4 of 5 used).",
			"Wrap up now.",
		].join("\n");
		expect(scriptedReply(afterToolResult("Fix it", block)).text).toContain(
			"What Timebox told me: Time left: 30s of 10m. Turns: this is the last prompt the budget allows (4 of 5 used).",
		);
		// A daily budget's line from 80% is a warning too: the demo says it, and wraps up.
		const team =
			"The team's budget for today (shared by every member): 40 turns left of 200. Wrap up what you are doing, and start nothing new.";
		expect(scriptedReply(afterToolResult("Fix it", team)).text).toContain(`What Timebox told me: ${team}`);
		const plain = scriptedReply(afterToolResult("Fix it", "Timebox: 3 prompts left of 5 prompts.")).text;
		expect(plain).toContain("Timebox has not warned me that a budget is nearly spent, so there is room for more.");
		expect(plain).not.toContain("next turn");
	});
});

describe("a prompt that asks for a loop", () => {
	it("keeps calling bash until Timebox says the steps or the budget are spent, then answers with where it stands", () => {
		expect(scriptedReply(afterToolResult("loop forever")).toolCall?.arguments).toEqual({ command: LOOP_COMMAND });
		expect(
			scriptedReply(afterToolResult("loop forever", `IMPORTANT ${NUDGE_MARKER}\nSteps: 4 of 5`)).toolCall,
		).toBeDefined();
		for (const notice of ["TIMEBOX: STEPS SPENT\nWrite your final answer now.", "TIMEBOX: BUDGET SPENT\nWrite it."]) {
			const reply = scriptedReply(afterToolResult("loop forever", notice));
			expect(reply.toolCall).toBeUndefined();
			expect(reply.text).toContain("Timebox says this prompt must finish now");
		}
	});
});

describe("createScriptedStream", () => {
	it("streams text deltas and then one bash tool call on the first call", async () => {
		const stream = run(firstCall("hello"));
		const events = await collect(stream);
		const types = events.map((event) => event.type);
		const message = await stream.result();

		expect(types[0]).toBe("start");
		expect(types[1]).toBe("text_start");
		expect(types.filter((type) => type === "text_delta").length).toBeGreaterThan(3);
		expect(types.slice(-3)).toEqual(["toolcall_delta", "toolcall_end", "done"]);
		expect(streamedText(events)).toBe(scriptedReply(firstCall("hello")).text);

		const toolDeltas = events.map((event) => (event.type === "toolcall_delta" ? event.delta : "")).join("");
		expect(JSON.parse(toolDeltas)).toEqual({ command: DEMO_COMMAND });

		const done = events.at(-1);
		expect(done?.type === "done" && done.reason).toBe("toolUse");
		expect(message.stopReason).toBe("toolUse");
		expect(message.provider).toBe(DEMO_PROVIDER);
		expect(message.model).toBe(DEMO_MODEL_ID);
		expect(message.usage.cost.total).toBe(0);
		const calls = message.content.filter((block) => block.type === "toolCall");
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ name: "bash", arguments: { command: DEMO_COMMAND } });
	});

	it("answers after the tool result with text quoting the prompt and stopReason stop", async () => {
		const stream = run(afterToolResult("list the files"));
		const events = await collect(stream);
		const message = await stream.result();

		expect(events.some((event) => event.type.startsWith("toolcall"))).toBe(false);
		expect(streamedText(events)).toContain('"list the files"');
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
		expect(message.stopReason).toBe("stop");
		expect(textOf(message)).toBe(streamedText(events));
	});

	it("streams a wrap-up message when the call ends with the nudge", async () => {
		const stream = run(afterToolResult("keep going", `CRITICAL ${NUDGE_MARKER}\nTurns: last`));
		const events = await collect(stream);

		expect(streamedText(events)).toContain("wrapping up");
		expect(streamedText(events)).toContain("timebox is nearly spent");
		expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
	});

	it("waits before every chunk with a 40–80 ms pause by default", async () => {
		const pauses: number[] = [];
		const delay: ChunkDelay = (ms) => {
			pauses.push(ms);
			return Promise.resolve();
		};
		const events = await collect(createScriptedStream({ delay })(MODEL, firstCall("hi")));
		const chunks = events.filter((event) => event.type === "text_delta" || event.type === "toolcall_delta");

		expect(pauses).toHaveLength(chunks.length);
		for (const ms of pauses) {
			expect(ms).toBeGreaterThanOrEqual(40);
			expect(ms).toBeLessThanOrEqual(80);
		}
	});

	it("ends with an aborted error and no text when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const stream = run(firstCall("hello"), instant, { signal: controller.signal });
		const events = await collect(stream);
		const message = await stream.result();

		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ type: "error", reason: "aborted" });
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(message.content).toEqual([]);
	});

	it("stops streaming text as soon as the signal aborts mid-answer", async () => {
		const controller = new AbortController();
		let pauses = 0;
		const delay: ChunkDelay = () => {
			pauses++;
			if (pauses === 3) {
				controller.abort();
			}
			return Promise.resolve();
		};
		const stream = run(afterToolResult("long answer please"), delay, { signal: controller.signal });
		const events = await collect(stream);
		const message = await stream.result();
		const last = events.at(-1);

		expect(events.filter((event) => event.type === "text_delta")).toHaveLength(2);
		expect(last).toMatchObject({ type: "error", reason: "aborted" });
		expect(events.filter((event) => event.type === "error" || event.type === "done")).toHaveLength(1);
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(textOf(message)).toBe(streamedText(events));
	});

	it("does not send the tool call when aborted while streaming it", async () => {
		const unaborted = await collect(run(firstCall("x")));
		const textChunks = unaborted.filter((event) => event.type === "text_delta").length;
		const controller = new AbortController();
		let pauses = 0;
		const delay: ChunkDelay = () => {
			pauses++;
			if (pauses === textChunks + 1) {
				controller.abort();
			}
			return Promise.resolve();
		};
		const stream = run(firstCall("x"), delay, { signal: controller.signal });
		const events = await collect(stream);

		expect(events.some((event) => event.type === "toolcall_start")).toBe(true);
		expect(events.some((event) => event.type === "toolcall_delta" || event.type === "toolcall_end")).toBe(false);
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "aborted" });
	});
});

describe("abortableDelay", () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it("resolves after the given time", async () => {
		vi.useFakeTimers();
		const settled = vi.fn();
		void abortableDelay(60, undefined).then(settled);

		await vi.advanceTimersByTimeAsync(59);
		expect(settled).not.toHaveBeenCalled();
		await vi.advanceTimersByTimeAsync(1);
		expect(settled).toHaveBeenCalledOnce();
	});

	it("resolves at once when the signal aborts, without waiting for the timer", async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const settled = vi.fn();
		void abortableDelay(60_000, controller.signal).then(settled);

		controller.abort();
		await Promise.resolve();
		await Promise.resolve();

		expect(settled).toHaveBeenCalledOnce();
		expect(vi.getTimerCount()).toBe(0);
	});

	it("resolves at once for a signal that is already aborted", async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		controller.abort();

		await abortableDelay(60_000, controller.signal);

		expect(vi.getTimerCount()).toBe(0);
	});
});

describe("offlineModel extension", () => {
	it("registers the timebox-demo provider with one free scripted model and a stream handler", () => {
		const registerProvider = vi.fn<(name: string, config: ProviderConfig) => void>();
		const pi = { registerProvider } as unknown as ExtensionAPI;

		offlineModel(pi);

		expect(registerProvider).toHaveBeenCalledOnce();
		const [name, config] = registerProvider.mock.calls[0] ?? [];
		expect(name).toBe(DEMO_PROVIDER);
		expect(config).toMatchObject({ api: DEMO_API, apiKey: DEMO_API_KEY });
		expect(config?.models).toHaveLength(1);
		expect(config?.models?.[0]).toMatchObject({
			id: DEMO_MODEL_ID,
			name: DEMO_MODEL_NAME,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		});
		expect(typeof config?.streamSimple).toBe("function");
	});
});
