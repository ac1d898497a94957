// Test configuration: the hermetic unit suite (with coverage thresholds) and the suites that run real pi.

import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["tests/**/*.test.ts"],
		exclude: ["tests/e2e/**", "node_modules/**"],
		coverage: {
			provider: "v8",
			include: ["src/**/*.ts"],
			// The entry only passes the real clock, timers and spawn to the factory; real-pi tests load it.
			exclude: ["src/demo/**", "src/adapters/pi/index.ts"],
			reporter: ["text", "json-summary"],
			thresholds: {
				"src/core/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/pi/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
			},
		},
	},
});
