// Test configuration: the hermetic unit suite (with coverage thresholds) and the suites that run real pi.

import { accessSync, constants } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Where the unit suite keeps its temporary folders: in memory where the system has a writable memory file system
 * (Linux's /dev/shm), else the system's own. The suite makes and removes hundreds of small folders and files (session
 * logs, ledgers, status files); on a disk other processes keep busy, that was most of its time.
 */
function memoryTmpdir(): { TMPDIR: string } | Record<string, never> {
	try {
		accessSync("/dev/shm", constants.W_OK);
		return { TMPDIR: "/dev/shm" };
	} catch {
		return {};
	}
}

export default defineConfig({
	test: {
		// Each module's transform kept on disk, keyed by the file's path, text and the config: a run after the first
		// transforms only what changed, 15 to 20% of the unit suite's CPU time on 2 cores. In the checkout (not in
		// node_modules/, which worktrees may share): vitest empties the whole folder when the lock file changes.
		experimental: { fsModuleCache: true, fsModuleCachePath: ".vitest-cache" },
		projects: [
			{
				test: {
					name: "unit",
					env: memoryTmpdir(),
					// Worker threads start faster than the default forked processes; the unit suite needs no process isolation.
					pool: "threads",
					// One worker per core: vitest leaves one core to its main thread by default, which on 2 cores is one worker
					// for the whole suite, while the main thread does little but report.
					maxWorkers: availableParallelism(),
					// The unit tests share no module state (every port and clock is made per test), so the workers need not
					// reload every module for each file: the suite runs in about half the time.
					isolate: false,
					include: ["tests/**/*.test.ts"],
					exclude: ["tests/e2e/**", "node_modules/**"],
				},
			},
			{
				test: {
					name: "e2e",
					include: ["tests/e2e/**/*.test.ts"],
					// Every pinned host installed at once before the first file (a fresh machine's first run).
					globalSetup: ["tests/e2e/support/install-hosts.ts"],
					// A real host's run takes 10 to 30 s on a busy 2-core machine (opencode's), and a test makes up to six.
					testTimeout: 300_000,
					hookTimeout: 60_000,
					// Real pi sessions, processes and timers: one file at a time keeps timing measurements honest. `npm run
					// test:e2e` runs the files that time nothing beside them, at the lowest priority (scripts/test-e2e.mjs).
					fileParallelism: false,
				},
			},
		],
		coverage: {
			provider: "v8",
			include: ["src/**/*.ts"],
			// The process entries only pass the real clock, timers, stdin and spawn on; the real-host tests run them. Files of types
			// and re-exports only have no code to cover, and would show as 0%.
			exclude: [
				"src/core/model/budget.ts",
				"src/core/model/daily.ts",
				"src/core/model/on-stop.ts",
				"src/core/ports.ts",
				"src/core/run/live-ports.ts",
				"src/core/index.ts",
				// The process entries; the composition roots beside them (the hook script's command line, the report's
				// sources, command line and writers) are tested as the adapters are.
				"src/entries/hooks.ts",
				"src/entries/hook-main.ts",
				"src/entries/pi/**",
				"src/entries/claude-module.ts",
				"src/entries/opencode-*",
				"src/entries/team-*",
				"src/entries/report/entry.ts",
				// The page's script runs in the browser: the browser test (tests/e2e/report-page.test.ts) runs it.
				"src/report-client/**",
			],
			reporter: ["text", "json-summary"],
			thresholds: {
				"src/core/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/pi/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/node/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/on-stop/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/claude/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/hooks/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/gemini/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/codex/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/opencode/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/team/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/adapters/report/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
				"src/entries/**": { lines: 100, functions: 100, statements: 100, branches: 100 },
			},
		},
	},
});
