// Stryker mutation testing (npm run mutate): mutates the core and the adapters' decision code, runs the unit suite only.
// Stryker runs from the repository's root (npm run sets it), so every path here is relative to the root.

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
	testRunner: "vitest",
	vitest: { configFile: "tests/mutation/vitest.config.ts" },
	mutate: [
		"src/core/**/*.ts",
		// Only the files directly in these folders; the process entries (src/entries/) only pass the real clock, stdin and
		// processes on.
		"src/adapters/claude/*.ts",
		"src/adapters/claude/function-hooks/*.ts",
		"src/adapters/daily/*.ts",
		"src/adapters/gemini/*.ts",
		"src/adapters/codex/*.ts",
		"src/adapters/hooks/*.ts",
		"src/adapters/pi/*.ts",
		"src/adapters/opencode/*.ts",
		"src/adapters/team/*.ts",
		"src/adapters/on-stop/*.ts",
		"src/adapters/node/*.ts",
	],
	coverageAnalysis: "perTest",
	// Static mutants (in module-level constants) need every test re-run for each one; skipping them keeps the run short.
	ignoreStatic: true,
	concurrency: 2,
	reporters: ["clear-text", "progress", "html", "json"],
	htmlReporter: { fileName: "reports/mutation/mutation.html" },
	jsonReporter: { fileName: "reports/mutation/mutation.json" },
	thresholds: { high: 95, low: 90, break: null },
};
