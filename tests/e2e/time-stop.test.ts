// Guards the time limit on real pi and real time: a long bash call is cut at the deadline, and an idle session stops.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RealPi, sleepUntil, waitFor } from "./support/real-pi.ts";

const SPENT = /^Timebox budget spent\. Used 0 turns, [23]s\. The agent stops for this turn\. The chat continues\.$/;

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

function linesOf(path: string): string[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.length > 0);
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/**
 * The 80% nudge fires on its own timer before the stop; it reads "critical" if that timer runs late past 95%, and a
 * timer late past the deadline folds it into the stop. Whatever the machine's load, it is this text, at most once.
 */
function expectAtMostTheNudge(warnings: string[], budget: string): void {
	const nudge = new RegExp(
		`^Timebox: 1s left of ${budget} — the model (?:is asked|will be told at its next call) to wrap up(?: now)?\\.$`,
	);
	expect(warnings.length).toBeLessThanOrEqual(1);
	for (const warning of warnings) expect(warning).toMatch(nudge);
}

describe("a time budget on real pi", () => {
	it("aborts a bash call that outlives the deadline within a second of it", async () => {
		const pidFile = join(host.root, "sleep.pid");
		const pi = await host.start();
		host.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("bash", { command: `echo $$ > "${pidFile}"; exec sleep 20` }), {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage(fauxText("slept well")),
		]);
		const setAt = Date.now();
		await pi.timebox("2s");
		expect(pi.screen.notifications).toEqual([{ message: "Timebox set: 2s.", level: "info" }]);

		await pi.prompt("run the long job");
		const elapsed = Date.now() - setAt;
		const stoppedAt = pi.screen.firstAt("error") ?? Number.NaN;
		console.log(
			`mid-bash stop: prompt resolved ${elapsed - 2_000} ms after the 2 s deadline; notification ${stoppedAt - setAt - 2_000} ms after it`,
		);
		expect(elapsed).toBeGreaterThanOrEqual(2_000);
		expect(elapsed - 2_000).toBeLessThan(1_000);

		const run = pi.promptRun(1);
		expect(run.toolResults).toHaveLength(1);
		expect(run.toolResults[0]?.isError).toBe(true);
		expect(run.toolResults[0]?.content).toEqual([{ type: "text", text: "Command aborted" }]);
		// pi asks the model once more after the aborted tool; that answer is cut before any of it streams.
		expect(run.assistant.map((message) => message.stopReason)).toEqual(["toolUse", "aborted"]);
		expect(run.assistant.at(-1)?.content).toEqual([]);

		expectAtMostTheNudge(pi.screen.messages("warning"), "2s");
		const errors = pi.screen.messages("error");
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(SPENT);
		expect(pi.screen.status).toBe("Timebox: budget spent");
		const sleeper = Number(readFileSync(pidFile, "utf8").trim());
		await waitFor(() => !isAlive(sleeper), "the aborted sleep to end", 2_000);
		// Nothing fires again once the budget is spent.
		await sleepUntil(setAt + 3_200);
		expect(pi.screen.messages("error")).toHaveLength(1);
	});

	it("stops an idle session at the deadline and runs the on-stop command exactly once", async () => {
		const stopped = join(host.root, "stopped.txt");
		const command = `echo ran >> "${stopped}"`;
		const pi = await host.start();
		const setAt = Date.now();
		await pi.timebox(`1s -- ${command}`);
		expect(pi.screen.notifications).toEqual([
			{ message: `Timebox set: 1s. On stop it runs: ${command}`, level: "info" },
		]);

		await waitFor(() => pi.screen.firstAt("error") !== undefined, "the hard-stop notification", 3_000);
		const stoppedAt = pi.screen.firstAt("error") ?? Number.NaN;
		console.log(`idle stop: notification ${stoppedAt - setAt - 1_000} ms after the 1 s deadline`);
		expect(stoppedAt - setAt).toBeGreaterThanOrEqual(1_000);
		expect(stoppedAt - setAt - 1_000).toBeLessThan(1_000);
		expectAtMostTheNudge(pi.screen.messages("warning"), "1s");
		expect(pi.screen.notifications.slice(1).filter((n) => n.level !== "warning")).toEqual([
			{
				message: "Timebox budget spent. Used 0 turns, 1s, while the agent was idle. The chat continues.",
				level: "error",
			},
			{ message: `Timebox ran the on-stop command: ${command}`, level: "info" },
		]);
		expect(pi.screen.status).toBe("Timebox: budget spent | on-stop command ran");

		await waitFor(() => existsSync(stopped), "the on-stop command's file", 3_000);
		await sleepUntil(stoppedAt + 1_500);
		expect(linesOf(stopped)).toEqual(["ran"]);
		expect(pi.screen.notifications.filter((n) => n.level !== "warning")).toHaveLength(3);
		expect(pi.session.messages).toEqual([]);
	});

	it("runs nothing for a session disposed without session_shutdown", async () => {
		const stopped = join(host.root, "disposed.txt");
		const pi = await host.start();
		const setAt = Date.now();
		await pi.timebox(`1s -- echo ran >> "${stopped}"`);
		pi.session.dispose();
		await sleepUntil(setAt + 2_000);
		expect(existsSync(stopped)).toBe(false);
		expect(pi.screen.messages("error")).toEqual([]);
	});
});
