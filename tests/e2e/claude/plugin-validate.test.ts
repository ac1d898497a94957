// `claude plugin validate` on the Claude Code plugin, as Claude Code reads it before a session loads it: the manifest,
// the classic hooks and the hooks module, with what the module hooks and calls. Every guard of the module carries a
// `.catch` (a guard that fails must refuse), and the module names the one variable it sets for the classic hooks.

import { beforeAll, describe, expect, it } from "vitest";
import { createSandbox, ensureClaudeCode, PLUGIN_DIR, runClaude } from "./support/claude.ts";

beforeAll(async () => {
	await ensureClaudeCode();
}, 360_000);

describe("the Claude Code plugin", () => {
	it("passes claude plugin validate, its hooks module with every guard caught", async () => {
		const box = await createSandbox();
		try {
			const run = await runClaude(["plugin", "validate", PLUGIN_DIR], {
				home: box.home,
				cwd: box.cwd,
				apiUrl: "http://127.0.0.1:9",
				timeoutMs: 60_000,
			});
			expect(run.code, run.stdout + run.stderr).toBe(0);
			const said = run.stdout.split("\n").map((line) => line.trim());
			expect(said).toContain(
				"❯ ./timebox-module.js hooks: session.start, command.run{command=timebox|timebox:timebox}, prompt.submit, turn.step, tool.call, turn.complete, session.end",
			);
			for (const guard of ["command.run{command=timebox|timebox:timebox}", "prompt.submit", "tool.call"]) {
				expect(said).toContain(`❯ ./timebox-module.js gating hook with .catch: ${guard}`);
			}
			expect(said.some((line) => line.includes("gating hook without .catch"))).toBe(false);
			expect(said).toContain("❯ ./timebox-module.js env writes: TIMEBOX_MODULE_LOADED");
			expect(said).toContain("❯ modules: hooks/timebox-module.js");
		} finally {
			await box.cleanup();
		}
	});
});
