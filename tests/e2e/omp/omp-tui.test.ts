// Typing /timebox in oh-my-pi's real TUI, in tmux, as a user does. Guards the faults of pi's completion menu that
// oh-my-pi inherits, where Enter applies the item and does not send: a line typed in full needed a second Enter, and
// before that `/timebox turns:1` became `/timebox turns:10`. One Enter sends a word typed in full; Tab completes a prefix.
// Quitting during the time to wrap up starts the on-stop command at the quit; it was left to a later start.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeResponses } from "../../../demo/fakes/responses.ts";
import { OMP, OMP_BIN_DIR, writeFakeProvider } from "../../../demo/hosts/omp.ts";
import { type DemoSession, HOST_DEMOS } from "../../../demo/hosts.ts";
import { REPO } from "../../../demo/repo.ts";
import { offersTools, parseBody } from "../../../demo/scripted.ts";

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

describe("Quitting the oh-my-pi TUI during the time to wrap up", () => {
	it("runs the on-stop command at the quit, once, and the next start of the session runs nothing late", async () => {
		const api = await FakeResponses.start();
		try {
			// oh-my-pi's own requests (a title) offer no tools; the prompt's first call runs a tool that outlasts the stop.
			api.respond = (text) => {
				const body = parseBody(text);
				if (!offersTools(body)) return { text: "Quit test" };
				return text.includes("function_call_output") ? { text: "done" } : { bash: "sleep 30" };
			};
			writeFakeProvider(root, api.url);
			const home = join(root, "quit-home");
			const work = join(root, "quit-work");
			mkdirSync(join(home, ".omp", "agent"), { recursive: true });
			mkdirSync(work);
			const config = ["startup:", "  setupWizard: false", "  checkUpdate: false", ""].join("\n");
			writeFileSync(join(home, ".omp", "agent", "config.yml"), config);
			const env = { ...demo.env, PATH: `${OMP_BIN_DIR}:${process.env.PATH}`, HOME: home };
			const args = ["-e", REPO, "-e", join(root, "fake-provider.ts"), "--model", "fake/fake-model"];
			const vars = Object.entries(env).map(([key, value]) => `${key}='${value}'`);
			const command = [OMP, ...args].map((arg) => `'${arg}'`).join(" ");
			tmux(
				"-f",
				"/dev/null",
				"new-session",
				"-d",
				"-x",
				"140",
				"-y",
				"40",
				`cd '${work}' && env ${vars.join(" ")} ${command}`,
			);
			await waitFor("timebox");
			const log = join(work, "quit.log");
			await typeAndEnter("/timebox 2s grace:30s -- echo ran >> quit.log");
			await waitFor("Timebox set: 2s; 30s to wrap up at the limit.");
			await typeAndEnter("go");
			await waitFor("Timebox: budget spent | wrapping up");
			// The tool runs on, in the time to wrap up: nothing has run yet.
			expect(existsSync(log)).toBe(false);
			// oh-my-pi quits at a second Ctrl+C, the tool still running: it sends no end of the run.
			tmux("send-keys", "C-c");
			await new Promise((done) => setTimeout(done, 150));
			tmux("send-keys", "C-c");
			const until = Date.now() + 20_000;
			const running = () => spawnSync("tmux", ["-S", join(root, "tmux.sock"), "has-session"]).status === 0;
			while (running() && Date.now() < until) await new Promise((done) => setTimeout(done, 100));
			expect(running()).toBe(false);
			await new Promise((done) => setTimeout(done, 300));
			expect(readFileSync(log, "utf8")).toBe("ran\n");
			const next = spawnSync(OMP, [...args, "-c", "-p", "/timebox status"], {
				cwd: work,
				env,
				encoding: "utf8",
				timeout: 60_000,
			});
			expect(`${next.stdout}${next.stderr}`).toContain("Timebox");
			expect(`${next.stdout}${next.stderr}`).not.toContain("late");
			expect(readFileSync(log, "utf8")).toBe("ran\n");
		} finally {
			// oh-my-pi keeps its connection to the fake API open: the fake closes once oh-my-pi is gone.
			tmux("kill-server");
			await api.close();
		}
	});
});
