// Guards the time limit against an open question on a real pi process with a UI (RPC mode): a `/timebox 10m` typed
// while the agent works opens "Replace the active budget?", and the user leaves it unanswered. The 3 s budget must
// still stop the running tool on time, run the on-stop command once, and close the question it made moot.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isNotification, isStatus, PiRpc, type RpcLine } from "./support/pi-rpc.ts";
import { linesOf, sleep } from "./support/real-pi.ts";

/** How late after the deadline the tool may be stopped. */
const STOP_TOLERANCE_MS = 100;
const BUDGET_MS = 3_000;
const QUESTION_CLOSED =
	"Timebox: the budget ran out while the question was open, so it was closed and nothing changed. Type the command again to set a new budget.";
const SPENT = /^Timebox budget spent\. Used 0 turns, 3s\. The agent stops for this turn\. The chat continues\.$/;

let root: string;
let pi: PiRpc | undefined;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-open-question-"));
});

afterEach(async () => {
	await pi?.close();
	pi = undefined;
	rmSync(root, { recursive: true, force: true });
});

/** The data of each `timebox-active` entry in a session file: one per budget set. */
function activeBudgets(sessionFile: string): RpcLine[] {
	return linesOf(sessionFile)
		.map((line): unknown => JSON.parse(line))
		.filter(
			(entry): entry is { customType: string; data: RpcLine } =>
				typeof entry === "object" &&
				entry !== null &&
				"customType" in entry &&
				entry.customType === "timebox-active" &&
				"data" in entry &&
				typeof entry.data === "object" &&
				entry.data !== null,
		)
		.map((entry) => entry.data);
}

function isToolEvent(type: string): (line: RpcLine) => boolean {
	return (line) => line.type === type && line.toolName === "bash";
}

describe("an open question on real pi with a UI", () => {
	it("does not hold back the time limit: the tool is stopped on time and the question is closed", async () => {
		const home = join(root, "home");
		const cwd = join(root, "project");
		const sessionDir = join(root, "sessions");
		for (const dir of [home, cwd, sessionDir]) mkdirSync(dir, { recursive: true });
		const stopFile = join(root, "stopped.txt");
		const rpc = new PiRpc({ home, cwd, sessionDir });
		pi = rpc;
		await rpc.ready();

		const set = rpc.prompt(`/timebox 3s -- echo ran >> "${stopFile}"`);
		await rpc.waitFor((line) => line.type === "response" && line.id === set, "the budget to be set");
		rpc.prompt("run: sleep 5; echo slept");
		await rpc.waitFor(isToolEvent("tool_execution_start"), "the sleep to start");

		// The user types another budget while the agent works, and never answers the question it opens.
		const replace = rpc.prompt("/timebox 10m");
		const question = await rpc.waitFor(
			(line) => line.type === "extension_ui_request" && line.method === "select",
			"the replace question",
		);
		expect(question.line.title).toMatch(/^Replace the active budget \(\ds left\)\?$/);

		const toolEnd = await rpc.waitFor(isToolEvent("tool_execution_end"), "the sleep to end", 8_000);
		const sessionFile = await rpc.sessionFile();
		const startTime = activeBudgets(sessionFile)[0]?.startTime;
		expect(typeof startTime).toBe("number");
		const lateMs = toolEnd.at - Number(startTime) - BUDGET_MS;
		const stopNotice = rpc.all((line) => isNotification(line, "error"))[0];
		const shownMs = stopNotice === undefined ? "not yet" : `${stopNotice.at - Number(startTime) - BUDGET_MS} ms`;
		console.log(`open question: the tool stopped ${lateMs} ms, the stop shown ${shownMs} after the 3 s deadline`);
		expect(lateMs).toBeGreaterThanOrEqual(0);
		expect(lateMs).toBeLessThanOrEqual(STOP_TOLERANCE_MS);
		expect(toolEnd.line.isError).toBe(true);
		expect(JSON.stringify(toolEnd.line.result)).not.toContain("slept");

		// The stop closed the question: pi's `/timebox 10m` returned, keeping the spent budget, with no answer given.
		const closed = await rpc.waitFor(
			(line) => line.type === "response" && line.id === replace,
			"the question to close",
			1_000,
		);
		console.log(`open question: closed ${closed.at - toolEnd.at} ms from the tool's stop`);
		await rpc.waitFor((line) => line.type === "agent_end", "the run to end");
		await sleep(500);
		expect(linesOf(stopFile)).toEqual(["ran"]);
		const errors = rpc.all((line) => isNotification(line, "error")).map((received) => received.line.message);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(SPENT);
		expect(rpc.all((line) => isNotification(line) && line.message === QUESTION_CLOSED)).toHaveLength(1);
		expect(activeBudgets(sessionFile)).toHaveLength(1);
		expect(rpc.all(isStatus).at(-1)?.line.statusText).toMatch(/^Timebox: budget spent/);

		// An answer that comes after the question was closed changes nothing.
		rpc.send({ type: "extension_ui_response", id: question.line.id, value: "Replace it" });
		await rpc.request({ type: "get_state" });
		await sleep(300);
		expect(activeBudgets(sessionFile)).toHaveLength(1);
		expect(rpc.all((line) => line.type === "extension_ui_request" && line.method === "select")).toHaveLength(1);
	});
});
