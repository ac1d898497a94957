// Timebox in the real Gemini CLI, as an extension linked with `gemini extensions link`, against a loopback fake of the
// Gemini API, in a throwaway HOME: the budget line answered without a request, the prompt limit across resumed runs,
// the warning in the request, the time stop of a tool loop with its on-stop command, idle expiry, and a bad budget line.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunResult, runProcess } from "../../support/processes.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const GEMINI_VERSION = "0.61.0";
const INSTALL_DIR = join(REPO, "node_modules/.cache/timebox-gemini");
const GEMINI = join(INSTALL_DIR, "node_modules/.bin/gemini");
const EXTENSION = join(REPO, "src/adapters/gemini/extension");

/** Installs the pinned Gemini CLI once (cached). */
async function ensureGemini(): Promise<void> {
	const version = async () =>
		existsSync(GEMINI)
			? (await runProcess(GEMINI, ["--version"], { env: { PATH: process.env.PATH }, timeoutMs: 60_000 })).stdout.trim()
			: "";
	if ((await version()) === GEMINI_VERSION) return;
	console.log(`Installing @google/gemini-cli@${GEMINI_VERSION} into ${INSTALL_DIR} (first run only)…`);
	mkdirSync(INSTALL_DIR, { recursive: true });
	const args = [
		"install",
		"--prefix",
		INSTALL_DIR,
		"--no-save",
		"--no-audit",
		"--no-fund",
		`@google/gemini-cli@${GEMINI_VERSION}`,
	];
	const installed = await runProcess("npm", args, { env: process.env, timeoutMs: 300_000 });
	if (installed.code !== 0) throw new Error(`npm install failed (${installed.code}):\n${installed.stderr}`);
}

type Reply = { text: string } | { shell: string };

/** A fake Gemini API: the routing call gets a fitting JSON answer; each main call the next scripted reply. */
class FakeGemini {
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

let api: FakeGemini;
let root: string;

beforeAll(async () => {
	await ensureGemini();
}, 600_000);

beforeEach(async () => {
	api = await FakeGemini.start();
	root = await mkdtemp(join(tmpdir(), "timebox-gemini-"));
	mkdirSync(join(root, "home", ".gemini"), { recursive: true });
	mkdirSync(join(root, "work"));
	writeFileSync(
		join(root, "home", ".gemini", "settings.json"),
		JSON.stringify({
			security: { auth: { selectedType: "gemini-api-key" } },
			privacy: { usageStatisticsEnabled: false },
			telemetry: { enabled: false },
			model: { disableLoopDetection: true },
		}),
	);
	const linked = await gemini(["extensions", "link", EXTENSION, "--consent"]);
	if (linked.code !== 0) throw new Error(`gemini extensions link failed: ${linked.stderr}`);
});

afterEach(async () => {
	await api.close();
	await rm(root, { recursive: true, force: true });
});

function gemini(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(GEMINI, args, {
		cwd: join(root, "work"),
		env: {
			PATH: process.env.PATH,
			HOME: join(root, "home"),
			GEMINI_API_KEY: "fake-key",
			GOOGLE_GEMINI_BASE_URL: api.url,
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			GEMINI_CLI_NO_RELAUNCH: "true",
			...env,
		},
		timeoutMs: 120_000,
	});
}

describe("Timebox in Gemini CLI (gemini -p)", () => {
	it("answers the budget line without a model request, and names a bad word", async () => {
		const set = await gemini(["-p", "/timebox 15m turns:3"]);
		expect(set.stderr).toContain("Timebox set: 15m and 3 turns.");
		const bad = await gemini(["-p", "/timebox 15x"]);
		expect(bad.stderr).toContain('"15x" is not a budget word');
		expect(api.requests).toEqual([]);
	});

	it("answers prompts 1 and 2 of turns:2 across resumed runs, blocks the 3rd, and warns the last one's request", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		expect((await gemini(["-p", "first"], env)).stdout).toContain("ONE");
		expect((await gemini(["--resume", "latest", "-p", "second"], env)).stdout).toContain("TWO");
		const third = await gemini(["--resume", "latest", "-p", "third"], env);
		expect(third.stderr).toMatch(/Timebox budget spent\. Used 2 turns/);
		expect(api.requests).toHaveLength(2);
		expect(api.requests.map((body) => body.includes("TIMEBOX WARNING"))).toEqual([false, false]);
	});

	it("puts the warning into the request of the last prompt of turns:5, and not into the first ones", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:5" };
		await gemini(["-p", "p1"], env);
		for (const prompt of ["p2", "p3", "p4", "p5"]) await gemini(["--resume", "latest", "-p", prompt], env);
		expect(api.requests.map((body) => body.includes("IMPORTANT TIMEBOX WARNING"))).toEqual([
			false,
			false,
			false,
			false,
			true,
		]);
	});

	it("stops a tool loop when the time runs out, and runs the on-stop command once", async () => {
		const stopFile = join(root, "stopped.txt");
		api.reply(...Array.from({ length: 20 }, (_, index) => ({ shell: `sleep 1 # ${index}` })));
		const env = { TIMEBOX_DEFAULT: `3s -- echo stopped >> '${stopFile}'` };
		const started = Date.now();
		const run = await gemini(["--yolo", "-p", "loop until told otherwise"], env);
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(run.stderr).toMatch(/Timebox budget spent\. Used 0 turns, \d+s\./);
		await new Promise((done) => setTimeout(done, 500));
		expect(readFileSync(stopFile, "utf8")).toBe("stopped\n");
	});

	it("runs the on-stop command at the deadline while no prompt comes (idle expiry), once", async () => {
		const stopFile = join(root, "idle-stopped.txt");
		const set = await gemini(["-p", `/timebox 2s -- echo stopped >> '${stopFile}'`]);
		const deadline = Date.now() + 2_000;
		expect(set.stderr).toContain("Timebox set: 2s.");
		const read = () => (existsSync(stopFile) ? readFileSync(stopFile, "utf8") : "");
		await expect.poll(read, { timeout: 8_000, interval: 100 }).toBe("stopped\n");
		console.log(
			`gemini idle expiry: the on-stop command ran ${Date.now() - deadline} ms after 2 s past the run's return`,
		);
		await new Promise((done) => setTimeout(done, 1_500));
		expect(read()).toBe("stopped\n");
		expect(api.requests).toEqual([]);
	});
});
