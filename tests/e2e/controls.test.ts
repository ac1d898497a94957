// Guards the budget controls on real pi: an extension brings a spent budget back and it stops again, once; a paused
// budget stops nothing, counts nothing and keeps its time across a restart.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RealPi, SPENT, settledRuns, sleep, textAnswer } from "./support/real-pi.ts";

let host: RealPi;

beforeEach(() => {
	host = new RealPi();
});

afterEach(async () => {
	await host.dispose();
});

describe("budget controls on real pi", () => {
	it("brings a spent turn budget back with /timebox +turns:1, answers one more prompt and stops the next, once more", async () => {
		const probe = host.onStopProbe();
		const pi = await host.start();
		await pi.timebox(`turns:1 -- ${probe.command}`);
		host.faux.setResponses([textAnswer("one"), textAnswer("two"), textAnswer("three"), textAnswer("four")]);
		await pi.prompt("first");
		await pi.prompt("second");
		expect(pi.promptRun(2).assistant.at(-1)?.stopReason).toBe("aborted");
		expect(await settledRuns(probe)).toBe(1);

		await pi.timebox("+turns:1");
		expect(pi.screen.messages("info").at(-1)).toBe(
			"Timebox extended by 1 turn. Timebox: no time limit | 1 turn left (1/2)",
		);
		expect(pi.screen.status).toBe("Timebox: no time limit | 1 turn left (1/2)");
		await pi.prompt("third");
		expect(pi.promptRun(3).assistant.at(-1)?.stopReason).toBe("stop");
		await pi.prompt("fourth");
		expect(pi.promptRun(4).assistant.at(-1)?.stopReason).toBe("aborted");
		const stops = pi.screen.messages("error");
		expect(stops).toHaveLength(2);
		for (const stop of stops) expect(stop).toMatch(SPENT);
		expect(await settledRuns(probe)).toBe(2);
	});

	it("stops nothing while paused, counts no prompt, and keeps the time left across a restart", async () => {
		const pi = await host.start({ sessionManager: host.newSessionFile() });
		host.faux.setResponses([textAnswer("hello"), textAnswer("one"), textAnswer("two"), textAnswer("three")]);
		await pi.prompt("hello");
		await pi.timebox("2s turns:1");
		await pi.timebox("pause");
		expect(pi.screen.status).toMatch(/^Timebox: paused \| [12]s left \(2s budget\) \| 1 turn left \(0\/1\)$/);
		await sleep(2_500);
		await pi.prompt("one");
		await pi.prompt("two");
		expect(pi.screen.messages("error")).toEqual([]);
		expect(pi.promptRun(3).assistant.at(-1)?.stopReason).toBe("stop");
		const left = pi.screen.status;
		expect(left).toMatch(/^Timebox: paused \| [12]s left \(2s budget\) \| 1 turn left \(0\/1\)$/);

		const file = pi.sessionFile;
		await pi.close();
		const reopened = await host.start({ sessionManager: host.openSessionFile(file) });
		expect(reopened.screen.status).toBe(left);
		expect(reopened.screen.messages("info")).toEqual([`${left?.replace(/^Timebox:/, "Timebox restored:")}.`]);
		await reopened.timebox("resume");
		expect(reopened.screen.status).toMatch(/^Timebox: [12]s left \(2s budget\) \| 1 turn left \(0\/1\)$/);
		await sleep(2_500);
		expect(reopened.screen.messages("error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 2s, while the agent was idle\./),
		]);
	});
});
