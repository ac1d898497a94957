// Timebox's subagent budgets in the real pi (0.73.1, and 1.6.0 for the first case, as a process in print mode) with pi's
// own subagent example, which
// runs each subagent as a `pi` process of its own that loads Timebox: the subagent knows it is one and its budget, is
// warned, concludes at its limit with its tool refused, and the main agent's tool result carries the line that it
// stopped; one that keeps asking for tools is stopped with no further request; the session's spent budget stops a
// running one (its process learns it from the main one) and refuses the main agent's next subagent call.

import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUNDLED_PI, PI_1, type PiHost } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";
import type { ScriptEntry, ScriptedAnswer } from "./support/scripted-model.ts";

const REPO = resolve(import.meta.dirname, "../..");
/** The subagent example in the package of each pi. */
const SUBAGENT_EXAMPLE = (host: PiHost): string => join(host.cli, "../../examples/extensions/subagent");
/** Timebox's extension from the source: its entry, which runs extension.ts itself. */
const TIMEBOX_ENTRY = join(REPO, "src/entries/pi/timebox/index.ts");
const SCRIPTED_MODEL_FILE = join(REPO, "tests/e2e/support/scripted-model.ts");

let pi: PiProcess;

beforeEach(() => {
	pi = new PiProcess(BUNDLED_PI);
	useExample(BUNDLED_PI);
});

/** Installs Timebox, the scripted model and the subagent example for the user of `pi`, with a `worker` agent. */
function useExample(host: PiHost): void {
	// The example's subagents are `pi` processes that load the user's extensions: Timebox, the scripted model, and the
	// example itself are installed for the user, and its `worker` agent answers with the scripted model.
	const agentDir = join(pi.home, ".pi/agent");
	mkdirSync(join(agentDir, "agents"), { recursive: true });
	const extensions = [TIMEBOX_ENTRY, SCRIPTED_MODEL_FILE, SUBAGENT_EXAMPLE(host)];
	writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ extensions }));
	writeFileSync(
		join(agentDir, "agents", "worker.md"),
		"---\nname: worker\ndescription: Works on a task\nmodel: timebox-e2e/scripted\n---\nYou are a worker.\n",
	);
}

afterEach(() => pi.dispose());

const SUBAGENT: ScriptedAnswer = { tool: "subagent", args: { agent: "worker", task: "find the flaky test" } };
const LOOP = (step: number): ScriptedAnswer => ({ tool: "bash", args: { command: `echo step${step}` } });
const BUDGET_BLOCK = "TIMEBOX: YOUR BUDGET FOR THIS TASK";
const WRAP_UP_BLOCK = "TIMEBOX: TASK BUDGET SPENT";
const WRAP_UP_REFUSAL = "Timebox: your budget for this task is spent. Write your final answer now";
const PARENT_LINE = "Timebox: this subagent stopped at its 3-step budget";

/**
 * `pi -p "/timebox subagents 20s steps:3" "delegate" "/timebox report"` with the user's extensions and the scripted
 * model.
 */
function delegate(answers: readonly ScriptEntry[], budget = "/timebox subagents 20s steps:3") {
	writeFileSync(join(pi.root, "script.json"), JSON.stringify(answers));
	const messages = [budget, "delegate", "/timebox report"];
	return pi.run(["--model", "timebox-e2e/scripted", "-p", ...messages]);
}

/** The text of every message of a request, joined. */
const textOf = (request: { messages: { text: string }[] } | undefined): string =>
	(request?.messages ?? []).map((message) => message.text).join("\n");

/** A subagent that loops on `bash` under `20s steps:3` concludes at its budget, and the main agent reads the line. */
async function concludesAtItsBudget(): Promise<void> {
	const result = await delegate([
		SUBAGENT,
		LOOP(1),
		LOOP(2),
		LOOP(3),
		LOOP(4),
		{ text: "CHILD FINAL" },
		{ text: "PARENT FINAL" },
	]);
	expect(result.stdout).toContain("PARENT FINAL");
	const requests = pi.requests();
	expect(requests).toHaveLength(7);
	const child = requests.slice(1, 6);
	expect(child.map((request) => textOf(request).includes(BUDGET_BLOCK))).toEqual([true, false, false, false, false]);
	expect(child.map((request) => textOf(request).includes("TIMEBOX WARNING"))).toEqual([
		false,
		false,
		true,
		false,
		false,
	]);
	expect(child.map((request) => textOf(request).includes(WRAP_UP_BLOCK))).toEqual([false, false, false, true, true]);
	expect(textOf(child[4])).toContain(WRAP_UP_REFUSAL);
	const parent = textOf(requests[6]);
	expect(parent).toContain("CHILD FINAL");
	expect(parent).toContain(PARENT_LINE);
	expect(notices(result, "warning").join("\n")).toContain(
		'Timebox: subagent "find the flaky test" (worker) used 80% of its budget',
	);
	expect(notices(result, "info")).toContain(
		'Timebox: subagent "find the flaky test" (worker) stopped at its 3-step budget after 5 model calls; its answer went back to the main agent.',
	);
	expect(result.stderr).toMatch(
		/"find the flaky test" \(worker\): budget 20s and 3 model calls; used \d+s, 5 model calls, 600 tokens\. Concluded at its 3-step budget\./,
	);
}

describe("subagents in pi, with pi's subagent example", () => {
	it("tells a looping subagent its budget, warns it, refuses its 4th call's tool, and the main agent reads that it stopped", () =>
		concludesAtItsBudget());

	it(`does so on ${PI_1.name}, with its own example`, async () => {
		await PI_1.ensure();
		pi.dispose();
		pi = new PiProcess(PI_1);
		useExample(PI_1);
		await concludesAtItsBudget();
	}, 600_000);

	it("stops a subagent that asks for a tool again after the refusal: no further request, the main agent reads why", async () => {
		const result = await delegate([SUBAGENT, LOOP(1), LOOP(2), LOOP(3), LOOP(4), LOOP(5), { text: "PARENT FINAL" }]);
		expect(result.stdout).toContain("PARENT FINAL");
		// pi 0.73.1 still makes the call after the stop, aborted before it starts: no request goes out for it.
		const requests = pi.requests();
		expect(requests.map((request) => request.aborted === true)).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
			true,
			false,
		]);
		expect(textOf(requests[7])).toContain(PARENT_LINE);
	});

	it(`on ${PI_1.name}, whose example hands the main agent a stopped subagent's stderr, the main agent reads only the line meant for it`, async () => {
		await PI_1.ensure();
		pi.dispose();
		pi = new PiProcess(PI_1);
		useExample(PI_1);
		const result = await delegate([SUBAGENT, LOOP(1), LOOP(2), LOOP(3), LOOP(4), LOOP(5), { text: "PARENT FINAL" }]);
		expect(result.stdout).toContain("PARENT FINAL");
		const parent = textOf(pi.requests().at(-1));
		expect(parent).toContain(PARENT_LINE);
		// What the user is told of the subagent is shown by the main session, and is no part of what its model reads.
		expect(parent).not.toContain("[timebox]");
		expect(parent).not.toContain("used 80% of its budget");
		expect(notices(result, "warning").join("\n")).toContain(
			'Timebox: subagent "find the flaky test" (worker) used 80% of its budget',
		);
	}, 600_000);

	it("stops a running subagent when the session's time is up, and refuses the main agent's next subagent call", async () => {
		// The session's time is sized from how long pi takes here to start and answer, so that it runs out while the
		// subagent's process (started by the main agent's first call) loops on one-second commands.
		const startedAt = Date.now();
		await delegate([{ text: "WARM" }], "/timebox report");
		const seconds = Math.max(6, Math.ceil(((Date.now() - startedAt) * 2) / 1_000) + 2);
		pi.dispose();
		pi = new PiProcess(BUNDLED_PI);
		useExample(BUNDLED_PI);
		const sleepLoop: ScriptedAnswer = { tool: "bash", args: { command: "sleep 1" } };
		const result = await delegate(
			[SUBAGENT, { main: SUBAGENT, subagent: sleepLoop }, { text: "PARENT FINAL" }],
			`/timebox ${seconds}s grace:30s`,
		);
		expect(result.stdout).toContain("PARENT FINAL");
		const requests = pi.requests();
		const child = requests.filter((request) => request.held === true);
		expect(child.length).toBeGreaterThanOrEqual(1);
		// Nothing more was asked for it after the stop: its requests all came before the main agent's next one (pi 0.73.1
		// still makes its next call, aborted before it starts: no request goes out for it).
		const lastOfChild = requests.findLastIndex((request) => request.held === true);
		expect(lastOfChild).toBe(child.length);
		expect(requests.slice(lastOfChild + 1).filter((request) => request.aborted === true).length).toBeLessThanOrEqual(1);
		const parent = requests.filter((request) => request.held !== true && request.aborted !== true);
		expect(parent).toHaveLength(3);
		expect(textOf(parent[1])).toContain("Timebox: this subagent stopped when the session's budget ran out (used ");
		expect(textOf(parent[1])).toContain("TIMEBOX: BUDGET SPENT");
		// The second subagent call is refused before any process starts (the main agent is wrapping up): it reads why.
		expect(textOf(parent[2])).toContain("Timebox: the budget is spent. Write the final answer now");
		expect(notices(result, "error").join("\n")).toMatch(
			/^Timebox budget spent\. Used 0 turns, \d+s\. The agent is wrapping up: its tools are refused/,
		);
		expect(notices(result, "info")).toContain(
			`Timebox: subagent "find the flaky test" (worker) stopped with the session's budget after ${child.length} model call${child.length === 1 ? "" : "s"}; its answer went back to the main agent.`,
		);
		expect(result.stderr).toContain("1 subagent in this session:");
		// Its tokens as the report writes them: 1,000 and more as "1k", "1.1k" (a busy machine lets it loop longer).
		expect(result.stderr).toMatch(
			/- "find the flaky test" \(worker\): no budget of its own; used \d+s, \d+ model calls?, \d+(\.\d)?k? tokens\. Stopped with the session's budget\./,
		);
	}, 120_000);
});
