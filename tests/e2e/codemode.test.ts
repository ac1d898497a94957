// pi 1.x's codemode on real pi (1.6.0, as a process in print mode): a script the model writes calls pi's tools through
// `ctx.executeTool()`, and each of those nested calls goes through Timebox's tool_call handler like the model's own. A
// stop ends a script mid-run, the grace period refuses its calls, and the steps wrap-up refuses the codemode call.
// pi 0.73.1 has no codemode, so this file runs on 1.x only.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { WRAP_UP_REFUSAL } from "../../src/core/index.ts";
import { PI_1 } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";
import { linesOf, sleep } from "./support/real-pi.ts";

const CODEMODE = ["--tools", "+codemode"];

/** A codemode script that runs `count` one-second bash calls, each writing its number and the time to `marks`. */
function slowScript(marks: string, count: number): string {
	return [
		"const out = [];",
		`for (let i = 1; i <= ${count}; i++) {`,
		`  try { await tools.bash({ command: "sleep 1; echo " + i + " $(date +%s%3N) >> '${marks}'" }); out.push(i + " ran"); }`,
		'  catch (error) { out.push(i + " refused: " + error.message); }',
		"}",
		'return out.join("\\n");',
	].join("\n");
}

describe(`codemode's nested tool calls, on ${PI_1.name}`, () => {
	let pi: PiProcess;
	beforeAll(() => PI_1.ensure(), 300_000);
	afterEach(() => pi.dispose());

	it("are stopped mid-script by the time limit: no call starts after the stop, and on-stop runs once", async () => {
		pi = new PiProcess(PI_1);
		const marks = join(pi.root, "marks.txt");
		const stopped = join(pi.root, "stopped.txt");
		const result = await pi.print(
			[{ tool: "codemode", args: { code: slowScript(marks, 10) } }, { text: "done" }],
			[`/timebox 4s -- echo $(date +%s%3N) >> '${stopped}'`, "run the slow script"],
			CODEMODE,
		);
		expect(notices(result, "error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 4s\. The agent stops for this turn\./),
		]);
		const written = linesOf(marks);
		// pi needs about a second to start, so the script ran a few of its ten calls before the 4 s were over.
		expect(written.length).toBeGreaterThan(0);
		expect(written.length).toBeLessThan(5);
		// The on-stop command wrote when the stop came: the call running then was killed before it could write.
		await sleep(1_500);
		const stops = linesOf(stopped);
		expect(stops).toHaveLength(1);
		for (const line of written) expect(Number(line.split(" ")[1])).toBeLessThan(Number(stops[0]));
		expect(linesOf(marks)).toEqual(written);
	});

	it("are refused while the run wraps up in its grace period, and the script gets the reason", async () => {
		pi = new PiProcess(PI_1);
		const marks = join(pi.root, "marks.txt");
		const result = await pi.print(
			[{ tool: "codemode", args: { code: slowScript(marks, 6) } }, { text: "here is where it stands" }],
			["/timebox 3s grace:30s", "run the slow script"],
			CODEMODE,
		);
		expect(notices(result, "error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. .* The agent is wrapping up: its tools are refused/),
		]);
		const written = linesOf(marks);
		expect(written.length).toBeGreaterThan(0);
		expect(written.length).toBeLessThan(6);
		// The script's result, which the model reads in its next call, has each refused call with Timebox's reason.
		const scriptResult = pi.requests()[1]?.messages.find((message) => message.role === "toolResult")?.text ?? "";
		expect(scriptResult).toContain(`6 refused: ${WRAP_UP_REFUSAL}`);
		expect(scriptResult).toContain(`${written.length} ran`);
		expect(scriptResult).not.toContain(`${written.length + 1} ran`);
	});

	it("never start when the model calls codemode in a prompt's wrap-up call: the call is refused", async () => {
		pi = new PiProcess(PI_1);
		const marks = join(pi.root, "marks.txt");
		const result = await pi.print(
			[
				{ tool: "bash", args: { command: "echo one" } },
				{ tool: "codemode", args: { code: slowScript(marks, 2) } },
				{ text: "done" },
			],
			["/timebox steps:1", "loop"],
			CODEMODE,
		);
		expect(notices(result, "warning")).toEqual([
			"Timebox: this prompt used its 1 step; the model was asked to finish.",
		]);
		expect(pi.requests()).toHaveLength(2);
		expect(existsSync(marks)).toBe(false);
	});
});
