// Guards the hook script's V8 code cache, on the bundles each hook host installs, in fresh Node processes as the hosts
// run them: the first hook a process answers writes one cache in Timebox's state folder, and the hooks after it read it
// and write nothing; a status line, a watcher's start or input the script cannot read write none; a cache V8 refuses is
// compiled past, with the same answer, and written again. The hooks module's team batch keeps its own the same way.

import { createHash } from "node:crypto";
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODE_CACHE_FOLDER } from "../../src/core/index.ts";
import { runProcess } from "../support/processes.ts";

const REPO = new URL("../..", import.meta.url).pathname;

/** Each hook host's bundle and a prompt's event in its words. */
const HOSTS = [
	{ name: "Claude Code", bin: "plugins/claude-code/bin/timebox.mjs", host: "claude", event: "UserPromptSubmit" },
	{ name: "Gemini CLI", bin: "plugins/gemini-cli/bin/timebox.mjs", host: "gemini", event: "BeforeAgent" },
	{ name: "Codex CLI", bin: "plugins/codex-cli/bin/timebox.mjs", host: "codex", event: "UserPromptSubmit" },
];

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "timebox-hook-code-cache-"));
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

describe.each(HOSTS)("the hook script's code cache on $name", ({ bin, host, event }) => {
	const env = () => ({
		PATH: process.env.PATH,
		HOME: join(root, "home"),
		CLAUDE_PLUGIN_DATA: join(root, "data"),
		GEMINI_PROJECT_DIR: root,
		CODEX_HOME: join(root, "codex"),
	});
	const folder = () => join(root, "home/.local/state/timebox", CODE_CACHE_FOLDER);
	const cache = () => {
		try {
			return readdirSync(folder()).map((name) => ({
				name,
				bytes: readFileSync(join(folder(), name)),
				written: statSync(join(folder(), name)).mtimeMs,
			}));
		} catch {
			return [];
		}
	};
	let turn = 0;
	// The hook script as the gate starts it (its CommonJS entry), or as a command typed in a terminal starts it.
	const hook = (prompt: string, entry = bin.replace(/\.mjs$/, ".cjs")) =>
		runProcess(process.execPath, [join(REPO, entry), "hook", "--host", host], {
			env: env(),
			cwd: root,
			input: JSON.stringify({
				session_id: "cache",
				hook_event_name: event,
				prompt,
				prompt_id: `p${++turn}`,
				turn_id: `t${turn}`,
				cwd: root,
			}),
		});

	it("is written by the first hook answered, read by the next ones, and by nothing else", async () => {
		const bad = await runProcess(process.execPath, [join(REPO, bin), "hook", "--host", host], {
			env: env(),
			input: "not json {",
		});
		expect(bad.stderr).toBe("timebox: ignored this hook call: stdin is not JSON\n");
		const status = await runProcess(process.execPath, [join(REPO, bin), "statusline", "--data", join(root, "data")], {
			env: env(),
			input: JSON.stringify({ session_id: "cache" }),
		});
		expect(status.code).toBe(0);
		expect(cache()).toEqual([]);

		const set = await hook("/timebox turns:2");
		expect(set.stderr).toBe("");
		expect(set.stdout).toContain("Timebox set: 2 turns.");
		const [written, ...more] = cache();
		expect(more).toEqual([]);
		// Named by the version the build wrote into the entry and at the end of the code's first line: the code's SHA-256.
		const code = readFileSync(join(REPO, bin, "../timebox-hook.cjs"), "utf8");
		const version = / Version ([0-9a-f]{16})\.\n/.exec(code)?.[1] ?? "none";
		expect(
			createHash("sha256")
				.update(code.replace(` Version ${version}.`, ""))
				.digest("hex")
				.slice(0, 16),
		).toBe(version);
		expect(written?.name).toBe(`timebox-hook.cjs-${version}-${process.version}-${process.arch}.v8-cache`);

		const first = await hook("first");
		// The ES module entry runs the same code, from the same cache.
		const second = await hook("second", bin);
		const third = await hook("third");
		expect([first.stderr, second.stderr, third.stderr]).toEqual(["", "", ""]);
		expect(third.stdout).toContain("Timebox budget spent.");
		expect(cache()).toEqual([written]);
	});

	it.each(["timebox.cjs", "timebox.mjs"])(
		"says in one line, as a hook's failure, that its code file is missing beside %s",
		async (entry) => {
			const copy = join(root, "partial", "bin");
			mkdirSync(copy, { recursive: true });
			copyFileSync(join(REPO, bin, "..", entry), join(copy, entry));
			const run = await runProcess(process.execPath, [join(copy, entry), "hook", "--host", host], {
				env: env(),
				input: "{}",
			});
			expect(run.code).toBe(1);
			expect(run.stdout).toBe("");
			expect(run.stderr).toBe(
				`timebox: timebox-hook.cjs is missing beside ${join(copy, entry)}: install the plugin again\n`,
			);
			expect(cache()).toEqual([]);
		},
	);

	it("compiles past a cache V8 refuses, answers the same, and writes a good one in its place", async () => {
		await hook("/timebox turns:5");
		const [written] = cache();
		writeFileSync(join(folder(), written?.name ?? ""), "not V8's code cache");
		const answered = await hook("/timebox status");
		expect(answered.stderr).toBe("");
		expect(answered.stdout).toContain("5 turns left (0/5)");
		const [rewritten, ...more] = cache();
		expect(more).toEqual([]);
		expect(rewritten?.name).toBe(written?.name);
		expect(rewritten?.bytes.length).toBeGreaterThan(1_000);
		const next = await hook("/timebox status");
		expect(next.stdout).toBe(answered.stdout);
		expect(cache()).toEqual([rewritten]);
	});
});

describe("the code cache of Claude Code's hooks module's team batch (bin/timebox-team.cjs)", () => {
	const batchBin = join(REPO, "plugins/claude-code/bin/timebox-team.cjs");
	const state = () => join(root, "state");
	const folder = () => join(state(), "timebox", CODE_CACHE_FOLDER);
	const cache = () => {
		try {
			return readdirSync(folder()).map((name) => ({ name, bytes: readFileSync(join(folder(), name)) }));
		} catch {
			return [];
		}
	};
	// A prompt's count for a team whose store refuses connections: the batch answers at once with the outage.
	const request = JSON.stringify({
		session: "cache",
		budgets: [{ scope: "user", source: "test", limits: { timeMs: null, turns: 10, tokens: null, cost: null } }],
		ops: [{ op: "count", limits: [10] }],
	});
	const batch = (arg: string, bin = batchBin) =>
		runProcess(process.execPath, [bin, arg], {
			env: {
				PATH: process.env.PATH,
				HOME: join(root, "home"),
				XDG_STATE_HOME: state(),
				TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1",
				TIMEBOX_TEAM: "cache",
			},
		});

	it("is written by the first batch that ran, not by a request it could not read, and read by the next batches", async () => {
		const bad = await batch("not json");
		expect(bad.stdout).toBe('{"error":"timebox: the team request is not JSON"}\n');
		expect(cache()).toEqual([]);

		const first = await batch(request);
		expect(first.stderr).toBe("");
		expect(JSON.parse(first.stdout)).toMatchObject({ counted: [true] });
		const code = readFileSync(join(batchBin, "../timebox-team-code.cjs"), "utf8");
		const version = / Version ([0-9a-f]{16})\.\n/.exec(code)?.[1] ?? "none";
		const [written, ...more] = cache();
		expect(more).toEqual([]);
		expect(written?.name).toBe(`timebox-team-code.cjs-${version}-${process.version}-${process.arch}.v8-cache`);

		const second = await batch(request);
		expect(second.stderr).toBe("");
		// The second prompt counted as the first was, on the same outage.
		const [a, b] = [first, second].map((run) => JSON.parse(run.stdout) as { counted: boolean[]; problems: unknown });
		expect(b?.counted).toEqual([true]);
		expect(a?.problems).toEqual([expect.stringContaining("cannot be reached")]);
		expect(b?.problems).toEqual(a?.problems);
		expect(cache()).toEqual([written]);
	});

	it("says in one line that its code file is missing beside it", async () => {
		const copy = join(root, "partial", "bin");
		mkdirSync(copy, { recursive: true });
		copyFileSync(batchBin, join(copy, "timebox-team.cjs"));
		const run = await batch(request, join(copy, "timebox-team.cjs"));
		expect(run.code).toBe(1);
		expect(run.stdout).toBe("");
		expect(run.stderr).toBe(
			`timebox: timebox-team-code.cjs is missing beside ${join(copy, "timebox-team.cjs")}: install the plugin again\n`,
		);
		expect(cache()).toEqual([]);
	});
});
