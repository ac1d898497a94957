// The session's part in the daily budgets, kept in the session's log between hooks: the warnings it gave, when the
// running prompt's run started, whether a daily budget stopped it. Read before a hook, written back after it.

import { type DailyPart, NO_DAILY_PART } from "../../core/index.ts";
import type { LogLine } from "../node/log-lines.ts";
import type { SessionLog } from "../node/session-log.ts";

/** The session's daily part for a hook of `promptId`, from the log. */
export function readDailyPart(store: SessionLog, promptId: string): DailyPart {
	const lines = store.lines();
	const started = lines.find(
		(line): line is Extract<LogLine, { kind: "prompt" }> => line.kind === "prompt" && line.promptId === promptId,
	);
	const ended = lines.some((line) => line.kind === "daily-ended" && line.promptId === promptId);
	return {
		...NO_DAILY_PART,
		session: {
			given: lines.flatMap((line) => (line.kind === "daily-warned" ? [line.level] : [])),
			runStartedAt: !ended && started !== undefined ? started.at : null,
			stopped: lines.some((line) => line.kind === "daily-stopped" && line.promptId === promptId),
		},
	};
}

/** Writes what changed in the daily part during the hook: new warnings, a stop, the end of the run. */
export function writeDailyPart(
	store: SessionLog,
	promptId: string,
	before: DailyPart,
	after: DailyPart,
	now: number,
): void {
	for (const level of after.session.given) {
		if (!before.session.given.includes(level)) store.appendLine({ kind: "daily-warned", level, at: now });
	}
	if (after.session.stopped && !before.session.stopped) store.appendLine({ kind: "daily-stopped", promptId, at: now });
	if (before.session.runStartedAt !== null && after.session.runStartedAt === null) {
		store.appendLine({ kind: "daily-ended", promptId, at: now });
	}
}
