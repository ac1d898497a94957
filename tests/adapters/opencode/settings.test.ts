// Where opencode's settings and data live (TIMEBOX_DEFAULT, TIMEBOX_DAILY, TIMEBOX_SUBAGENTS, plugin options) and what
// a bad one says.

import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPENCODE_FOLDER, opencodeDataDir } from "../../../src/adapters/opencode/data-dir.ts";
import { COMMAND_DESCRIPTION } from "../../../src/adapters/opencode/plugin.ts";
import { defaultBudgetOf, settingsOf } from "../../../src/adapters/opencode/settings.ts";
import { DAILY_ENV, DEFAULT_ENV, SUBAGENTS_ENV } from "../../../src/core/index.ts";
import { createWorld, FakeOpencode, notesOf, removeWorld, type World } from "./fake-opencode.ts";

let world: World;

beforeEach(() => {
	world = createWorld();
});

afterEach(() => removeWorld(world));

const BAD_WORD = (source: string) =>
	`Timebox: ${source}: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. The session starts without a budget.`;

describe("Timebox's opencode data folder", () => {
	it("is a folder of its own under Timebox's state folder, which the daily ledger shares", () => {
		expect(OPENCODE_FOLDER).toBe("opencode");
		expect(opencodeDataDir({ XDG_STATE_HOME: "/state", HOME: "/home/me" })).toBe(join("/state", "timebox", "opencode"));
		expect(opencodeDataDir({ HOME: "/home/me" })).toBe(join("/home/me", ".local", "state", "timebox", "opencode"));
	});
});

describe("the default budget", () => {
	it("is TIMEBOX_DEFAULT, else the plugin option default, else none, with where it came from", () => {
		expect(DEFAULT_ENV).toBe("TIMEBOX_DEFAULT");
		expect(defaultBudgetOf({}, {})).toBeNull();
		expect(defaultBudgetOf({}, { default: "30m" })).toEqual({ text: "30m", source: 'the plugin option "default"' });
		expect(defaultBudgetOf({ TIMEBOX_DEFAULT: "turns:3" }, { default: "30m" })).toEqual({
			text: "turns:3",
			source: "TIMEBOX_DEFAULT",
		});
	});

	it("skips an empty value, and hands on one that is not text as text, so the user is told what is wrong", () => {
		expect(defaultBudgetOf({ TIMEBOX_DEFAULT: "  " }, { default: "30m" })).toEqual({
			text: "30m",
			source: 'the plugin option "default"',
		});
		expect(defaultBudgetOf({ TIMEBOX_DEFAULT: "" }, { default: null })).toBeNull();
		expect(defaultBudgetOf({}, { default: 30 })).toEqual({ text: "30", source: 'the plugin option "default"' });
		expect(defaultBudgetOf({}, { default: { time: "30m" } })).toEqual({
			text: '{"time":"30m"}',
			source: 'the plugin option "default"',
		});
	});
});

describe("the other settings", () => {
	it("are none when nothing sets them", () => {
		expect(settingsOf({}, {})).toEqual({ onLimit: null, awareness: null, grace: null, subagents: null, daily: [] });
	});

	it("are the plugin's options, each named by its option", () => {
		const options = { onLimit: "stop", awareness: "always", grace: "30s", subagents: { "*": "5m" }, daily: "2h" };
		expect(settingsOf({}, options)).toEqual({
			onLimit: { value: "stop", source: 'the plugin option "onLimit"' },
			awareness: { value: "always", source: 'the plugin option "awareness"' },
			grace: { value: "30s", source: 'the plugin option "grace"' },
			subagents: { value: { "*": "5m" }, source: 'the plugin option "subagents"' },
			daily: [{ value: "2h", source: 'the plugin option "daily"', scope: "user" }],
		});
	});

	it("take TIMEBOX_DAILY over the daily option, for the user's every session", () => {
		expect(DAILY_ENV).toBe("TIMEBOX_DAILY");
		expect(settingsOf({ TIMEBOX_DAILY: "turns:20" }, { daily: "2h" }).daily).toEqual([
			{ value: "turns:20", source: "TIMEBOX_DAILY", scope: "user" },
		]);
		expect(settingsOf({ TIMEBOX_DAILY: " " }, { daily: "2h" }).daily).toEqual([
			{ value: "2h", source: 'the plugin option "daily"', scope: "user" },
		]);
	});

	it("take TIMEBOX_SUBAGENTS over the subagents option, as TIMEBOX_DEFAULT wins over default", () => {
		expect(SUBAGENTS_ENV).toBe("TIMEBOX_SUBAGENTS");
		const options = { subagents: "2m" };
		expect(settingsOf({ TIMEBOX_SUBAGENTS: "5m steps:30" }, options).subagents).toEqual({
			value: "5m steps:30",
			source: "TIMEBOX_SUBAGENTS",
		});
		expect(settingsOf({ TIMEBOX_SUBAGENTS: "" }, options).subagents).toEqual({
			value: "2m",
			source: 'the plugin option "subagents"',
		});
	});
});

describe("a subagent budget in opencode", () => {
	it("comes from TIMEBOX_SUBAGENTS, and /timebox subagents shows it with its source", async () => {
		const opencode = await FakeOpencode.start(world, { env: { TIMEBOX_SUBAGENTS: "5m steps:30" } });
		await opencode.timebox("subagents");
		expect(COMMAND_DESCRIPTION).toContain("| subagents 5m steps:30");
		expect(opencode.last).toEqual({
			message: "Timebox: subagent budget (TIMEBOX_SUBAGENTS): every subagent: 5m and 30 model calls.",
			level: "info",
		});
	});

	it("comes from the plugin option by agent type", async () => {
		const opencode = await FakeOpencode.start(world, {
			options: { subagents: { "*": "5m steps:30", explore: "2m steps:15" } },
		});
		await opencode.timebox("subagents");
		expect(opencode.last).toEqual({
			message:
				'Timebox: subagent budget (the plugin option "subagents"): every subagent: 5m and 30 model calls; explore subagents: 2m and 15 model calls.',
			level: "info",
		});
	});

	it("names a bad value with its source, and no subagent gets a budget from it", async () => {
		const fromEnv = await FakeOpencode.start(world, { env: { TIMEBOX_SUBAGENTS: "5m turns:2" } });
		await fromEnv.prompt("one", { session: "ses_env" });
		await fromEnv.timebox("subagents", "ses_env");
		// Asked, the bad value is named again: no subagent gets a budget, and not because none was set.
		const turnsInIt = {
			message:
				'Timebox: TIMEBOX_SUBAGENTS: "5m turns:2" has a bad budget for "*" (turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>), so it is ignored.',
			level: "warning",
		};
		expect(fromEnv.shown).toEqual([turnsInIt, turnsInIt]);
		const fromOption = await FakeOpencode.start(world, { options: { subagents: { "*": "5m", general: 5 } } });
		await fromOption.prompt("one", { session: "ses_option" });
		await fromOption.timebox("subagents", "ses_option");
		expect(fromOption.shown).toEqual([
			{
				message:
					'Timebox: the plugin option "subagents": {"*":"5m","general":5} has a bad budget for "general" (it is not text), so it is ignored.',
				level: "warning",
			},
			{
				message:
					'Timebox: the plugin option "subagents": {"*":"5m","general":5} has a bad budget for "general" (it is not text), so it is ignored.',
				level: "warning",
			},
		]);
	});
});

describe("a default budget in opencode", () => {
	it("is set on a session's first prompt and named with its source", async () => {
		const opencode = await FakeOpencode.start(world, {
			env: { TIMEBOX_DEFAULT: "turns:1" },
			options: { default: "30m" },
		});
		await opencode.prompt("one");
		expect(opencode.shown).toEqual([{ message: "Timebox set from TIMEBOX_DEFAULT: 1 turn.", level: "info" }]);
		const second = await opencode.prompt("two");
		expect(second.calls[0]?.refusal).toBe(
			"Timebox budget spent. Used 1 turn, 0s. The agent stops for this turn. The chat continues.",
		);
	});

	it("comes from the plugin option when TIMEBOX_DEFAULT is not set", async () => {
		const opencode = await FakeOpencode.start(world, { options: { default: "30m" } });
		await opencode.prompt("one");
		expect(opencode.shown).toEqual([{ message: 'Timebox set from the plugin option "default": 30m.', level: "info" }]);
	});

	it("names a bad default as pi does, and starts without a budget", async () => {
		const fromEnv = await FakeOpencode.start(world, { interactive: true, env: { TIMEBOX_DEFAULT: "30x" } });
		await fromEnv.prompt("one", { session: "ses_env" });
		expect(fromEnv.shown).toEqual([{ message: BAD_WORD("TIMEBOX_DEFAULT"), level: "warning" }]);
		const fromOption = await FakeOpencode.start(world, { options: { default: "30x" } });
		const run = await fromOption.prompt("one", { session: "ses_option", calls: 3 });
		expect(fromOption.shown).toEqual([{ message: BAD_WORD('the plugin option "default"'), level: "warning" }]);
		expect(run.calls.map((call) => call.refusal)).toEqual([null, null, null]);
		await fromOption.timebox("status", "ses_option");
		expect(fromOption.last?.message).toMatch(/^No active timebox\./);
	});

	it("tells the model what is left at every call with the awareness option always", async () => {
		const opencode = await FakeOpencode.start(world, { options: { default: "10m", awareness: "always" } });
		const run = await opencode.prompt("one", { calls: 2 });
		expect(run.calls.map((call) => notesOf(call.sent))).toEqual([
			["Timebox: 10m 0s left of 10m."],
			["Timebox: 10m 0s left of 10m."],
		]);
	});

	it("names bad awareness and grace options and goes on without them", async () => {
		const opencode = await FakeOpencode.start(world, { options: { awareness: "loud", grace: "a while" } });
		await opencode.timebox("10m");
		expect(opencode.messages("warning")).toEqual([
			'Timebox: the plugin option "awareness": "loud" is neither "nudge" nor "always", so it is ignored.',
			'Timebox: the plugin option "grace": "a while" is not a grace period from 1s to 10m (such as "30s"), so it is ignored.',
		]);
		expect(opencode.last).toEqual({ message: "Timebox set: 10m.", level: "info" });
		expect(notesOf((await opencode.prompt("go")).calls[0]?.sent ?? [])).toEqual([]);
	});
});

describe("a daily budget in opencode", () => {
	const SPENT_TODAY = "Timebox: today's budget is spent (1 prompt). It resets at midnight.";

	it("refuses the prompt after today's last one, in any session, and again if opencode sends it again", async () => {
		const opencode = await FakeOpencode.start(world, { env: { TIMEBOX_DAILY: "turns:1" }, options: { daily: "2h" } });
		expect((await opencode.prompt("one", { calls: 2 })).calls.map((call) => call.refusal)).toEqual([null, null]);
		const refused = await opencode.prompt("two", { session: "ses_other" });
		expect(refused.calls.map((call) => call.refusal)).toEqual([SPENT_TODAY]);
		// The prompt was refused when it was sent: the title call of the session's first prompt sends nothing either.
		expect(refused.titleRefusal).toBe(SPENT_TODAY);
		expect(opencode.messages("error")).toEqual([SPENT_TODAY]);
		const conversation = opencode.conversation("ses_other");
		const again = await opencode.call(conversation, conversation.lastPrompt());
		expect(again.refusal).toBe(SPENT_TODAY);
		expect(opencode.messages("error")).toEqual([SPENT_TODAY]);
	});

	it("takes the plugin option daily when TIMEBOX_DAILY is not set, and names a bad one", async () => {
		const opencode = await FakeOpencode.start(world, { options: { daily: "turns:1" } });
		await opencode.prompt("one");
		expect((await opencode.prompt("two")).calls[0]?.refusal).toBe(SPENT_TODAY);
		const bad = await FakeOpencode.start(world, { env: { TIMEBOX_DAILY: "pause" } });
		await bad.prompt("three", { session: "ses_bad" });
		expect(bad.shown).toEqual([
			{
				message: 'Timebox: TIMEBOX_DAILY: "pause" is not a budget. No daily budget is enforced from it.',
				level: "warning",
			},
		]);
	});
});
