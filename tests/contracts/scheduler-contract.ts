// The contract every Scheduler keeps where the core relies on it, as one suite run against the fake scheduler (in the
// unit suite) and Node's timers (in the end-to-end suite, where waiting is allowed).

import { describe, expect, it } from "vitest";
import type { Scheduler } from "../../src/core/index.ts";

export interface SchedulerUnderTest {
	scheduler: Scheduler;
	/** Lets `ms` pass, firing what falls due. */
	pass(ms: number): Promise<void>;
}

/** Runs the scheduler contract; delays are small so real timers finish quickly. */
export function schedulerContract(name: string, make: () => SchedulerUnderTest): void {
	describe(`the ${name} scheduler`, () => {
		it("fires a timeout once, after its delay and not before", async () => {
			const { scheduler, pass } = make();
			const fired: string[] = [];
			scheduler.setTimeout(() => fired.push("due"), 40);
			await pass(10);
			expect(fired).toEqual([]);
			await pass(120);
			expect(fired).toEqual(["due"]);
			await pass(100);
			expect(fired).toEqual(["due"]);
		});

		it("never fires a cancelled timer, and a second cancel is harmless", async () => {
			const { scheduler, pass } = make();
			const fired: string[] = [];
			const cancel = scheduler.setTimeout(() => fired.push("timeout"), 20);
			const stop = scheduler.setInterval(() => fired.push("interval"), 20);
			cancel();
			cancel();
			stop();
			stop();
			await pass(100);
			expect(fired).toEqual([]);
		});

		it("repeats an interval until it is cancelled", async () => {
			const { scheduler, pass } = make();
			let ticks = 0;
			const stop = scheduler.setInterval(() => ticks++, 20);
			await pass(110);
			expect(ticks).toBeGreaterThanOrEqual(3);
			stop();
			const seen = ticks;
			await pass(100);
			expect(ticks).toBe(seen);
		});

		it("fires timers in the order they fall due, and a timer set from a callback fires too", async () => {
			const { scheduler, pass } = make();
			const fired: string[] = [];
			scheduler.setTimeout(() => fired.push("late"), 80);
			scheduler.setTimeout(() => {
				fired.push("early");
				scheduler.setTimeout(() => fired.push("chained"), 10);
			}, 20);
			await pass(200);
			expect(fired).toEqual(["early", "chained", "late"]);
		});
	});
}
