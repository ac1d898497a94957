// Budget fixtures for tests.

import type { TimeboxBudget } from "../../src/core/model/budget.ts";

export const START = Date.UTC(2026, 10, 22, 9, 0, 0);
export const MINUTE = 60_000;

/** A budget with sensible defaults: id `budget-1`, started at START, no limits set, no on-stop command. */
export function budget(overrides: Partial<TimeboxBudget> = {}): TimeboxBudget {
	return {
		id: "budget-1",
		timeLimitMs: null,
		turnLimit: null,
		startTime: START,
		startTurn: 0,
		softNudgeSent: false,
		active: true,
		onStopCommand: null,
		...overrides,
	};
}
