// Timebox in the real opencode, loaded from this checkout through the `plugin` list of a throwaway HOME, against a
// loopback fake of the chat completions API, in `opencode run`: the budget line answered without a request, the prompt
// limit across `opencode run -c`, the warning in the request, the step cap, the loop guard, a daily budget across
// sessions, the token cap, a bad budget line, and the packed package installed with `opencode plugin`. Nothing here
// measures time (the deadlines are in deadlines.test.ts): `npm run test:e2e` runs it in its side lane.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { BYTES_PER_TOKEN } from "../../../demo/fakes/as-allowed.ts";
import type { FakeChat } from "../../../demo/fakes/chat.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { opencodeWorld, runOpencode, sessionLogOf } from "./harness.ts";
import { OPENCODE, opencodeEnv, preinstallPluginPackage, REPO, writeOpencodeHome } from "./support.ts";

const world = opencodeWorld();
let api: FakeChat;
let root: string;
beforeEach(() => {
	({ api, root } = world);
});
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runOpencode(world, args, env);
const sessionLog = () => sessionLogOf(world);

describe("Timebox in opencode run", () => {
	it("answers `--command timebox` without a model request, and keeps the line out of later requests", async () => {
		const set = await run(["--command", "timebox", "15m", "turns:3"]);
		expect(set.stderr).toContain("[timebox] info: Timebox set: 15m and 3 turns.");
		expect(set.stderr).toContain("Timebox answered /timebox itself (see above), so nothing was sent to the model");
		expect(set.stderr).not.toContain("Unexpected server error");
		expect(api.requests).toEqual([]);
		expect(sessionLog()).toContainEqual(
			expect.objectContaining({
				kind: "active",
				budget: expect.objectContaining({ timeLimitMs: 900_000, turnLimit: 3 }),
			}),
		);
		api.reply({ text: "ANSWER" });
		const next = await run(["-c", "next"]);
		expect(next.stdout).toContain("ANSWER");
		expect(next.stderr).toMatch(
			/\[timebox\] info: Timebox restored: 14m \d+s left \(15m budget\) \| 3 turns left \(0\/3\)/,
		);
		expect(api.main.map((request) => request.text.includes("[timebox command]"))).toEqual([false]);
		const status = await run(["-c", "--command", "timebox", "status"]);
		expect(status.stderr).toMatch(/\[timebox\] info: Timebox: 1[45]m \d+s left .*2 turns left \(1\/3\)/);
		expect(api.main).toHaveLength(1);
	});

	it("refuses a bad budget line, naming the bad word, and changes nothing", async () => {
		const bad = await run(["--command", "timebox", "15x"]);
		expect(bad.stderr).toContain('[timebox] warning: Timebox: "15x" is not a budget word');
		expect(bad.stderr).toContain("Nothing changed.");
		expect(sessionLog().filter((line) => line.kind === "active")).toEqual([]);
		expect(api.requests).toEqual([]);
	});

	it("speaks opencode's words: its usage, its own daily setting, and a report that keeps tokens and cost", async () => {
		const bad = await run(["--command", "timebox", "15x"]);
		expect(bad.stderr).toContain("Usage: /timebox <budget> [-- <command>] | status | off");
		expect(bad.stderr).toContain("e.g. /timebox 15m turns:3");
		const today = await run(["--command", "timebox", "today"]);
		expect(today.stderr).toContain(
			'No daily budget is set. Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment opencode starts in, or the plugin option "daily".',
		);
		await run(["--command", "timebox", "10m"]);
		const report = await run(["-c", "--command", "timebox", "report"]);
		console.log(`opencode run, report: ${JSON.stringify(report.stderr)}`);
		// opencode measures both: its zeros are measured ones.
		expect(report.stderr).toMatch(/1\. 10m, set \d+s ago: used \d+s, 0 turns, 0 tokens, \$0\.00\. Still active\./);
		expect(report.stderr).not.toContain("not tracked");
		expect(api.requests).toEqual([]);
	});

	it("answers prompts 1 and 2 of TIMEBOX_DEFAULT=turns:2 across `run -c`, refuses the 3rd with no request, and extends from the stop", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		const first = await run(["first"], env);
		expect(first.stdout).toContain("ONE");
		expect(first.stderr).toContain("[timebox] info: Timebox set from TIMEBOX_DEFAULT: 2 turns.");
		const second = await run(["-c", "second"], env);
		expect(second.stdout).toContain("TWO");
		expect(second.stderr).toContain("Timebox restored: no time limit | 1 turn left (1/2).");
		const requests = api.requests.length;
		const third = await run(["-c", "third"], env);
		expect(third.stdout).not.toContain("THREE");
		expect(third.stderr).toContain("Error: Timebox budget spent. Used 2 turns");
		expect(third.code).toBe(1);
		expect(api.requests).toHaveLength(requests);
		// The refused prompt never reached the model: the log keeps the two that ran, as on every host.
		expect(sessionLog().filter((line) => line.kind === "prompt")).toHaveLength(2);
		// The chat goes on without a budget; an extension then counts from the stop, not from that prompt too.
		api.reply({ text: "FIVE" });
		// Answered with the reply the refused third never took.
		expect((await run(["-c", "fourth"], env)).stdout).toContain("THREE");
		const extended = await run(["-c", "--command", "timebox", "+turns:1"], env);
		expect(extended.stderr).toContain("Timebox extended by 1 turn. Timebox: no time limit | 1 turn left (2/3)");
		expect((await run(["-c", "fifth"], env)).stdout).toContain("FIVE");
	});

	it("puts the warning into the request of the last prompt of turns:5, and not into the first ones", async () => {
		const env = { TIMEBOX_DEFAULT: "turns:5 aware" };
		await run(["p1"], env);
		for (const prompt of ["p2", "p3", "p4", "p5"]) await run(["-c", prompt], env);
		const warned = api.main.map((request) => request.text.includes("IMPORTANT TIMEBOX WARNING"));
		expect(warned).toEqual([false, false, false, false, true]);
		// `aware` tells every call what is left; opencode's title request, made from the first prompt, hears nothing.
		expect(api.main[0]?.text).toContain("Timebox: 5 prompts left of 5 prompts.");
		const titles = api.requests.filter((request) => request.title);
		expect(titles).toHaveLength(1);
		expect(titles[0]?.text).not.toContain("Timebox");
	});

	it("caps a prompt at steps:2: the 3rd call is the wrap-up, a tool asked for then is refused, and the run ends", async () => {
		const ran = join(root, "ran.txt");
		api.reply({ bash: `echo 1 >> '${ran}'` }, { bash: `echo 2 >> '${ran}'` }, { bash: `echo 3 >> '${ran}'` });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: "steps:2" });
		expect(loop.stderr).toContain(
			"[timebox] warning: Timebox: this prompt used its 2 steps; the model was asked to finish.",
		);
		expect(readFileSync(ran, "utf8")).toBe("1\n2\n");
		expect(api.main.map((request) => request.text.includes("TIMEBOX: STEPS SPENT"))).toEqual([false, false, true]);
		api.reply({ text: "FRESH" });
		const next = await run(["-c", "next"], { TIMEBOX_DEFAULT: "steps:2" });
		expect(next.stdout).toContain("FRESH");
		expect(api.main).toHaveLength(4);
	});

	it("refuses the 3rd identical call of loop:3, stops the run at the 4th ask with no further request, starts afresh, and counts A B A B", async () => {
		const stopFile = join(root, "stopped.txt");
		const env = { TIMEBOX_DEFAULT: `loop:3 -- touch '${stopFile}'` };
		const warnings = (result: RunResult) =>
			result.stderr.split("\n").flatMap((line) => (line.startsWith("[timebox] warning: ") ? [line.slice(19)] : []));
		const refused = (view: string) =>
			`this is the 3rd identical bash call in this run (${view}); its result will not change`;
		// What the model read last in each request: the result of the tool it asked for before.
		const lastRead = () =>
			api.main.map((request) => {
				const content = request.body.messages.at(-1)?.content;
				return typeof content === "string" ? content : JSON.stringify(content);
			});
		api.reply(...Array.from({ length: 4 }, () => ({ bash: "echo same" })));
		const loop = await run(["run it until it passes"], env);
		expect(warnings(loop)).toEqual([
			"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
			"Timebox stopped a loop: bash (echo same) asked for 4 times in this run.",
		]);
		// The model read the refusal with its 4th request; the 4th ask ended the run: no 5th request.
		expect(api.main).toHaveLength(4);
		expect(lastRead().map((text) => text.includes(refused("echo same")))).toEqual([false, false, false, true]);
		// The next prompt starts the count again (the same call runs twice), and A B A B refuses each at its 3rd and
		// stops at the next ask; the budget stayed in force and ran no on-stop command.
		api.reply(
			...["echo same", "echo b", "echo same", "echo b", "echo same", "echo b", "echo same"].map((bash) => ({ bash })),
		);
		const alternating = await run(["-c", "alternate"], env);
		expect(warnings(alternating)).toEqual([
			"Timebox refused a repeated call: bash (echo same), the 3rd identical one in this run.",
			"Timebox refused a repeated call: bash (echo b), the 3rd identical one in this run.",
			"Timebox stopped a loop: bash (echo same) asked for 4 times in this run.",
		]);
		expect(api.main).toHaveLength(11);
		const second = lastRead().slice(4);
		expect(second.map((text) => text.includes(refused("echo same")))).toEqual([
			false,
			false,
			false,
			false,
			false,
			true,
			false,
		]);
		expect(second.map((text) => text.includes(refused("echo b")))).toEqual([
			false,
			false,
			false,
			false,
			false,
			false,
			true,
		]);
		expect(existsSync(stopFile)).toBe(false);
	});

	it("shares a daily budget of TIMEBOX_DAILY=turns:2 between two sessions, and refuses the 3rd prompt", async () => {
		const env = { TIMEBOX_DAILY: "turns:2" };
		api.reply({ text: "ONE" }, { text: "TWO" }, { text: "THREE" });
		expect((await run(["first"], env)).stdout).toContain("ONE");
		expect((await run(["second session"], env)).stdout).toContain("TWO");
		const requests = api.requests.length;
		const third = await run(["-c", "third"], env);
		expect(third.stderr).toContain("[timebox] error: Timebox: today's budget is spent (2 prompts).");
		expect(third.stdout).not.toContain("THREE");
		expect(api.requests).toHaveLength(requests);
	});

	it("caps each request's max_tokens at what is left of tokens:150k, and never sends the call that cannot fit", async () => {
		// The fake answers each request with as many tokens as it allows, and its input from the request's size.
		api.answerAsAllowed();
		api.respond = () => ({ bash: "echo step" });
		const loop = await run(["loop"], { TIMEBOX_DEFAULT: "tokens:150k" });
		const limits = api.main.map((request) => request.body.max_tokens as number);
		expect(limits[0]).toBe(32_000);
		expect(limits.length).toBeGreaterThan(1);
		expect(Math.min(...limits)).toBeLessThan(32_000);
		const used = api.main.reduce(
			(sum, request) =>
				sum + Math.ceil(Buffer.byteLength(request.text, "utf8") / BYTES_PER_TOKEN) + Number(request.body.max_tokens),
			0,
		);
		expect(used).toBeLessThanOrEqual(150_000);
		expect(loop.stderr).toContain(
			`, ${used.toLocaleString("en-US")} of 150,000 tokens (too little left for the next model call). The agent stops`,
		);
	});
});

describe("installing Timebox in opencode", () => {
	it("installs the packed npm package with `opencode plugin <folder>`, for the server and the TUI, and it loads", async () => {
		const packed = await runProcess("npm", ["pack", REPO, "--pack-destination", root, "--silent"], {
			timeoutMs: 60_000,
		});
		expect(packed.code).toBe(0);
		const unpacked = await runProcess("tar", ["xzf", join(root, packed.stdout.trim()), "-C", root]);
		expect(unpacked.code).toBe(0);
		const plain = join(root, "plain-home");
		writeOpencodeHome(plain, api.url, undefined, false);
		const env = opencodeEnv(plain);
		const work = join(root, "work");
		const added = await runProcess(OPENCODE, ["plugin", join(root, "package")], { cwd: work, env, timeoutMs: 60_000 });
		expect(added.code).toBe(0);
		for (const file of ["opencode.json", "tui.json"]) {
			const config = JSON.parse(readFileSync(join(work, ".opencode", file), "utf8")) as { plugin: unknown[] };
			expect(config.plugin).toEqual([join(root, "package")]);
		}
		preinstallPluginPackage(join(work, ".opencode"));
		const set = await runProcess(OPENCODE, ["run", "--command", "timebox", "15m"], {
			cwd: work,
			env,
			timeoutMs: 60_000,
		});
		expect(stripVTControlCharacters(set.stderr)).toContain("[timebox] info: Timebox set: 15m.");
		expect(api.requests).toEqual([]);
	});
});
