// The Node parts every host shares: the on-stop shell runner (with a fake spawn, so nothing is started) and the timers.

import type { ChildProcess, SpawnOptions } from "node:child_process";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeScheduler, systemClock } from "../../../src/adapters/node/node-time.ts";
import { createShellStarter, SHELL, SHELL_ARGS } from "../../../src/adapters/node/on-stop-runner.ts";
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
