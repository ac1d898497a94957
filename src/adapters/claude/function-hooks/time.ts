// Time for a Claude Code session: the timers of `$.clock`, which run in Claude Code's process whether a hook runs or
// not (the idle stop and the on-stop command need no watcher process), and the status line's one-second refresh.

import type { Scheduler } from "../../../core/index.ts";
import type { Engine } from "./engine.ts";

/** The scheduler over `$.clock.after` and `$.clock.every`. */
export function engineScheduler(engine: () => Engine): Scheduler {
	return {
		setTimeout(callback, delayMs) {
			const timer = engine().clock.after(Math.max(0, delayMs), callback);
			return () => timer.cancel();
		},
		setInterval(callback, intervalMs) {
			const timer = engine().clock.every(Math.max(1, intervalMs), callback);
			return () => timer.cancel();
		},
	};
}
