// Typing /timebox in oh-my-pi's real TUI, in tmux, as a user does. Guards the faults of pi's completion menu that
// oh-my-pi inherits, where Enter applies the item and does not send: a line typed in full needed a second Enter, and
// before that `/timebox turns:1` became `/timebox turns:10`. One Enter sends a word typed in full; Tab completes a prefix.

import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DemoSession, HOST_DEMOS } from "../../../demo/hosts.ts";

let root: string;
let demo: DemoSession;

beforeAll(async () => {
	await HOST_DEMOS.omp.install({});
}, 900_000);

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "timebox-omp-tui-"));
	// The demo's own throwaway HOME, fake model API and arguments, as `npm start -- omp` starts it.
	demo = await HOST_DEMOS.omp.prepare(root, []);
});

afterEach(async () => {
	tmux("kill-server");
	await demo.close();
	await rm(root, { recursive: true, force: true });
});

function tmux(...args: string[]): string {
	return spawnSync("tmux", ["-S", join(root, "tmux.sock"), ...args], { encoding: "utf8" }).stdout ?? "";
}

/** Waits until the screen shows `text`, failing with the screen after `ms`. */
async function waitFor(text: string, ms = 30_000): Promise<string> {
	const until = Date.now() + ms;
	for (;;) {
		const screen = tmux("capture-pane", "-p");
		if (screen.includes(text)) return screen;
		if (Date.now() > until) throw new Error(`the screen never showed ${text}:\n${screen}`);
		await new Promise((done) => setTimeout(done, 100));
	}
}

/** Types a line as a user does and presses Enter once, when the screen shows the line typed. */
async function typeAndEnter(line: string): Promise<void> {
	tmux("send-keys", "-l", line);
	await waitFor(line);
	tmux("send-keys", "C-m");
}

describe("Typing /timebox in the oh-my-pi TUI", () => {
	it("sends a sub-command and a budget typed in full with one Enter each, and completes a prefix with Tab", async () => {
		const vars = Object.entries(demo.env).map(([key, value]) => `${key}='${value}'`);
		const command = [demo.bin, ...demo.args].map((arg) => `'${arg}'`).join(" ");
		const start = `cd '${demo.cwd}' && env ${vars.join(" ")} ${command}`;
		tmux("-f", "/dev/null", "new-session", "-d", "-x", "140", "-y", "40", start);
		await waitFor("timebox");
		await typeAndEnter("/timebox status");
		await waitFor("No active timebox.");
		await typeAndEnter("/timebox turns:1");
		const screen = await waitFor("Timebox set: 1 turn.");
		expect(screen).toContain("1 turn left (0/1)");
		expect(screen).not.toContain("10 turns");
		tmux("send-keys", "-l", "/timebox of");
		await waitFor("/timebox of");
		tmux("send-keys", "Tab");
		await waitFor("/timebox off");
		tmux("send-keys", "C-m");
		await waitFor("Timebox off.");
	});
});
