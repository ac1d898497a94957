// Runs an extension starts (`pi.sendMessage(…, { triggerTurn: true })`) on real pi, 0.73.1 and 1.x, as processes in
// print mode: such a run is no prompt the user sent, so it never counts as a turn, but its model calls are steps, what
// it used counts and the budget stops it. Guards the case where a run an extension started before the user's first prompt took a turn.
// A user message an extension sends while the agent works (`pi.sendUserMessage(…, { deliverAs })`) counts as the user's
// own: a steering one belongs to the prompt it steers, a follow-up is a prompt of its own.

import { existsSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PI_HOSTS } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";

describe.each(PI_HOSTS)("a run an extension starts, on $name", (host) => {
	let pi: PiProcess;
	beforeAll(() => host.ensure(), 300_000);
	afterEach(() => pi.dispose());

	it("counts no prompt before the first one: turns:2 answers two prompts after it and stops the third", async () => {
		pi = new PiProcess(host);
		const result = await pi.print(
			[{ tool: "bash", args: { command: "echo checked" } }, { text: "the build is fine" }],
			["/timebox turns:2", "/e2e-run the build failed, look at it", "/timebox status", "first", "second", "third"],
		);
		expect(notices(result, "info")).toEqual([
			"Timebox set: 2 turns.",
			expect.stringMatching(/^Timebox: no time limit \| 2 turns left \(0\/2\)/),
		]);
		expect(notices(result, "error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 2 turns, \d+s\. The agent stops for this turn\./),
		]);
		// Two calls of the extension's run (the model reads its message as a user's), then one each for the first and
		// second prompt. The third is stopped in its first call (0.73.1 still sends that call, aborted; 1.x does not).
		const newest = pi
			.requests()
			.map((request) => request.messages.findLast((message) => message.role === "user")?.text);
		const started = "the build failed, look at it";
		expect(newest.slice(0, 4)).toEqual([started, started, "first", "second"]);
		expect(newest.slice(4)).toEqual(host.major === 0 ? ["third"] : []);
	});

	it("counts what its answers used: tokens:200k stops it after its second answer, before that answer's tool runs", async () => {
		pi = new PiProcess(host);
		const marker = `${pi.root}/third-tool.txt`;
		// Each answer reports 150,100 tokens: the scripted model is no API whose request Timebox can cap.
		const result = await pi.print(
			[
				{ tool: "bash", args: { command: "echo one" }, output: 150_000 },
				{ tool: "bash", args: { command: `echo two > '${marker}'` }, output: 150_000 },
				{ text: "never asked" },
			],
			["/timebox tokens:200k", "/e2e-run the nightly job failed"],
		);
		expect(notices(result, "error")).toEqual([
			expect.stringMatching(
				/^Timebox budget spent\. Used 0 turns, \d+s, 300,200 of 200,000 tokens\. The agent stops for this turn\./,
			),
		]);
		// 0.73.1 still sends the aborted run's next call, which is refused; 1.x sends none.
		expect(pi.requests()).toHaveLength(host.major === 0 ? 3 : 2);
		expect(existsSync(marker)).toBe(false);
	});

	it("counts its model calls as steps: steps:1 makes its second call the wrap-up call", async () => {
		pi = new PiProcess(host);
		const result = await pi.print(
			[{ tool: "bash", args: { command: "echo one" } }, { text: "wrapped up" }],
			["/timebox steps:1", "/e2e-run tests finished, go on"],
		);
		expect(notices(result, "warning")).toEqual([
			"Timebox: this prompt used its 1 step; the model was asked to finish.",
		]);
		const requests = pi.requests();
		expect(requests).toHaveLength(2);
		expect(requests[1]?.messages.at(-1)?.text).toMatch(/^TIMEBOX: STEPS SPENT/);
	});

	it("counts a user message an extension sends as the user's: a steering one is no turn, a follow-up is one", async () => {
		pi = new PiProcess(host);
		const result = await pi.print(
			[
				{ tool: "bash", args: { command: "echo 'E2E-STEER: also list the files'" } },
				{ tool: "bash", args: { command: "echo 'E2E-FOLLOW-UP: then summarize'" } },
				{ text: "first done" },
				{ text: "summarized" },
			],
			["/timebox turns:2", "first", "second"],
		);
		expect(notices(result, "error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 2 turns, \d+s\. The agent stops for this turn\./),
		]);
		// The steering message reaches the run's second call, the follow-up starts a run of its own (the second turn),
		// and "second" is stopped in its first call (0.73.1 still sends that call, aborted; 1.x does not).
		const newest = pi
			.requests()
			.map((request) => request.messages.findLast((message) => message.role === "user")?.text);
		const steered = "also list the files";
		expect(newest).toEqual(["first", steered, steered, "then summarize", ...(host.major === 0 ? ["second"] : [])]);
	});
});
