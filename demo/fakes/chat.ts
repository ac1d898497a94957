// A loopback fake of the OpenAI chat completions API (streamed), for opencode's `@ai-sdk/openai-compatible` provider:
// it answers from a script (a reply may be computed when its request comes), records every request body, and reports
// the usage a test asks for. The tests script it; opencode's demo (`npm start -- opencode`) answers with `respond`.

import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AsAllowed, asAllowed, LIMIT_FIELDS } from "./as-allowed.ts";
import { paced, wordChunks } from "./pace.ts";

/**
 * One scripted answer: text, a call of opencode's `bash` tool with a command, or a call of any tool with its arguments
 * (opencode's `task` tool starts a subagent).
 */
export type ChatReply = { text: string } | { bash: string } | { tool: string; args: Record<string, unknown> };

/** A scripted answer, or one computed when its request comes (from the time then, say). */
export type ScriptedReply = ChatReply | ((request: ChatRequest) => ChatReply);

/** A request the fake received: its JSON body, and whether it was opencode's title request. */
export interface ChatRequest {
	body: { messages: { role: string; content: unknown }[]; [key: string]: unknown };
	text: string;
	title: boolean;
	at: number;
}

/** Title requests get a title; every other request takes the next scripted reply ("done" when the script ends). */
export class FakeChat {
	readonly requests: ChatRequest[] = [];
	private readonly script: ScriptedReply[] = [];
	private server!: Server;
	url = "";
	/** The usage each answer reports. */
	usage = { prompt_tokens: 100, completion_tokens: 20 };
	/** What each answer reports it used, from the request's body, in place of `usage` where set. */
	meter: ((body: string) => AsAllowed) | null = null;

	/** Reports each answer as long as the request allows (see as-allowed.ts). */
	answerAsAllowed(): void {
		this.meter = (body) => asAllowed(body, LIMIT_FIELDS.chat, 32_000);
	}
	/** The answer when the script is empty; "done" unless set. */
	respond: (request: ChatRequest) => ChatReply = () => ({ text: "done" });
	/** The answer to opencode's title request. */
	titleText = "A title";
	/** When above 0, a text is streamed a few words at a time, this many ms apart. */
	chunkDelayMs = 0;

	static async start(): Promise<FakeChat> {
		const fake = new FakeChat();
		fake.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				const text = Buffer.concat(chunks).toString("utf8");
				const body = JSON.parse(text) as ChatRequest["body"];
				const title = JSON.stringify(body.messages[0]?.content ?? "").includes("title generator");
				const received: ChatRequest = { body, text, title, at: Date.now() };
				fake.requests.push(received);
				const next = title ? { text: fake.titleText } : (fake.script.shift() ?? fake.respond);
				void fake.answer(response, typeof next === "function" ? next(received) : next, text);
			});
		});
		await new Promise<void>((done) => fake.server.listen(0, "127.0.0.1", done));
		fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
		return fake;
	}

	reply(...replies: ScriptedReply[]): void {
		this.script.push(...replies);
	}

	/** Forgets the requests received so far (a warm-up's), so that a test's assertions see only its own. */
	forget(): void {
		this.requests.length = 0;
	}

	/** The requests of the agent itself, without the title requests. */
	get main(): ChatRequest[] {
		return this.requests.filter((request) => !request.title);
	}

	private async answer(response: ServerResponse, reply: ChatReply, body: string): Promise<void> {
		response.writeHead(200, { "content-type": "text/event-stream" });
		const id = `chatcmpl_${this.requests.length}`;
		const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
			response.write(
				`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model: "fake-model", choices, ...extra })}\n\n`,
			);
		if ("bash" in reply || "tool" in reply) {
			const call = { index: 0, id: `call_${this.requests.length}`, type: "function" };
			const name = "tool" in reply ? reply.tool : "bash";
			chunk([
				{
					index: 0,
					delta: { role: "assistant", tool_calls: [{ ...call, function: { name, arguments: "" } }] },
				},
			]);
			const args = JSON.stringify(
				"tool" in reply ? reply.args : { command: reply.bash, description: "Runs a command" },
			);
			chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] } }]);
			chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
		} else {
			await paced(wordChunks(reply.text, this.chunkDelayMs), this.chunkDelayMs, (text, first) =>
				chunk([{ index: 0, delta: first ? { role: "assistant", content: text } : { content: text } }]),
			);
			chunk([{ index: 0, delta: {}, finish_reason: "stop" }]);
		}
		const used = this.meter?.(body);
		const { prompt_tokens, completion_tokens } =
			used === undefined ? this.usage : { prompt_tokens: used.input, completion_tokens: used.output };
		chunk([], { usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens } });
		response.end("data: [DONE]\n\n");
	}

	async close(): Promise<void> {
		await new Promise<void>((done) => this.server.close(() => done()));
	}
}
