// The Node parts every host shares: the on-stop shell runner (with a fake spawn, so nothing is started), the wrapper it
// starts a command through behind a mark (in the real sh), and the timers.

import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nodeScheduler, systemClock } from "../../../src/adapters/node/node-time.ts";
import { createShellStarter, SHELL, SHELL_ARGS } from "../../../src/adapters/node/on-stop-runner.ts";
import { ON_STOP_WRAPPER, wrapperArgs } from "../../../src/adapters/on-stop/wrapper.ts";
import type { OnStopOutcome } from "../../../src/core/index.ts";

class FakeChild extends EventEmitter {
	/** Node sets a pid at once for a process it created, and none for one it could not. */
	pid: number | undefined;
	unrefCalls = 0;
	unref(): void {
		this.unrefCalls++;
	}
}

type SpawnCall = { command: string; args: readonly string[]; options: SpawnOptions };

describe("the shell runner", () => {
	/** Runs one command through a runner whose spawn returns a fake child (or throws); the test drives its events. */
	function runOne(command: string, spawnImpl: () => FakeChild = () => new FakeChild()) {
		const calls: SpawnCall[] = [];
		const outcomes: OnStopOutcome[] = [];
		let child: FakeChild | undefined;
		const runner = createShellStarter((file, args, options) => {
			calls.push({ command: file, args, options });
			child = spawnImpl();
			return child as unknown as ChildProcess;
		});
		runner.start(command, (outcome) => outcomes.push(outcome));
		return { calls, outcomes, child: child ?? new FakeChild() };
	}

	it("passes the command as the single argument after /bin/sh -c --, detached, stdio ignored, unref'd", () => {
		const { calls, child } = runOne('say "done"; rm -i x');
		expect(calls).toEqual([
			{ command: SHELL, args: ["-c", "--", 'say "done"; rm -i x'], options: { detached: true, stdio: "ignore" } },
		]);
		expect(SHELL_ARGS).toEqual(["-c", "--"]);
		expect(child.unrefCalls).toBe(1);
	});

	it("passes a command that begins with a dash exactly as typed, after the end of the shell's options", () => {
		expect(runOne("-x; echo hi").calls[0]?.args).toEqual(["-c", "--", "-x; echo hi"]);
		expect(runOne("--version").calls[0]?.args).toEqual(["-c", "--", "--version"]);
	});

	it("reports nothing until the process has started, then started once, and nothing for a clean exit", () => {
		const { outcomes, child } = runOne("echo ok");
		expect(outcomes).toEqual([]);
		child.emit("spawn");
		expect(outcomes).toEqual([{ kind: "started" }]);
		child.emit("spawn");
		child.emit("exit", 0, null);
		expect(outcomes).toEqual([{ kind: "started" }]);
	});

	it("reports started at once for a process Node gave a pid, and only once when 'spawn' follows", () => {
		const { outcomes, child } = runOne("echo ok", () => Object.assign(new FakeChild(), { pid: 4242 }));
		expect(outcomes).toEqual([{ kind: "started" }]);
		child.emit("spawn");
		child.emit("exit", 3, null);
		expect(outcomes).toEqual([{ kind: "started" }, { kind: "exited", problem: '"echo ok" exited with code 3' }]);
	});

	it("reports a non-zero exit after started, once", () => {
		const { outcomes, child } = runOne("missing-program");
		child.emit("spawn");
		child.emit("exit", 127, null);
		child.emit("exit", 1, null);
		expect(outcomes).toEqual([
			{ kind: "started" },
			{ kind: "exited", problem: '"missing-program" exited with code 127' },
		]);
	});

	it("reports a signal after started", () => {
		const { outcomes, child } = runOne("hangs");
		child.emit("spawn");
		child.emit("exit", null, "SIGTERM");
		expect(outcomes).toEqual([{ kind: "started" }, { kind: "exited", problem: '"hangs" was ended by SIGTERM' }]);
	});

	it("reports a spawn that throws (E2BIG) once, as failed, never started", () => {
		const error = Object.assign(new Error("spawn E2BIG"), { code: "E2BIG" });
		const { outcomes } = runOne("echo big", () => {
			throw error;
		});
		expect(outcomes).toEqual([{ kind: "failed", problem: 'could not start "echo big": spawn E2BIG' }]);
	});

	it("takes the mark of a start that failed, so that no later process starts it again and calls it late", () => {
		const folder = mkdtempSync(join(tmpdir(), "timebox-failed-start-"));
		try {
			const mark = join(folder, "b.spent.started");
			const outcomes: OnStopOutcome[] = [];
			const big = Object.assign(new Error("spawn E2BIG"), { code: "E2BIG" });
			const throwing = createShellStarter(() => {
				throw big;
			});
			throwing.start("echo big", (outcome) => outcomes.push(outcome), { mark });
			expect(outcomes).toEqual([{ kind: "failed", problem: 'could not start "echo big": spawn E2BIG' }]);
			expect(readFileSync(mark, "utf8")).toBe("");
			// An error event before the spawn, the mark there already (a wrapper of another start took it): left as it is.
			const child = new FakeChild();
			const failing = createShellStarter(() => child as unknown as ChildProcess);
			failing.start("x", (outcome) => outcomes.push(outcome), { mark });
			child.emit("error", new Error("spawn /bin/sh ENOENT"));
			expect(outcomes.at(-1)).toEqual({ kind: "failed", problem: 'could not start "x": spawn /bin/sh ENOENT' });
			expect(readFileSync(mark, "utf8")).toBe("");
			// A folder that takes no mark: the failure is said all the same.
			const gone = join(folder, "gone", "c.spent.started");
			throwing.start("echo big", (outcome) => outcomes.push(outcome), { mark: gone });
			expect(outcomes.at(-1)).toMatchObject({ kind: "failed" });
			expect(existsSync(gone)).toBe(false);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});

	it("reports a thrown non-error as failed", () => {
		const { outcomes } = runOne("x", () => {
			throw "nope";
		});
		expect(outcomes).toEqual([{ kind: "failed", problem: 'could not start "x": nope' }]);
	});

	it("reports an error before spawn once, as failed, and ignores any later event", () => {
		const { outcomes, child } = runOne("x");
		child.emit("error", new Error("spawn /bin/sh ENOENT"));
		child.emit("error", new Error("spawn /bin/sh EAGAIN"));
		child.emit("spawn");
		child.emit("exit", 127, null);
		expect(outcomes).toEqual([{ kind: "failed", problem: 'could not start "x": spawn /bin/sh ENOENT' }]);
	});

	it("ignores an exit seen before spawn, and an error after spawn without throwing it at the host", () => {
		const { outcomes, child } = runOne("x");
		child.emit("exit", 2, null);
		child.emit("spawn");
		expect(() => child.emit("error", new Error("kill EPERM"))).not.toThrow();
		expect(outcomes).toEqual([{ kind: "started" }]);
	});

	it("shows a long command cut short in the problem, as the rest of Timebox shows input", () => {
		const { outcomes } = runOne(`echo ${"x".repeat(200_000)}`, () => {
			throw new Error("spawn E2BIG");
		});
		expect(outcomes).toEqual([{ kind: "failed", problem: `could not start "echo ${"x".repeat(35)}…": spawn E2BIG` }]);
	});
});

describe("the shell runner behind a start mark", () => {
	const MARK = "/ledger/budget-1.spent.started";

	/** Runs one command behind `MARK` through a runner whose spawn returns a fake child with descriptor 3 piped. */
	function runMarked(command: string, untilMarked: boolean) {
		const calls: SpawnCall[] = [];
		const outcomes: OnStopOutcome[] = [];
		const child = new FakeChild();
		const pipe = new Socket();
		Object.assign(child, { stdio: [null, null, null, untilMarked ? pipe : null] });
		const runner = createShellStarter(
			(file, args, options) => {
				calls.push({ command: file, args, options });
				return child as unknown as ChildProcess;
			},
			{ untilMarked },
		);
		runner.start(command, (outcome) => outcomes.push(outcome), { mark: MARK });
		return { calls, outcomes, child, pipe };
	}

	it("starts the wrapper with the mark and the command as its two arguments, each exactly as given", () => {
		const { calls } = runMarked(`-x; echo "it's done" $HOME`, false);
		expect(calls).toEqual([
			{
				command: SHELL,
				args: ["-c", ON_STOP_WRAPPER, "sh", MARK, `-x; echo "it's done" $HOME`],
				options: { detached: true, stdio: "ignore" },
			},
		]);
		expect(ON_STOP_WRAPPER).toBe(
			'set -C; if ! true 2>/dev/null >"$1" && [ -e "$1" ]; then [ -z "$3" ] || printf t 2>/dev/null >&3; exit 0; fi; exec /bin/sh -c -- "$2" 3>&-',
		);
	});

	it("says started as soon as the process exists, unless told to wait for the mark", () => {
		const { outcomes, child } = runMarked("lmk", false);
		child.emit("spawn");
		expect(outcomes).toEqual([{ kind: "started" }]);
	});

	it("waiting for the mark, says started once the wrapper closes descriptor 3, and a failing exit after", () => {
		const { calls, outcomes, child, pipe } = runMarked("lmk", true);
		expect(calls[0]?.options.stdio).toEqual(["ignore", "ignore", "ignore", "pipe"]);
		child.emit("spawn");
		expect(outcomes).toEqual([]);
		pipe.emit("error", new Error("EPIPE"));
		pipe.emit("close", false);
		expect(outcomes).toEqual([{ kind: "started" }]);
		child.emit("exit", 3, null);
		expect(outcomes).toHaveLength(1);
		child.emit("close", 3, null);
		expect(outcomes).toEqual([{ kind: "started" }, { kind: "exited", problem: '"lmk" exited with code 3' }]);
	});

	it("waiting for the mark, tells the wrapper to say a mark taken, and says alreadyStarted when it does", () => {
		const { calls, outcomes, child, pipe } = runMarked("lmk", true);
		expect(calls[0]?.args).toEqual(["-c", ON_STOP_WRAPPER, "sh", MARK, "lmk", "t"]);
		child.emit("spawn");
		pipe.emit("data", Buffer.from("t"));
		child.emit("exit", 0, null);
		expect(outcomes).toEqual([]);
		pipe.emit("close", false);
		child.emit("close", 0, null);
		expect(outcomes).toEqual([{ kind: "alreadyStarted" }]);
	});

	it("told to wait for a mark, starts a command that has none with nothing more to wait for: started at its spawn", () => {
		const calls: SpawnCall[] = [];
		const outcomes: OnStopOutcome[] = [];
		const child = new FakeChild();
		const runner = createShellStarter(
			(file, args, options) => {
				calls.push({ command: file, args, options });
				return child as unknown as ChildProcess;
			},
			{ untilMarked: true },
		);
		runner.start("lmk", (outcome) => outcomes.push(outcome));
		expect(calls[0]?.options.stdio).toBe("ignore");
		child.emit("spawn");
		expect(outcomes).toEqual([{ kind: "started" }]);
	});

	it("waiting for the mark, waits past an exit seen before the pipe's end, for what the pipe says", () => {
		const { outcomes, child, pipe } = runMarked("lmk", true);
		child.pid = 42;
		child.emit("spawn");
		child.emit("exit", 0, null);
		expect(outcomes).toEqual([]);
		pipe.emit("close", false);
		child.emit("close", 0, null);
		expect(outcomes).toEqual([{ kind: "started" }]);
	});
});

describe("the wrapper in the real sh", () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), "timebox-wrapper-"));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	/** Runs the wrapper to its end (and the command with it, which runs in its place). */
	function wrapped(mark: string, command: string) {
		return spawnSync(SHELL, wrapperArgs(mark, command), { encoding: "utf8" });
	}

	/** Starts `command` the way every starter does, with the mark or (`null`) without, and resolves at its end. */
	function started(mark: string | null, command: string): Promise<void> {
		const args = mark === null ? [...SHELL_ARGS, command] : wrapperArgs(mark, command);
		return new Promise((done) => spawn(SHELL, args, { stdio: "ignore" }).once("exit", () => done()));
	}

	it("runs the command once: the first wrapper takes the mark, the next one ends there", () => {
		const mark = join(dir, "b.spent.started");
		const out = join(dir, "out");
		expect(wrapped(mark, `echo ran >> '${out}'`).status).toBe(0);
		expect(wrapped(mark, `echo ran >> '${out}'`).status).toBe(0);
		expect(readFileSync(out, "utf8")).toBe("ran\n");
		expect(existsSync(mark)).toBe(true);
	});

	it("runs a command that begins with a dash, and one full of quotes, exactly as typed", () => {
		expect(wrapped(join(dir, "m1"), "-x 2>/dev/null; echo ran").stdout).toBe("ran\n");
		const quoted = `printf '%s|' "it's" 'a "quote"' $0; echo`;
		expect(wrapped(join(dir, "m2"), quoted).stdout).toBe(`it's|a "quote"|/bin/sh|\n`);
	});

	it("runs the command with no mark where none can be made (no folder), as a claim that could not be written fires", () => {
		const mark = join(dir, "missing", "b.spent.started");
		expect(wrapped(mark, "echo ran").stdout).toBe("ran\n");
		expect(existsSync(mark)).toBe(false);
	});

	it("ends at anything in the mark's place: a folder is a mark taken", () => {
		const mark = join(dir, "b.spent.started");
		mkdirSync(mark);
		expect(wrapped(mark, "echo ran").stdout).toBe("");
	});

	it("says a mark taken on descriptor 3 only when told to: the runner that waits hears which start ran it", async () => {
		const mark = join(dir, "told.started");
		const out = join(dir, "out");
		const starter = createShellStarter(spawn, { untilMarked: true });
		const outcome = (command: string) => new Promise<OnStopOutcome>((done) => starter.start(command, done, { mark }));
		expect(await outcome(`echo first >> '${out}'`)).toEqual({ kind: "started" });
		expect(await outcome(`echo second >> '${out}'`)).toEqual({ kind: "alreadyStarted" });
		// Not told, the wrapper at a mark taken writes nothing to a descriptor 3 it was given.
		const untold = spawnSync(SHELL, wrapperArgs(mark, `echo third >> '${out}'`), {
			stdio: ["ignore", "pipe", "pipe", "pipe"],
		});
		expect(untold.output[3]?.toString()).toBe("");
		const told = spawnSync(SHELL, wrapperArgs(mark, "true", true), { stdio: ["ignore", "pipe", "pipe", "pipe"] });
		expect(told.output[3]?.toString()).toBe("t");
		// The runner answers once the mark is taken; the command it started, in a session of its own, writes a moment later.
		// Each in any order: a command started later may write first.
		const written = (lines: string[]) =>
			vi.waitFor(() => expect(readFileSync(out, "utf8").split("\n").filter(Boolean).sort()).toEqual(lines), {
				timeout: 5_000,
				interval: 5,
			});
		await written(["first"]);
		// Two at once, as two hooks that recover one command: one says it started it, the other that it was started.
		for (let round = 0; round < 3; round++) {
			const raced = (command: string) =>
				new Promise<OnStopOutcome>((done) => starter.start(command, done, { mark: `${mark}${round}` }));
			const both = await Promise.all([raced(`echo ${round} >> '${out}'`), raced(`echo ${round} >> '${out}'`)]);
			expect(both.map((said) => said.kind).sort()).toEqual(["alreadyStarted", "started"]);
		}
		await written(["0", "1", "2", "first"]);
	});

	it("runs the command once when two starters race for one mark (a recovery and the claimant's own start)", async () => {
		// Without the mark the same race runs it twice: the mark, not the timing, is what keeps it once.
		for (const mark of [join(dir, "race.started"), null]) {
			const out = join(dir, `out-${mark === null ? "unmarked" : "marked"}`);
			for (let round = 0; round < 3; round++) {
				const command = `echo ${round} >> '${out}'`;
				await Promise.all([started(mark && `${mark}${round}`, command), started(mark && `${mark}${round}`, command)]);
			}
			const lines = readFileSync(out, "utf8").split("\n").filter(Boolean);
			expect(lines).toHaveLength(mark === null ? 6 : 3);
		}
	});
});

describe("Node timers", () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it("fires and cancels timeouts and intervals", () => {
		vi.useFakeTimers();
		const fired: string[] = [];
		const cancelTimeout = nodeScheduler.setTimeout(() => fired.push("timeout"), 100);
		const cancelInterval = nodeScheduler.setInterval(() => fired.push("tick"), 40);
		vi.advanceTimersByTime(100);
		expect(fired).toEqual(["tick", "tick", "timeout"]);
		cancelInterval();
		cancelTimeout();
		vi.advanceTimersByTime(1_000);
		expect(fired).toHaveLength(3);
		const cancelled = nodeScheduler.setTimeout(() => fired.push("never"), 10);
		cancelled();
		vi.advanceTimersByTime(20);
		expect(fired).toHaveLength(3);
	});

	it("reads the wall clock", () => {
		vi.useFakeTimers({ now: 1_234_567 });
		expect(systemClock.now()).toBe(1_234_567);
	});
});
