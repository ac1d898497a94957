// Where a default budget for new pi sessions comes from, and in which order: --timebox, PI_TIMEBOX, the project's
// .pi/settings.json, the user's settings.json. Guards a default read from the wrong place or in the wrong order.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readDefaultBudget } from "../../../src/adapters/pi/defaults.ts";
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

	it("takes the flag first, then PI_TIMEBOX, then the project's settings, then the user's", () => {
		settings(globalSettings, { theme: "dark", timebox: { default: "45m" } });
		const read = (flag: unknown, env: NodeJS.ProcessEnv) =>
			readDefaultBudget({ flag, env, cwd: project, globalSettings });
		expect(read(undefined, {})).toEqual({ text: "45m", source: `timebox.default in ${globalSettings}` });
		settings(projectFile(), { timebox: { default: "turns:7" } });
		expect(read(undefined, {})).toEqual({ text: "turns:7", source: `timebox.default in ${projectFile()}` });
		expect(read(undefined, { PI_TIMEBOX: "20m" })).toEqual({ text: "20m", source: "PI_TIMEBOX" });
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
					'Timebox: PI_TIMEBOX: "30x" is not a budget word: a time (30s, 15m, 2h), turns:5, tokens:200k, cost:2.50, steps:25, aware or grace:30s. The session starts without a budget.',
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
