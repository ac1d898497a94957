// The budget's basics on every pi version of pi-hosts.ts (the bundled 0.73.1 and 1.x), as processes in print mode: the
// time limit ends a running tool on time and runs the on-stop command once, and what the model is told of its budget
// reaches the model call. The SDK-session files (real-pi.ts) run these and much more on the bundled pi only.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PI_HOSTS } from "./support/pi-hosts.ts";
import { notices, PiProcess } from "./support/pi-process.ts";
import { linesOf } from "./support/real-pi.ts";

describe.each(PI_HOSTS)("the budget on $name", (host) => {
	let pi: PiProcess;
	beforeAll(() => host.ensure(), 300_000);
	afterEach(() => pi.dispose());

	it("ends a running tool when the time is up, and runs the on-stop command once", async () => {
		pi = new PiProcess(host);
		const started = join(pi.root, "started.txt");
		const late = join(pi.root, "late.txt");
		const stopped = join(pi.root, "stopped.txt");
		const result = await pi.print(
			[{ tool: "bash", args: { command: `date +%s%3N > '${started}'; sleep 8; echo late > '${late}'` } }],
			[`/timebox 3s -- date +%s%3N >> '${stopped}'`, "run the long job"],
		);
		expect(notices(result, "error")).toEqual([
			expect.stringMatching(/^Timebox budget spent\. Used 0 turns, 3s\. The agent stops for this turn\./),
		]);
		const stops = linesOf(stopped);
		expect(stops).toHaveLength(1);
		// The tool began after the budget was set, so an on-time stop comes less than 3 s after it began (and some slack
		// for a busy machine's timers and the start of the on-stop shell).
		expect(Number(stops[0]) - Number(linesOf(started)[0])).toBeLessThan(3_300);
		expect(existsSync(late)).toBe(false);
	});

	it("tells the model its budget in the model call itself", async () => {
		pi = new PiProcess(host);
		await pi.print([{ text: "done" }], ["/timebox 10m turns:3 aware", "first"]);
		const call = pi.requests()[0]?.messages ?? [];
		expect(call.at(-2)?.text).toBe("first");
		expect(call.at(-1)?.text).toMatch(/^Timebox: /);
	});
});
