// Guards the committed plugin bundle against going stale: package.json's build:claude must reproduce it byte for byte,
// and the copies in the Codex plugin and the Gemini extension (each host copies the folder it installs, so each carries
// its own) must be the same file.

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO, runProcess, TIMEBOX_BIN } from "./support/claude.ts";

const COMMITTED_FILE = "--file plugins/claude-code/bin/timebox.mjs";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "timebox-bundle-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe("the Claude Code plugin bundle", () => {
	it("matches a fresh build byte for byte", async () => {
		const manifest = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as {
			scripts: Record<string, string>;
		};
		// The bundling step only: the copy into the Codex plugin is checked below.
		const script = (manifest.scripts["build:claude"] ?? "").split(" && ")[0] ?? "";
		expect(script, "package.json's build:claude writes the committed bundle").toContain(COMMITTED_FILE);
		const fresh = join(folder, "timebox.mjs");
		// The same command npm runs, writing to a temporary file instead.
		const build = await runProcess("/bin/sh", ["-c", script.replace(COMMITTED_FILE, `--file '${fresh}'`)], {
			cwd: REPO,
			env: { ...process.env, PATH: `${join(REPO, "node_modules/.bin")}${delimiter}${process.env.PATH}` },
		});
		expect(build.code, build.stderr).toBe(0);
		const [built, committed] = await Promise.all([readFile(fresh), readFile(TIMEBOX_BIN)]);
		expect(
			built.equals(committed),
			"plugins/claude-code/bin/timebox.mjs is stale: run npm run build:claude and commit the result",
		).toBe(true);
		for (const copy of ["plugins/codex-cli/bin/timebox.mjs", "plugins/gemini-cli/bin/timebox.mjs"]) {
			const copied = await readFile(join(REPO, copy));
			expect(copied.equals(committed), `${copy} is stale: run npm run build:claude`).toBe(true);
		}
	});
});
