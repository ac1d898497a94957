// A reporter for the end-to-end suite: after the run, the files and the tests that took longest, one line each, so
// that the last lines of a CI log say where its minutes went.

import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files, and of the slowest tests, are listed. */
const LISTED = 20;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1).padStart(7)} s`;

export default class SlowestFiles implements Reporter {
	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const timed = modules
			.map((module) => ({ file: relative(process.cwd(), module.moduleId), ms: module.diagnostic().duration }))
			.toSorted((a, b) => b.ms - a.ms);
		const total = timed.reduce((sum, { ms }) => sum + ms, 0);
		const files = timed.slice(0, LISTED).map(({ file, ms }) => `${seconds(ms)}  ${file}`);
		const tests = modules
			.flatMap((module) =>
				[...module.children.allTests()].map((test) => ({
					name: `${relative(process.cwd(), module.moduleId)} > ${test.fullName}`,
					ms: test.diagnostic()?.duration ?? 0,
				})),
			)
			.toSorted((a, b) => b.ms - a.ms)
			.slice(0, LISTED)
			.map(({ name, ms }) => `${seconds(ms)}  ${name}`);
		process.stdout.write(
			`\nThe ${Math.min(LISTED, timed.length)} slowest of ${timed.length} files (${(total / 1000).toFixed(0)} s in all):\n${files.join("\n")}\n` +
				`\nThe ${tests.length} slowest tests:\n${tests.join("\n")}\n`,
		);
	}
}
