// A loopback fake of the OpenAI Responses API (streamed), for the hosts that speak it (oh-my-pi's openai-responses
// provider, Codex CLI): it answers from a script and records every request body, so a test can read what the model saw.
// The tests script it; the demos of Codex and oh-my-pi (`npm start -- codex`) answer with `respond`.

import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AsAllowed, asAllowed, LIMIT_FIELDS } from "./as-allowed.ts";
import { paced, wordChunks } from "./pace.ts";

/**
 * One scripted answer: text, a call of pi's `bash` tool, or a call of any tool by name with its arguments (and the
 * namespace it is declared in, as Codex declares its subagent tools).
 */
export type Reply =
	| { text: string }
	| { bash: string }
	| { tool: string; args: Record<string, unknown>; namespace?: string };

/** A fake of the Responses API: answers from a script, records each request, and answers "done" when the script ends. */
export class FakeResponses {
	readonly requests: string[] = [];
	/** When each request came (epoch ms), in the order of `requests`. */
	readonly receivedAt: number[] = [];
	private readonly script: Reply[] = [];
	private server!: Server;
	url = "";
	/** The answer when the script is empty, from the request's body; "done" unless set. */
	respond: (body: string) => Reply = () => ({ text: "done" });
	/** When above 0, a text is streamed a few words at a time, this many ms apart. */
	chunkDelayMs = 0;
	/** What each answer reports it used, from the request's body; 10 in, 5 out unless set. */
	meter: (body: string) => AsAllowed = () => ({ input: 10, output: 5 });

	/** Reports each answer as long as the request allows (see as-allowed.ts). */
	answerAsAllowed(): void {
		this.meter = (body) => asAllowed(body, LIMIT_FIELDS.responses, 32_000);
	}

	static async start(): Promise<FakeResponses> {
		const fake = new FakeResponses();
		fake.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				const body = Buffer.concat(chunks).toString("utf8");
				fake.requests.push(body);
				fake.receivedAt.push(Date.now());
				void fake.answer(response, fake.script.shift() ?? fake.respond(body), body);
			});
		});
		await new Promise<void>((done) => fake.server.listen(0, "127.0.0.1", done));
		fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
		return fake;
	}

	reply(...replies: Reply[]): void {
		this.script.push(...replies);
	}

	/** Forgets the requests received so far (a warm-up's), so that a test's assertions see only its own. */
	forget(): void {
		this.requests.length = 0;
		this.receivedAt.length = 0;
	}

	private async answer(response: ServerResponse, reply: Reply, body: string): Promise<void> {
		response.writeHead(200, { "content-type": "text/event-stream" });
		let sequence = 0;
		const send = (type: string, fields: Record<string, unknown>) =>
			response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
		const id = `resp_${this.requests.length}`;
		const base = { id, object: "response", model: "fake-model", output: [] as unknown[] };
		send("response.created", { response: { ...base, status: "in_progress" } });
		const call: Extract<Reply, { tool: string }> | null =
			"bash" in reply ? { tool: "bash", args: { command: reply.bash } } : "tool" in reply ? reply : null;
		const text = "text" in reply ? reply.text : "";
		const item =
			call !== null
				? {
						type: "function_call",
						id: `fc_${id}`,
						call_id: `call_${id}`,
						name: call.tool,
						...(call.namespace === undefined ? {} : { namespace: call.namespace }),
						arguments: JSON.stringify(call.args),
						status: "completed",
					}
				: {
						type: "message",
						id: `msg_${id}`,
						role: "assistant",
						status: "completed",
						content: [{ type: "output_text", text, annotations: [] }],
					};
		send("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress" } });
		if (call === null) {
			send("response.content_part.added", {
				item_id: item.id,
				output_index: 0,
				content_index: 0,
				part: { type: "output_text", text: "" },
			});
			await paced(wordChunks(text, this.chunkDelayMs), this.chunkDelayMs, (delta) =>
				send("response.output_text.delta", { item_id: item.id, output_index: 0, content_index: 0, delta }),
			);
			send("response.output_text.done", { item_id: item.id, output_index: 0, content_index: 0, text });
		}
		send("response.output_item.done", { output_index: 0, item });
		const used = this.meter(body);
		const usage = {
			input_tokens: used.input,
			output_tokens: used.output,
			total_tokens: used.input + used.output,
			input_tokens_details: { cached_tokens: 0 },
			output_tokens_details: { reasoning_tokens: 0 },
		};
		send("response.completed", { response: { ...base, status: "completed", output: [item], usage } });
		response.end();
	}

	async close(): Promise<void> {
		await new Promise<void>((done) => this.server.close(() => done()));
	}
}
