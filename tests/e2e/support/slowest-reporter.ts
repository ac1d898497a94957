// A reporter for the end-to-end suite: after the run, the files that took longest, one line each, so that the last
// lines of a CI log say where its minutes went.

import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files are listed. */
const LISTED = 20;

export default class SlowestFiles implements Reporter {
	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const timed = modules
			.map((module) => ({ file: relative(process.cwd(), module.moduleId), ms: module.diagnostic().duration }))
			.toSorted((a, b) => b.ms - a.ms);
		const total = timed.reduce((sum, { ms }) => sum + ms, 0);
		const lines = timed.slice(0, LISTED).map(({ file, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
		process.stdout.write(
			`\nThe ${Math.min(LISTED, timed.length)} slowest of ${timed.length} files (${(total / 1000).toFixed(0)} s in all):\n${lines.join("\n")}\n`,
		);
	}
}
