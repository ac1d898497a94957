// Timebox's subagent budgets in the real Codex CLI (0.171.0), installed as a plugin, against the fake Responses API: a
// subagent of `spawn_agent` that loops on a command reads its budget (SubagentStart), is warned (its PostToolUse), has
// its tool denied at its limit, and the main agent's next request carries the line that it stopped (Codex hands the
// subagent's answer to its parent in a later request, not in a tool's result). Codex cannot end a running turn, so a
// subagent that asks again has every tool denied until it answers.

import { mkdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeResponses, type Reply } from "../../../demo/fakes/responses.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { removeSandbox } from "../../support/sandbox.ts";
import { CODEX, ensureCodex, REPO, writeCodexConfig } from "./support.ts";

let api: FakeResponses;
let root: string;

beforeAll(async () => {
	await ensureCodex();
}, 600_000);

beforeEach(async () => {
	api = await FakeResponses.start();
	root = await mkdtemp(join(tmpdir(), "timebox-codex-subagents-"));
	mkdirSync(join(root, "work"));
	writeCodexConfig(join(root, "home", ".codex"), api.url);
	for (const args of [
		["plugin", "marketplace", "add", REPO],
		["plugin", "add", "timebox@timebox"],
	]) {
		const done = await codex(args);
		if (done.code !== 0) throw new Error(`codex ${args.join(" ")} failed: ${done.stderr}`);
	}
});

afterEach(async () => {
	await api.close();
	await removeSandbox(root);
});

function codex(args: string[]): Promise<RunResult> {
	return runProcess(CODEX, args, {
		cwd: join(root, "work"),
		env: {
			PATH: process.env.PATH,
			HOME: join(root, "home"),
			CODEX_HOME: join(root, "home", ".codex"),
			FAKE_API_KEY: "sk-fake",
			TIMEBOX_SUBAGENTS: "20s steps:3",
		},
		timeoutMs: 120_000,
	});
}

const TASK = "Find the flaky test";
/** A request of the subagent: it opens with its task; the main agent's hold its call of `spawn_agent`. */
const isChild = (body: string) => body.includes(`"text":"${TASK}"`) && !body.includes("spawn_agent");

/**
 * The main agent starts the subagent and runs a command long enough for it to finish; the subagent runs a command at
 * each call until `loops` calls, then answers.
 */
function script(loops: number): void {
	let child = 0;
	let parent = 0;
	api.respond = (body): Reply => {
		if (isChild(body)) {
			child++;
			return child <= loops ? { tool: "exec_command", args: { cmd: `echo step${child}` } } : { text: "CHILD FINAL" };
		}
		parent++;
		if (parent === 1) {
			return { tool: "spawn_agent", namespace: "multi_agent_v1", args: { message: TASK, task_name: "flaky" } };
		}
		return parent === 2 ? { tool: "exec_command", args: { cmd: "sleep 4" } } : { text: "PARENT FINAL" };
	};
}

const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const WRAP_UP_REFUSAL = "Timebox: your budget for this task is spent. Write your final answer now";
const PARENT_LINE = "Timebox: this subagent stopped at its 3-step budget";

describe("subagents in Codex CLI", () => {
	it("tells a looping subagent its budget, warns it, denies its 4th call's tool, and the main agent reads that it stopped", async () => {
		script(4);
		const result = await codex([
			"exec",
			"--skip-git-repo-check",
			"--dangerously-bypass-hook-trust",
			"--sandbox",
			"danger-full-access",
			"delegate",
		]);
		expect(result.stdout).toContain("PARENT FINAL");
		const child = api.requests.filter(isChild);
		expect(child).toHaveLength(5);
		expect(child.map((body) => body.includes(BUDGET_BLOCK))).toEqual([true, true, true, true, true]);
		expect(child.map((body) => body.includes("TIMEBOX WARNING"))).toEqual([false, false, true, true, true]);
		expect(child.map((body) => body.includes(WRAP_UP_BLOCK))).toEqual([false, false, false, true, true]);
		expect(child[4]).toContain(WRAP_UP_REFUSAL);
		const parent = api.requests.filter((body) => !isChild(body));
		expect(parent.at(-1)).toContain("CHILD FINAL");
		expect(parent.at(-1)).toContain(PARENT_LINE);
	});
});
