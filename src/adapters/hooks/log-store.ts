// The store a hook's rules write through: the session's log, for every write the executor carries out (the budget's
// records, the prompts that ran, what responses used, the lines one hook leaves the next), and the watcher of a budget
// with time to run out, started as its record is written.

import { type Clock, type EffectPorts, outcomeId } from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";

/** What the hook's store writes to. */
export interface LogStoreDeps {
	store: SessionLog;
	clock: Clock;
	/** Starts the watcher of a time budget (see HookDeps). */
	startWatcher?: (budget: string) => void;
}

/** The executor's store over the session's log. */
export function logStore(deps: LogStoreDeps): EffectPorts["store"] {
	return {
		append: (record) => {
			deps.store.append(record);
			// A budget with time to run out (set, extended, resumed) is watched until it is spent, off or replaced.
			if (record.kind === "active" && record.budget.timeLimitMs !== null && record.budget.pausedAt === undefined) {
				deps.startWatcher?.(outcomeId(record.budget));
			}
		},
		appendPrompt: (key) => deps.store.appendPrompt(key, deps.clock.now()),
		recordUsage: (usage) => deps.store.recordUsage(usage),
		appendLine: (line) => deps.store.appendLine(line),
	};
}
