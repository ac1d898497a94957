// Guards Timebox inside the real Claude Code binary on its classic hooks (the command hooks, with the plugin's hooks
// module refused, as where Claude Code loads none): /timebox replies, turn and time stops, the nudge, the status line,
// and the loop guard.

import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	lastToolResult,
	loggedSessions,
	MODULE_REFUSED_NOTE,
	messageTexts,
	PLUGIN_DIR,
	REPO,
	type RunResult,
	resultOf,
	runClaude,
	runProcess,
	runTimebox,
	type Sandbox,
	sessionLog,
	transcriptAttachments,
} from "./support/claude.ts";

let api: FakeAnthropic;
let box: Sandbox;

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

beforeEach(async () => {
	api = await FakeAnthropic.start();
	box = await createSandbox("classic hooks");
});

afterEach(async () => {
	await api.close();
	await box.cleanup();
});

/** `claude -p [--continue] [extra…] --plugin-dir <plugin> <prompt>` in the test's sandbox. */
function claude(prompt: string, options: { resume?: boolean; extra?: string[] } = {}): Promise<RunResult> {
	const args = ["-p", ...(options.resume ? ["--continue"] : []), ...(options.extra ?? [])];
	return runClaude([...args, "--plugin-dir", PLUGIN_DIR, prompt], { home: box.home, cwd: box.cwd, apiUrl: api.url });
}

/** What `claude -p` prints when a UserPromptSubmit hook blocks a prompt. */
function blocked(reason: string, prompt: string): string {
	return `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${prompt}\n`;
}

/** Asks a prompt that the fake model answers with `answer`; asserts the answer was printed and one request made. */
async function answered(prompt: string, answer: string): Promise<void> {
	const before = api.requests.length;
	api.reply({ text: answer });
	const result = await claude(prompt, { resume: true });
	expect(result.stderr).toBe(MODULE_REFUSED_NOTE);
	expect(result.stdout).toBe(`${answer}\n`);
	expect(api.requests.length).toBe(before + 1);
	expect(messageTexts(api.lastRequest, "user").join("\n")).toContain(prompt);
}

/** The one session of the sandbox, by the name of its Timebox log. */
function onlySession(): string {
	const sessions = loggedSessions(box.dataDir);
	expect(sessions).toHaveLength(1);
	return sessions[0] as string;
}

async function statusLine(sessionId: string): Promise<string> {
	const result = await runTimebox(["statusline", "--data", box.dataDir], JSON.stringify({ session_id: sessionId }), {
		HOME: box.home,
	});
	expect(result.stderr).toBe("");
	expect(result.code).toBe(0);
	return result.stdout;
}

/** The system messages Timebox's hooks showed the user (the interactive UI renders these transcript entries). */
function shownSystemMessages(): unknown[] {
	return transcriptAttachments(box.home)
		.filter((attachment) => attachment.type === "hook_system_message")
		.map((attachment) => attachment.content);
}

const SPENT =
	/^Timebox budget spent\. Used (\d+ turns?), (\d+)s\. The agent stops for this turn\. The chat continues\.$/;

/** The turns and seconds a hard-stop text reports, once its wording is checked. */
function spentParts(text: string | undefined): { turns: string; seconds: number } {
	expect(text).toMatch(SPENT);
	const [, turns = "", seconds = ""] = text?.match(SPENT) ?? [];
	return { turns, seconds: Number(seconds) };
}

/**
 * The time budget of a time-stop test, in whole seconds, once a warm-up prompt has started the sandbox's one session:
 * the budget is set by one `claude -p` run and spent by the next, resumed one, which must reach its model request
 * 2 s before the deadline, when the tests have its first tool start. The run takes about 2 s on an idle machine to get
 * there, 5 s and more on a loaded one, so the budget is the longer of 6 s and twice the warm-up's start-up, 3 s more.
 */
async function warmedTimeLimit(): Promise<number> {
	api.reply({ text: "WARM" });
	const spawned = Date.now();
	expect((await claude("warm up")).stdout).toBe("WARM\n");
	const startUp = (api.requests[0]?.at ?? Number.NaN) - spawned;
	api.forget();
	const seconds = Math.max(6, Math.ceil((2 * startUp + 3_000) / 1_000));
	console.log(`claude time budget: ${seconds}s after a start-up of ${startUp} ms`);
	return seconds;
}

/**
 * Sets `/timebox <seconds>s -- <command>` in the sandbox's session, after a warm-up prompt sized the budget; returns
 * when the budget started (epoch ms) and its seconds.
 */
async function setTimeBudget(command: string): Promise<{ startTime: number; seconds: number }> {
	const seconds = await warmedTimeLimit();
	const typed = `/timebox ${seconds}s -- ${command}`;
	const set = await claude(typed, { resume: true });
	expect(set.stdout).toBe(blocked(`Timebox set: ${seconds}s. On stop it runs: ${command}`, typed));
	const active = sessionLog(box.dataDir, onlySession()).find((line) => line.kind === "active");
	const budget = active?.budget as { startTime?: unknown } | undefined;
	if (typeof budget?.startTime !== "number") throw new Error("no active budget in Timebox's log");
	return { startTime: budget.startTime, seconds };
}

/** Asserts that `claude -p` refused `prompt` at the hard stop of a one-turn budget, and ran `command` then. */
function expectStopWithCommand(result: RunResult, prompt: string, command: string): void {
	expect(result.code).toBe(0);
	const [header, spent, note, ...rest] = result.stdout.split("\n");
	expect(header).toBe("UserPromptSubmit operation blocked by hook:");
	expect(spent).toMatch(
		/^Timebox budget spent\. Used 1 turn, (?:\d+m )?\d+s\. The agent stops for this turn\. The chat continues\.$/,
	);
	expect(note).toBe(`Timebox ran the on-stop command: ${command}`);
	expect(rest.join("\n")).toBe(`\nOriginal prompt: ${prompt}\n`);
}

/** The hard stops Claude Code recorded for the user to see (the interactive UI renders these transcript entries). */
function shownStops(): string[] {
	return transcriptAttachments(box.home)
		.filter((entry) => entry.type === "hook_stopped_continuation")
		.map((entry) => entry.message ?? "");
}

describe("Timebox in claude -p", () => {
	it("answers /timebox itself, counts prompts across resumed runs and blocks the one past turns:N", async () => {
		const set = await claude("/timebox turns:2");
		expect(set.code).toBe(0);
		expect(set.stdout).toBe(blocked("Timebox set: 2 turns.", "/timebox turns:2"));
		expect(api.requests).toHaveLength(0);

		await answered("first question", "ANSWER-ONE");
		await answered("second question", "ANSWER-TWO");
		const sessionId = onlySession();
		expect(await statusLine(sessionId)).toBe("Timebox: no time limit | 0 turns left (2/2)\n");

		const third = await claude("third question", { resume: true });
		expect(third.code).toBe(0);
		const [header, reason, ...rest] = third.stdout.split("\n");
		expect(header).toBe("UserPromptSubmit operation blocked by hook:");
		expect(spentParts(reason).turns).toBe("2 turns");
		expect(rest.join("\n")).toBe("\nOriginal prompt: third question\n");
		expect(api.requests).toHaveLength(2);

		expect(onlySession()).toBe(sessionId);
		expect(await statusLine(sessionId)).toBe("Timebox: budget spent\n");
		// Each resumed run's SessionStart showed the budget it restored.
		expect(shownSystemMessages()).toEqual([
			"Timebox restored: no time limit | 2 turns left (0/2).",
			"Timebox restored: no time limit | 1 turn left (1/2).",
			"Timebox restored: no time limit | 0 turns left (2/2).",
		]);
	});

	it("stops a run at its next tool calls once time is up, runs the on-stop command once, and the chat continues", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const command = `echo stopped >> '${stopFile}'`;
		const { startTime, seconds } = await setTimeBudget(command);

		// The prompt is in time; the model's two parallel tool calls arrive after the deadline, and both hooks race.
		const markers = [join(box.root, "tool-1"), join(box.root, "tool-2")];
		const calls = markers.map((marker) => ({ name: "Bash", input: { command: `touch '${marker}'` } }));
		api.reply({ tools: calls, holdUntil: startTime + seconds * 1_000 + 500 });
		const run = await claude("do the work", {
			resume: true,
			extra: ["--output-format", "json", "--allowedTools", "Bash"],
		});
		expect(run.code).toBe(0);
		const result = resultOf(run.stdout);
		expect(result.terminal_reason).toBe("hook_stopped");
		expect(result.session_id).toBe(onlySession());
		expect(result.permission_denials).toEqual(
			calls.map((call) => expect.objectContaining({ tool_name: "Bash", tool_input: call.input })),
		);
		expect(markers.filter((marker) => existsSync(marker))).toEqual([]);
		expect(api.requests).toHaveLength(1);

		// Each refused call shows the hard stop; only the hook that claimed it ran the command and says so.
		const stops = shownStops();
		expect(stops).toHaveLength(2);
		const note = `Timebox ran the on-stop command: ${command}`;
		expect(stops.filter((stop) => stop.endsWith(`\n${note}`))).toHaveLength(1);
		for (const stop of stops) {
			const { turns, seconds: used } = spentParts(stop.split("\n")[0]);
			expect(turns).toBe("0 turns");
			expect(used).toBeGreaterThanOrEqual(seconds);
			expect(used).toBeLessThan(seconds + 3);
		}
		await expect.poll(() => readText(stopFile), { timeout: 5_000 }).toBe("stopped\n");
		expect(await statusLine(onlySession())).toBe("Timebox: budget spent\n");

		// The chat goes on without a budget: the next prompt is answered and the command does not run again.
		await answered("and now?", "STILL-HERE");
		await new Promise((done) => setTimeout(done, 300));
		expect(readText(stopFile)).toBe("stopped\n");
	});

	it("stops a run after a tool batch that outlasts the time, before the model sees its result", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const command = `echo stopped >> '${stopFile}'`;
		const { startTime, seconds } = await setTimeBudget(command);
		const marker = join(box.root, "tool-ran");
		// The first tool call starts 2 s before the deadline and runs 3 s: the time runs out while it runs.
		api.reply(
			{ tools: [{ name: "Bash", input: { command: "sleep 3" } }], holdUntil: startTime + seconds * 1_000 - 2_000 },
			{ tools: [{ name: "Bash", input: { command: `touch '${marker}'` } }] },
		);
		const run = await claude("do the work", {
			resume: true,
			extra: ["--output-format", "json", "--allowedTools", "Bash"],
		});
		expect(resultOf(run.stdout)).toMatchObject({ terminal_reason: "hook_stopped", permission_denials: [] });
		expect(api.requests).toHaveLength(1);
		expect(api.pending).toBe(1);
		expect(existsSync(marker)).toBe(false);
		const [stop] = shownStops();
		const [spent, note] = (stop ?? "").split("\n");
		expect(spentParts(spent).turns).toBe("0 turns");
		expect(note).toBe(`Timebox ran the on-stop command: ${command}`);
		await expect.poll(() => readText(stopFile), { timeout: 5_000 }).toBe("stopped\n");
	});

	it("enforces a second budget set in the same millisecond as a spent one, and runs its on-stop command", async () => {
		const fileA = join(box.root, "a.txt");
		const fileB = join(box.root, "b.txt");
		const commandA = `echo A >> '${fileA}'`;
		const commandB = `echo B >> '${fileB}'`;

		// Budget A, typed: one turn, then spent by the next prompt, which is refused and runs A's command.
		const set = await claude(`/timebox turns:1 -- ${commandA}`);
		expect(set.stdout).toBe(
			blocked(`Timebox set: 1 turn. On stop it runs: ${commandA}`, `/timebox turns:1 -- ${commandA}`),
		);
		await answered("first question", "ANSWER-ONE");
		expectStopWithCommand(await claude("second question", { resume: true }), "second question", commandA);
		expect(api.requests).toHaveLength(1);
		await expect.poll(() => readText(fileA), { timeout: 5_000 }).toBe("A\n");

		// Budget B, in the very millisecond A started (what a second /timebox then would have written), with its own id.
		const sessionId = onlySession();
		const budgetA = sessionLog(box.dataDir, sessionId).find((line) => line.kind === "active")?.budget as {
			id: string;
			startTime: number;
		};
		const budgetB = {
			version: 2,
			id: randomUUID(),
			timeLimitMs: null,
			turnLimit: 1,
			startTime: budgetA.startTime,
			onStopCommand: commandB,
		};
		expect(budgetB.id).not.toBe(budgetA.id);
		appendFileSync(
			join(box.dataDir, "sessions", `${sessionId}.jsonl`),
			`${JSON.stringify({ kind: "active", budget: budgetB })}\n`,
		);
		expect(await statusLine(sessionId)).toBe("Timebox: no time limit | 1 turn left (0/1)\n");

		// B is enforced: its one turn is answered, the next prompt is refused without a model call and runs B's command.
		await answered("third question", "ANSWER-THREE");
		expectStopWithCommand(await claude("fourth question", { resume: true }), "fourth question", commandB);
		expect(api.requests).toHaveLength(2);
		expect(await statusLine(sessionId)).toBe("Timebox: budget spent\n");
		await expect.poll(() => readText(fileB), { timeout: 5_000 }).toBe("B\n");

		// The chat goes on, and neither command runs again.
		await answered("fifth question", "ANSWER-FIVE");
		await new Promise((done) => setTimeout(done, 300));
		expect([readText(fileA), readText(fileB)]).toEqual(["A\n", "B\n"]);
	});

	it("nudges the model and the user on the prompt that reaches 80% of turns:5", async () => {
		expect((await claude("/timebox turns:5")).stdout).toBe(blocked("Timebox set: 5 turns.", "/timebox turns:5"));
		for (const n of [1, 2, 3, 4]) await answered(`question ${n}`, `ANSWER-${n}`);
		await answered("question 5", "ANSWER-5");

		const warnings = api.requests.map((request) => JSON.stringify(request.body).includes("TIMEBOX WARNING"));
		expect(warnings).toEqual([false, false, false, false, true]);
		const context = messageTexts(api.lastRequest, "system").join("\n");
		expect(context).toContain(
			[
				"UserPromptSubmit hook additional context: IMPORTANT TIMEBOX WARNING",
				"The user gave this session a budget and it is nearly spent.",
				"Turns: this is the last prompt the budget allows (4 of 5 used).",
				"Wrap up now: finish or safely pause the current step, reply with a short summary of what is done and what is left, and stop. Do not start new work.",
				"When the budget runs out, Timebox stops this run: no further tool call runs, and an unfinished step stays unfinished.",
			].join("\n"),
		);
		expect(shownSystemMessages()).toContain("Timebox: 1 prompt left of 5 — the model is asked to wrap up.");
		expect(await statusLine(onlySession())).toBe("Timebox: no time limit | 0 turns left (5/5)\n");

		// Claude Code records how long a hook took when it answered (here each resumed run's SessionStart).
		const durations = transcriptAttachments(box.home)
			.filter((entry) => entry.type === "hook_success" && typeof entry.durationMs === "number")
			.map((entry) => `${entry.hookEvent} ${entry.durationMs} ms`);
		console.log(`Timebox hook calls as Claude Code timed them: ${durations.join(", ")}`);
	});
});

describe("what the model reads mid-run, and the wrap-up, in claude -p", () => {
	const REFUSAL =
		"Timebox: the budget is spent. Write the final answer now, with what was done and what is left. Call no more tools.";

	/** Sets `/timebox <args>` in a new session (with `resume`, in the sandbox's session) and returns when its budget started. */
	async function setBudget(args: string, resume = false): Promise<number> {
		await claude(`/timebox ${args}`, { resume });
		const active = sessionLog(box.dataDir, onlySession()).find((line) => line.kind === "active");
		const budget = active?.budget as { startTime?: unknown } | undefined;
		if (typeof budget?.startTime !== "number") throw new Error("no active budget in Timebox's log");
		return budget.startTime;
	}

	it("gives the next model request the warning once a run crossed 80%, not only the next prompt", async () => {
		const startTime = await setBudget("20s");
		// The tool call starts at 14 s and runs 3 s: the run crosses 80% (16 s) while it runs.
		api.reply(
			{ tools: [{ name: "Bash", input: { command: "sleep 3" } }], holdUntil: startTime + 14_000 },
			{ text: "ALL DONE" },
		);
		const run = await claude("do the work", { resume: true, extra: ["--allowedTools", "Bash"] });
		expect(run.stdout).toBe("ALL DONE\n");
		expect(api.requests).toHaveLength(2);
		const [first, second] = api.requests.map((request) => messageTexts(request, "system").join("\n"));
		expect(first).not.toContain("TIMEBOX WARNING");
		expect(second).toMatch(/PostToolBatch hook additional context: IMPORTANT TIMEBOX WARNING\n/);
		expect(second).toMatch(/\nTime left: \ds of 20s\.\n/);
	});

	it("with grace, denies the next tool with the reason, lets the model answer, and runs on-stop once at the end", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const marker = join(box.root, "tool-ran");
		const seconds = await warmedTimeLimit();
		const startTime = await setBudget(`${seconds}s grace:30s -- echo stopped >> '${stopFile}'`, true);
		// The first tool call starts 2 s before the deadline and runs 3 s.
		api.reply(
			{ tools: [{ name: "Bash", input: { command: "sleep 3" } }], holdUntil: startTime + seconds * 1_000 - 2_000 },
			{ tools: [{ name: "Bash", input: { command: `touch '${marker}'` } }] },
			{ text: "FINAL ANSWER" },
		);
		const run = await claude("do the work", {
			resume: true,
			extra: ["--output-format", "json", "--allowedTools", "Bash"],
		});
		expect(resultOf(run.stdout)).toMatchObject({ result: "FINAL ANSWER", terminal_reason: "completed" });
		expect(api.requests).toHaveLength(3);
		expect(messageTexts(api.requests[1] as (typeof api.requests)[number], "system").join("\n")).toContain(
			"PostToolBatch hook additional context: TIMEBOX: BUDGET SPENT",
		);
		expect(JSON.stringify(api.requests[2]?.body)).toContain(REFUSAL);
		expect(existsSync(marker)).toBe(false);
		await expect.poll(() => readText(stopFile), { timeout: 5_000 }).toBe("stopped\n");
		expect(await statusLine(onlySession())).toBe("Timebox: budget spent\n");
	});

	it("with grace, ends the run at the first tool boundary after the grace period", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const marker = join(box.root, "tool-ran");
		const seconds = await warmedTimeLimit();
		const startTime = await setBudget(`${seconds}s grace:2s -- echo stopped >> '${stopFile}'`, true);
		// The first tool call starts 2 s before the deadline and runs 3 s; the second comes 4 s after the grace period.
		const deadline = startTime + seconds * 1_000;
		api.reply(
			{ tools: [{ name: "Bash", input: { command: "sleep 3" } }], holdUntil: deadline - 2_000 },
			{ tools: [{ name: "Bash", input: { command: `touch '${marker}'` } }], holdUntil: deadline + 6_000 },
			{ text: "never sent" },
		);
		const run = await claude("do the work", {
			resume: true,
			extra: ["--output-format", "json", "--allowedTools", "Bash"],
		});
		expect(resultOf(run.stdout)).toMatchObject({ terminal_reason: "hook_stopped" });
		expect(api.requests).toHaveLength(2);
		expect(existsSync(marker)).toBe(false);
		const [stop] = shownStops();
		expect(stop?.split("\n")[0]).toBe("Timebox stopped the agent: the time to wrap up ran out.");
		await expect.poll(() => readText(stopFile), { timeout: 5_000 }).toBe("stopped\n");
	});
});

describe("token and cost budgets in claude -p", () => {
	it("stops a tool loop at the first boundary after the transcript shows the tokens used up", async () => {
		const marker = join(box.root, "tool-ran");
		await claude("/timebox tokens:1000");
		const used = { input_tokens: 590, output_tokens: 10 };
		api.reply(
			{ tools: [{ name: "Bash", input: { command: "sleep 0.5" } }], usage: used },
			{ tools: [{ name: "Bash", input: { command: "sleep 0.5" } }], usage: used },
			{ tools: [{ name: "Bash", input: { command: `touch '${marker}'` } }], usage: used },
			{ text: "never sent" },
		);
		const run = await claude("do the work", {
			resume: true,
			extra: ["--output-format", "json", "--allowedTools", "Bash"],
		});
		expect(resultOf(run.stdout)).toMatchObject({ terminal_reason: "hook_stopped" });
		expect(api.requests.filter((request) => Array.isArray(request.body.tools))).toHaveLength(2);
		expect(existsSync(marker)).toBe(false);
		const [stop] = shownStops();
		expect(stop).toMatch(
			/^Timebox budget spent\. Used 0 turns, \d+s, 1,2\d\d of 1,000 tokens\. The agent stops for this turn\. The chat continues\.$/,
		);
	});

	it("caps a tool loop at steps:2: the third request carries the wrap-up, and its tool ends the run", async () => {
		const marker = join(box.root, "tool-ran");
		await claude("/timebox steps:2");
		api.reply(
			{ tools: [{ name: "Bash", input: { command: "echo one" } }] },
			{ tools: [{ name: "Bash", input: { command: "echo two" } }] },
			{ tools: [{ name: "Bash", input: { command: `touch '${marker}'` } }] },
			{ text: "never sent" },
		);
		const run = await claude("loop until told otherwise", {
			resume: true,
			extra: ["--output-format", "json", "--allowedTools", "Bash"],
		});
		expect(resultOf(run.stdout)).toMatchObject({ terminal_reason: "hook_stopped" });
		const main = api.requests.filter((request) => Array.isArray(request.body.tools));
		expect(main).toHaveLength(3);
		expect(messageTexts(main[2] as (typeof main)[number], "system").join("\n")).toContain(
			"PostToolBatch hook additional context: TIMEBOX: STEPS SPENT",
		);
		expect(existsSync(marker)).toBe(false);
	});

	it("refuses the 3rd identical call of loop:3, ends the run at the 4th ask with no further request, starts afresh, and counts A B A B", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const bash = (command: string) => ({ tools: [{ name: "Bash", input: { command } }] });
		// Claude Code hands the model a tool its PreToolUse hook denied as a hook error, with the reason.
		const refused = (view: string) =>
			`PreToolUse:Bash hook error: Timebox: this is the 3rd identical Bash call in this run (${view}); its result will not change. Change your approach or finish with what you have.`;
		const main = () => api.requests.filter((request) => Array.isArray(request.body.tools));
		const loop = (prompt: string) =>
			claude(prompt, { resume: true, extra: ["--output-format", "json", "--allowedTools", "Bash"] });
		await claude(`/timebox loop:3 -- touch '${stopFile}'`);
		api.reply(...Array.from({ length: 4 }, () => bash("echo same")));
		const first = await loop("run it until it passes");
		expect(resultOf(first.stdout)).toMatchObject({ terminal_reason: "hook_stopped" });
		// The model read the refusal with its 4th request; the 4th ask ended the run: no 5th request.
		expect(main().map(lastToolResult)).toEqual(["", "same", "same", refused("echo same")]);
		expect(api.pending).toBe(0);
		// The next prompt starts the count again, and A B A B refuses each at its 3rd and ends at the next ask.
		api.reply(...["echo same", "echo b", "echo same", "echo b", "echo same", "echo b", "echo same"].map(bash));
		const second = await loop("alternate");
		expect(resultOf(second.stdout)).toMatchObject({ terminal_reason: "hook_stopped" });
		expect(main().slice(5).map(lastToolResult)).toEqual([
			"same",
			"b",
			"same",
			"b",
			refused("echo same"),
			refused("echo b"),
		]);
		expect(api.pending).toBe(0);
		// What the person saw: a line at each refusal, and the stop (beside the budget restored at each --continue).
		expect(shownSystemMessages().filter((message) => !String(message).startsWith("Timebox restored:"))).toEqual([
			"Timebox refused a repeated call: Bash (echo same), the 3rd identical one in this run.",
			"Timebox refused a repeated call: Bash (echo same), the 3rd identical one in this run.",
			"Timebox refused a repeated call: Bash (echo b), the 3rd identical one in this run.",
		]);
		expect(shownStops()).toEqual([
			"Timebox stopped a loop: Bash (echo same) asked for 4 times in this run.",
			"Timebox stopped a loop: Bash (echo same) asked for 4 times in this run.",
		]);
		await new Promise((done) => setTimeout(done, 300));
		expect(existsSync(stopFile)).toBe(false);
	});

	it("sets a cost budget and says Claude Code cannot enforce it", async () => {
		const typed = "/timebox 30m cost:2";
		expect((await claude(typed)).stdout).toBe(
			blocked(
				"Timebox set: 30m and $2.00.\nTimebox: this host does not tell Timebox what the session costs: the cost limit cannot be enforced here.",
				typed,
			),
		);
	});
});

describe("Claude Code's words in claude -p", () => {
	it("shows the usage after a bad word, its own daily setting, and a report that leaves the cost out", async () => {
		const bad = await claude("/timebox 15x");
		expect(bad.stdout).toContain("Usage: /timebox <budget> [-- <command>] | status | off");
		expect(bad.stdout).toContain("e.g. /timebox 15m turns:3");
		const today = await claude("/timebox today", { resume: true });
		expect(today.stdout).toBe(
			blocked(
				'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" under "env" in ~/.claude/settings.json.',
				"/timebox today",
			),
		);
		await claude("/timebox 10m", { resume: true });
		const report = await claude("/timebox report", { resume: true });
		console.log(`claude report: ${JSON.stringify(report.stdout)}`);
		const [header, ...lines] = report.stdout.split("\n");
		expect(header).toBe("UserPromptSubmit operation blocked by hook:");
		expect(lines.slice(0, 3)).toEqual([
			"Timebox report: 1 budget in this session.",
			expect.stringMatching(/^1\. 10m, set \d+s ago: used \d+s, 0 turns, 0 tokens\. Still active\.$/),
			"Cost not tracked in Claude Code.",
		]);
		expect(report.stdout).not.toContain("$");
		expect(api.requests).toEqual([]);
	});
});

describe("the daily budget shared by claude and pi", () => {
	it("counts a pi session's prompts and claude's into the same day, and refuses the next one in either", async () => {
		const daily = "turns:2";
		const spent = "Timebox: today's budget is spent (2 prompts). It resets at midnight.";
		mkdirSync(join(box.home, ".pi", "agent"), { recursive: true });
		writeFileSync(join(box.home, ".pi", "agent", "settings.json"), JSON.stringify({ timebox: { daily } }));
		const pi = (prompt: string) =>
			runProcess(
				join(REPO, "node_modules/.bin/pi"),
				["-e", REPO, "-e", join(REPO, "demo/offline-model.ts"), "--model", "timebox-demo/scripted", "-p", prompt],
				{ cwd: box.cwd, env: { PATH: process.env.PATH, HOME: box.home, PI_OFFLINE: "1" }, timeoutMs: 60_000 },
			);
		const claudeDaily = (prompt: string, resume: boolean) =>
			runClaude(["-p", ...(resume ? ["--continue"] : []), "--plugin-dir", PLUGIN_DIR, prompt], {
				home: box.home,
				cwd: box.cwd,
				apiUrl: api.url,
				env: { TIMEBOX_DAILY: daily },
			});
		expect((await pi("one")).code).toBe(0);
		api.reply({ text: "ANSWER-TWO" });
		expect((await claudeDaily("two", false)).stdout).toBe("ANSWER-TWO\n");
		expect((await claudeDaily("three", true)).stdout).toBe(blocked(spent, "three"));
		const fourth = await pi("four");
		expect(fourth.stderr).toContain(`[timebox] error: ${spent}`);
	});
});

describe("idle expiry in claude -p", () => {
	it("runs the on-stop command at the deadline while no prompt comes, once, and lets the next prompt run", async () => {
		const stopFile = join(box.root, "stopped.txt");
		const ranAt = join(box.root, "ran-at.txt");
		// The command notes when it ran: claude -p may return after the deadline on a busy machine.
		const typed = `/timebox 3s -- echo stopped >> '${stopFile}'; date +%s%3N > '${ranAt}'`;
		const set = await claude(typed);
		const active = sessionLog(box.dataDir, onlySession()).find((line) => line.kind === "active");
		const budget = active?.budget as { startTime?: unknown } | undefined;
		if (typeof budget?.startTime !== "number") throw new Error("no active budget in Timebox's log");
		const startTime = budget.startTime;
		expect(set.stdout).toContain("Timebox set: 3s.");
		await expect.poll(() => readText(stopFile), { timeout: 8_000, interval: 100 }).toBe("stopped\n");
		await expect.poll(() => readText(ranAt), { timeout: 2_000, interval: 100 }).toMatch(/^\d+\n$/);
		const late = Number(readText(ranAt)) - (startTime + 3_000);
		console.log(`idle expiry: the on-stop command ran ${late} ms after the deadline`);
		expect(late).toBeLessThan(2_500);
		api.reply({ text: "ANSWER-AFTER" });
		expect((await claude("are we done?", { resume: true })).stdout).toBe("ANSWER-AFTER\n");
		expect(shownSystemMessages().join("\n")).toContain("while the agent was idle");
		await new Promise((done) => setTimeout(done, 300));
		expect(readText(stopFile)).toBe("stopped\n");
	});
});

describe("the plugin's script run directly", () => {
	it("extends a spent budget with /timebox +turns:1: one more prompt is answered, the next is blocked", async () => {
		await claude("/timebox turns:1");
		await answered("first question", "ANSWER-ONE");
		expect((await claude("second question", { resume: true })).stdout).toContain("Timebox budget spent. Used 1 turn");
		const extended = await claude("/timebox +turns:1", { resume: true });
		expect(extended.stdout).toBe(
			blocked("Timebox extended by 1 turn. Timebox: no time limit | 1 turn left (1/2)", "/timebox +turns:1"),
		);
		await answered("third question", "ANSWER-THREE");
		const fourth = await claude("fourth question", { resume: true });
		expect(fourth.stdout).toContain("Timebox budget spent. Used 2 turns");
		expect(api.requests).toHaveLength(2);
	});

	it("counts no prompt while paused, and goes on from where it was on resume", async () => {
		await claude("/timebox turns:1");
		const paused = await claude("/timebox pause", { resume: true });
		expect(paused.stdout).toContain("Timebox paused: the clock stands still and prompts do not count");
		await answered("while paused one", "P-ONE");
		await answered("while paused two", "P-TWO");
		expect(await statusLine(onlySession())).toBe("Timebox: paused | no time limit | 1 turn left (0/1)\n");
		await claude("/timebox resume", { resume: true });
		await answered("after resume", "R-ONE");
		expect((await claude("one too many", { resume: true })).stdout).toContain("Timebox budget spent. Used 1 turn");
	});

	it("starts a new session with the default from TIMEBOX_DEFAULT set in Claude Code's settings env", async () => {
		mkdirSync(join(box.home, ".claude"), { recursive: true });
		writeFileSync(join(box.home, ".claude/settings.json"), JSON.stringify({ env: { TIMEBOX_DEFAULT: "turns:1" } }));
		api.reply({ text: "ANSWER-ONE" });
		const first = await claude("first question");
		expect(first.stdout).toBe("ANSWER-ONE\n");
		expect(shownSystemMessages()).toEqual(["Timebox set from TIMEBOX_DEFAULT: 1 turn."]);
		const second = await claude("second question", { resume: true });
		expect(second.stdout).toContain("Timebox budget spent. Used 1 turn");
		expect(api.requests).toHaveLength(1);
	});

	it("names a bad TIMEBOX_DEFAULT once a session: at its start, and not again at its prompts", async () => {
		mkdirSync(join(box.home, ".claude"), { recursive: true });
		writeFileSync(join(box.home, ".claude/settings.json"), JSON.stringify({ env: { TIMEBOX_DEFAULT: "30x" } }));
		api.reply({ text: "ANSWER-ONE" }, { text: "ANSWER-TWO" });
		expect((await claude("first question")).stdout).toBe("ANSWER-ONE\n");
		expect((await claude("second question", { resume: true })).stdout).toBe("ANSWER-TWO\n");
		// The resumed session's start says it again (a new process, as pi -c does); no prompt says it.
		const bad =
			'Timebox: TIMEBOX_DEFAULT: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. The session starts without a budget.';
		expect(shownSystemMessages()).toEqual([bad, bad]);
	});

	it("answers malformed hook input with one stderr line and exit code 0", async () => {
		const result = await runTimebox(["hook"], "not json {", { HOME: box.home, CLAUDE_PLUGIN_DATA: box.dataDir });
		expect(result).toMatchObject({
			code: 0,
			stdout: "",
			stderr: "timebox: ignored this hook call: stdin is not JSON\n",
		});
		expect(existsSync(box.dataDir)).toBe(false);
	});

	it("answers a prompt's hook call in well under 2 s, far within the hook's timeout", async () => {
		const input = JSON.stringify({
			hook_event_name: "UserPromptSubmit",
			session_id: "timing-session",
			prompt_id: "p-1",
			prompt: "hello",
		});
		const times: number[] = [];
		for (let i = 0; i < 5; i++) {
			const result = await runTimebox(["hook"], input, { HOME: box.home, CLAUDE_PLUGIN_DATA: box.dataDir });
			expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
			times.push(result.ms);
		}
		const median = times.sort((a, b) => a - b)[2] as number;
		console.log(`timebox hook (UserPromptSubmit, no budget): median ${median.toFixed(0)} ms of 5 runs`);
		expect(median).toBeLessThan(2_000);
	});
});

function readText(file: string): string {
	return existsSync(file) ? readFileSync(file, "utf8") : "";
}
