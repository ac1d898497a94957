// A budget suggested from a real history: real pi sessions (`pi -p`, the bundled pi) and real Gemini CLI sessions
// (`gemini -p`, the extension installed) in one project folder and one throwaway HOME; then `/timebox suggest` in
// both, `npm run report -- --suggest` from the folder, and `TIMEBOX_DEFAULT=suggested` in a new session of each. With
// too little history, the Gemini sessions that came first started without a budget, said why, and were counted later.

import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunResult, runProcess } from "../support/processes.ts";
import { EXTENSION, ensureGemini, FakeGemini, GEMINI, writeGeminiSettings } from "./gemini/support.ts";
import { BUNDLED_PI } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";

const REPO = resolve(import.meta.dirname, "../..");

let pi: PiProcess;
let api: FakeGemini;

beforeAll(async () => {
	await ensureGemini();
	api = await FakeGemini.start();
	pi = new PiProcess(BUNDLED_PI);
	mkdirSync(pi.project, { recursive: true });
	writeGeminiSettings(pi.home);
	const installed = await gemini(["extensions", "install", EXTENSION, "--consent"]);
	if (installed.code !== 0) throw new Error(`gemini extensions install failed: ${installed.stderr}`);
}, 600_000);

afterAll(async () => {
	await api?.close();
	pi?.dispose();
});

/** `gemini <args>` in the project folder, in the same HOME as pi's sessions. */
function gemini(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	return runProcess(GEMINI, args, {
		cwd: pi.project,
		env: {
			PATH: process.env.PATH,
			HOME: pi.home,
			GEMINI_API_KEY: "fake-key",
			GOOGLE_GEMINI_BASE_URL: api.url,
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			GEMINI_CLI_NO_RELAUNCH: "true",
			...env,
		},
		timeoutMs: 120_000,
	});
}

const SUGGESTED = { TIMEBOX_DEFAULT: "suggested" };

describe("a budget suggested from a real history of pi and Gemini CLI sessions", () => {
	it("says too little at first, then suggests from both hosts' sessions, and sets the suggestion in new sessions", async () => {
		// Two Gemini sessions with budgets suggested: too little history, so each starts without one and says why.
		api.reply({ text: "G1" }, { text: "G2" }, { text: "G3" });
		const first = await gemini(["-p", "first"], SUGGESTED);
		expect(first.stderr).toContain(
			"TIMEBOX_DEFAULT (suggested): too little history to suggest a budget: no session of this project so far, and a suggestion needs 5. The session starts without a budget.",
		);
		expect(first.stdout).toContain("G1");
		expect((await gemini(["-p", "second"], SUGGESTED)).stderr).toContain("1 session of this project so far");
		// Three pi sessions of 1, 2 and 3 prompts, and one more Gemini session: six in all.
		for (const prompts of [["one"], ["one", "two"], ["one", "two", "three"]]) {
			const run = await pi.print([], prompts);
			expect(run.code).toBe(0);
		}
		// The fifth session is enough: the sixth starts with the suggested budget. Both hosts measure model calls and
		// tokens (Gemini CLI from its session file), pi alone the cost.
		expect((await gemini(["-p", "third"], SUGGESTED)).stderr).toContain(
			"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 5 sessions here): 1m and 3 turns and 360 tokens.",
		);

		const figures = [
			"- turns: 1 / 3",
			"- model calls: 1 / 3",
			"- tokens: 15 / 360",
			"- cost: not measured (only 3 of these sessions' hosts measure it)",
			"Try /timebox 1m turns:3 tokens:360 (the 90th percentile of your last 6 sessions here).",
		];
		const inPi = await pi.print([], ["/timebox suggest"]);
		const said = notices(inPi, "info").join("\n");
		expect(said).toContain("Timebox: your last 6 sessions here (3 Gemini CLI, 3 pi), median / 90th percentile:");
		for (const line of figures) expect(inPi.stderr).toContain(line);
		const inGemini = await gemini(["-p", "/timebox suggest"]);
		for (const line of figures) expect(inGemini.stderr).toContain(line);
		const report = await runProcess("npm", ["--prefix", REPO, "run", "--silent", "report", "--", "--suggest"], {
			cwd: pi.project,
			env: { ...pi.env() },
			timeoutMs: 60_000,
		});
		expect(report.stdout).toContain(`Timebox: your last 6 sessions in ${pi.project} (3 Gemini CLI, 3 pi)`);
		for (const line of figures) expect(report.stdout).toContain(line);

		// A new session of each host gets the suggested budget, and says where it came from.
		const set =
			"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 6 sessions here): 1m and 3 turns and 360 tokens.";
		const newPi = await pi.print([], ["first", "/timebox status"], [], SUGGESTED);
		expect(notices(newPi, "info")).toContain(set);
		// The scripted model's answers are a few tokens each, far less than a real call's input: the first call's input,
		// bounded at a token per byte of its system prompt and tools, leaves no room for an answer under tokens:360, so the
		// call is not sent and the budget is spent there (the caps, docs/concepts.md).
		expect(notices(newPi, "info").join("\n")).toContain(
			"Timebox budget spent. Used 0 turns, 0s, 0 of 360 tokens (too little left for the next model call).",
		);
		const newGemini = await gemini(["-p", "fourth"], SUGGESTED);
		expect(newGemini.stderr).toContain(
			"Timebox set from TIMEBOX_DEFAULT (suggested: the 90th percentile of your last 7 sessions here): 1m and 3 turns and 360 tokens.",
		);
	});
});
