// The store a hook's rules write through: the session's log, for every write the executor carries out (the budget's
// records, the prompts that ran (and any that did not after all), what responses used, the lines one hook leaves the next, the summary of the log the
// next hooks read on from).

import type { Clock, EffectPorts } from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";

/** What the hook's store writes to. */
export interface LogStoreDeps {
	store: SessionLog;
	clock: Clock;
}

/** The executor's store over the session's log. */
export function logStore(deps: LogStoreDeps): EffectPorts["store"] {
	return {
		append: (record) => deps.store.append(record),
		appendPrompt: (key) => deps.store.appendPrompt(key, deps.clock.now()),
		dropPrompt: (key) => deps.store.dropPrompt(key, deps.clock.now()),
		recordUsage: (usage) => deps.store.recordUsage(usage),
		appendLine: (line) => deps.store.appendLine(line),
		keepFold: (fold) => deps.store.keepFold(fold),
	};
}
