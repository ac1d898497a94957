// npm run build and its check on the host packages in plugins/: the committed bundles and manifests match a fresh
// build, the bundle is the same bytes in a checkout elsewhere, and in a copy of the repository a hand-edited bundle or
// a new version in package.json fails the check with the stale files named, until npm run build writes them again.
// Claude Code's hooks module is bundled and checked the same way, and a module that imports anything is refused.

import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../support/processes.ts";

const REPO = resolve(import.meta.dirname, "../..");
const BUNDLES = [
	"plugins/claude-code/bin/timebox.mjs",
	"plugins/gemini-cli/bin/timebox.mjs",
	"plugins/codex-cli/bin/timebox.mjs",
] as const;
const MANIFESTS = [
	"plugins/claude-code/.claude-plugin/plugin.json",
	"plugins/gemini-cli/gemini-extension.json",
	"plugins/codex-cli/.codex-plugin/plugin.json",
];

let copy: string;

beforeEach(async () => {
	copy = await mkdtemp(join(tmpdir(), "timebox-build-"));
	// tsconfig.json too: esbuild reads it, and its strict mode is the `"use strict"` of the CommonJS batch script.
	for (const part of ["package.json", "tsconfig.json", "scripts", "src", "plugins", ".claude-plugin"]) {
		await cp(join(REPO, part), join(copy, part), { recursive: true });
	}
	await symlink(join(REPO, "node_modules"), join(copy, "node_modules"));
});

afterEach(async () => {
	await rm(copy, { recursive: true, force: true });
});

const build = (root: string, ...args: string[]) =>
	runProcess(process.execPath, [join(root, "scripts/build.mjs"), ...args], { cwd: root, timeoutMs: 60_000 });

describe("npm run build", () => {
	it("has written the committed bundles and manifests: the check passes on the repository", async () => {
		const checked = await build(REPO, "--check");
		expect(checked.stderr).toBe("");
		expect(checked.stdout).toBe("plugins/: every bundle and manifest matches a fresh build.\n");
		expect(checked.code).toBe(0);
	});

	it("bundles the hook script once: the same bytes in every package, in the repository and in a copy elsewhere", async () => {
		await rm(join(copy, BUNDLES[1]));
		expect((await build(copy)).code).toBe(0);
		// The ES module entry, and the CommonJS one the gate starts.
		for (const extension of [".mjs", ".cjs"]) {
			const named = BUNDLES.map((bundle) => bundle.replace(/\.mjs$/, extension));
			const committed = await readFile(join(REPO, BUNDLES[0].replace(/\.mjs$/, extension)));
			for (const bundle of named) {
				expect((await readFile(join(copy, bundle))).equals(committed), bundle).toBe(true);
				expect((await readFile(join(REPO, bundle))).equals(committed), bundle).toBe(true);
			}
			expect(committed.toString()).not.toContain(REPO);
		}
	});

	it("puts the hook gate beside every bundle, as it is in the source", async () => {
		await rm(join(copy, "plugins/gemini-cli/bin/timebox-gate.sh"));
		expect((await build(copy)).code).toBe(0);
		const gate = await readFile(join(REPO, "src/adapters/hooks/gate.sh"));
		for (const bundle of BUNDLES) {
			const beside = bundle.replace(/timebox\.mjs$/, "timebox-gate.sh");
			expect((await readFile(join(copy, beside))).equals(gate), beside).toBe(true);
			expect((await readFile(join(REPO, beside))).equals(gate), beside).toBe(true);
		}
	});

	it("bundles Claude Code's hooks module, checks it like the others, and refuses one Claude Code would not load", async () => {
		const module = "plugins/claude-code/hooks/timebox-module.js";
		await writeFile(join(copy, module), "// edited by hand\n", { flag: "a" });
		const stale = await build(copy, "--check");
		expect(stale.code).toBe(1);
		expect(stale.stderr).toContain(`${module} is stale: it differs from a fresh build.`);
		expect((await build(copy)).code).toBe(0);
		expect((await readFile(join(copy, module))).equals(await readFile(join(REPO, module)))).toBe(true);

		// A Node global, which Claude Code's worker does not have (an import of `node:` fails the bundling itself).
		const entry = join(copy, "src/adapters/claude/function-hooks/time.ts");
		await writeFile(entry, "console.log(process.env.HOME);\n", { flag: "a" });
		const refused = await build(copy);
		expect(refused.code).not.toBe(0);
		expect(refused.stderr).toContain(`${module} would not load in Claude Code`);
	});

	it("fails the check on a hand-edited bundle and a new version, naming each stale file, until a build", async () => {
		await writeFile(join(copy, BUNDLES[2]), "// edited by hand\n", { flag: "a" });
		const pkg = JSON.parse(await readFile(join(copy, "package.json"), "utf8")) as Record<string, unknown>;
		await writeFile(join(copy, "package.json"), JSON.stringify({ ...pkg, version: "9.9.9" }));

		const stale = await build(copy, "--check");
		expect(stale.code).toBe(1);
		expect(stale.stderr).toBe(
			[
				`${BUNDLES[2]} is stale: it differs from a fresh build.`,
				...MANIFESTS.map((manifest) => `${manifest} is stale: it differs from a fresh build.`),
				"Run npm run build and commit the result.",
				"",
			].join("\n"),
		);

		const built = await build(copy);
		expect(built.code).toBe(0);
		expect(built.stdout).toBe([BUNDLES[2], ...MANIFESTS].map((file) => `wrote ${file}\n`).join(""));
		expect((await build(copy, "--check")).code).toBe(0);
		for (const manifest of MANIFESTS) {
			const stamped = JSON.parse(await readFile(join(copy, manifest), "utf8")) as Record<string, unknown>;
			expect(stamped, manifest).toMatchObject({ version: "9.9.9", description: pkg.description });
		}
		expect((await readFile(join(copy, BUNDLES[2]))).equals(await readFile(join(REPO, BUNDLES[0])))).toBe(true);
	});
});
