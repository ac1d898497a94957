// The real clock and scheduler for every Node host; timers are unref'd so they never keep the host running.

import type { Clock, Scheduler } from "../../core/index.ts";

export const systemClock: Clock = { now: () => Date.now() };

export const nodeScheduler: Scheduler = {
	setTimeout(callback, delayMs) {
		const timer = setTimeout(callback, delayMs);
		timer.unref();
		return () => clearTimeout(timer);
	},
	setInterval(callback, intervalMs) {
		const timer = setInterval(callback, intervalMs);
		timer.unref();
		return () => clearInterval(timer);
	},
};
