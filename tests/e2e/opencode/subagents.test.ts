// Timebox's subagent budgets in the real opencode (`opencode run`), against the loopback fake of the chat completions
// API: a subagent of the `task` tool that loops on a tool reads its budget, is warned, concludes at its limit with its
// tools refused, and its parent reads the line that it stopped; one that keeps asking for tools is stopped with no
// further request; the session's spent budget stops a running subagent and refuses a new one; `/timebox report` lists
// each subagent with its type, task, budget, what it used and how it ended.

import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ChatReply, type ChatRequest, FakeChat } from "../../../demo/fakes/chat.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { sessionLogOf } from "./harness.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "./support.ts";

let api: FakeChat;
let root: string;
let home: string;

beforeAll(async () => {
	await ensureOpencode();
}, 600_000);

beforeEach(async () => {
	api = await FakeChat.start();
	root = await mkdtemp(join(tmpdir(), "timebox-opencode-subagents-"));
	home = join(root, "home");
	mkdirSync(join(root, "work"));
	writeOpencodeHome(home, api.url);
});

afterEach(async () => {
	await api.close();
	await rm(root, { recursive: true, force: true });
});

async function run(args: string[]): Promise<RunResult> {
	const result = await runProcess(OPENCODE, ["run", ...args], {
		cwd: join(root, "work"),
		env: opencodeEnv(home),
		timeoutMs: 120_000,
	});
	return {
		...result,
		stdout: stripVTControlCharacters(result.stdout),
		stderr: stripVTControlCharacters(result.stderr),
	};
}

/** The main agent's call of the `task` tool that starts the subagent. */
const TASK: ChatReply = {
	tool: "task",
	args: { description: "find the flaky test", prompt: "Find the flaky test", subagent_type: "general" },
};
const LOOP = (step: number): ChatReply => ({ bash: `echo step${step}` });

/** The text of a request's last message (a tool's result, for a call that follows tools). */
function lastMessage(request: ChatRequest | undefined): string {
	const content = request?.body.messages.at(-1)?.content;
	return typeof content === "string" ? content : JSON.stringify(content);
}

/** Whether a request is the subagent's: it opens with its task. */
function isChild(request: ChatRequest): boolean {
	return request.body.messages.some(
		(message) => message.role === "user" && JSON.stringify(message.content).includes("Find the flaky test"),
	);
}

/** The requests of each agent: the subagent's open with its task, the main agent's with the prompt. */
function split(): { parent: ChatRequest[]; child: ChatRequest[] } {
	return { parent: api.main.filter((request) => !isChild(request)), child: api.main.filter(isChild) };
}

/** The lines of Timebox's log of every session. */
const sessionLog = () => sessionLogOf({ home });

const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const WRAP_UP_REFUSAL = "Timebox: your budget for this task is spent. Write your final answer now";
const PARENT_LINE = "Timebox: this subagent stopped at its 3-step budget";

describe("subagents in opencode run", () => {
	it("tells a looping subagent its budget, warns it, refuses its 4th call's tool, and its parent reads that it stopped", async () => {
		const set = await run(["--command", "timebox", "subagents", "20s", "steps:3"]);
		expect(set.stderr).toContain("[timebox] info: Timebox");
		api.reply(TASK, LOOP(1), LOOP(2), LOOP(3), LOOP(4), { text: "CHILD FINAL" }, { text: "PARENT FINAL" });
		const result = await run(["-c", "delegate"]);
		expect(result.stdout).toContain("PARENT FINAL");
		const { parent, child } = split();
		expect(child).toHaveLength(5);
		expect(child.map((request) => request.text.includes(BUDGET_BLOCK))).toEqual([true, false, false, false, false]);
		expect(child.map((request) => request.text.includes("TIMEBOX WARNING"))).toEqual([
			false,
			false,
			true,
			false,
			false,
		]);
		expect(child.map((request) => request.text.includes(WRAP_UP_BLOCK))).toEqual([false, false, false, true, true]);
		expect(child[4]?.text).toContain(WRAP_UP_REFUSAL);
		expect(parent).toHaveLength(2);
		expect(lastMessage(parent[1])).toContain("CHILD FINAL");
		expect(lastMessage(parent[1])).toContain(PARENT_LINE);
		expect(result.stderr).toContain(
			'[timebox] warning: Timebox: subagent "find the flaky test" (general) used 80% of its budget',
		);
		expect(result.stderr).toContain(
			'[timebox] info: Timebox: subagent "find the flaky test" (general) stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.',
		);
		const report = await run(["-c", "--command", "timebox", "report"]);
		// Its type, its task, its budget, what it used, and how it ended.
		expect(report.stderr).toContain("1 subagent in this session:");
		expect(report.stderr).toMatch(
			/- "find the flaky test" \(general\): budget 20s and 3 model calls; used \d+s, 5 model calls, \d+ tokens, \$[\d.]+\. Concluded at its 3-step budget\./,
		);
		expect(sessionLog().filter((line) => line.kind === "subagent").length).toBeGreaterThan(0);
	});

	it("stops a subagent that asks for a tool again after the refusal: no further request, its parent reads why", async () => {
		await run(["--command", "timebox", "subagents", "20s", "steps:3"]);
		api.reply(TASK, LOOP(1), LOOP(2), LOOP(3), LOOP(4), LOOP(5), { text: "PARENT FINAL" });
		const result = await run(["-c", "delegate"]);
		expect(result.stdout).toContain("PARENT FINAL");
		const { parent, child } = split();
		expect(child).toHaveLength(5);
		expect(parent).toHaveLength(2);
		expect(lastMessage(parent[1])).toContain(PARENT_LINE);
		expect(result.stderr).toContain(
			'[timebox] info: Timebox: subagent "find the flaky test" (general) stopped at its 3-step budget after 5 model calls',
		);
	});

	it("stops a running subagent when the session's budget is spent, and refuses the next one", async () => {
		await run(["--command", "timebox", "subagents", "5m"]);
		// 40k tokens a call: the subagent loops until a call of its cannot fit beside what it and the main agent used and
		// what the main agent's call that started it may still use (its input at its bound, its answer at 32k).
		api.usage = { prompt_tokens: 40_000, completion_tokens: 0 };
		await run(["-c", "--command", "timebox", "tokens:262k", "grace:30s"]);
		const parentReplies: ChatReply[] = [TASK, TASK, { text: "PARENT FINAL" }];
		let step = 0;
		api.respond = (request) => (isChild(request) ? LOOP(++step) : (parentReplies.shift() ?? { text: "PARENT FINAL" }));
		const result = await run(["-c", "delegate"]);
		const { parent, child } = split();
		expect(result.stdout).toContain("PARENT FINAL");
		// The session's budget is spent at the subagent's next call, which is never sent: it is stopped there.
		expect(child.length).toBeGreaterThanOrEqual(2);
		const spent = (40_000 * child.length).toLocaleString("en-US");
		expect(result.stderr).toContain(`${spent} of 262,000 tokens (too little left for the next model call)`);
		expect(result.stderr).toContain(
			`[timebox] info: Timebox: subagent "find the flaky test" (general) stopped with the session's budget after ${child.length} model calls`,
		);
		expect(parent[1]?.text).toContain("Timebox: this subagent stopped when the session's budget ran out");
		// The main agent's second `task` call is refused with the reason it reads: no subagent starts.
		expect(parent.at(-1)?.text).toContain("Timebox: the session's budget is spent, so no subagent can start.");
		expect(parent).toHaveLength(3);
		const report = await run(["-c", "--command", "timebox", "report"]);
		expect(report.stderr).toMatch(
			/- "find the flaky test" \(general\): budget 5m; used \d+s, \d+ model calls, \d+k tokens, \$[\d.]+\. Stopped with the session's budget\./,
		);
	});
});
