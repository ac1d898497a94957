// Guards a turn budget continued in a new pi process each turn (print mode with -c), on every pi version of
// pi-hosts.ts: a budget whose turns are all used is restored, and the next turn's start stops it, running the on-stop
// command once; the turn after that is answered, as the chat continues.

import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PI_HOSTS } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";
import { linesOf } from "./support/real-pi.ts";

describe.each(PI_HOSTS)("a turn budget continued across processes on $name", (host) => {
	let pi: PiProcess;
	beforeAll(() => host.ensure(), 300_000);
	afterEach(() => pi.dispose());

	it("restores a budget whose turns are all used, stops the next turn once, and answers the turn after", async () => {
		pi = new PiProcess(host);
		const fired = join(pi.root, "f");
		const first = await pi.print([], [`/timebox turns:2 -- echo fired >> '${fired}'`, "turn one"]);
		expect(notices(first, "info")[0]).toBe(`Timebox set: 2 turns. On stop it runs: echo fired >> '${fired}'`);
		expect(first.stdout.trim()).toBe("done");

		const second = await pi.print([], ["turn two"], ["-c"]);
		expect(notices(second, "info")).toEqual([
			`Timebox restored: no time limit | 1 turn left (1/2). On stop it runs: echo fired >> '${fired}'`,
		]);
		expect(second.stdout.trim()).toBe("done");

		const third = await pi.print([], ["turn three"], ["-c"]);
		expect(notices(third, "warning")).toEqual([]);
		expect(notices(third, "info")[0]).toBe(
			`Timebox restored: no time limit | 0 turns left (2/2). On stop it runs: echo fired >> '${fired}'`,
		);
		expect(notices(third, "error")).toEqual([
			expect.stringMatching(
				/^Timebox budget spent\. Used 2 turns, .*\. The agent stops for this turn\. The chat continues\./,
			),
		]);
		expect(third.stdout.trim()).not.toBe("done");
		// pi 0.73.1 still makes the aborted run's call; it ends at once, unanswered.
		const answered = pi.requests().filter((request) => !request.aborted);
		expect(answered.map((request) => request.messages.at(-1)?.text)).not.toContain("turn three");
		await expect.poll(() => linesOf(fired)).toEqual(["fired"]);

		const fourth = await pi.print([], ["turn four"], ["-c"]);
		expect(notices(fourth, "error")).toEqual([]);
		expect(fourth.stdout.trim()).toBe("done");
		expect(linesOf(fired)).toEqual(["fired"]);
	});
});
