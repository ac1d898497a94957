// A loopback fake of the Gemini API for Gemini CLI: the routing call answered in kind, each main call from a script,
// or, for the demo (`npm start -- gemini`), with `respond`.

import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AsAllowed, asAllowed, LIMIT_FIELDS } from "./as-allowed.ts";
import { paced, wordChunks } from "./pace.ts";

export type Reply = { text: string } | { shell: string };

/** A fake Gemini API: the routing call gets a fitting JSON answer; each main call the next scripted reply. */
export class FakeGemini {
	readonly requests: string[] = [];
	private readonly script: Reply[] = [];
	private server!: Server;
	url = "";
	/** The answer when the script is empty, from the request's body; "done" unless set. */
	respond: (body: string) => Reply = () => ({ text: "done" });
	/** When above 0, a text is streamed a few words at a time, this many ms apart. */
	chunkDelayMs = 0;
	/** What each main call's answer reports it used, from the request's body; 10 in, 5 out unless set. */
	meter: (body: string) => AsAllowed = () => ({ input: 10, output: 5 });

	/** Reports each answer as long as the request allows (see as-allowed.ts). */
	answerAsAllowed(): void {
		this.meter = (body) => asAllowed(body, LIMIT_FIELDS.gemini, 65_536);
	}

	static async start(): Promise<FakeGemini> {
		const fake = new FakeGemini();
		fake.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => void fake.answer(request.url ?? "", Buffer.concat(chunks).toString("utf8"), response));
		});
		await new Promise<void>((done) => fake.server.listen(0, "127.0.0.1", done));
		fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
		return fake;
	}

	reply(...replies: Reply[]): void {
		this.script.push(...replies);
	}

	private async answer(url: string, body: string, response: ServerResponse): Promise<void> {
		const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
		if (body.includes("responseJsonSchema")) {
			const text = JSON.stringify({ complexity_reasoning: "simple", complexity_score: 1 });
			response.writeHead(200, { "content-type": "application/json" });
			response.end(
				JSON.stringify({
					candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
					usageMetadata,
				}),
			);
			return;
		}
		this.requests.push(body);
		const used = this.meter(body);
		const metered = {
			promptTokenCount: used.input,
			candidatesTokenCount: used.output,
			totalTokenCount: used.input + used.output,
		};
		const reply = this.script.shift() ?? this.respond(body);
		const part =
			"shell" in reply
				? { functionCall: { name: "run_shell_command", args: { command: reply.shell, description: "step" } } }
				: { text: reply.text };
		const chunk = {
			candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP" }],
			usageMetadata: metered,
		};
		if (url.includes("streamGenerateContent")) {
			response.writeHead(200, { "content-type": "text/event-stream" });
			const texts = "text" in reply ? wordChunks(reply.text, this.chunkDelayMs) : [];
			// A paced text goes out a few words a chunk; only the last chunk has the finish reason and the usage.
			await paced(texts.slice(0, -1), this.chunkDelayMs, (text) =>
				response.write(
					`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text }] } }] })}\n\n`,
				),
			);
			if (texts.length > 1) await new Promise((done) => setTimeout(done, this.chunkDelayMs));
			const last =
				texts.length > 1
					? {
							...chunk,
							candidates: [{ ...chunk.candidates[0], content: { role: "model", parts: [{ text: texts.at(-1) }] } }],
						}
					: chunk;
			response.end(`data: ${JSON.stringify(last)}\n\n`);
		} else {
			response.writeHead(200, { "content-type": "application/json" });
			response.end(JSON.stringify(chunk));
		}
	}

	async close(): Promise<void> {
		await new Promise<void>((done) => this.server.close(() => done()));
	}
}
