// The core's one public entry: the session rulebook, its executor for in-process hosts, and what hosts share (ports,
// parsing, texts, constants). Adapters import from here only.

export type {
	AgentEnding,
	Awareness,
	BudgetLimits,
	Decision,
	NudgeUrgency,
	Spend,
	SpentSummary,
	SubagentRun,
	TaskBudget,
	TaskLimit,
	TimeboxBudget,
} from "./budget.ts";
export { NO_SPEND } from "./budget.ts";
export type { CostReporting } from "./command-plan.ts";
export * from "./constants.ts";
export {
	carryOutDaily,
	type DailyAdjustment,
	type DailyBudget,
	type DailyEvent,
	type DailyLimits,
	type DailyPort,
	type DailySession,
	type DailyStanding,
	type DailyUse,
	dailyTransition,
	limitsToday,
	NO_ADJUSTMENT,
	NO_DAILY_SESSION,
	parseDailyBudget,
	parseToday,
	todayCommand,
	todayReport,
} from "./daily.ts";
export { decide, decideMidRun, urgencyFor } from "./decide.ts";
export { type Answer, type Notice, noAnswer, type Question } from "./executor.ts";
export {
	formatAwareLine,
	formatBudgetLabel,
	formatCost,
	formatNudgePrompt,
	formatRemaining,
	formatStatus,
	formatTokens,
	SPENT_STATUS,
	WRAP_UP_PROMPT,
	WRAPPING_UP_STATUS,
} from "./format.ts";
export { type FoldedHistory, foldHistory, type HistoryItem } from "./history.ts";
export { DEFAULT_TERMS, type HostTerms, inHostTerms } from "./host-terms.ts";
export { type ReportPageSource, writeReportPage } from "./live-report-page.ts";
export {
	LiveSession,
	type LiveSessionPorts,
	type ReportPageInput,
	type SettingSource,
	type SettingSources,
} from "./live-session.ts";
export {
	COMMAND_AFTER_RELOAD,
	fileLink,
	internalErrorMessage,
	type ReportPageOutcome,
	USAGE,
	WRAP_UP_REFUSAL,
} from "./messages.ts";
export { formatTime, parseCommand, parseTaskBudget, quoteInput, type TimeboxCommand } from "./parse.ts";
export type {
	BudgetLedger,
	BudgetStore,
	Cancel,
	Clock,
	DailyLedger,
	NotifyLevel,
	OnStopOutcome,
	OnStopStarter,
	Scheduler,
	UIBridge,
} from "./ports.ts";
export { type BudgetRecordData, isBudgetId, parseBudget, parseRecord, type TimeboxRecord } from "./records.ts";
export { type LedgerLookup, sessionReport } from "./report.ts";
export { type BudgetData, type ReportData, type ReportLimits, reportData, type SubagentData } from "./report-data.ts";
export { type CommandDetails, type DailyPart, NO_DAILY_PART, type RuntimePorts, SessionRuntime } from "./runtime.ts";
export {
	type BudgetStanding,
	type Effect,
	EMPTY_SESSION,
	isActive,
	type LedgerClaim,
	type LedgerView,
	type LoadMode,
	NOTHING_RECORDED,
	nextTimeCheckIn,
	outcomeId,
	readLedger,
	type SessionEvent,
	type SessionState,
	shownPrompts,
	statusText,
	type Transition,
	transition,
} from "./session/index.ts";
export { type SubagentsState, setBudgetFor } from "./subagents/state.ts";
export { nextCheckIn } from "./time-checks.ts";
export { type DaySessionUse, type DayUseRow, type TodayBudgetData, type TodayData, todayData } from "./today-data.ts";
