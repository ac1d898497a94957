// Gemini CLI for the tests and the bench: the pinned binary, installed once into node_modules/.cache, and a loopback
// fake of the Gemini API (the routing call answered in kind, each main call from a script).

import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { ensurePinned } from "../support/pinned-install.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const GEMINI_VERSION = "0.61.0";
const INSTALL_DIR = join(REPO, "node_modules/.cache/timebox-gemini");
export const GEMINI = join(INSTALL_DIR, "node_modules/.bin/gemini");
export const EXTENSION = join(REPO, "plugins/gemini-cli");

/** Installs the pinned Gemini CLI once (cached). */
export async function ensureGemini(): Promise<void> {
	await ensurePinned({
		packageSpec: `@google/gemini-cli@${GEMINI_VERSION}`,
		installDir: INSTALL_DIR,
		bin: GEMINI,
		versionText: GEMINI_VERSION,
	});
}

export type Reply = { text: string } | { shell: string };

/** A fake Gemini API: the routing call gets a fitting JSON answer; each main call the next scripted reply. */
export class FakeGemini {
	readonly requests: string[] = [];
	private readonly script: Reply[] = [];
	private server!: Server;
	url = "";

	static async start(): Promise<FakeGemini> {
		const fake = new FakeGemini();
		fake.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => fake.answer(request.url ?? "", Buffer.concat(chunks).toString("utf8"), response));
		});
		await new Promise<void>((done) => fake.server.listen(0, "127.0.0.1", done));
		fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
		return fake;
	}

	reply(...replies: Reply[]): void {
		this.script.push(...replies);
	}

	private answer(url: string, body: string, response: ServerResponse): void {
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
		const reply = this.script.shift() ?? { text: "done" };
		const part =
			"shell" in reply
				? { functionCall: { name: "run_shell_command", args: { command: reply.shell, description: "step" } } }
				: { text: reply.text };
		const chunk = { candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP" }], usageMetadata };
		if (url.includes("streamGenerateContent")) {
			response.writeHead(200, { "content-type": "text/event-stream" });
			response.end(`data: ${JSON.stringify(chunk)}\n\n`);
		} else {
			response.writeHead(200, { "content-type": "application/json" });
			response.end(JSON.stringify(chunk));
		}
	}

	async close(): Promise<void> {
		await new Promise<void>((done) => this.server.close(() => done()));
	}
}

/** Writes `<home>/.gemini/settings.json`: API-key auth (for the fake), no telemetry, and no loop detector. */
export function writeGeminiSettings(home: string): void {
	mkdirSync(join(home, ".gemini"), { recursive: true });
	writeFileSync(
		join(home, ".gemini", "settings.json"),
		JSON.stringify({
			security: { auth: { selectedType: "gemini-api-key" } },
			privacy: { usageStatisticsEnabled: false },
			telemetry: { enabled: false },
			model: { disableLoopDetection: true },
		}),
	);
}
