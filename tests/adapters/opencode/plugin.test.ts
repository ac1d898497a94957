// The opencode plugin on a fake opencode: /timebox, prompts, the budget note, time stops, tools, subagents, disposal.

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "@opencode-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMMAND_TEMPLATE } from "../../../src/adapters/opencode/calls.ts";
import { COMMAND_DESCRIPTION } from "../../../src/adapters/opencode/plugin.ts";
import { statusFile } from "../../../src/adapters/opencode/ui.ts";
import {
	COMMAND_ANSWERED_REFUSAL as COMMAND_ANSWERED,
	COMMAND_DONE_REFUSAL as COMMAND_DONE,
	USAGE,
	WRAP_UP_PROMPT,
	WRAP_UP_REFUSAL,
} from "../../../src/core/index.ts";
import {
	createWorld,
	FakeOpencode,
	FREE,
	MAIN,
	notesOf,
	PRICED,
	type RunResult,
	removeWorld,
	textsOf,
	type World,
} from "./fake-opencode.ts";

const MINUTE = 60_000;
const SPENT = (used: string) =>
	`Timebox budget spent. Used ${used}. The agent stops for this turn. The chat continues.`;

let world: World;

beforeEach(() => {
	world = createWorld();
});

afterEach(() => removeWorld(world));

const tui = () => FakeOpencode.start(world, { interactive: true });
const run = () => FakeOpencode.start(world, { interactive: false });
const status = (session = MAIN) => {
	const file = statusFile(world.dataDir, session);
	return existsSync(file) ? readFileSync(file, "utf8") : undefined;
};

describe("/timebox in opencode's TUI", () => {
	it("is listed in opencode's / menu, beside the commands already there", async () => {
		const opencode = await tui();
		const config: Config = { command: { review: { template: "Review $ARGUMENTS" } } };
		await opencode.hook("config")(config);
		expect(config.command).toEqual({
			review: { template: "Review $ARGUMENTS" },
			timebox: { template: COMMAND_TEMPLATE, description: COMMAND_DESCRIPTION },
		});
		const empty: Config = {};
		await opencode.hook("config")(empty);
		expect(Object.keys(empty.command ?? {})).toEqual(["timebox"]);
	});

	it("answers in a toast and ends the line there, so nothing reaches the model, and shows the status", async () => {
		const opencode = await tui();
		const { commandError } = await opencode.timebox("15m turns:3");
		expect(commandError).toBe(COMMAND_DONE);
		expect(opencode.client.toasts).toEqual([
			{ title: "Timebox", message: "Timebox set: 15m and 3 turns.", variant: "info" },
		]);
		expect(opencode.stderr).toEqual([]);
		expect(status()).toBe("Timebox: 15m 0s left (15m budget) | 3 turns left (0/3)");
	});

	it("warns about bad budget words as pi does, and changes nothing", async () => {
		const opencode = await tui();
		await opencode.timebox("15x");
		expect(opencode.shown).toEqual([
			{
				message: `Timebox: "15x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. Nothing changed.\n${USAGE}`,
				level: "warning",
			},
		]);
		expect(status()).toBeUndefined();
		await opencode.timebox("10m");
		await opencode.timebox("turn:3");
		expect(opencode.last).toEqual({
			message: `Timebox: "turn:3" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. Nothing changed.\n${USAGE}`,
			level: "warning",
		});
		expect(status()).toBe("Timebox: 10m 0s left (10m budget) | no turn limit");
		await opencode.timebox("status");
		expect(opencode.last).toEqual({ message: "Timebox: 10m 0s left (10m budget) | no turn limit", level: "info" });
	});

	it("is ignored when another command runs, or when it is typed in a subagent's session", async () => {
		const opencode = await tui();
		const review = opencode.hook("command.execute.before")(
			{ command: "review", sessionID: MAIN, arguments: "15m" },
			{ parts: [] },
		);
		await expect(review).resolves.toBeUndefined();
		await opencode.subagent("ses_child");
		const { commandError } = await opencode.timebox("15m", "ses_child");
		expect(commandError).toBeNull();
		expect(opencode.client.toasts).toEqual([]);
	});
});

describe("/timebox in opencode run", () => {
	it("prints the answer on stderr and refuses the command's calls, the title call too, with a word on why", async () => {
		const opencode = await run();
		const { commandError, run: line, given } = await opencode.timebox('"4m -- notify-send done"');
		expect(commandError).toBeNull();
		expect(opencode.stderr).toEqual(["[timebox] info: Timebox set: 4m. On stop it runs: notify-send done"]);
		expect(textsOf(given)).toEqual(['user: [timebox command] "4m -- notify-send done"']);
		expect(line?.titleRefusal).toBe(COMMAND_ANSWERED);
		expect(line?.calls).toEqual([{ given, sent: [], refusal: COMMAND_ANSWERED, maxOutputTokens: 32_000 }]);
		expect(existsSync(join(world.dataDir, "status"))).toBe(false);
	});

	it("is kept out of every later call, with the error opencode stored as its answer", async () => {
		const opencode = await run();
		await opencode.timebox("turns:5");
		const first = await opencode.prompt("one", { calls: 2 });
		expect(first.calls.map((call) => textsOf(call.sent))).toEqual([["user: one"], ["user: one", "assistant: working"]]);
		await opencode.timebox("status");
		const second = await opencode.prompt("two");
		expect(textsOf(second.calls[0]?.given ?? [])).toEqual([
			"user: [timebox command] turns:5",
			"assistant: working",
			"user: one",
			"assistant: working",
			"assistant: working",
			"user: [timebox command] status",
			"assistant: working",
			"user: two",
		]);
		expect(textsOf(second.calls[0]?.sent ?? [])).toEqual([
			"user: one",
			"assistant: working",
			"assistant: working",
			"user: two",
		]);
		// The command lines never counted as prompts.
		expect(opencode.last?.message).toBe("Timebox: no time limit | 4 turns left (1/5)");
	});
});

describe("a turn budget", () => {
	it("lets two prompts run and refuses the third from chat.params with the stop text, without an abort", async () => {
		const opencode = await run();
		await opencode.timebox("turns:2 -- say done");
		expect((await opencode.prompt("one", { calls: 3 })).calls.map((call) => call.refusal)).toEqual([null, null, null]);
		expect((await opencode.prompt("two")).calls.map((call) => call.refusal)).toEqual([null]);
		const third = await opencode.prompt("three", { calls: 3 });
		expect(third.calls.map((call) => call.refusal)).toEqual([SPENT("2 turns, 0s")]);
		expect(third.toolsRun).toBe(0);
		expect(opencode.client.aborts).toEqual([]);
		expect(opencode.messages()).toEqual([
			"Timebox set: 2 turns. On stop it runs: say done",
			SPENT("2 turns, 0s"),
			"Timebox ran the on-stop command: say done",
		]);
		expect(world.runner.commands).toEqual(["say done"]);
		// After the stop the chat goes on: the next prompt runs.
		expect((await opencode.prompt("four")).calls.map((call) => call.refusal)).toEqual([null]);
	});

	it("counts the message opencode writes itself after a compaction as part of the latest prompt", async () => {
		const opencode = await run();
		await opencode.timebox("turns:1 10m aware");
		await opencode.prompt("one", { calls: 2 });
		world.time.advance(MINUTE);
		const goOn = await opencode.prompt("Continue if you have next steps", { byOpencode: true, calls: 2 });
		expect(goOn.calls.map((call) => call.refusal)).toEqual([null, null]);
		expect(goOn.calls[0]?.sent.at(-1)?.info.id).toBe("msg_timebox_note_1");
		// As on the prompt's own calls: the prompt running is one the budget still allows.
		expect(notesOf(goOn.calls[0]?.sent.slice(-1) ?? [])).toEqual([
			"Timebox: 9m 0s and 1 prompt left of 10m / 1 prompt.",
		]);
		const two = await opencode.prompt("two");
		// Refused when it was sent, with what the user is told: the one prompt of turns:1 is used.
		expect(two.calls.map((call) => call.refusal)).toEqual([SPENT("1 turn, 1m 0s")]);
		expect(opencode.messages("error")).toEqual([SPENT("1 turn, 1m 0s")]);
		// The session log names the prompts the user sent that ran, and nothing for the message opencode wrote, nor for
		// the prompt the budget refused: it never reached the model, and counts for nothing when the session is reloaded.
		const log = readFileSync(join(world.dataDir, "sessions", `${MAIN}.jsonl`), "utf8");
		const prompts = log.split("\n").filter((line) => line.includes('"kind":"prompt"'));
		expect(prompts.map((line) => (JSON.parse(line) as { promptId: unknown }).promptId)).toEqual([
			opencode.conversation().prompts[1],
		]);
		expect(two.prompt).not.toBe(opencode.conversation().prompts[1]);
	});

	it("shows the prompt as used once its final answer is complete, before opencode says the session is idle", async () => {
		const opencode = await tui();
		await opencode.timebox("turns:2");
		const during: (string | undefined)[] = [];
		await opencode.prompt("one", { calls: 3, idle: false, whileTools: () => void during.push(status()) });
		// While its tools run the prompt does not count against itself; its last answer (finish "stop") ends the run.
		expect(during).toEqual([
			"Timebox: no time limit | 2 turns left (0/2)",
			"Timebox: no time limit | 2 turns left (0/2)",
		]);
		expect(status()).toBe("Timebox: no time limit | 1 turn left (1/2)");
		await opencode.idle();
		expect(status()).toBe("Timebox: no time limit | 1 turn left (1/2)");
		expect(opencode.messages("warning")).toEqual([]);
	});

	it("never counts opencode's title call as a prompt", async () => {
		const opencode = await tui();
		await opencode.timebox("turns:1");
		const first = await opencode.prompt("one", { calls: 2 });
		expect(first.titleRefusal).toBeNull();
		expect(status()).toBe("Timebox: no time limit | 0 turns left (1/1)");
		await opencode.hook("chat.params")(
			opencode.paramsInput(MAIN, "title", opencode.conversation().lastPrompt(), FREE),
			opencode.paramsOutput(),
		);
		expect(status()).toBe("Timebox: no time limit | 0 turns left (1/1)");
		expect(opencode.messages("error")).toEqual([]);
	});
});

describe("the budget note", () => {
	it("is a message after the call's own from 80% of a time budget, never before, never stored", async () => {
		const opencode = await run();
		await opencode.timebox("10m");
		world.time.advance(8 * MINUTE - 1_000);
		const before = await opencode.prompt("at 79.8%", { calls: 2 });
		expect(before.calls.map((call) => notesOf(call.sent))).toEqual([[], []]);
		world.time.advance(1_000);
		expect(opencode.last).toEqual({
			message: "Timebox: 2m 0s left of 10m — the model will be told at its next call to wrap up.",
			level: "warning",
		});
		const at = await opencode.prompt("at 80%", { calls: 2 });
		const [first, second] = at.calls;
		if (!first || !second) throw new Error("the prompt made two calls");
		// The prompt's message is sent as opencode handed it over, with the note as one more message after it all.
		const given = first.given.find((message) => message.info.id === at.prompt);
		expect(first.sent.find((message) => message.info.id === at.prompt)).toBe(given);
		expect(given?.parts.map((part) => part.type === "text" && part.text)).toEqual(["at 80%"]);
		expect(first.sent.at(-1)?.info).toMatchObject({ role: "user", id: "msg_timebox_note_1", sessionID: MAIN });
		expect(first.sent.at(-1)?.parts).toEqual([
			{
				id: "prt_msg_timebox_note_1",
				sessionID: MAIN,
				messageID: "msg_timebox_note_1",
				type: "text",
				text: expect.stringContaining("IMPORTANT TIMEBOX WARNING"),
				synthetic: true,
			},
		]);
		expect(notesOf(first.sent)).toHaveLength(1);
		expect(notesOf(first.sent)[0]).toContain("Time left: 2m 0s of 10m.");
		expect(notesOf(second.sent)).toHaveLength(1);
		expect(second.sent.at(-1)?.info.id).toBe("msg_timebox_note_2");
		expect(notesOf(opencode.conversation().messages)).toEqual([]);
	});
});

describe("a time budget that runs out", () => {
	it("aborts the session while a tool runs, runs the on-stop command once, refuses what the run asks next", async () => {
		const opencode = await tui();
		await opencode.timebox("1m -- say done");
		const job = await opencode.prompt("long job", { calls: 3, whileTools: () => world.time.advance(MINUTE) });
		expect(opencode.client.aborts).toEqual([MAIN]);
		expect(job).toMatchObject({ aborted: true, toolsRun: 1, toolRefusals: [] });
		expect(job.calls).toHaveLength(1);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(opencode.shown).toEqual([
			{ message: "Timebox set: 1m. On stop it runs: say done", level: "info" },
			{ message: "Timebox: 12s left of 1m — the model is asked to wrap up.", level: "warning" },
			{ message: SPENT("0 turns, 1m 0s"), level: "error" },
			{ message: "Timebox ran the on-stop command: say done", level: "info" },
		]);
		// What the aborted run still asks for is refused, with the stop text the model reads.
		expect(await opencode.tool()).toBe(SPENT("0 turns, 1m 0s"));
		const conversation = opencode.conversation();
		expect((await opencode.call(conversation, conversation.lastPrompt())).refusal).toBe(SPENT("0 turns, 1m 0s"));
		world.time.advance(10 * MINUTE);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(status()).toBe("Timebox: budget spent | on-stop command ran");
	});

	it("refuses the tool that finds the time up before the deadline's timer fired, and ends the run", async () => {
		const opencode = await run();
		await opencode.timebox("1m");
		const conversation = opencode.conversation();
		const prompt = conversation.addUser("go");
		expect((await opencode.call(conversation, prompt.info)).refusal).toBeNull();
		// The laptop slept: the clock moved on and no timer fired.
		world.time.jump(MINUTE);
		expect(await opencode.tool()).toBe(SPENT("0 turns, 1m 0s"));
		expect(opencode.client.aborts).toEqual([MAIN]);
		expect(opencode.messages("error")).toEqual([SPENT("0 turns, 1m 0s")]);
	});

	it("lets the model wrap up in its grace period: a note on each call, tools refused, then the run is stopped", async () => {
		const opencode = await run();
		await opencode.timebox("1m grace:30s -- say done");
		const job = await opencode.prompt("job", {
			calls: 4,
			whileTools: (call) => {
				if (call === 1) world.time.advance(MINUTE);
			},
		});
		expect(job.calls.map((call) => [call.refusal, notesOf(call.sent)])).toEqual([
			[null, []],
			[null, [WRAP_UP_PROMPT]],
			[null, [WRAP_UP_PROMPT]],
		]);
		expect(job.toolRefusals).toEqual([WRAP_UP_REFUSAL, WRAP_UP_REFUSAL]);
		expect(opencode.client.aborts).toEqual([MAIN]);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(opencode.messages().slice(2)).toEqual([
			"Timebox budget spent. Used 0 turns, 1m 0s. The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.",
			"Timebox stopped the agent: the model asked for tools again.",
			"Timebox ran the on-stop command: say done",
		]);
	});

	it("ends the wrap-up at /timebox off typed during it: the on-stop command starts then, once, and the run goes on", async () => {
		const opencode = await run();
		await opencode.timebox("1m grace:30s -- say done");
		const job = await opencode.prompt("job", {
			calls: 3,
			whileTools: async (call) => {
				if (call === 1) world.time.advance(MINUTE);
				if (call === 2) await opencode.timebox("off");
			},
		});
		// Refused while the run wrapped up; after off, the run is no longer the budget's.
		expect(job.calls.map((call) => call.refusal)).toEqual([null, null, null]);
		expect(job.toolRefusals).toEqual([WRAP_UP_REFUSAL]);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(opencode.messages().slice(2)).toEqual([
			"Timebox budget spent. Used 0 turns, 1m 0s. The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.",
			"Timebox off.",
			"Timebox ran the on-stop command: say done",
		]);
		// A later start of the session finds the end claimed: nothing runs late.
		await opencode.prompt("again", { calls: 1 });
		expect(world.runner.commands).toEqual(["say done"]);
	});

	it("stops a prompt whose time ran out before its first call as a running one: the call is refused, no tool runs", async () => {
		const opencode = await run();
		await opencode.timebox("1m -- say done");
		const job = await opencode.prompt("job", { calls: 2, beforeCalls: () => world.time.advance(MINUTE) });
		expect(job.calls.map((call) => call.refusal)).toEqual([SPENT("0 turns, 1m 0s")]);
		expect(job.toolsRun).toBe(0);
		expect(opencode.messages().slice(1)).toEqual([
			"Timebox: 12s left of 1m — the model is asked to wrap up.",
			SPENT("0 turns, 1m 0s"),
			"Timebox ran the on-stop command: say done",
		]);
		expect(world.runner.commands).toEqual(["say done"]);
	});

	it("ends the run where opencode retries a call it refused, taking the refusal's words for a provider's trouble", async () => {
		const opencode = await run();
		await opencode.timebox("1m");
		const job = await opencode.prompt("job", { calls: 2, beforeCalls: () => world.time.advance(MINUTE) });
		const refusal = SPENT("0 turns, 1m 0s");
		expect(job.calls.map((call) => call.refusal)).toEqual([refusal]);
		const retry = (message: string) =>
			opencode.event({
				type: "session.status",
				properties: { sessionID: MAIN, status: { type: "retry", attempt: 1, message, next: 0 } },
			});
		// The stop ended the run once; a provider's own trouble, or another session's, is opencode's to retry.
		const stopped = [...opencode.client.aborts];
		await retry("Provider is overloaded");
		await opencode.event({
			type: "session.status",
			properties: { sessionID: "ses_other", status: { type: "retry", attempt: 1, message: refusal, next: 0 } },
		});
		expect(opencode.client.aborts).toEqual(stopped);
		await retry(refusal);
		expect(opencode.client.aborts).toEqual([...stopped, MAIN]);
		// A server gone meanwhile refuses the abort: nothing breaks.
		opencode.client.failAborts = true;
		await retry(refusal);
		expect(opencode.client.aborts).toEqual([...stopped, MAIN, MAIN]);
	});

	it("lets a prompt whose time ran out before its first call wrap up in its grace period", async () => {
		const opencode = await run();
		await opencode.timebox("1m grace:30s");
		const job = await opencode.prompt("job", { calls: 3, beforeCalls: () => world.time.advance(MINUTE) });
		expect(job.calls.map((call) => [call.refusal, notesOf(call.sent)])).toEqual([
			[null, [WRAP_UP_PROMPT]],
			[null, [WRAP_UP_PROMPT]],
		]);
		expect(job.toolsRun).toBe(0);
		expect(job.toolRefusals).toEqual([WRAP_UP_REFUSAL, WRAP_UP_REFUSAL]);
		expect(opencode.messages().slice(2, 4)).toEqual([
			"Timebox budget spent. Used 0 turns, 1m 0s. The agent is wrapping up: its tools are refused, and it has 30s to write its final answer. The chat continues.",
			"Timebox stopped the agent: the model asked for tools again.",
		]);
	});

	it("leaves a prompt queued while the last allowed one runs to its first call: the running prompt's tools go on", async () => {
		const opencode = await tui();
		await opencode.timebox("turns:1");
		const conversation = opencode.conversation();
		const send = async (text: string) => {
			const message = conversation.addUser(text);
			await opencode.hook("chat.message")(
				{ sessionID: conversation.id, agent: "build", messageID: message.info.id },
				{ message: message.info, parts: message.parts },
			);
			return message;
		};
		const one = await send("one");
		expect((await opencode.call(conversation, one.info)).refusal).toBeNull();
		// Prompt two is queued while one's call asks for its tools: they run, and nothing is aborted or said.
		const two = await send("two");
		expect([await opencode.tool(), await opencode.tool()]).toEqual([null, null]);
		expect(opencode.client.aborts).toEqual([]);
		expect(opencode.messages("error")).toEqual([]);
		// The queued prompt is the second of turns:1: refused at its first call.
		expect((await opencode.call(conversation, two.info)).refusal).toBe(SPENT("1 turn, 0s"));
		expect(opencode.messages("error")).toEqual([SPENT("1 turn, 0s")]);
	});

	it("survives a client whose abort fails", async () => {
		const opencode = await run();
		opencode.client.failAborts = true;
		await opencode.timebox("1m");
		const job = await opencode.prompt("long job", { calls: 2, whileTools: () => world.time.advance(MINUTE) });
		expect(job.aborted).toBe(true);
		await Promise.resolve();
		expect(opencode.messages("error")).toEqual([SPENT("0 turns, 1m 0s")]);
	});
});

describe("a session that ends", () => {
	it("stops its timers when opencode disposes of the plugin: a later deadline does nothing", async () => {
		const opencode = await tui();
		await opencode.timebox("1m -- say done");
		const conversation = opencode.conversation();
		const prompt = conversation.addUser("go");
		expect((await opencode.call(conversation, prompt.info)).refusal).toBeNull();
		expect(world.time.activeTimeouts + world.time.activeIntervals).toBeGreaterThan(0);
		await opencode.dispose();
		expect(world.time.activeTimeouts + world.time.activeIntervals).toBe(0);
		expect(status()).toBeUndefined();
		const shown = opencode.shown.length;
		world.time.advance(5 * MINUTE);
		expect(opencode.client.aborts).toEqual([]);
		expect(world.runner.commands).toEqual([]);
		expect(opencode.shown).toHaveLength(shown);
	});

	it("opens a session the reopened TUI shows: its status, its deadline while idle, its on-stop command once", async () => {
		const first = await tui();
		await first.timebox("10m -- say done");
		await first.prompt("one");
		world.time.advance(MINUTE);
		await first.dispose();
		let show: (sessionId: string) => void = () => {};
		let watching = 0;
		const sessionsShown = (shown: (sessionId: string) => void) => {
			show = shown;
			watching++;
			return () => void watching--;
		};
		const reopened = await FakeOpencode.start(world, {
			interactive: true,
			sessionsShown,
			env: { TIMEBOX_DEFAULT: "5m" },
		});
		expect(watching).toBe(1);
		// Shown a session of no log of Timebox's (a new one, a subagent's of an earlier process): nothing to load.
		show("ses_new");
		expect(reopened.shown).toEqual([]);
		expect(status("ses_new")).toBeUndefined();
		world.time.advance(MINUTE);
		show(MAIN);
		show(MAIN);
		expect(reopened.messages()).toEqual([
			"Timebox restored: 8m 0s left (10m budget) | no turn limit. On stop it runs: say done",
		]);
		expect(status()).toBe("Timebox: 8m 0s left (10m budget) | no turn limit");
		world.time.advance(8 * MINUTE);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(reopened.messages("error")).toEqual([
			"Timebox budget spent. Used 1 turn, 10m 0s, while the agent was idle. The chat continues.",
		]);
		await reopened.dispose();
		expect(watching).toBe(0);
		// In `opencode run` no TUI shows anything.
		await FakeOpencode.start(world, { interactive: false, sessionsShown });
		expect(watching).toBe(0);
	});

	it("stops a time budget that ran out while the TUI was closed as the reopened TUI shows its session", async () => {
		const first = await tui();
		await first.timebox("10m -- say done");
		await first.dispose();
		let show: (sessionId: string) => void = () => {};
		const reopened = await FakeOpencode.start(world, {
			interactive: true,
			sessionsShown: (shown) => {
				show = shown;
				return () => {};
			},
		});
		world.time.advance(20 * MINUTE);
		expect(world.runner.commands).toEqual([]);
		show(MAIN);
		world.time.advance(1_000);
		expect(world.runner.commands).toEqual(["say done"]);
		expect(reopened.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 20m 0s, while the agent was idle. The chat continues.",
		]);
	});

	it("stops only that session's timers when opencode deletes it", async () => {
		const opencode = await tui();
		await opencode.timebox("1m -- say one", "ses_one");
		await opencode.timebox("2m -- say two", "ses_two");
		await opencode.deleted("ses_one");
		await opencode.deleted("ses_unknown");
		expect(status("ses_one")).toBeUndefined();
		world.time.advance(2 * MINUTE);
		expect(world.runner.commands).toEqual(["say two"]);
		expect(opencode.messages("error")).toEqual([
			"Timebox budget spent. Used 0 turns, 2m 0s, while the agent was idle. The chat continues.",
		]);
	});
});

describe("subagents", () => {
	it("are left to the parent's budget: their prompts and tools count nothing, and nothing of theirs is kept", async () => {
		const opencode = await tui();
		await opencode.timebox("turns:1");
		let child: RunResult | undefined;
		// The parent's `task` tool runs the subagent in a child session.
		const parent = await opencode.prompt("delegate", {
			calls: 2,
			whileTools: async () => {
				await opencode.subagent("ses_child");
				child = await opencode.prompt("explore the code", {
					session: "ses_child",
					calls: 3,
					usage: () => ({ input: 5_000, output: 500 }),
				});
			},
		});
		expect(parent.calls.map((call) => call.refusal)).toEqual([null, null]);
		expect(child).toMatchObject({ toolsRun: 2, toolRefusals: [], aborted: false });
		expect(child?.calls.map((call) => call.refusal)).toEqual([null, null, null]);
		expect(status()).toBe("Timebox: no time limit | 0 turns left (1/1)");
		expect(status("ses_child")).toBeUndefined();
		expect(existsSync(join(world.dataDir, "sessions", "ses_child.jsonl"))).toBe(false);
		expect(opencode.messages("error")).toEqual([]);
	});

	it("are stopped with the run that started them, and their tools are refused once its budget is spent", async () => {
		const opencode = await tui();
		await opencode.timebox("1m");
		let child: RunResult | undefined;
		await opencode.prompt("delegate", {
			calls: 2,
			whileTools: async () => {
				await opencode.subagent("ses_child");
				await opencode.subagent("ses_grandchild", "ses_child");
				await opencode.subagent("ses_other_child", "ses_elsewhere");
				child = await opencode.prompt("explore", {
					session: "ses_grandchild",
					calls: 3,
					whileTools: (call) => {
						if (call === 1) world.time.advance(MINUTE);
					},
				});
			},
		});
		expect(opencode.client.aborts).toEqual([MAIN, "ses_child", "ses_grandchild"]);
		expect(child?.aborted).toBe(true);
		// A subagent that goes on anyway (one the task tool runs in the background) runs no tool.
		expect(await opencode.tool("ses_grandchild")).toBe(SPENT("0 turns, 1m 0s"));
	});

	it("get no default budget, while a new session that is no subagent does", async () => {
		const opencode = await FakeOpencode.start(world, { env: { TIMEBOX_DEFAULT: "turns:1" } });
		await opencode.subagent("ses_child");
		await opencode.hook("experimental.session.compacting")({ sessionID: "ses_child" }, { context: [] });
		await opencode.prompt("explore", { session: "ses_child", calls: 2, usage: () => ({ input: 0, output: 0 }) });
		// What the subagent used counts in the session that started it, which gets its default there; the child gets none.
		expect(opencode.stderr).toEqual(["[timebox] info: Timebox set from TIMEBOX_DEFAULT: 1 turn."]);
		expect(existsSync(join(world.dataDir, "sessions", "ses_child.jsonl"))).toBe(false);
		await opencode.created("ses_new");
		await opencode.prompt("hello", { session: "ses_new" });
		expect(opencode.stderr).toEqual([
			"[timebox] info: Timebox set from TIMEBOX_DEFAULT: 1 turn.",
			"[timebox] info: Timebox set from TIMEBOX_DEFAULT: 1 turn.",
		]);
	});

	it("count what they use in the budget of the session that started them, however deep", async () => {
		const opencode = await tui();
		await opencode.timebox("tokens:10k");
		await opencode.subagent("ses_child");
		await opencode.subagent("ses_grandchild", "ses_child");
		await opencode.prompt("explore", {
			session: "ses_grandchild",
			calls: 1,
			usage: () => ({ input: 5_000, output: 500 }),
		});
		expect(status()).toBe("Timebox: no time limit | no turn limit | 5.5k of 10k tokens");
	});
});

describe("what opencode does on its own", () => {
	it("summarising a session (compaction) is neither a prompt nor a step, and its call reads no note", async () => {
		const opencode = await run();
		await opencode.timebox("turns:2 steps:3 aware");
		await opencode.prompt("one", { calls: 2 });
		const conversation = opencode.conversation();
		await opencode.hook("experimental.session.compacting")({ sessionID: MAIN }, { context: [] });
		const summary = await opencode.call(conversation, conversation.lastPrompt());
		expect(summary.refusal).toBeNull();
		expect(notesOf(summary.sent)).toEqual([]);
		const two = await opencode.prompt("two", { calls: 3 });
		expect(two.calls.map((call) => call.refusal)).toEqual([null, null, null]);
		expect(notesOf(two.calls[0]?.sent ?? [])).toEqual(["Timebox: 1 prompt left of 2 prompts."]);
		expect(opencode.messages("warning")).toEqual([]);
	});

	it("a prompt opencode sends again under a new id (after a compaction for size) counts once", async () => {
		const opencode = await run();
		await opencode.timebox("turns:2");
		await opencode.prompt("one");
		const conversation = opencode.conversation();
		const resent = conversation.addUser("one");
		expect((await opencode.call(conversation, resent.info)).refusal).toBeNull();
		await opencode.idle();
		await opencode.timebox("status");
		expect(opencode.last?.message).toBe("Timebox: no time limit | 1 turn left (1/2)");
	});

	it("a session log that cannot be written is told once, and the budget is enforced all the same", async () => {
		const opencode = await run();
		await opencode.timebox("turns:1");
		rmSync(join(world.dataDir, "sessions"), { recursive: true });
		writeFileSync(join(world.dataDir, "sessions"), "not a folder");
		const one = await opencode.prompt("one", { calls: 2, usage: () => ({ input: 10, output: 5 }) });
		expect(one.calls.map((call) => call.refusal)).toEqual([null, null]);
		expect(opencode.messages("error")).toHaveLength(1);
		expect(opencode.messages("error")[0]).toMatch(/^Timebox hit an internal error \(session log\)/);
		expect((await opencode.prompt("two")).calls.map((call) => call.refusal)).toEqual([SPENT("1 turn, 0s")]);
	});
});

describe("opencode's other events", () => {
	it("leave the budget alone: other event types, a prompt's update, an idle session never seen", async () => {
		const opencode = await run();
		await opencode.event({ type: "session.idle", properties: { sessionID: "ses_never_seen" } });
		await opencode.event({ type: "file.edited", properties: { file: "a.ts" } });
		const conversation = opencode.conversation();
		const prompt = conversation.addUser("hello");
		await opencode.event({ type: "message.updated", properties: { info: prompt.info } });
		await opencode.hook("experimental.chat.messages.transform")({}, { messages: [] });
		expect(existsSync(join(world.dataDir, "sessions"))).toBe(false);
		expect(opencode.stderr).toEqual([]);
	});

	it("take the model's prices from the agent's calls, not from the title call's small model", async () => {
		const opencode = await run();
		await opencode.prompt("one", { session: "ses_free", model: FREE, titleModel: PRICED });
		await opencode.timebox("cost:2", "ses_free");
		await opencode.prompt("one", { session: "ses_priced", model: PRICED, titleModel: FREE });
		await opencode.timebox("cost:2", "ses_priced");
		expect(opencode.messages()).toEqual([
			"Timebox set: $2.00.\nTimebox: this model reports no cost: the cost limit cannot be enforced.",
			"Timebox set: $2.00.",
		]);
	});
});
