// The end-to-end suite (`npm run test:e2e`) in two lanes at once. A real host's run keeps one core busy, so one file at
// a time left the second core of a 2-core machine mostly idle. The files that time a host (a stop within 0.5 s of its
// deadline, a hook within its bound, a run that must end in 20 s) keep the first lane, one at a time, at the normal
// priority. The files that time nothing run beside them one at a time at the lowest CPU priority (`nice -n 19`): they
// take what the first lane leaves, so its measurements see the machine as before. The side lane's output follows the
// first lane's; the suite fails if either does.

import { spawn } from "node:child_process";
import { resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const vitest = resolve(repo, "node_modules/vitest/vitest.mjs");

/**
 * The files that measure no time: each waits for what it checks, however long the host takes. Not the report page's:
 * a hook that writes a page at nice 19 outlasted Claude Code's hook timeout.
 */
const SIDE_LANE = [
	"tests/e2e/opencode/opencode.test.ts",
	"tests/e2e/opencode/subagents.test.ts",
	"tests/e2e/packaging.test.ts",
	"tests/e2e/daily.test.ts",
	"tests/e2e/suggest.test.ts",
	"tests/e2e/claude/subagents.test.ts",
	"tests/e2e/turns-across-processes.test.ts",
	"tests/e2e/extension-runs.test.ts",
	"tests/e2e/build.test.ts",
	"tests/e2e/hook-code-cache.test.ts",
	"tests/e2e/claude/marketplace.test.ts",
	"tests/e2e/steps.test.ts",
	"tests/e2e/codex/subagents.test.ts",
	"tests/e2e/subagent-settings.test.ts",
];

const run = ["run", "--project", "e2e", "--reporter=default", "--reporter=./tests/e2e/support/slowest-reporter.ts"];

/** Runs a lane to its end: its exit code, and its output where it is kept to be printed after the first lane's. */
function lane(command, args, keep) {
	return new Promise((done) => {
		const child = spawn(command, args, { cwd: repo, stdio: keep ? ["ignore", "pipe", "pipe"] : "inherit" });
		const output = [];
		child.stdout?.on("data", (chunk) => output.push(chunk));
		child.stderr?.on("data", (chunk) => output.push(chunk));
		child.on("error", (error) => done({ code: 1, output: [Buffer.from(`${error.message}\n`)] }));
		child.on("close", (code, signal) => done({ code: code ?? (signal ? 1 : 0), output }));
	});
}

const side = lane("nice", ["-n", "19", process.execPath, vitest, ...run, ...SIDE_LANE], true);
const first = await lane(process.execPath, [vitest, ...run, ...SIDE_LANE.map((file) => `--exclude=${file}`)], false);
const beside = await side;
process.stdout.write(`\nThe side lane (${SIDE_LANE.length} files that time nothing, at nice 19):\n`);
for (const chunk of beside.output) process.stdout.write(chunk);
process.exitCode = first.code !== 0 ? first.code : beside.code;
