// The timers of a live session: the status refresh every second while a budget is active (or a run counts against a
// daily time limit), and one time check armed at the next point the rules name (80%, 95%, the deadline), so a limit
// fires on time and not at the next refresh.

import { STATUS_REFRESH_INTERVAL_MS } from "../constants.ts";
import type { Cancel, Clock, Scheduler } from "../ports.ts";
import { isActive, nextTimeCheckIn, type SessionState } from "../session/index.ts";
import { hasSubagentTimers, nextSubagentCheckIn } from "../subagents/state.ts";

/** Keeps a session's time checks armed; `check` is called at each. */
export class TimeChecks {
	private refreshTimer: Cancel | null = null;
	private checkTimer: Cancel | null = null;
	private checkDue: number | null = null;

	constructor(
		private readonly scheduler: Scheduler,
		private readonly clock: Clock,
		private readonly check: () => void,
	) {}

	/**
	 * Arms what `state` needs now: nothing without an active budget, a run under a daily time limit, or a subagent
	 * whose time runs.
	 */
	arm(state: SessionState, dailyRun: boolean): void {
		if (!isActive(state) && !dailyRun && !hasSubagentTimers(state.subagents)) {
			this.cancel();
			return;
		}
		this.refreshTimer ??= this.scheduler.setInterval(this.check, STATUS_REFRESH_INTERVAL_MS);
		const now = this.clock.now();
		const delay = nextCheckIn(state, now);
		if (delay === null) {
			this.cancelCheck();
			return;
		}
		if (now + delay === this.checkDue) return;
		this.cancelCheck();
		this.checkDue = now + delay;
		this.checkTimer = this.scheduler.setTimeout(() => {
			this.checkDue = null;
			this.checkTimer = null;
			this.check();
		}, delay);
	}

	/** Stops every timer. */
	cancel(): void {
		this.refreshTimer?.();
		this.refreshTimer = null;
		this.cancelCheck();
	}

	private cancelCheck(): void {
		this.checkTimer?.();
		this.checkTimer = null;
		this.checkDue = null;
	}
}

/** When the next time check is due: the session's next point or a subagent's, whichever comes first; null for none. */
export function nextCheckIn(state: SessionState, now: number): number | null {
	const session = nextTimeCheckIn(state, now);
	const subagents = nextSubagentCheckIn(state.subagents, now);
	if (subagents === null) return session;
	return session === null ? subagents : Math.min(session, subagents);
}
