// The Node parts every host shares: the shell runner (with a fake spawn, so nothing is started) and the Node timers.

import type { ChildProcess, SpawnOptions } from "node:child_process";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeScheduler, systemClock } from "../../../src/adapters/node/node-time.ts";
import { createShellRunner, SHELL } from "../../../src/adapters/node/on-stop-runner.ts";

class FakeChild extends EventEmitter {
	unrefCalls = 0;
	unref(): void {
		this.unrefCalls++;
	}
}

describe("the shell runner", () => {
	function runWith(spawnImpl: (command: string, args: readonly string[], options: SpawnOptions) => FakeChild) {
		const calls: { command: string; args: readonly string[]; options: SpawnOptions }[] = [];
		const reports: string[] = [];
		const children: FakeChild[] = [];
		const runner = createShellRunner((command, args, options) => {
			calls.push({ command, args, options });
			const child = spawnImpl(command, args, options);
			children.push(child);
			return child as unknown as ChildProcess;
		});
		return { runner, calls, reports, children, report: (problem: string) => reports.push(problem) };
	}

	it("passes the command as the single argument of /bin/sh -c, detached, stdio ignored, unref'd", () => {
		const { runner, calls, children, reports, report } = runWith(() => new FakeChild());
		runner.run('say "done"; rm -i x', report);
		expect(calls).toEqual([
			{ command: SHELL, args: ["-c", 'say "done"; rm -i x'], options: { detached: true, stdio: "ignore" } },
		]);
		expect(children[0]?.unrefCalls).toBe(1);
		children[0]?.emit("exit", 0, null);
		expect(reports).toEqual([]);
	});

	it("reports a failure to start, a non-zero exit and a kill", () => {
		const { runner, children, reports, report } = runWith(() => new FakeChild());
		runner.run("missing-program", report);
		children[0]?.emit("exit", 127, null);
		runner.run("hangs", report);
		children[1]?.emit("exit", null, "SIGKILL");
		runner.run("x", report);
		children[2]?.emit("error", new Error("spawn /bin/sh EAGAIN"));
		expect(reports).toEqual([
			'"missing-program" exited with code 127',
			'"hangs" was ended by SIGKILL',
			'could not start "x": spawn /bin/sh EAGAIN',
		]);
	});

	it("reports a spawn that throws", () => {
		const { runner, reports, report } = runWith(() => {
			throw new TypeError("The argument 'args[1]' must be a string without null bytes");
		});
		runner.run("a\u0000b", report);
		runner.run("c", () => undefined);
		expect(reports).toEqual([
			"could not start \"a\u0000b\": The argument 'args[1]' must be a string without null bytes",
		]);
	});

	it("reports a thrown non-error", () => {
		const { runner, reports, report } = runWith(() => {
			throw "nope";
		});
		runner.run("x", report);
		expect(reports).toEqual(['could not start "x": nope']);
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
