// Test configuration: the hermetic unit suite (with coverage thresholds) and the suites that run real pi.

import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["tests/**/*.test.ts"],
		exclude: ["tests/e2e/**", "node_modules/**"],
		coverage: {
			provider: "v8",
			include: ["src/**/*.ts"],
			exclude: ["src/demo/**"],
			reporter: ["text", "json-summary"],
			thresholds: {
				"src/core/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
			},
		},
	},
});
