// Typing in pi's real TUI, in tmux, as a user does. Guards two faults of the completion menu, where Enter applies the
// item and does not send: a line typed in full needed a second Enter (the menu offered the word as typed), and before
// that, `/timebox turns:1` and Enter became `/timebox turns:10` (`/timebox 1`, one minute, became `1h`). A word typed in
// full gets no menu, so one Enter sends it as typed; Tab still completes a prefix. The team's words too: `team set
// turns:2` and Enter became `team set turns:200`, `$5` became `$50` and `team ask +1` became `+1h`.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PI_HOSTS, type PiHost } from "./support/pi-hosts.ts";
import { RedisServer } from "./support/redis.ts";

const REPO = resolve(import.meta.dirname, "../..");
const OFFLINE_MODEL = join(REPO, "demo/offline-model.ts");

/** pi's TUI in tmux on a socket of its own, in a throwaway HOME and agent folder. */
class PiTui {
	private readonly root = mkdtempSync(join(tmpdir(), "timebox-pi-tui-"));
	private readonly socket = join(this.root, "tmux.sock");

	start(host: PiHost, extra: Record<string, string> = {}): void {
		for (const dir of ["home", "agent", "work"]) mkdirSync(join(this.root, dir));
		const env = {
			...extra,
			HOME: join(this.root, "home"),
			PI_CODING_AGENT_DIR: join(this.root, "agent"),
			PI_OFFLINE: "1",
			PATH: [dirname(host.node), process.env.PATH ?? ""].join(delimiter),
		};
		const vars = Object.entries(env).map(([key, value]) => `${key}='${value}'`);
		const pi = [host.node, host.cli, "--no-extensions", "-e", OFFLINE_MODEL, "-e", REPO];
		const command = `cd '${join(this.root, "work")}' && env ${vars.join(" ")} ${pi.map((arg) => `'${arg}'`).join(" ")} --model timebox-demo/scripted`;
		this.tmux("-f", "/dev/null", "new-session", "-d", "-x", "140", "-y", "40", command);
		this.tmux("set-option", "-g", "extended-keys", "on");
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
