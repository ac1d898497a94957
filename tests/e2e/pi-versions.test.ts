// The budget's basics on every pi version of pi-hosts.ts (the bundled 0.73.1 and 1.x), as processes in print mode: the
// time limit ends a running tool on time and runs the on-stop command once, a tokens: budget caps each request's answer
// against a fake of the Anthropic Messages API, the loop guard, and what the model is told of its budget reaches the
// model call. The SDK-session files (real-pi.ts) run these and much more on the bundled pi only.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeAnthropic } from "../../demo/fakes/anthropic.ts";
import { BYTES_PER_TOKEN } from "../../demo/fakes/as-allowed.ts";
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

	// The bundled pi runs it in process, in spend.test.ts.
	it.runIf(host.major >= 1)(
		"caps each request's max_tokens at what is left of tokens:60k, and never sends the call that cannot fit",
		async () => {
			pi = new PiProcess(host);
			const api = await FakeAnthropic.start();
			try {
				api.answerAsAllowed();
				api.respond = () => ({ tools: [{ name: "bash", input: { command: "echo step" } }] });
				const result = await pi.printWithApi(api.url, ["/timebox tokens:60k", "loop until told otherwise"]);
				const caps = api.requests.map((request) => request.body.max_tokens ?? 0);
				expect(caps[0]).toBe(32_000);
				expect(caps.length).toBeGreaterThan(1);
				for (const cap of caps.slice(1)) expect(cap).toBeLessThan(32_000);
				const used = api.requests.reduce(
					(sum, request) => sum + Math.ceil((request.bytes ?? 0) / BYTES_PER_TOKEN) + (request.body.max_tokens ?? 0),
					0,
				);
				expect(used).toBeLessThanOrEqual(60_000);
				expect(notices(result, "error")).toEqual([
					expect.stringContaining(
						`, ${used.toLocaleString("en-US")} of 60,000 tokens (too little left for the next model call). The agent stops`,
					),
				]);
			} finally {
				await api.close();
			}
		},
	);

	// The SDK's own test of it (steps.test.ts) runs on the bundled pi; here pi 1.x as a process.
	it.runIf(host.major >= 1)(
		"refuses the 3rd identical call of loop:3, stops the run at the 4th, counts A B A B, and starts afresh",
		async () => {
			pi = new PiProcess(host);
			const stopped = join(pi.root, "stopped.txt");
			const bash = (command: string) => ({ tool: "bash", args: { command } });
			const alternating = ["echo a", "echo b", "echo a", "echo b", "echo a", "echo b", "echo a"];
			const result = await pi.print(
				[
					...Array.from({ length: 4 }, () => bash("echo same")),
					...alternating.map(bash),
					bash("echo same"),
					bash("echo same"),
					{ text: "done" },
				],
				[`/timebox loop:3 -- touch '${stopped}'`, "run it until it passes", "alternate", "once more"],
			);
			const refused = (view: string) =>
				`Timebox: this is the 3rd identical bash call in this run (${view}); its result will not change. Change your approach or finish with what you have.`;
			expect(notices(result, "warning")).toEqual([
				"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
				"Timebox stopped a loop: bash (echo same) asked for 4 times in this run.",
				"Timebox refused a repeated call: bash (echo a), the 3rd identical one in this run.",
				"Timebox refused a repeated call: bash (echo b), the 3rd identical one in this run.",
				"Timebox stopped a loop: bash (echo a) asked for 4 times in this run.",
			]);
			// What the model read at each request it answered (a stopped run's next call, aborted before it was made, is
			// none): the 4th ask and the 7th end their runs, and the third prompt's calls run.
			const read = pi
				.requests()
				.filter((request) => request.aborted !== true)
				.map((request) => request.messages.at(-1)?.text);
			expect(read).toEqual([
				"run it until it passes",
				"same\n",
				"same\n",
				refused("echo same"),
				"alternate",
				"a\n",
				"b\n",
				"a\n",
				"b\n",
				refused("echo a"),
				refused("echo b"),
				"once more",
				"same\n",
				"same\n",
			]);
			expect(existsSync(stopped)).toBe(false);
			expect(result.code).toBe(0);
		},
	);

	it("tells the model its budget in the model call itself", async () => {
		pi = new PiProcess(host);
		await pi.print([{ text: "done" }], ["/timebox 10m turns:3 aware", "first"]);
		const call = pi.requests()[0]?.messages ?? [];
		expect(call.at(-2)?.text).toBe("first");
		expect(call.at(-1)?.text).toMatch(/^Timebox: /);
	});
});
