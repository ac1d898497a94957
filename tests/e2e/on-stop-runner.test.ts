// The real on-stop runner with real processes: a missing program, a failing exit, a command that hangs for minutes and
// one that prints megabytes. Guards against pi blocking on the command, or a failure going unreported.

import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellRunner } from "../../src/adapters/node/on-stop-runner.ts";

let dir: string;
const runner = createShellRunner();

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "timebox-runner-"));
});

afterEach(async () => {
	// End anything a test left running (its command line names the temp dir).
	try {
		execFileSync("pkill", ["-f", dir]);
	} catch {
		// Nothing was left running.
	}
	await rm(dir, { recursive: true, force: true });
});

function collect(): { problems: string[]; report: (problem: string) => void } {
	const problems: string[] = [];
	return { problems, report: (problem) => problems.push(problem) };
}

/** Times a synchronous call in milliseconds. */
function timed(action: () => void): number {
	const start = performance.now();
	action();
	return performance.now() - start;
}

describe("the on-stop runner with real processes", () => {
	it("runs the command once through /bin/sh and reports nothing when it succeeds", async () => {
		const { problems, report } = collect();
		const out = join(dir, "out.txt");
		runner.run(`echo "ran once" >> '${out}'`, report);
		await expect.poll(() => readFile(out, "utf8").catch(() => ""), { timeout: 5_000 }).toBe("ran once\n");
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(problems).toEqual([]);
	});

	it("reports a missing program as a failing exit", async () => {
		const { problems, report } = collect();
		runner.run("timebox-no-such-program-xyz", report);
		await expect
			.poll(() => problems, { timeout: 5_000 })
			.toEqual(['"timebox-no-such-program-xyz" exited with code 127']);
	});

	it("reports a command that exits non-zero", async () => {
		const { problems, report } = collect();
		runner.run("exit 3", report);
		await expect.poll(() => problems, { timeout: 5_000 }).toEqual(['"exit 3" exited with code 3']);
	});

	it("returns at once from a command that hangs for minutes, and leaves it running detached", async () => {
		const { problems, report } = collect();
		const marker = join(dir, "hang-started");
		const elapsed = timed(() => runner.run(`touch '${marker}'; sleep 600 # ${dir}`, report));
		expect(elapsed).toBeLessThan(100);
		await expect
			.poll(
				() =>
					readFile(marker, "utf8").then(
						() => true,
						() => false,
					),
				{ timeout: 5_000 },
			)
			.toBe(true);
		const running = execFileSync("pgrep", ["-f", `sleep 600 # ${dir}`])
			.toString()
			.trim();
		expect(running.length).toBeGreaterThan(0);
		expect(problems).toEqual([]);
	});

	it("does not block or buffer a command that prints megabytes", async () => {
		const { problems, report } = collect();
		const done = join(dir, "done");
		const elapsed = timed(() => runner.run(`head -c 50000000 /dev/zero; touch '${done}'`, report));
		expect(elapsed).toBeLessThan(100);
		await expect
			.poll(
				() =>
					readFile(done, "utf8").then(
						() => true,
						() => false,
					),
				{ timeout: 10_000 },
			)
			.toBe(true);
		expect(problems).toEqual([]);
	});
});
