// The ports a pi session's rules reach pi's session through: its daily ledger opened at first use, its terms, the
// report page written for it and the past sessions of its working folder.

import {
	type DailyLedger,
	DEFAULT_TERMS,
	type HostTerms,
	NO_TEAM,
	type ProjectHistory,
	type ReportPageInput,
} from "../../core/index.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../report/writer.ts";
import type { SessionContext } from "./session-context.ts";

/** The daily ledger of a pi session, and how to open it once the session, and so its id, is known. */
export interface SessionDailyLedger extends DailyLedger {
	/** Opens the ledger now (at the session's start), unless it is open: no later event pays for opening it. */
	open(): void;
}

/**
 * A daily ledger opened at the session's start (`open()`), or at its first use if that comes first. The extension is
 * loaded before pi names its session; every event asks the ledger whether a team is set, so a session's first prompt
 * would otherwise open it: read the settings and the environment, in a fresh process's code not yet compiled.
 */
export function lazyDailyLedger(sessionId: () => string, open: (sessionId: string) => DailyLedger): SessionDailyLedger {
	let ledger: DailyLedger | null = null;
	const get = (): DailyLedger => {
		ledger ??= open(sessionId());
		return ledger;
	};
	return {
		open: () => void get(),
		get team() {
			return get().team;
		},
		standings: (budgets) => get().standings(budgets),
		countPrompt: (budgets, limits) => get().countPrompt(budgets, limits),
		addUse: (budgets, use) => get().addUse(budgets, use),
		reserve: (budgets) => get().reserve?.(budgets),
		adjust: (budget, adjustment) => get().adjust(budget, adjustment),
		problem: () => get().problem(),
		dayUnread: () => get().dayUnread?.() ?? null,
		teamView: () => get().teamView?.() ?? { unreadable: NO_TEAM },
		setTeamLimits: (limits) => get().setTeamLimits?.(limits) ?? { failed: NO_TEAM },
		askTeam: (adjustment, why) => get().askTeam?.(adjustment, why) ?? { failed: NO_TEAM },
	};
}

/** pi in its users' words: a daily budget is set in the environment, its settings file, or the project's. */
export function piTerms(settingsFile: string): HostTerms {
	return {
		...DEFAULT_TERMS,
		dailySetting: `Set TIMEBOX_DAILY="3h turns:60 cost:10" in the environment, or "daily" under the timebox key of ${settingsFile} or of .pi/settings.json in the project.`,
	};
}

/** The report page of this pi session, written by `write`, with the suggested budget of its working folder. */
export function writeWith(
	write: ReportPageWriter,
	context: SessionContext,
): (input: ReportPageInput) => Promise<string> {
	return (input) => {
		const ctx = context.require();
		return write(input, { id: ctx.sessionManager.getSessionId(), host: "pi", project: ctx.cwd });
	};
}

/** The past sessions of this pi session's working folder, read by `read`, leaving this one out. */
export function readWith(read: ProjectHistoryReader, context: SessionContext): () => Promise<ProjectHistory> {
	return () => {
		const ctx = context.require();
		return read(ctx.cwd, ctx.sessionManager.getSessionId());
	};
}
