// Typing in pi's real TUI, in tmux, as a user does. Guards two faults of the completion menu, where Enter applies the
// item and does not send: a line typed in full needed a second Enter (the menu offered the word as typed), and before
// that, `/timebox turns:1` and Enter became `/timebox turns:10` (`/timebox 1`, one minute, became `1h`). A word typed in
// full gets no menu, so one Enter sends it as typed; Tab still completes a prefix. The team's words too: `team set
// turns:2` and Enter became `team set turns:200`, `$5` became `$50` and `team ask +1` became `+1h`.
// Quitting during the time to wrap up starts the on-stop command at the quit: pi 0.73.1 left it to a later start.

import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COMMAND_MODEL } from "./support/command-model.ts";
import { PI_HOSTS, type PiHost } from "./support/pi-hosts.ts";
import { RedisServer } from "./support/redis.ts";

const REPO = resolve(import.meta.dirname, "../..");
/** A model extension for pi, and the model's name. */
interface Model {
	extension: string;
	name: string;
}
/** The demo's offline model. */
const DEMO_MODEL: Model = { extension: join(REPO, "demo/offline-model.ts"), name: "timebox-demo/scripted" };
/** Runs the bash command a `run: <command>` prompt names, then answers. */
const COMMANDS_MODEL: Model = { extension: join(REPO, "tests/e2e/support/command-model.ts"), name: COMMAND_MODEL };

/** pi's TUI in tmux on a socket of its own, in a throwaway HOME and agent folder. */
class PiTui {
	private readonly root = mkdtempSync(join(tmpdir(), "timebox-pi-tui-"));
	private readonly socket = join(this.root, "tmux.sock");

	/** A path in the TUI's folder; `work` is pi's working folder. */
	readonly path = (...names: string[]) => join(this.root, ...names);

	start(host: PiHost, extra: Record<string, string> = {}, model: Model = DEMO_MODEL): void {
		for (const dir of ["home", "agent", "work"]) mkdirSync(join(this.root, dir));
		const vars = Object.entries(this.env(host, extra)).map(([key, value]) => `${key}='${value}'`);
		const command = `cd '${this.path("work")}' && env ${vars.join(" ")} ${this.pi(host, model)
			.map((arg) => `'${arg}'`)
			.join(" ")}`;
		this.tmux("-f", "/dev/null", "new-session", "-d", "-x", "140", "-y", "40", command);
		this.tmux("set-option", "-g", "extended-keys", "on");
	}

	/** pi in print mode, in the same HOME, agent folder and working folder as the TUI. */
	print(host: PiHost, args: string[], model: Model = DEMO_MODEL): SpawnSyncReturns<string> {
		const [node = "", ...rest] = this.pi(host, model);
		return spawnSync(node, [...rest, ...args], {
			cwd: this.path("work"),
			env: this.env(host, {}),
			encoding: "utf8",
			timeout: 60_000,
		});
	}

	/** Whether pi's TUI is still running: tmux ends its session when pi exits. */
	running(): boolean {
		return spawnSync("tmux", ["-S", this.socket, "has-session"]).status === 0;
	}

	keys(...keys: string[]): void {
		this.tmux("send-keys", ...keys);
	}

	screen(): string {
		return this.tmux("capture-pane", "-p");
	}

	type(text: string): void {
		this.tmux("send-keys", "-l", text);
	}

	enter(): void {
		this.tmux("send-keys", "C-m");
	}

	tab(): void {
		this.tmux("send-keys", "Tab");
	}

	/** Waits until the screen shows `text` (pi redraws as it goes), failing with the screen after `ms`. */
	async waitFor(text: string | RegExp, ms = 20_000): Promise<string> {
		const until = Date.now() + ms;
		for (;;) {
			const screen = this.screen();
			if (typeof text === "string" ? screen.includes(text) : text.test(screen)) return screen;
			if (Date.now() > until) throw new Error(`the screen never showed ${String(text)}:\n${screen}`);
			await new Promise((done) => setTimeout(done, 100));
		}
	}

	private env(host: PiHost, extra: Record<string, string>): Record<string, string> {
		return {
			...extra,
			HOME: this.path("home"),
			PI_CODING_AGENT_DIR: this.path("agent"),
			PI_OFFLINE: "1",
			PATH: [dirname(host.node), process.env.PATH ?? ""].join(delimiter),
		};
	}

	private pi(host: PiHost, model: Model): string[] {
		return [host.node, host.cli, "--no-extensions", "-e", model.extension, "-e", REPO, "--model", model.name];
	}

	stop(): void {
		this.tmux("kill-server");
		rmSync(this.root, { recursive: true, force: true });
	}

	private tmux(...args: string[]): string {
		return spawnSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" }).stdout ?? "";
	}
}

/**
 * Types a line as a user does and presses Enter once, when the screen shows the line typed (what the user sees before
 * pressing it).
 */
async function typeAndEnter(tui: PiTui, line: string): Promise<void> {
	tui.type(line);
	await tui.waitFor(line);
	tui.enter();
}

describe.each(PI_HOSTS)("Typing /timebox in the TUI of $name", (host) => {
	let tui: PiTui;
	beforeEach(async () => {
		await host.ensure();
		tui = new PiTui();
		tui.start(host);
		await tui.waitFor("timebox", 60_000);
	});
	afterEach(() => tui.stop());

	it("sends a sub-command and a budget typed in full with one Enter each, turns:1 as typed", async () => {
		await typeAndEnter(tui, "/timebox status");
		await tui.waitFor("No active timebox.");
		await typeAndEnter(tui, "/timebox turns:1");
		const screen = await tui.waitFor("Timebox set: 1 turn.");
		expect(screen).toContain("1 turn left (0/1)");
		expect(screen).not.toContain("10 turns");
	});

	it("completes a prefix with Tab, and sends a bare 1 (one minute) as typed with one Enter", async () => {
		tui.type("/timebox sta");
		await tui.waitFor("→ status");
		tui.tab();
		await tui.waitFor("/timebox status");
		tui.enter();
		await tui.waitFor("No active timebox.");
		await typeAndEnter(tui, "/timebox 1");
		const screen = await tui.waitFor("Timebox set: 1m.");
		expect(screen).toMatch(/Timebox: (?:1m 0s|\d+s) left \(1m budget\)/);
		expect(screen).not.toContain("1h");
	});
});

describe.each(PI_HOSTS)("Typing /timebox team in the TUI of $name, a team's store set", (host) => {
	let redis: RedisServer;
	let tui: PiTui;
	beforeAll(async () => {
		redis = await RedisServer.start();
	});
	afterAll(async () => {
		await redis?.dispose();
	});
	beforeEach(async () => {
		await host.ensure();
		tui = new PiTui();
		tui.start(host, { TIMEBOX_DAILY_STORE: redis.url(), TIMEBOX_TEAM: "platform" });
		await tui.waitFor("timebox", 60_000);
	});
	afterEach(() => tui.stop());

	it("sends the team's limits and a request typed in full with one Enter each, as typed", async () => {
		await typeAndEnter(tui, "/timebox team set turns:2 $5");
		const set = await tui.waitFor(/limits are now 2 turns and \$5\.00 a day/);
		expect(set).not.toContain("200 turns");
		expect(redis.cli(["HGET", "timebox:{platform}:limits", "turns"])).toBe("2");
		await typeAndEnter(tui, "/timebox team ask +1");
		const asked = await tui.waitFor(/grants it with\s+\/timebox today \+1\./);
		expect(asked).not.toContain("+1h");
	});
});

describe.each(PI_HOSTS)("Quitting the TUI of $name during the time to wrap up", (host) => {
	let tui: PiTui;
	beforeEach(async () => {
		await host.ensure();
		tui = new PiTui();
		tui.start(host, {}, COMMANDS_MODEL);
		await tui.waitFor("timebox", 60_000);
	});
	afterEach(() => tui.stop());

	it("runs the on-stop command at the quit, once, and the next start of the session runs nothing late", async () => {
		const log = tui.path("work", "quit.log");
		await typeAndEnter(tui, "/timebox 2s grace:30s -- echo ran >> quit.log");
		await tui.waitFor("Timebox set: 2s; 30s to wrap up at the limit.");
		await typeAndEnter(tui, "run: sleep 30");
		await tui.waitFor("Timebox: budget spent | wrapping up");
		// The tool runs on, in the time to wrap up: nothing has run yet.
		expect(existsSync(log)).toBe(false);
		// pi quits at a second Ctrl+C, the tool still running: it sends no end of the run.
		tui.keys("C-c");
		await new Promise((done) => setTimeout(done, 150));
		tui.keys("C-c");
		const until = Date.now() + 20_000;
		while (tui.running() && Date.now() < until) await new Promise((done) => setTimeout(done, 100));
		expect(tui.running()).toBe(false);
		await new Promise((done) => setTimeout(done, 300));
		expect(readFileSync(log, "utf8")).toBe("ran\n");
		const next = tui.print(host, ["-c", "-p", "/timebox status"], COMMANDS_MODEL);
		expect(`${next.stdout}${next.stderr}`).not.toContain("late");
		expect(readFileSync(log, "utf8")).toBe("ran\n");
	});
});
