// The host demos of `npm start -- <host>` without a host or a TUI: each demo's throwaway HOME holds the host's config
// and points at its fake model API, and that API answers as the scripted model (a `sleep 2` step, then a reply that
// says it is done, or that it is wrapping up when Timebox's warning is in the current prompt).

import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_HOSTS, type DemoHost, type DemoSession, HOST_DEMOS } from "../../demo/hosts.ts";

/** A reply's chunks 1 ms apart: still streamed in parts, as in the demo, but quick. */
const FAST = 1;
const WARNING = "IMPORTANT TIMEBOX WARNING\nTurns: this is the last prompt the budget allows (4 of 5 used).";

/** A request in one host's API: the path, and the body for a prompt, its step's call and result, and a note. */
interface ApiShape {
	path: string;
	/** The body of a call: `history` of earlier prompts, the prompt (with `note` beside it), and the step if run. */
	body(prompt: string, options: { stepRun: boolean; note?: string; history?: unknown[] }): unknown;
	/** A finished exchange (prompt and final reply) to put before the prompt. */
	finished(prompt: string, reply: string): unknown[];
}

const anthropic: ApiShape = {
	path: "/v1/messages",
	body: (prompt, { stepRun, note, history = [] }) => ({
		model: "claude-demo",
		stream: true,
		tools: [{ name: "Bash", input_schema: { type: "object" } }],
		messages: [
			...history,
			{ role: "user", content: [{ type: "text", text: prompt }] },
			...(stepRun
				? [
						{
							role: "assistant",
							content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "sleep 2" } }],
						},
						{ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "" }] },
					]
				: []),
			// Claude Code puts a hook's context after the step's result, as a message of its own.
			...(note ? [{ role: "user", content: [{ type: "text", text: note }] }] : []),
		],
	}),
	finished: (prompt, reply) => [
		{ role: "user", content: prompt },
		{ role: "assistant", content: [{ type: "text", text: reply }] },
	],
};

const responses: ApiShape = {
	path: "/v1/responses",
	body: (prompt, { stepRun, note, history = [] }) => ({
		model: "fake-model",
		stream: true,
		tools: [{ type: "function", name: "exec_command" }],
		input: [
			...history,
			...(note ? [{ type: "message", role: "developer", content: [{ type: "input_text", text: note }] }] : []),
			{ type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
			...(stepRun
				? [
						{ type: "function_call", call_id: "c1", name: "exec_command", arguments: '{"cmd":"sleep 2"}' },
						{ type: "function_call_output", call_id: "c1", output: "" },
					]
				: []),
		],
	}),
	finished: (prompt, reply) => [
		{ type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
		{ type: "message", role: "assistant", content: [{ type: "output_text", text: reply }] },
	],
};

const chat: ApiShape = {
	path: "/v1/chat/completions",
	body: (prompt, { stepRun, note, history = [] }) => ({
		model: "fake-model",
		stream: true,
		tools: [{ type: "function", function: { name: "bash" } }],
		messages: [
			{ role: "system", content: "You are opencode." },
			...history,
			{ role: "user", content: note ? `${prompt}\n${note}` : prompt },
			...(stepRun
				? [
						{
							role: "assistant",
							content: "",
							tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: "{}" } }],
						},
						{ role: "tool", tool_call_id: "c1", content: "" },
					]
				: []),
		],
	}),
	finished: (prompt, reply) => [
		{ role: "user", content: prompt },
		{ role: "assistant", content: reply },
	],
};

const gemini: ApiShape = {
	path: "/v1beta/models/gemini-demo:streamGenerateContent?alt=sse",
	body: (prompt, { stepRun, note, history = [] }) => ({
		tools: [{ functionDeclarations: [{ name: "run_shell_command" }] }],
		contents: [
			...history,
			{ role: "user", parts: [{ text: prompt }, ...(note ? [{ text: note }] : [])] },
			...(stepRun
				? [
						{ role: "model", parts: [{ functionCall: { name: "run_shell_command", args: { command: "sleep 2" } } }] },
						{ role: "user", parts: [{ functionResponse: { name: "run_shell_command", response: { output: "" } } }] },
					]
				: []),
		],
	}),
	finished: (prompt, reply) => [
		{ role: "user", parts: [{ text: prompt }] },
		{ role: "model", parts: [{ text: reply }] },
	],
};

const SHAPES: Record<DemoHost, ApiShape> = {
	claude: anthropic,
	codex: responses,
	gemini,
	opencode: chat,
	omp: responses,
};

/** What the config in the demo's HOME must name: a file, and a text it holds (the fake API's address, say). */
function configOf(host: DemoHost, session: DemoSession): { file: string; holds: string } {
	const home = session.env.HOME ?? "";
	switch (host) {
		case "claude":
			return { file: join(home, ".claude", "settings.json"), holds: "Bash(sleep 2)" };
		case "codex":
			return { file: join(home, ".codex", "config.toml"), holds: session.apiUrl };
		case "gemini":
			return { file: join(home, ".gemini", "policies", "timebox-demo.toml"), holds: 'commandPrefix = "sleep 2"' };
		case "opencode":
			return { file: join(home, ".config", "opencode", "opencode.json"), holds: session.apiUrl };
		case "omp":
			return { file: join(home, ".omp", "agent", "config.yml"), holds: "setupWizard: false" };
	}
}

let root: string;
let session: DemoSession | undefined;

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "timebox-demo-test-"));
});

afterEach(async () => {
	await session?.close();
	session = undefined;
	await rm(root, { recursive: true, force: true });
});

describe.each(DEMO_HOSTS)("npm start -- %s", (host) => {
	const shape = SHAPES[host];
	const post = async (body: unknown): Promise<string> => {
		const url = new URL(shape.path, session?.apiUrl.replace(/\/v1$/, ""));
		const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
		expect(response.status).toBe(200);
		return response.text();
	};

	it("writes a throwaway HOME whose config names the demo, and the fake API answers a prompt as pi's demo model", async () => {
		session = await HOST_DEMOS[host].prepare(root, ["--extra"], FAST);
		expect(session.env.HOME?.startsWith(root)).toBe(true);
		expect(session.env.HOME).not.toBe(homedir());
		expect(session.cwd.startsWith(root)).toBe(true);
		expect(session.args.at(-1)).toBe("--extra");
		const config = configOf(host, session);
		expect(existsSync(config.file)).toBe(true);
		expect(readFileSync(config.file, "utf8")).toContain(config.holds);

		expect(await post(shape.body("fix the test", { stepRun: false }))).toContain("sleep 2");
		const done = await post(shape.body("fix the test", { stepRun: true }));
		expect(done).toContain("done.");
		expect(done).not.toContain("wrapping");
	});

	it("wraps up when the current prompt carries Timebox's warning, and not for an earlier prompt's", async () => {
		session = await HOST_DEMOS[host].prepare(root, [], FAST);
		const warned = await post(shape.body("last one", { stepRun: true, note: WARNING }));
		expect(warned).toContain("wrapping");
		expect(warned).toContain("Turns:");
		const history = shape.finished(`earlier prompt\n${WARNING}`, "I am wrapping up here.");
		const later = await post(shape.body("a new prompt", { stepRun: true, history }));
		expect(later).not.toContain("wrapping");
	});
});

describe("npm start -- gemini's settings", () => {
	it("hide the line Gemini CLI adds after every Timebox reply (a blocked prompt: 'This request failed. Press F12…')", async () => {
		session = await HOST_DEMOS.gemini.prepare(root, [], FAST);
		const settings = JSON.parse(readFileSync(join(session.env.HOME ?? "", ".gemini", "settings.json"), "utf8"));
		expect(settings.ui).toEqual({ errorVerbosity: "full" });
		expect(settings.general).toEqual({ enableAutoUpdate: false, enableAutoUpdateNotification: false });
	});
});
