// The core's one public entry: the session rulebook, its executor for in-process hosts, and what hosts share (ports,
// parsing, texts, constants). Adapters import from here only.

export * from "./constants.ts";
export {
	ADMIN_ONLY,
	budgetsInForce,
	byWhereCounted,
	closedTeamStanding,
	countsInStore,
	type DailyAdjustment,
	type DailyBudget,
	type DailyEvent,
	type DailyLimits,
	type DailyMember,
	type DailyPort,
	type DailySession,
	type DailyStanding,
	type DailyTeam,
	type DailyUse,
	type DailyUseAdded,
	dailyTransition,
	describeAdded,
	limitsToday,
	NO_ADJUSTMENT,
	NO_DAILY_SESSION,
	NO_TEAM,
	PERSONAL_KEPT,
	parseDailyBudget,
	parseTeam,
	parseToday,
	promptTakenMessage,
	requestsAnswered,
	STORE_SOURCE,
	type StoredLimits,
	type TeamAsk,
	type TeamDayReading,
	type TeamView,
	type TeamWrite,
	teamAsksFull,
	teamCommand,
	teamDayRefused,
	teamDayUnread,
	teamReport,
	teamStandings,
	teamStoreDidNotTake,
	teamStoreNotReached,
	teamTime,
	teamViewRefused,
	teamViewUnreadable,
	teamWriteNotSent,
	teamWriteRefusal,
	teamZoneOfStore,
	todayCommand,
	todayReport,
} from "./daily/daily.ts";
export {
	type DaySessionUse,
	type DayUseRow,
	type TodayBudgetData,
	type TodayData,
	todayData,
} from "./daily/today-data.ts";
export { decide, decideMidRun, spentSummary, urgencyFor } from "./decide.ts";
export {
	formatBudgetLabel,
	formatCost,
	formatLeftMs,
	formatRemaining,
	formatStatus,
	formatTokens,
	SPENT_STATUS,
	WRAPPING_UP_STATUS,
} from "./format.ts";
export { parseCommand, parseTaskBudget, quoteInput, type TimeboxCommand } from "./grammar/command.ts";
export type { CostReporting } from "./grammar/command-plan.ts";
export { argumentCompletions, type Completion } from "./grammar/completions.ts";
export type {
	AgentEnding,
	Awareness,
	BudgetLimits,
	BudgetTerms,
	Decision,
	NudgeUrgency,
	Spend,
	SpentSummary,
	StandingField,
	SubagentRun,
	TaskBudget,
	TaskLimit,
	TimeboxBudget,
} from "./model/budget.ts";
export { freshBudget, NO_SPEND } from "./model/budget.ts";
export type { ModelPrices, ModelRequest, TranscriptPrompt } from "./model/events.ts";
export {
	type FoldedHistory,
	type FoldItem,
	foldHistory,
	type HistoryItem,
	type PromptsItem,
	type SpendItem,
} from "./model/history.ts";
export { IdCounts, type IdCountsJson, type IdLookup, IdSet, type IdSetJson } from "./model/id-text.ts";
export {
	copyLogFold,
	dropPromptItem,
	emptyLogFold,
	foldLine,
	historyOfFold,
	type LogFold,
	type LogFoldJson,
	restoreLogFold,
	serialiseLogFold,
	stepOfFold,
} from "./model/log-fold.ts";
export type { KeptLine, PromptRun } from "./model/log-line.ts";
export { type ResponseTokens, responseTokens } from "./model/measure.ts";
export {
	type BudgetRecordData,
	budgetIdOf,
	isBudgetId,
	parseBudget,
	parseRecord,
	type TimeboxRecord,
} from "./model/records.ts";
export { formatTime, parseTimeToMs, parseTurns } from "./parse.ts";
export {
	budgetStoreOver,
	type RestoreResult,
	restore,
	restoreBudget,
	SpecSessionStore,
	type SyncBudgetStore,
} from "./persist.ts";
export type {
	AgentBridge,
	BudgetLedger,
	BudgetStore,
	Cancel,
	Clock,
	DailyLedger,
	NotifyLevel,
	OnStopOutcome,
	OnStopStarter,
	OnStopStartOptions,
	Scheduler,
	SessionStore,
	TranscriptBridge,
	UIBridge,
} from "./ports.ts";
export { type DailyCommand, dailyCommandAnswer, dailyCommandPorts, hasDailyBudgets } from "./run/daily-command.ts";
export {
	type Answer,
	type EffectPorts,
	mergeAnswer,
	type Notice,
	noAnswer,
	type Question,
} from "./run/executor.ts";
export { type ReportPageSource, teamOfPage, writeReportPage } from "./run/live-report-page.ts";
export {
	LiveSession,
	type LiveSessionPorts,
	type ReportPageInput,
	type SettingSource,
	type SettingSources,
} from "./run/live-session.ts";
export {
	type CommandDetails,
	type DailyPart,
	NO_DAILY_PART,
	type RuntimePorts,
	SessionRuntime,
} from "./run/runtime.ts";
export type { LogRead } from "./run/session-log.ts";
export * as sessionLog from "./run/session-log.ts";
export {
	type DefaultText,
	type ProjectHistory,
	type ResolvedDefault,
	readSuggestion,
	resolveDefault,
	type SuggestOutcome,
} from "./run/suggestion.ts";
export { nextCheckIn } from "./run/time-checks.ts";
export { type CappedSession, capsInForce, inputBound, roomLeft } from "./session/caps.ts";
export {
	type BudgetStanding,
	type Effect,
	EMPTY_SESSION,
	isActive,
	type LedgerClaim,
	type LedgerView,
	type LoadMode,
	type LogLine,
	NOTHING_RECORDED,
	nextTimeCheckIn,
	type OnStopClaim,
	type OnStopIntent,
	outcomeId,
	type RecordedUsage,
	readLedger,
	recoverOnStop,
	recoveryLoad,
	type SessionEvent,
	type SessionState,
	shownTurns,
	statusText,
	type Transition,
	transition,
} from "./session/index.ts";
export { transitionWithSubagents } from "./subagents/compose.ts";
export { keepChildRecord } from "./subagents/records.ts";
export { type SubagentsState, setBudgetFor } from "./subagents/state.ts";
export { type PastSession, pastSession, type SessionFacts } from "./suggest/past-session.ts";
export {
	budgetWords,
	costWord,
	measuredEnough,
	type Percentiles,
	percentile,
	type SuggestedFigures,
	type Suggestion,
	suggestionOf,
	timeWord,
	tokensWord,
} from "./suggest/statistics.ts";
export { DEFAULT_TERMS, type HostTerms, inHostTerms } from "./text/host-terms.ts";
export { FINISH_NOW } from "./text/loop.ts";
export {
	COMMAND_AFTER_RELOAD,
	internalErrorMessage,
	ON_STOP_RAN_LATE,
	saysOnStopStarted,
	USAGE,
	WRAP_UP_REFUSAL,
} from "./text/messages.ts";
export { BUDGET_IN_FORCE_PROMPT, formatAwareLine, formatNudgePrompt, WRAP_UP_PROMPT } from "./text/model-notes.ts";
export {
	dailyLedgerUnusable,
	SETTINGS_NOT_JSON,
	SETTINGS_NOT_OBJECT,
	STATUS_LINE_ALREADY_SET,
	STATUS_LINE_SETUP_HINT,
	statusLineSet,
	storeRepaired,
	TRANSCRIPT_UNREADABLE,
	teamFailureModeUnread,
	teamHopFailed,
	teamSettingsRefusal,
	teamSettingsUnusable,
	teamStoreDenied,
	teamStoreRefusal,
	teamStoreUnreachable,
	teamUnsentLostMessage,
} from "./text/notices.ts";
export {
	COMMAND_ANSWERED_REFUSAL,
	COMMAND_DONE_REFUSAL,
	DAILY_TAKEN_REFUSAL,
	GUARD_FAILED_REFUSAL,
	TOOL_STOPPED_REFUSAL,
} from "./text/refusals.ts";
export { type LedgerLookup, sessionReport } from "./text/report.ts";
export {
	type BudgetData,
	type ReportData,
	type ReportLimits,
	reportData,
	type SubagentData,
} from "./text/report-data.ts";
export { fileLink, type ReportPageOutcome, reportPageWritten } from "./text/report-page.ts";
export {
	isSuggestedDefault,
	NO_SUGGESTION,
	suggestedDefault,
	suggestionLine,
	suggestionText,
	suggestReply,
	tooLittleHistory,
} from "./text/suggestion.ts";
