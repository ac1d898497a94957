// What a live session (pi, opencode, Claude Code's hooks module) needs from its host: its ports, and the settings the
// host read and where each came from.

import type { DailyStanding } from "../daily/daily-budget.ts";
import type { CostReporting } from "../grammar/command-plan.ts";
import type { DailyTeam, TeamView } from "../model/daily.ts";
import type {
	AgentBridge,
	BudgetLedger,
	Clock,
	DailyLedger,
	OnStopStarter,
	Scheduler,
	SessionStore,
	TranscriptBridge,
	UIBridge,
} from "../ports.ts";
import type { HostTerms } from "../text/host-terms.ts";
import type { ReportData } from "../text/report-data.ts";
import type { ProjectHistory } from "./suggestion.ts";

/** Everything a live session needs from its host. */
export interface LiveSessionPorts {
	store: SessionStore;
	ledger: BudgetLedger;
	ui: UIBridge;
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopStarter;
	/**
	 * The running agent: its run ended (and any re-run the host has pending; harmless while idle), and the system prompt
	 * of its next start, where the host can add to it.
	 */
	agent: Pick<AgentBridge, "abortCurrentTurn"> & Partial<Pick<AgentBridge, "appendSystemPrompt">>;
	/** The session's transcript, where the host can count its user messages: a new budget's `startTurn`. */
	transcript?: TranscriptBridge;
	/**
	 * Ends a subagent now, with no further model request (its budget, or the session's, is spent); called for every
	 * subagent an answer stops, those a time check stops included. A host that sees no subagents leaves it out.
	 */
	stopAgent?(agent: string): void;
	/**
	 * Tells every subagent running in a process of its own that the session's budget is spent (its rules then stop it);
	 * a host whose subagents run in its own process leaves it out.
	 */
	stopSubagents?(): void;
	/** A new budget id, never used before. */
	newBudgetId(): string;
	/** Whether the user can be asked now (an interactive UI); a host that can never ask leaves it out. */
	canAsk?(): boolean;
	/**
	 * Asks the user to choose; resolves to the index chosen, or undefined when nobody chose within `timeoutMs` or the
	 * question was closed through `signal`. Only called while `canAsk()` says so.
	 */
	ask?(
		question: string,
		choices: readonly string[],
		timeoutMs: number,
		signal: AbortSignal,
	): Promise<number | undefined>;
	/** Whether the model in use reports what it costs, so that a cost limit can be enforced; default: it does. */
	costReporting?(): CostReporting;
	/** The ledger of the daily budgets every session shares; absent where there is none. */
	daily?: DailyLedger;
	/** How the host's users type the command and what the host measures; pi's when absent. */
	terms?: HostTerms;
	/**
	 * Writes the report page of the session and today (`/timebox report page`) and resolves to the file's path; absent
	 * where the host writes no page.
	 */
	reportPage?(page: ReportPageInput): Promise<string>;
	/**
	 * Reads the past sessions of the project the session runs in, of every host on the machine, for `/timebox suggest`
	 * and a default of `suggested`; absent where the host reads none.
	 */
	projectHistory?(): Promise<ProjectHistory>;
	/**
	 * The store is given a prompt or a response's usage only while a budget is in force: nothing reads a session's
	 * history without one back (no suggested budget is made from its sessions). By default it is given every one.
	 */
	historyWhileBudgeted?: boolean;
}

/** What the report page of a live session shows: its report, and today's daily budgets as they stand. */
export interface ReportPageInput {
	report: ReportData;
	standings: readonly DailyStanding[];
	/** A team's store the session counts in: the team, and its admin's limits and open requests (`/timebox team`). */
	team?: { team: DailyTeam; view: TeamView; unread?: string | null };
}

/** A setting's value and where it came from, as the user would name it. */
export interface SettingSource {
	value: unknown;
	source: string;
}

/**
 * The session's settings: what to do at the limit, what the model is told, the grace period at the limit, and the
 * subagents' budget.
 */
export interface SettingSources {
	onLimit?: SettingSource | null;
	awareness?: SettingSource | null;
	grace?: SettingSource | null;
	/** The budget every subagent gets (`subagents`, or `TIMEBOX_SUBAGENTS`), by agent type where it is a map. */
	subagents?: SettingSource | null;
	/** The daily budgets that cover this session, with whose sessions share each (`user`, `project:<path>`). */
	daily?: readonly (SettingSource & { scope: string })[];
}
