// vitest configuration of `npm run bench`: runs tests/bench/run.ts alone, in one forked process, quietly.

import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { BenchReporter } from "./reporter.ts";

export default defineConfig({
	root: resolve(import.meta.dirname, "../.."),
	test: {
		include: ["tests/bench/run.ts"],
		pool: "forks",
		// Lets the handler benchmark collect garbage between session sizes.
		execArgv: ["--expose-gc"],
		fileParallelism: false,
		// The overshoot runs take the real hosts through 160 runs.
		testTimeout: (process.env.TIMEBOX_BENCH === "overshoot" ? 240 : 15) * 60_000,
		reporters: [new BenchReporter()],
	},
});
