// Claude Code installed the standard way, in a throwaway HOME: the repository as a marketplace, `claude plugin install
// timebox@timebox`, /timebox answered and enforced without --plugin-dir, and the status line set up by one command that
// wraps the status line the user already has and finds the marketplace plugin's data folder: on the classic hooks (the
// plugin's hooks module refused), whose status line is that separate program.

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	createSandbox,
	ensureClaudeCode,
	FakeAnthropic,
	REPO,
	runClaude,
	runProcess,
	type Sandbox,
} from "./support/claude.ts";

let api: FakeAnthropic;
let box: Sandbox;

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

beforeEach(async () => {
	api = await FakeAnthropic.start();
	box = await createSandbox("classic hooks");
});

afterEach(async () => {
	await api.close();
	await box.cleanup();
});

const claude = (args: string[]) =>
	runClaude(args, { home: box.home, cwd: box.cwd, apiUrl: api.url, timeoutMs: 90_000 });

describe("Claude Code with Timebox installed from its marketplace", () => {
	it("installs from the repository, enforces /timebox, and sets up a status line that wraps the user's own", async () => {
		const added = await claude(["plugin", "marketplace", "add", REPO]);
		expect(added.stdout).toContain("Successfully added marketplace: timebox");
		const installed = await claude(["plugin", "install", "timebox@timebox"]);
		expect(installed.stdout).toContain("Successfully installed plugin: timebox@timebox");

		const set = await claude(["-p", "/timebox turns:1"]);
		expect(set.stdout).toContain("Timebox set: 1 turn.");
		api.reply({ text: "ANSWER-ONE" });
		expect((await claude(["-p", "--continue", "first question"])).stdout).toBe("ANSWER-ONE\n");
		const second = await claude(["-p", "--continue", "second question"]);
		expect(second.stdout).toMatch(/Timebox budget spent\. Used 1 turn, \d+s\./);
		expect(api.requests.filter((request) => Array.isArray(request.body.tools))).toHaveLength(1);

		// The user has a status line of their own; the one-line setup wraps it.
		const settingsFile = join(box.home, ".claude", "settings.json");
		const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
		writeFileSync(settingsFile, JSON.stringify({ ...settings, statusLine: { type: "command", command: "echo mine" } }));
		const cache = join(box.home, ".claude", "plugins", "cache", "timebox", "timebox");
		const [version] = readdirSync(cache);
		const script = join(cache, version ?? "", "bin", "timebox.mjs");
		const setup = await runProcess(process.execPath, [script, "setup-statusline"], {
			env: { PATH: process.env.PATH, HOME: box.home },
		});
		expect(setup.stdout).toBe(
			"Timebox's status line is set up after yours: your status line comes first, then Timebox's.\n",
		);
		const statusLine = (JSON.parse(readFileSync(settingsFile, "utf8")) as { statusLine: { command: string } })
			.statusLine;
		expect(statusLine.command).toBe(`node '${script}' statusline --wrap 'echo mine'`);

		const data = join(box.home, ".claude", "plugins", "data");
		const sessions = readdirSync(data).flatMap((folder) =>
			existsSync(join(data, folder, "sessions")) ? readdirSync(join(data, folder, "sessions")) : [],
		);
		const sessionId = sessions[0]?.replace(/\.jsonl$/, "");
		const shown = await runProcess("/bin/sh", ["-c", statusLine.command], {
			input: JSON.stringify({ session_id: sessionId }),
			env: { PATH: process.env.PATH, HOME: box.home },
		});
		expect(shown.stdout).toBe("mine | Timebox: budget spent\n");
	});

	it("passes claude plugin validate for the marketplace and the plugin", async () => {
		const marketplace = await claude(["plugin", "validate", REPO]);
		expect(marketplace.code).toBe(0);
		const plugin = await claude(["plugin", "validate", join(REPO, "plugins/claude-code")]);
		expect(plugin.code).toBe(0);
	});
});
