// A loopback fake of the Anthropic Messages API for Claude Code: main-loop requests take the next scripted reply (the
// tests) or, for the demo (`npm start -- claude`), `respond`'s; any other request gets a plain text.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AsAllowed, asAllowed, LIMIT_FIELDS } from "./as-allowed.ts";
import { paced, wordChunks } from "./pace.ts";

/** One tool call of a scripted reply. */
export interface ToolCall {
	name: string;
	input: Record<string, unknown>;
}

/** What the fake model answers next: text, or tool calls (stop_reason tool_use); held back until `holdUntil`. */
export type ScriptedReply = ({ text: string } | { tools: ToolCall[] }) & {
	/** Epoch ms before which the answer is not sent. */
	holdUntil?: number;
	/** The usage the answer reports; 10 tokens in and 5 out by default. */
	usage?: { input_tokens: number; output_tokens: number };
};

/** One request the fake API received. */
export interface ModelRequest {
	url: string;
	/** When it arrived, epoch ms. */
	at: number;
	body: MessagesBody;
	/** The size of its body. */
	bytes?: number;
}

export interface MessagesBody {
	model?: string;
	stream?: boolean;
	/** The limit on the answer. */
	max_tokens?: number;
	tools?: unknown[];
	/** The system prompt: a text, or its blocks (a subagent's first block holds `cc_is_subagent=true`). */
	system?: string | { type: string; text?: string }[];
	messages?: { role: string; content: string | { type: string; text?: string }[] }[];
}

const UNSCRIPTED_TEXT = "UNSCRIPTED-REPLY";

/** The text blocks of a request's messages with `role`, each message's texts joined. */
export function messageTexts(request: ModelRequest, role: string): string[] {
	return (request.body.messages ?? [])
		.filter((message) => message.role === role)
		.map((message) =>
			typeof message.content === "string"
				? message.content
				: message.content.map((block) => block.text ?? "").join("\n"),
		);
}

/** Whether a request is a subagent's: Claude Code marks it in the first block of the system prompt. */
export function isSubagentRequest(body: MessagesBody): boolean {
	const first = typeof body.system === "string" ? body.system : body.system?.[0]?.text;
	return first?.includes("cc_is_subagent=true") ?? false;
}

/**
 * A fake Anthropic Messages API on 127.0.0.1: main-loop requests (those offering tools) take the next scripted reply;
 * anything else gets a plain text. Every Messages request is recorded, in order.
 */
export class FakeAnthropic {
	readonly requests: ModelRequest[] = [];
	private readonly queue: ScriptedReply[] = [];
	private count = 0;
	/** The answer to a main-loop request when the queue is empty; a fixed text unless set. */
	respond: (body: MessagesBody) => ScriptedReply = () => ({ text: UNSCRIPTED_TEXT });
	/** The answer to any other request (a title, a summary). */
	sideText = UNSCRIPTED_TEXT;
	/** When above 0, a text is streamed a few words at a time, this many ms apart. */
	chunkDelayMs = 0;
	/** What each answer reports it used, from the request's body, where a reply names no usage; 10 in, 5 out unless set. */
	meter: (body: string) => AsAllowed = () => ({ input: 10, output: 5 });

	/** Reports each answer as long as the request allows (see as-allowed.ts). */
	answerAsAllowed(): void {
		this.meter = (body) => asAllowed(body, LIMIT_FIELDS.anthropic, 4_096);
	}

	private constructor(private readonly server: Server) {
		server.on("request", (request, response) => this.handle(request, response));
	}

	static async start(): Promise<FakeAnthropic> {
		const server = createServer();
		const fake = new FakeAnthropic(server);
		await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
		return fake;
	}

	get url(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** Queues replies for the next main-loop requests. */
	reply(...replies: ScriptedReply[]): void {
		this.queue.push(...replies);
	}

	/** Forgets the requests received so far (a warm-up's), so that a test's assertions see only its own. */
	forget(): void {
		this.requests.length = 0;
	}

	/** The newest request; throws when there is none. */
	get lastRequest(): ModelRequest {
		const last = this.requests.at(-1);
		if (!last) throw new Error("the fake API received no request");
		return last;
	}

	/** Scripted replies not used yet. */
	get pending(): number {
		return this.queue.length;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((done) => this.server.close(() => done()));
	}

	private handle(request: IncomingMessage, response: ServerResponse): void {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const url = request.url ?? "";
			if (request.method !== "POST" || !url.startsWith("/v1/messages") || url.includes("count_tokens")) {
				response.writeHead(404, { "content-type": "application/json" });
				response.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "fake: not found" } }));
				return;
			}
			const raw = Buffer.concat(chunks).toString("utf8");
			const body = JSON.parse(raw) as MessagesBody;
			this.requests.push({ url, at: Date.now(), body, bytes: Buffer.byteLength(raw, "utf8") });
			const mainLoop = Array.isArray(body.tools) && body.tools.length > 0;
			const reply = mainLoop ? (this.queue.shift() ?? this.respond(body)) : { text: this.sideText };
			const delay = Math.max(0, (reply.holdUntil ?? 0) - Date.now());
			const used = this.meter(raw);
			const usage = reply.usage ?? { input_tokens: used.input, output_tokens: used.output };
			setTimeout(() => void this.answer(body, { ...reply, usage }, response), delay);
		});
	}

	private async answer(body: MessagesBody, reply: ScriptedReply, response: ServerResponse): Promise<void> {
		this.count += 1;
		const id = `msg_fake_${this.count}`;
		const model = body.model ?? "claude-fake";
		const usage = reply.usage ?? { input_tokens: 10, output_tokens: 5 };
		const content =
			"tools" in reply
				? reply.tools.map((tool, index) => ({ type: "tool_use", id: `toolu_fake_${this.count}_${index}`, ...tool }))
				: [{ type: "text", text: reply.text }];
		const stopReason = "tools" in reply ? "tool_use" : "end_turn";
		if (!body.stream) {
			response.writeHead(200, { "content-type": "application/json" });
			const message = { id, type: "message", role: "assistant", model, content, stop_reason: stopReason, usage };
			response.end(JSON.stringify({ ...message, stop_sequence: null }));
			return;
		}
		response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		const send = (event: string, data: Record<string, unknown>) =>
			response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
		const startUsage = { ...usage, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
		send("message_start", {
			message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, usage: startUsage },
		});
		for (const [index, block] of content.entries()) {
			if (block.type === "tool_use") {
				const { input, ...start } = block as { input: unknown };
				send("content_block_start", { index, content_block: { ...start, input: {} } });
				send("content_block_delta", {
					index,
					delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
				});
			} else {
				send("content_block_start", { index, content_block: { type: "text", text: "" } });
				const text = (block as { text: string }).text;
				await paced(wordChunks(text, this.chunkDelayMs), this.chunkDelayMs, (chunk) =>
					send("content_block_delta", { index, delta: { type: "text_delta", text: chunk } }),
				);
			}
			send("content_block_stop", { index });
		}
		send("message_delta", {
			delta: { stop_reason: stopReason, stop_sequence: null },
			usage: { output_tokens: usage.output_tokens },
		});
		send("message_stop", {});
		response.end();
	}
}
