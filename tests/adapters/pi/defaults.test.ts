// Where a default budget for new pi sessions comes from, and in which order: --timebox, PI_TIMEBOX, TIMEBOX_DEFAULT, the
// project's .pi/settings.json, the user's settings.json; the subagent budget: TIMEBOX_SUBAGENTS, then the same two
// files; the user's daily budget: TIMEBOX_DAILY, then the user's file (oh-my-pi's config.yml, in YAML). A team set up with the environment alone (as on
// every other host) once left pi neither held nor counted.
// Guards a setting read from the wrong place or in the wrong order, and a bad one not named with its source.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { readDefaultBudget, readSettings, readTeamSettings } from "../../../src/adapters/pi/defaults.ts";
import { NO_SUBAGENT_BUDGET } from "../../../src/core/subagents/messages.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

let root: string;
let project: string;
let globalSettings: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-defaults-"));
	project = join(root, "project");
	mkdirSync(join(project, ".pi"), { recursive: true });
	globalSettings = join(root, "agent", "settings.json");
	mkdirSync(join(root, "agent"), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function settings(file: string, value: unknown): void {
	writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
}

const projectFile = () => join(project, ".pi", "settings.json");

describe("the default budget's source", () => {
	it("is none when nothing sets one", () => {
		expect(readDefaultBudget({ flag: undefined, env: {}, cwd: project, globalSettings })).toBeNull();
	});

	it("takes the flag first, then PI_TIMEBOX, then TIMEBOX_DEFAULT, then the project's settings, then the user's", () => {
		settings(globalSettings, { theme: "dark", timebox: { default: "45m" } });
		const read = (flag: unknown, env: NodeJS.ProcessEnv) =>
			readDefaultBudget({ flag, env, cwd: project, globalSettings });
		expect(read(undefined, {})).toEqual({ text: "45m", source: `timebox.default in ${globalSettings}` });
		settings(projectFile(), { timebox: { default: "turns:7" } });
		expect(read(undefined, {})).toEqual({ text: "turns:7", source: `timebox.default in ${projectFile()}` });
		expect(read(undefined, { TIMEBOX_DEFAULT: "10m" })).toEqual({ text: "10m", source: "TIMEBOX_DEFAULT" });
		expect(read(undefined, { TIMEBOX_DEFAULT: " " })).toEqual({
			text: "turns:7",
			source: `timebox.default in ${projectFile()}`,
		});
		expect(read(undefined, { PI_TIMEBOX: "20m", TIMEBOX_DEFAULT: "10m" })).toEqual({
			text: "20m",
			source: "PI_TIMEBOX",
		});
		expect(read("30m turns:10", { PI_TIMEBOX: "20m" })).toEqual({ text: "30m turns:10", source: "--timebox" });
	});

	it("skips empty values, settings it cannot read and settings without the key", () => {
		settings(projectFile(), "{ not json");
		settings(globalSettings, { timebox: { onLimit: "stop" } });
		expect(readDefaultBudget({ flag: "  ", env: { PI_TIMEBOX: "" }, cwd: project, globalSettings })).toBeNull();
		settings(globalSettings, { timebox: "30m" });
		expect(readDefaultBudget({ flag: true, env: {}, cwd: project, globalSettings })).toBeNull();
		settings(globalSettings, "null");
		expect(readDefaultBudget({ flag: undefined, env: {}, cwd: project, globalSettings })).toBeNull();
	});

	it("hands on a default that is not text as text, so the user is told what is wrong with it", () => {
		settings(projectFile(), { timebox: { default: 30 } });
		expect(readDefaultBudget({ flag: undefined, env: {}, cwd: project, globalSettings })).toEqual({
			text: "30",
			source: `timebox.default in ${projectFile()}`,
		});
	});
});

describe("a default budget on the fake pi", () => {
	it("sets the flag's budget on a new session and says where it came from", async () => {
		const pi = new FakePi();
		pi.flag = "30m turns:10";
		await pi.start();
		expect(pi.screen.notifications).toEqual([
			{ message: "Timebox set from --timebox: 30m and 10 turns.", level: "info" },
		]);
		expect(pi.screen.status).toBe("Timebox: 30m 0s left (30m budget) | 10 turns left (0/10)");
		expect(pi.file.custom("timebox-active")).toHaveLength(1);
	});

	it("never replaces a budget the session already had, running, spent or turned off", async () => {
		const file = new FakeSessionFile();
		const first = await new FakePi({ file }).start();
		await first.timebox("turns:2");
		await first.timebox("off");
		const reopened = new FakePi({ file });
		reopened.env = { PI_TIMEBOX: "5m" };
		await reopened.start();
		expect(reopened.screen.notifications).toEqual([]);
		expect(reopened.screen.status).toBeUndefined();
	});

	it("names a bad default and where it came from, and starts without a budget", async () => {
		const pi = new FakePi();
		pi.env = { PI_TIMEBOX: "30x" };
		await pi.start();
		expect(pi.screen.notifications).toEqual([
			{
				message:
					'Timebox: PI_TIMEBOX: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, loop:3, aware or grace:30s. The session starts without a budget.',
				level: "warning",
			},
		]);
		pi.env = { PI_TIMEBOX: "pause" };
		await pi.replaceSession("new", new FakeSessionFile());
		expect(pi.screen.last).toEqual({
			message: 'Timebox: PI_TIMEBOX: "pause" is not a budget. The session starts without a budget.',
			level: "warning",
		});
		expect(pi.screen.status).toBeUndefined();
	});
});

describe("the subagent budget's source", () => {
	const read = (env: NodeJS.ProcessEnv = {}) => readSettings({ env, cwd: project, globalSettings }).subagents;

	it("is none when nothing sets one", () => {
		expect(read()).toBeNull();
		expect(read({ TIMEBOX_SUBAGENTS: " " })).toBeNull();
	});

	it("takes TIMEBOX_SUBAGENTS first, as PI_TIMEBOX comes before the files, then the project's settings, then the user's", () => {
		settings(globalSettings, { timebox: { subagents: { "*": "5m", Explore: "2m" } } });
		expect(read()).toEqual({ value: { "*": "5m", Explore: "2m" }, source: `timebox.subagents in ${globalSettings}` });
		settings(projectFile(), { timebox: { subagents: "steps:20" } });
		expect(read()).toEqual({ value: "steps:20", source: `timebox.subagents in ${projectFile()}` });
		expect(read({ TIMEBOX_SUBAGENTS: "5m steps:30" })).toEqual({ value: "5m steps:30", source: "TIMEBOX_SUBAGENTS" });
	});
});

describe("a subagent budget on the fake pi", () => {
	it("comes from TIMEBOX_SUBAGENTS, and /timebox subagents shows it with its source", async () => {
		const pi = new FakePi();
		pi.env = { TIMEBOX_SUBAGENTS: "5m steps:30" };
		await pi.start();
		expect(pi.screen.notifications).toEqual([]);
		await pi.timebox("subagents");
		expect(pi.screen.last).toEqual({
			message: "Timebox: subagent budget (TIMEBOX_SUBAGENTS): every subagent: 5m and 30 model calls.",
			level: "info",
		});
	});

	it("comes from the settings by agent type, and the command set in the session wins over it", async () => {
		const pi = new FakePi();
		pi.cwd = project;
		pi.globalSettings = globalSettings;
		settings(projectFile(), { timebox: { subagents: { "*": "5m steps:30", Explore: "2m steps:15" } } });
		await pi.start();
		await pi.timebox("subagents");
		expect(pi.screen.last?.message).toBe(
			`Timebox: subagent budget (timebox.subagents in ${projectFile()}): every subagent: 5m and 30 model calls; Explore subagents: 2m and 15 model calls.`,
		);
		await pi.timebox("subagents 1m");
		await pi.replaceSession("reload");
		await pi.timebox("subagents");
		expect(pi.screen.last?.message).toBe("Timebox: subagent budget (/timebox subagents): every subagent: 1m.");
	});

	it("names a bad value with its source, and no subagent gets a budget from it", async () => {
		const pi = new FakePi();
		pi.env = { TIMEBOX_SUBAGENTS: "5m turns:2" };
		await pi.start();
		expect(pi.screen.notifications).toEqual([
			{
				message:
					'Timebox: TIMEBOX_SUBAGENTS: "5m turns:2" has a bad budget for "*" (turns: counts the prompts you send, and a subagent is sent one task: give it a time, steps:<n> (its model calls), tokens:<n>, cost:<dollars> or loop:<n>), so it is ignored.',
				level: "warning",
			},
		]);
		// Asked, it says again why no subagent gets a budget, not that none was set; off then leaves none.
		await pi.timebox("subagents");
		expect(pi.screen.last).toEqual(pi.screen.notifications[0]);
		await pi.timebox("subagents off");
		await pi.timebox("subagents");
		expect(pi.screen.last).toEqual({ message: NO_SUBAGENT_BUDGET, level: "info" });
		const fromFile = new FakePi();
		fromFile.globalSettings = globalSettings;
		settings(globalSettings, { timebox: { subagents: { "*": "5m", Explore: "2m soon" } } });
		await fromFile.start();
		expect(fromFile.screen.notifications).toEqual([
			{
				message: `Timebox: timebox.subagents in ${globalSettings}: {"*":"5m","Explore":"2m soon"} has a bad budget for "Explore" ("soon" is not a budget word: a time (30s, 15m, 2h), steps:25, tokens:200k, cost:2.50 or loop:3), so it is ignored.`,
				level: "warning",
			},
		]);
		settings(globalSettings, { timebox: { subagents: 30 } });
		await fromFile.replaceSession("new", new FakeSessionFile());
		expect(fromFile.screen.last).toEqual({
			message: `Timebox: timebox.subagents in ${globalSettings}: 30 is not a subagent budget (such as "5m steps:30", or { "*": "5m", "Explore": "2m" }), so it is ignored.`,
			level: "warning",
		});
	});
});

describe("the daily budget's source", () => {
	const read = (env: NodeJS.ProcessEnv = {}) => readSettings({ env, cwd: project, globalSettings }).daily;

	it("takes TIMEBOX_DAILY over the user's file for every session of the user, and keeps the project's beside it", () => {
		settings(globalSettings, { timebox: { daily: "3h" } });
		settings(projectFile(), { timebox: { daily: "turns:9" } });
		const projectDaily = { value: "turns:9", source: `timebox.daily in ${projectFile()}`, scope: `project:${project}` };
		expect(read()).toEqual([
			{ value: "3h", source: `timebox.daily in ${globalSettings}`, scope: "user" },
			projectDaily,
		]);
		expect(read({ TIMEBOX_DAILY: "turns:4" })).toEqual([
			{ value: "turns:4", source: "TIMEBOX_DAILY", scope: "user" },
			projectDaily,
		]);
		expect(read({ TIMEBOX_DAILY: "  " })?.[0]?.source).toBe(`timebox.daily in ${globalSettings}`);
	});

	it("is TIMEBOX_DAILY alone where no settings file has one", () => {
		expect(read()).toEqual([]);
		expect(read({ TIMEBOX_DAILY: "turns:4" })).toEqual([{ value: "turns:4", source: "TIMEBOX_DAILY", scope: "user" }]);
	});
});

describe("the environment on the fake pi", () => {
	it("sets TIMEBOX_DEFAULT's budget on a new session and says where it came from", async () => {
		const pi = new FakePi();
		pi.env = { TIMEBOX_DEFAULT: "turns:3" };
		await pi.start();
		expect(pi.screen.notifications).toEqual([{ message: "Timebox set from TIMEBOX_DEFAULT: 3 turns.", level: "info" }]);
	});
});

describe("a team's store and name in pi's settings", () => {
	it("reads dailyStore and team beside daily in the user's settings file, and nothing from a missing one", () => {
		settings(globalSettings, { timebox: { daily: "turns:8", dailyStore: "redis://h:6379", team: "platform" } });
		expect(readTeamSettings(globalSettings)).toEqual({ dailyStore: "redis://h:6379", team: "platform" });
		expect(readTeamSettings(join(root, "none.json"))).toEqual({ dailyStore: undefined, team: undefined });
	});
});

describe("oh-my-pi's config.yml", () => {
	const yaml = () => join(root, "agent", "config.yml");
	const TEXT = [
		"theme: dark",
		"timebox:",
		"  default: 1h turns:5",
		"  daily: turns:8",
		"  dailyStore: redis://h:6379",
		"  team: platform",
		"  subagents:",
		'    "*": 5m steps:30',
		"",
	].join("\n");
	afterEach(() => {
		delete (globalThis as { Bun?: unknown }).Bun;
	});

	it("reads the timebox key of oh-my-pi's YAML settings with Bun's parser, as pi's settings.json", () => {
		// oh-my-pi runs on Bun, whose YAML parser Timebox uses; the same parser's stand-in on Node.
		(globalThis as { Bun?: unknown }).Bun = { YAML: { parse: parseYaml } };
		settings(yaml(), TEXT);
		const globalSettings = yaml();
		expect(readDefaultBudget({ flag: undefined, env: {}, cwd: project, globalSettings })).toEqual({
			text: "1h turns:5",
			source: `timebox.default in ${yaml()}`,
		});
		const read = readSettings({ env: {}, cwd: project, globalSettings });
		expect(read.daily).toEqual([{ value: "turns:8", source: `timebox.daily in ${yaml()}`, scope: "user" }]);
		expect(read.subagents).toEqual({ value: { "*": "5m steps:30" }, source: `timebox.subagents in ${yaml()}` });
		expect(readTeamSettings(globalSettings)).toEqual({ dailyStore: "redis://h:6379", team: "platform" });
		// The environment wins over the file, as everywhere.
		expect(
			readDefaultBudget({ flag: undefined, env: { TIMEBOX_DEFAULT: "10m" }, cwd: project, globalSettings }),
		).toEqual({ text: "10m", source: "TIMEBOX_DEFAULT" });
	});

	it("reads nothing from a YAML file it cannot parse, or where no YAML parser is at hand", () => {
		settings(yaml(), TEXT);
		expect(readDefaultBudget({ flag: undefined, env: {}, cwd: project, globalSettings: yaml() })).toBeNull();
		(globalThis as { Bun?: unknown }).Bun = { YAML: { parse: parseYaml } };
		settings(yaml(), "timebox: [unclosed\n");
		expect(readDefaultBudget({ flag: undefined, env: {}, cwd: project, globalSettings: yaml() })).toBeNull();
	});
});
