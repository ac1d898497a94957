// Timers that only fire while the pi session is alive: an SDK session disposed without session_shutdown leaves its
// context stale, and a budget of a dead session must not stop anything or run its on-stop command.

import type { Cancel, Scheduler } from "../../core/index.ts";

/** Wraps a scheduler so callbacks run only while `isLive()`; a timer that finds the session gone cancels itself. */
export function liveOnlyScheduler(scheduler: Scheduler, isLive: () => boolean): Scheduler {
	return {
		setTimeout(callback, delayMs) {
			return scheduler.setTimeout(() => {
				if (isLive()) callback();
			}, delayMs);
		},
		setInterval(callback, intervalMs) {
			const cancel: Cancel = scheduler.setInterval(() => {
				if (isLive()) callback();
				else cancel();
			}, intervalMs);
			return cancel;
		},
	};
}
