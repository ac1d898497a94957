// OpencodeUI: notifications as toasts in the TUI or stderr lines in opencode run, and the status file the TUI shows.

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	OpencodeUI,
	type ShowToast,
	STATUS_FOLDER,
	statusFile,
	TOAST_TITLE,
	toastDuration,
} from "../../../src/adapters/opencode/ui.ts";
import { createWorld, removeWorld, type World } from "./fake-opencode.ts";

let world: World;
let toasts: Parameters<ShowToast>[0][];
let stderr: string[];
let failToasts: boolean;

beforeEach(() => {
	world = createWorld();
	toasts = [];
	stderr = [];
	failToasts = false;
});

afterEach(() => removeWorld(world));

function ui(interactive: boolean, sessionId = "ses_1"): OpencodeUI {
	return new OpencodeUI({
		interactive,
		showToast: (toast) => {
			toasts.push(toast);
			return failToasts ? Promise.reject(new Error("the TUI is gone")) : Promise.resolve(true);
		},
		writeStderr: (line) => stderr.push(line),
		dataDir: world.dataDir,
		sessionId,
	});
}

describe("notifications", () => {
	it("are toasts titled Timebox in the TUI, with the level as the variant", () => {
		const screen = ui(true);
		screen.notify("Timebox set: 15m.", "info");
		screen.notify("Timebox: 3m 0s left of 15m — the model is asked to wrap up.", "warning");
		screen.notify("Timebox budget spent.", "error");
		expect(TOAST_TITLE).toBe("Timebox");
		expect(toasts).toEqual([
			{ title: "Timebox", message: "Timebox set: 15m.", variant: "info" },
			{ title: "Timebox", message: "Timebox: 3m 0s left of 15m — the model is asked to wrap up.", variant: "warning" },
			{ title: "Timebox", message: "Timebox budget spent.", variant: "error" },
		]);
		expect(stderr).toEqual([]);
	});

	it("stay up long enough to read when they are more than one line: a bad word's reply with the usage", () => {
		const screen = ui(true);
		const reply = 'Timebox: "turn:3" is not a budget word. Nothing changed.\nUsage: /timebox <budget>\nsecond\nthird';
		screen.notify(reply, "warning");
		expect(toasts).toEqual([{ title: "Timebox", message: reply, variant: "warning", duration: 13_000 }]);
		expect(toastDuration("one line")).toBeUndefined();
		expect(toastDuration(Array.from({ length: 16 }, () => "a line").join("\n"))).toBe(30_000);
	});

	it("are not worth breaking the session over when the toast cannot be shown", async () => {
		failToasts = true;
		expect(() => ui(true).notify("Timebox set: 15m.", "info")).not.toThrow();
		// The rejection is caught: an unhandled one would fail the run.
		await Promise.resolve();
		expect(toasts).toHaveLength(1);
	});

	it("are stderr lines in opencode run, where a toast prints nothing", () => {
		const screen = ui(false);
		screen.notify("Timebox set: 15m.", "info");
		screen.notify("Timebox budget spent.\nSecond line.", "error");
		expect(stderr).toEqual([
			"[timebox] info: Timebox set: 15m.",
			"[timebox] error: Timebox budget spent.\nSecond line.",
		]);
		expect(toasts).toEqual([]);
	});
});

describe("the status", () => {
	it("is a file per session under the status folder, named safely", () => {
		expect(statusFile("/data", "ses_1")).toBe(join("/data", STATUS_FOLDER, "ses_1.txt"));
		expect(statusFile("/data", "../a b")).toBe(join("/data", "status", "..%2Fa%20b.txt"));
	});

	it("is written in the TUI, not written again while unchanged, and removed when there is none", () => {
		const screen = ui(true);
		const file = statusFile(world.dataDir, "ses_1");
		screen.setStatus("Timebox: 15m 0s left (15m budget) | no turn limit");
		expect(readFileSync(file, "utf8")).toBe("Timebox: 15m 0s left (15m budget) | no turn limit");
		writeFileSync(file, "changed by someone else");
		screen.setStatus("Timebox: 15m 0s left (15m budget) | no turn limit");
		expect(readFileSync(file, "utf8")).toBe("changed by someone else");
		screen.setStatus("Timebox: 14m 59s left (15m budget) | no turn limit");
		expect(readFileSync(file, "utf8")).toBe("Timebox: 14m 59s left (15m budget) | no turn limit");
		screen.setStatus(undefined);
		expect(existsSync(file)).toBe(false);
		screen.setStatus(undefined);
		expect(existsSync(file)).toBe(false);
	});

	it("is cleared without a word when its file is already gone (the data folder cleaned up meanwhile)", () => {
		const screen = ui(true);
		const file = statusFile(world.dataDir, "ses_1");
		screen.setStatus("Timebox: budget spent");
		rmSync(file);
		expect(() => screen.setStatus(undefined)).not.toThrow();
		expect(existsSync(file)).toBe(false);
	});

	it("is never written in opencode run, which has no TUI to show it", () => {
		const screen = ui(false);
		screen.setStatus("Timebox: 15m 0s left (15m budget) | no turn limit");
		screen.setStatus(undefined);
		expect(existsSync(join(world.dataDir, STATUS_FOLDER))).toBe(false);
	});
});
