// The real on-stop runner with real processes: what it reports for a good command, a missing program, a failing exit,
// a signal, a command too large to start, one that begins with a dash, one that hangs for minutes and one that prints
// megabytes. Guards against pi blocking on the command, a failure going unreported, or one reported twice.

import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellStarter } from "../../src/adapters/node/on-stop-runner.ts";
import type { OnStopOutcome } from "../../src/core/ports.ts";

let dir: string;
const runner = createShellStarter();

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

function collect(): { outcomes: OnStopOutcome[]; report: (outcome: OnStopOutcome) => void } {
	const outcomes: OnStopOutcome[] = [];
	return { outcomes, report: (outcome) => outcomes.push(outcome) };
}

/** Times a synchronous call in milliseconds. */
function timed(action: () => void): number {
	const start = performance.now();
	action();
	return performance.now() - start;
}

/** Whether a file exists yet. */
function exists(path: string): Promise<boolean> {
	return readFile(path).then(
		() => true,
		() => false,
	);
}

/** Gives a late 'spawn', 'error' or 'exit' event time to arrive, so a test can say that none did. */
function settle(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 300));
}

describe("the on-stop runner with real processes", () => {
	it("runs the command once through /bin/sh and reports only that it started when it succeeds", async () => {
		const { outcomes, report } = collect();
		const out = join(dir, "out.txt");
		runner.start(`echo "ran once" >> '${out}'`, report);
		await expect.poll(() => outcomes, { timeout: 5_000 }).toEqual([{ kind: "started" }]);
		await expect.poll(() => readFile(out, "utf8").catch(() => ""), { timeout: 5_000 }).toBe("ran once\n");
		await settle();
		expect(outcomes).toEqual([{ kind: "started" }]);
		expect(await readFile(out, "utf8")).toBe("ran once\n");
	});

	it("reports a command too large to start (~200 KB, E2BIG) once, as failed, never as started", async () => {
		const { outcomes, report } = collect();
		const out = join(dir, "big.txt");
		const command = `echo ${"x".repeat(200_000)} > '${out}'`;
		runner.start(command, report);
		expect(outcomes).toEqual([{ kind: "failed", problem: `could not start "echo ${"x".repeat(35)}…": spawn E2BIG` }]);
		await settle();
		expect(outcomes).toHaveLength(1);
		expect(outcomes.some((outcome) => outcome.kind === "started")).toBe(false);
		expect(await exists(out)).toBe(false);
	});

	it("runs a command that begins with a dash exactly as typed, not as a shell option", async () => {
		const { outcomes, report } = collect();
		const out = join(dir, "dash.txt");
		runner.start(`-x 2>/dev/null; echo ran > '${out}'`, report);
		await expect.poll(() => readFile(out, "utf8").catch(() => ""), { timeout: 5_000 }).toBe("ran\n");
		await settle();
		expect(outcomes).toEqual([{ kind: "started" }]);
	});

	it("runs a command named like an option as a program: not found (127), not an option error (2)", async () => {
		const { outcomes, report } = collect();
		runner.start("--version", report);
		await expect
			.poll(() => outcomes, { timeout: 5_000 })
			.toEqual([{ kind: "started" }, { kind: "exited", problem: '"--version" exited with code 127' }]);
	});

	it("reports a missing program as started, then exited with code 127", async () => {
		const { outcomes, report } = collect();
		runner.start("timebox-no-such-program-xyz", report);
		await expect
			.poll(() => outcomes, { timeout: 5_000 })
			.toEqual([
				{ kind: "started" },
				{ kind: "exited", problem: '"timebox-no-such-program-xyz" exited with code 127' },
			]);
		await settle();
		expect(outcomes).toHaveLength(2);
	});

	it("reports a command that exits non-zero", async () => {
		const { outcomes, report } = collect();
		runner.start("exit 3", report);
		await expect
			.poll(() => outcomes, { timeout: 5_000 })
			.toEqual([{ kind: "started" }, { kind: "exited", problem: '"exit 3" exited with code 3' }]);
	});

	it("reports a command ended by a signal", async () => {
		const { outcomes, report } = collect();
		runner.start("kill -TERM $$", report);
		await expect
			.poll(() => outcomes, { timeout: 5_000 })
			.toEqual([{ kind: "started" }, { kind: "exited", problem: '"kill -TERM $$" was ended by SIGTERM' }]);
	});

	it("reports a shell that cannot be found (an 'error' event from Node) once, as failed, never as started", async () => {
		const { outcomes, report } = collect();
		const missingShell = join(dir, "no-such-sh");
		// Runs in the temp dir, so the command names its file briefly enough to be shown whole.
		const brokenRunner = createShellStarter((_file, args, options) =>
			spawn(missingShell, args, { ...options, cwd: dir }),
		);
		brokenRunner.start("touch never.txt", report);
		await expect
			.poll(() => outcomes, { timeout: 5_000 })
			.toEqual([{ kind: "failed", problem: `could not start "touch never.txt": spawn ${missingShell} ENOENT` }]);
		await settle();
		expect(outcomes).toHaveLength(1);
		expect(await exists(join(dir, "never.txt"))).toBe(false);
	});

	it("returns at once from a command that hangs for minutes, and leaves it running detached", async () => {
		const { outcomes, report } = collect();
		const marker = join(dir, "hang-started");
		const elapsed = timed(() => runner.start(`touch '${marker}'; sleep 600 # ${dir}`, report));
		expect(elapsed).toBeLessThan(100);
		await expect.poll(() => exists(marker), { timeout: 5_000 }).toBe(true);
		const running = execFileSync("pgrep", ["-f", `sleep 600 # ${dir}`])
			.toString()
			.trim();
		expect(running.length).toBeGreaterThan(0);
		expect(outcomes).toEqual([{ kind: "started" }]);
	});

	it("does not block or buffer a command that prints megabytes", async () => {
		const { outcomes, report } = collect();
		const done = join(dir, "done");
		const elapsed = timed(() => runner.start(`head -c 50000000 /dev/zero; touch '${done}'`, report));
		expect(elapsed).toBeLessThan(100);
		await expect.poll(() => exists(done), { timeout: 10_000 }).toBe(true);
		await settle();
		expect(outcomes).toEqual([{ kind: "started" }]);
	});
});
