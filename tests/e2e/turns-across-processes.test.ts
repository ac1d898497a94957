// Guards a turn budget continued in a new pi process each turn (print mode with -c), on every pi version of
// pi-hosts.ts: a budget whose turns are all used is restored, and the next turn's start stops it, running the on-stop
// command once; the turn after that is answered, as the chat continues. Each process after the first starts Timebox from
// the V8 code cache the first one left under pi's agent directory, and writes nothing there.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CODE_CACHE_FOLDER } from "../../src/core/index.ts";
import { PI_HOSTS } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";
import { linesOf } from "./support/real-pi.ts";

/** The code cache's files under the agent directory of `pi`, each with its bytes and the time it was written. */
function codeCache(pi: PiProcess): { name: string; bytes: Buffer; written: number }[] {
	const folder = join(pi.home, ".pi/agent", CODE_CACHE_FOLDER);
	return readdirSync(folder).map((name) => ({
		name,
		bytes: readFileSync(join(folder, name)),
		written: statSync(join(folder, name)).mtimeMs,
	}));
}

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
		const cache = codeCache(pi);
		expect(cache.map((file) => file.name)).toEqual([
			expect.stringMatching(/^timebox-pi\.cjs-[0-9a-f]{16}-v[\d.]+-\w+\.v8-cache$/),
		]);

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
		// Three more processes read the cache (V8 refused none of it: a refused cache is written again).
		expect(codeCache(pi)).toEqual(cache);
	});
});
