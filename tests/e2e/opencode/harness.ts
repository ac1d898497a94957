// The set-up the `opencode run` and TUI test files share: per test, a loopback fake of the chat completions API and a
// throwaway HOME whose config loads Timebox from this checkout; `opencode run` in it, Timebox's session logs, and an
// on-stop script that writes the time it ran.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { FakeChat } from "../../../demo/fakes/chat.ts";
import { type RunResult, runProcess } from "../../support/processes.ts";
import { ensureOpencode, OPENCODE, opencodeEnv, writeOpencodeHome } from "./support.ts";

/** The test's fake API, its folder, and the HOME in it (opencode works in `<root>/work`). */
export interface OpencodeWorld {
	api: FakeChat;
	root: string;
	home: string;
}

/** Registers the set-up of each test of the file (before the file's own hooks), and returns the test's world. */
export function opencodeWorld(): OpencodeWorld {
	let current: OpencodeWorld | null = null;
	beforeAll(async () => {
		await ensureOpencode();
	}, 600_000);
	beforeEach(async () => {
		const api = await FakeChat.start();
		const root = await mkdtemp(join(tmpdir(), "timebox-opencode-"));
		const home = join(root, "home");
		mkdirSync(join(root, "work"));
		writeOpencodeHome(home, api.url);
		current = { api, root, home };
	});
	afterEach(async () => {
		await current?.api.close();
		if (current) await rm(current.root, { recursive: true, force: true });
		current = null;
	});
	const now = (): OpencodeWorld => {
		if (current === null) throw new Error("no test is running");
		return current;
	};
	return {
		get api() {
			return now().api;
		},
		get root() {
			return now().root;
		},
		get home() {
			return now().home;
		},
	};
}

/** `opencode run` with the words given (`-c` continues the last session), stdin closed. */
export async function runOpencode(
	world: OpencodeWorld,
	args: string[],
	env: NodeJS.ProcessEnv = {},
): Promise<RunResult> {
	const result = await runProcess(OPENCODE, ["run", ...args], {
		cwd: join(world.root, "work"),
		env: opencodeEnv(world.home, env),
		timeoutMs: 120_000,
	});
	// opencode colours its own lines even into a pipe: what a user reads is the text.
	return {
		...result,
		stdout: stripVTControlCharacters(result.stdout),
		stderr: stripVTControlCharacters(result.stderr),
	};
}

/** The lines of Timebox's log of every session in the world's home. */
export function sessionLogOf(world: Pick<OpencodeWorld, "home">): Array<Record<string, unknown>> {
	const folder = join(world.home, ".local", "state", "timebox", "opencode", "sessions");
	const files = existsSync(folder) ? readdirSync(folder) : [];
	return files.flatMap((file) =>
		readFileSync(join(folder, file), "utf8")
			.split("\n")
			.filter((line) => line.length > 0)
			.map((line) => JSON.parse(line) as Record<string, unknown>),
	);
}

/** A script that appends the time it ran (ms) to `file`: an on-stop command of one word, as opencode run passes it. */
export function stopScriptOf(world: OpencodeWorld, file: string): string {
	const script = join(world.root, "on-stop.sh");
	writeFileSync(script, `#!/bin/sh\ndate +%s%3N >> '${file}'\n`, { mode: 0o755 });
	return script;
}
