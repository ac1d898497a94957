// Claude Code hooks onto the core rulebook: each hook folds the session's log into the session state, reports its
// event to the rules, carries out the effects (append, claim in the ledger, run the on-stop command) and turns the
// rest into the hook's JSON answer. No rule lives here.

import { randomUUID } from "node:crypto";
import {
	type BudgetLedger,
	type Clock,
	carryOutDaily,
	type DailyEvent,
	type DailyPort,
	type DailySession,
	type Effect,
	EMPTY_SESSION,
	foldHistory,
	LEGACY_ID_PREFIX,
	type LedgerView,
	NOTHING_RECORDED,
	type OnStopOutcome,
	type OnStopStarter,
	outcomeId,
	parseCommand,
	quoteInput,
	readLedger,
	type SessionEvent,
	type SessionState,
	sessionReport,
	statusText,
	type TimeboxBudget,
	todayCommand,
	todayReport,
	transition,
} from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";
import type { HookInput } from "./hook-input.ts";
import { readTranscriptUsage } from "./transcript-usage.ts";

/** What a hook needs from the outside world. */
export interface HookDeps {
	store: SessionLog;
	ledger: BudgetLedger;
	clock: Clock;
	onStop: OnStopStarter;
	newBudgetId?: () => string;
	/** The default budget for new sessions, from the `TIMEBOX_DEFAULT` environment variable. */
	defaultBudget?: string;
	/** The daily budgets (from `TIMEBOX_DAILY`) and the ledger every session of the user shares. */
	daily?: DailyPort;
	/** Why `TIMEBOX_DAILY` could not be read, said when a session starts. */
	dailyWarning?: string;
	/** Sets up Timebox's status line in the user's settings (`/timebox statusline`), and says what was done. */
	setupStatusLine?: () => string;
	/**
	 * Starts the watcher of a time budget: a detached process that stops the budget at its deadline even while no hook
	 * runs (the agent is idle), so its on-stop command runs on time.
	 */
	startWatcher?: (budget: string) => void;
	/**
	 * True where the host names no prompt (Gemini CLI): each prompt then gets an id of its own when it is submitted,
	 * and the later events of the session belong to its latest prompt.
	 */
	unnamedPrompts?: boolean;
	/**
	 * False where the transcript holds no usage Timebox reads (Gemini CLI's): a token limit is then said to be
	 * unenforceable when it is set, and the transcript is not read.
	 */
	tokensSeen?: boolean;
}

/** The environment variable of a default budget for new Claude Code sessions (settable in Claude Code's `env`). */
export const DEFAULT_ENV = "TIMEBOX_DEFAULT";

/** The JSON a hook prints, or null to print nothing and let Claude Code go on. */
export type HookOutput = Record<string, unknown> | null;

/**
 * An answer taken apart for another host's fields: the host-specific part (`hookSpecificOutput`) on its own, and the
 * rest with any context kept under the host's own event name. Each host's mapping then renders the refusal its way.
 */
export function forHostEvent(output: Record<string, unknown>, event: string) {
	const { hookSpecificOutput, ...rest } = output;
	const specific = (hookSpecificOutput ?? {}) as Record<string, unknown>;
	const answer: Record<string, unknown> = { ...rest };
	if (typeof specific.additionalContext === "string") {
		answer.hookSpecificOutput = { hookEventName: event, additionalContext: specific.additionalContext };
	}
	return { specific, answer };
}

/**
 * `/timebox …` and the namespaced `/timebox:timebox …`, as typed; and `TIMEBOX-CMD …`, what Gemini CLI's `/timebox`
 * command expands to before its hooks see it.
 */
const COMMAND_LINE = /^(?:\/timebox(?::timebox)?|TIMEBOX-CMD)(?:\s+([\s\S]*))?$/;

/** How long a hook waits to learn whether the on-stop command started (Node says so within a tick or two). */
const ON_STOP_START_WAIT_MS = 1_000;

/** The arguments of a `/timebox` line, or null when the prompt is not one. */
export function timeboxArguments(prompt: string): string | null {
	const match = COMMAND_LINE.exec(prompt.trim());
	return match ? (match[1] ?? "") : null;
}

/** What the effects of one hook add up to. */
interface Outcome {
	notices: string[];
	context: string[];
	/** Why the event was refused (the prompt, a message joining it, the tool call): set on every stop. */
	refusal: string | null;
	/** Whether the run is to end here; a refusal without it (a run wrapping up) only denies the tool. */
	aborted: boolean;
}

/** How a hook loads its session. */
interface LoadOptions {
	/** Say what was restored, or that the newest record is damaged (SessionStart on resume). */
	announce?: boolean;
	/** A default budget for a session where none was ever set, and the id it gets. */
	defaultBudget?: { text: string; source: string; newBudgetId: string };
	/**
	 * The prompt the hook belongs to (null: the latest prompt). When it is the latest prompt of the log, it is the one
	 * being answered: a tool call or a message typed mid-turn is part of its run, and it does not count against itself.
	 */
	running?: string | null;
}

/**
 * The session's state from its log and the ledger. Logs from the first version marked a budget spent or warned with
 * `spent` and `nudged` lines keyed by its start time; they still count.
 */
export function loadSession(deps: Pick<HookDeps, "store" | "ledger">, now: number, options: LoadOptions = {}) {
	const history = foldHistory(deps.store.history());
	const ledger = history.budget ? ledgerView(history.budget, deps) : NOTHING_RECORDED;
	const event: SessionEvent = { type: "load", history, ledger, mode: "continue", announce: options.announce === true };
	const running = options.running === null ? history.lastPrompt : options.running;
	if (typeof running === "string") event.runningSteps = deps.store.stepOf(running);
	if (options.defaultBudget) event.defaultBudget = options.defaultBudget;
	// Each hook is a new process: it tells the rules which prompt's run it belongs to.
	return transition(
		EMPTY_SESSION,
		options.running === undefined ? event : { ...event, runningPrompt: options.running },
		now,
	);
}

function ledgerView(budget: TimeboxBudget, deps: Pick<HookDeps, "store" | "ledger">): LedgerView {
	const view = readLedger(deps.ledger, budget);
	if (!budget.id.startsWith(LEGACY_ID_PREFIX)) return view;
	const legacy = deps.store.lines().filter((line) => line.budgetStart === budget.startTime);
	const spent = legacy.find((line) => line.kind === "spent");
	return {
		off: view.off,
		nudged: view.nudged || legacy.some((line) => line.kind === "nudged"),
		spent:
			view.spent ??
			(spent
				? {
						usedTurns: typeof spent.usedTurns === "number" ? spent.usedTurns : 0,
						elapsedMs: typeof spent.elapsedMs === "number" ? spent.elapsedMs : 0,
						timeRanOut: false,
						prompt: typeof spent.promptId === "string" ? spent.promptId : null,
					}
				: null),
	};
}

/** Answers one hook event. Events Timebox does not use get no answer. */
export async function handleHook(hostInput: HookInput, deps: HookDeps): Promise<HookOutput> {
	const now = deps.clock.now();
	const input = deps.unnamedPrompts && hostInput.promptId === null ? namePrompt(hostInput, deps) : hostInput;
	const note = countTranscriptUsage(input, deps, now);
	const daily = await dailyHook(input, deps, now);
	if (daily?.refusal != null) return dailyStop(input, daily, daily.refusal);
	const output = withDaily(await answerHook(input, deps, now), daily, input.event);
	if (note === null) return output;
	const shown = [typeof output?.systemMessage === "string" ? output.systemMessage : null, note];
	return { ...output, systemMessage: shown.filter((text) => text !== null).join("\n") };
}

/** A host that names no prompt: a new prompt gets an id now; any other event belongs to the session's latest prompt. */
function namePrompt(input: HookInput, deps: Pick<HookDeps, "store">): HookInput {
	const promptId =
		input.event === "UserPromptSubmit" ? `unnamed-${randomUUID()}` : foldHistory(deps.store.history()).lastPrompt;
	return { ...input, promptId };
}

/** Said once per session when the transcript shows usage Timebox cannot read: the token limit is not enforced then. */
export const TRANSCRIPT_UNREADABLE =
	"Timebox: Claude Code's transcript shows token usage in a form Timebox cannot read, so a token limit is not enforced until it can.";

/**
 * Counts what the model calls used since the last hook, from the transcript, into the session's log. Returns the
 * warning to show when the transcript could not be read (once per session), else null.
 */
function countTranscriptUsage(
	input: HookInput,
	deps: Pick<HookDeps, "store" | "daily" | "tokensSeen">,
	now: number,
): string | null {
	if (!input.transcriptPath || deps.tokensSeen === false) return null;
	const { store } = deps;
	const progress = store.transcriptProgress();
	const read = readTranscriptUsage(input.transcriptPath, progress.offset, progress.seen);
	for (const response of read.responses) store.appendUsage(response.id, { tokens: response.tokens }, now, read.offset);
	const tokens = read.responses.reduce((sum, response) => sum + response.tokens, 0);
	if (tokens > 0 && deps.daily) deps.daily.ledger.addUse(deps.daily.budgets, { tokens });
	if (read.responses.length === 0 && read.offset > progress.offset) store.appendTranscriptOffset(read.offset);
	if (!read.unreadable || store.lines().some((line) => line.kind === "transcript-unreadable")) return null;
	store.appendLine({ kind: "transcript-unreadable", at: now });
	return TRANSCRIPT_UNREADABLE;
}

/**
 * Reports the hook's event to the daily budgets: a new prompt (counted or refused), a model call or tool call of the
 * running run (stopped once the day is spent), or the end of a run (its agent time). The session's part in the daily
 * rules (when its run started, the warnings given, a stop) lives in the session's log between hooks.
 */
async function dailyHook(input: HookInput, deps: HookDeps, now: number): Promise<Outcome | null> {
	const port = deps.daily;
	if (!port || port.budgets.length === 0 || input.promptId === null) return null;
	const promptId = input.promptId;
	const lines = deps.store.lines();
	const history = foldHistory(deps.store.history());
	let event: DailyEvent;
	switch (input.event) {
		case "UserPromptSubmit":
			if (input.prompt === null || timeboxArguments(input.prompt) !== null) return null;
			event = promptId === history.lastPrompt ? { type: "duringRun", modelCall: true } : { type: "newPrompt" };
			break;
		case "PreToolUse":
			event = { type: "duringRun", modelCall: false };
			break;
		case "PostToolBatch":
			event = { type: "duringRun", modelCall: true };
			break;
		case "Stop":
			event = { type: "runEnd" };
			break;
		default:
			return null;
	}
	const started = lines.find((line) => line.kind === "prompt" && line.promptId === promptId);
	const ended = lines.some((line) => line.kind === "daily-ended" && line.promptId === promptId);
	const session: DailySession = {
		given: lines.flatMap((line) =>
			line.kind === "daily-warned" && typeof line.level === "string" ? [line.level] : [],
		),
		runStartedAt: !ended && typeof started?.at === "number" ? started.at : null,
		stopped: lines.some((line) => line.kind === "daily-stopped" && line.promptId === promptId),
	};
	const result = carryOutDaily(port, session, event, now);
	for (const level of result.session.given) {
		if (!session.given.includes(level)) deps.store.appendLine({ kind: "daily-warned", level, at: now });
	}
	if (result.session.stopped && !session.stopped) deps.store.appendLine({ kind: "daily-stopped", promptId, at: now });
	if (event.type === "runEnd" && session.runStartedAt !== null) {
		deps.store.appendLine({ kind: "daily-ended", promptId, at: now });
	}
	const outcome = await execute(result.effects, deps);
	outcome.context.push(...result.context);
	return outcome;
}

/** Ends what the daily budget refused: the prompt is blocked, the tool denied and the run ended. */
function dailyStop(input: HookInput, outcome: Outcome, refusal: string): HookOutput {
	if (input.event === "UserPromptSubmit") return { decision: "block", reason: stopText(outcome, refusal) };
	return stopAtTool(input.event, { ...outcome, aborted: true }, refusal);
}

/**
 * The hook's answer with what the daily budgets said: their notices after the hook's own, and their lines for the model
 * after its own (only hooks before a model call carry context). A blocked prompt's answer stays as it is.
 */
function withDaily(output: HookOutput, daily: Outcome | null, event: string): HookOutput {
	if (!daily || output?.decision === "block") return output;
	const answer: Record<string, unknown> = { ...output };
	const own = (key: string, from: Record<string, unknown> | undefined): string[] => {
		const value = from?.[key];
		return typeof value === "string" ? [value] : [];
	};
	const notices = [...own("systemMessage", answer), ...daily.notices];
	if (notices.length > 0) answer.systemMessage = notices.join("\n");
	// A hook's own answer is built here, as the JSON Claude Code reads.
	const specific = answer.hookSpecificOutput as Record<string, unknown> | undefined;
	const context = [...own("additionalContext", specific), ...daily.context];
	if (context.length > 0 && (event === "UserPromptSubmit" || event === "PostToolBatch")) {
		answer.hookSpecificOutput = { ...specific, hookEventName: event, additionalContext: context.join("\n\n") };
	}
	return Object.keys(answer).length > 0 ? answer : null;
}

async function answerHook(input: HookInput, deps: HookDeps, now: number): Promise<HookOutput> {
	switch (input.event) {
		case "SessionStart": {
			if (input.source === "compact") return null;
			const text = deps.defaultBudget?.trim();
			const defaultBudget = text
				? { text, source: DEFAULT_ENV, newBudgetId: (deps.newBudgetId ?? randomUUID)() }
				: undefined;
			const loaded = loadSession(deps, now, {
				announce: input.source === "resume",
				...(defaultBudget ? { defaultBudget } : {}),
			});
			const outcome = await execute(loaded.effects, deps);
			if (deps.dailyWarning) outcome.notices.push(deps.dailyWarning);
			return outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : null;
		}
		case "UserPromptSubmit":
			return userPromptSubmit(input, deps, now);
		case "PreToolUse":
		case "PostToolBatch": {
			// Tool boundaries inside the prompt's run. PreToolUse comes before a tool. PostToolBatch comes before the next
			// model call of the latest prompt, so it is that model call: the call carries what the model is to read.
			const { state } = loadSession(deps, now, { running: input.promptId });
			if (!state.standing) return null;
			const promptKey = input.promptId ?? state.lastPrompt;
			const nextCall = input.event === "PostToolBatch" && promptKey === state.lastPrompt;
			if (nextCall && promptKey !== null) deps.store.appendCall(promptKey, now);
			const event: SessionEvent = nextCall
				? { type: "modelCall", prompt: input.promptId, ...stepOf(promptKey, deps) }
				: { type: "toolCall", prompt: input.promptId };
			const outcome = await execute(transition(state, event, now).effects, deps);
			if (outcome.refusal !== null) return stopAtTool(input.event, outcome, outcome.refusal);
			return withContext(input.event, outcome);
		}
		case "Stop": {
			// The run ended (a watcher leaves a running run to the hooks); one that was wrapping up after the stop is
			// over, and the on-stop command runs.
			if (input.promptId !== null) deps.store.appendLine({ kind: "ended", promptId: input.promptId, at: now });
			const { state } = loadSession(deps, now, { running: input.promptId });
			if (!state.standing?.wrapUp) return null;
			return noticeOnly(await execute(transition(state, { type: "runEnd" }, now).effects, deps));
		}
		default:
			return null;
	}
}

async function userPromptSubmit(input: HookInput, deps: HookDeps, now: number): Promise<HookOutput> {
	const untold = untoldNotices(deps.store, now);
	const output = await answerPrompt(input, deps, now);
	if (untold.length === 0) return output;
	if (output?.decision === "block") return { ...output, reason: [...untold, output.reason].join("\n") };
	const own = typeof output?.systemMessage === "string" ? [output.systemMessage] : [];
	return { ...output, systemMessage: [...untold, ...own].join("\n") };
}

async function answerPrompt(input: HookInput, deps: HookDeps, now: number): Promise<HookOutput> {
	// A prompt, counted once per prompt id: a message typed mid-turn shares the running prompt's id. Versions before
	// prompt ids count every submission.
	const promptId = input.promptId ?? `unnamed-${randomUUID()}`;
	const { state } = loadSession(deps, now, { running: promptId });
	const args = input.prompt === null ? null : timeboxArguments(input.prompt);
	if (args?.trim().toLowerCase() === "statusline") {
		const said = deps.setupStatusLine
			? deps.setupStatusLine()
			: "Timebox: run the plugin's script with setup-statusline to set up the status line.";
		return { decision: "block", reason: said };
	}
	const today = args === null ? null : /^today(?:\s+([\s\S]*))?$/i.exec(args.trim());
	if (today) {
		const reply = deps.daily ? todayCommand(deps.daily, today[1] ?? "").message : todayReport([]);
		return { decision: "block", reason: reply };
	}
	if (args !== null) {
		const newBudgetId = (deps.newBudgetId ?? randomUUID)();
		// Claude Code tells its hooks nothing of what a session costs: a cost limit is set, and said to be unenforceable.
		const event: SessionEvent = {
			type: "command",
			args,
			newBudgetId,
			cost: "host cannot see",
			...(deps.tokensSeen === false ? { tokensSeen: false } : {}),
		};
		if (parseCommand(args).kind === "report") {
			event.report = sessionReport(deps.store.history(), (budget) => ledgerView(budget, deps), now);
		}
		const outcome = await execute(transition(state, event, now).effects, deps);
		return { decision: "block", reason: outcome.notices.join("\n") };
	}
	// A prompt is recorded once it runs: a refused prompt never reached the model and counts for nothing.
	const record = () => {
		if (promptId !== state.lastPrompt) deps.store.appendPrompt(promptId, now);
	};
	if (!state.standing) {
		record();
		return null;
	}
	// The prompt's model call comes next: a new prompt is counted, or stopped when the prompts are used up. A message
	// typed mid-turn joins the running prompt's next model call: it is checked on time, and refused once that prompt is
	// stopped.
	const outcome = await execute(
		transition(state, { type: "modelCall", prompt: promptId, ...stepOf(promptId, deps) }, now).effects,
		deps,
	);
	if (outcome.refusal !== null) return { decision: "block", reason: stopText(outcome, outcome.refusal) };
	record();
	return withContext("UserPromptSubmit", outcome);
}

/** Which model call of its run a PostToolBatch comes before, from the calls the log holds for its prompt. */
function stepOf(promptId: string | null, deps: Pick<HookDeps, "store">): { step?: number } {
	return promptId === null ? {} : { step: deps.store.stepOf(promptId) };
}

/** The hook's answer: the notices for the user, and what the model is to read in its next request. */
function withContext(event: string, outcome: Outcome): HookOutput {
	const output: Record<string, unknown> = {};
	if (outcome.notices.length > 0) output.systemMessage = outcome.notices.join("\n");
	if (outcome.context.length > 0) {
		output.hookSpecificOutput = { hookEventName: event, additionalContext: outcome.context.join("\n\n") };
	}
	return Object.keys(output).length > 0 ? output : null;
}

/** How often a watcher looks at the session's log, to stop at the deadline or to leave once it has nothing to do. */
export const WATCH_INTERVAL_MS = 1_000;

/**
 * How long after the deadline a watcher leaves a run that seems to be going on to the hooks (which stop it at its next
 * tool boundary): a run interrupted without a Stop hook looks like one going on, and must not hold the stop forever.
 */
export const WATCH_RUNNING_MS = 10 * 60_000;

/**
 * One look of the watcher at the session: `done` once there is nothing to watch (no active time budget: off, spent,
 * paused, replaced by one without time); else it steps the time check, which stops a budget whose time ran out, once
 * anywhere, and runs its on-stop command. What the user was told is kept for the next prompt, the first thing they see.
 */
export async function watchOnce(deps: HookDeps, watched: string, now: number): Promise<"done" | "watching"> {
	const { state } = loadSession(deps, now);
	const budget = state.standing?.budget;
	// Another budget, or this one extended, paused, spent or off: its own watcher (if any) takes over.
	if (!budget || outcomeId(budget) !== watched || state.standing?.spent || budget.pausedAt !== undefined) return "done";
	const checked = transition(state, { type: "timeCheck" }, now);
	if (!checked.state.standing?.spent) return "watching";
	// A run going on is the hooks' to stop, at its next tool boundary, with the stop message of a running run.
	const running =
		state.lastPrompt !== null &&
		!deps.store.lines().some((line) => line.kind === "ended" && line.promptId === state.lastPrompt);
	const pastDeadline = checked.state.standing.spent.elapsedMs - Number(budget.timeLimitMs);
	if (running && pastDeadline < WATCH_RUNNING_MS) return "watching";
	const outcome = await execute(checked.effects, deps);
	// Another hook may have stopped it a moment before: then there is nothing to tell, and the line says so.
	deps.store.appendLine({ kind: "untold", notices: outcome.notices, at: now });
	return "done";
}

/** What a watcher told nobody yet (the user was idle): shown with the next prompt, once. */
function untoldNotices(store: SessionLog, now: number): string[] {
	const lines = store.lines();
	const told = lines.filter((line) => line.kind === "told").length;
	const untold = lines.filter((line) => line.kind === "untold").slice(told);
	if (untold.length === 0) return [];
	for (const _ of untold) store.appendLine({ kind: "told", at: now });
	return untold.flatMap((line) => (Array.isArray(line.notices) ? line.notices.map(String) : []));
}

/** The status line's text: the budget as the rules see it now, read only (nothing is claimed or run). */
export function statusLineText(deps: Pick<HookDeps, "store" | "ledger">, now: number): string {
	const { state } = loadSession(deps, now);
	const checked: SessionState = transition(state, { type: "timeCheck" }, now).state;
	return statusText(checked, now) ?? "";
}

function noticeOnly(outcome: Outcome): HookOutput {
	return outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : null;
}

/** What the user reads of a stop: the hard-stop message with the on-stop note from the hook that claimed it, else why. */
function stopText(outcome: Outcome, refusal: string): string {
	return outcome.notices.length > 0 ? outcome.notices.join("\n") : refusal;
}

/**
 * Ends the run at a tool boundary; before a tool, the tool is denied too, with the reason the model reads. A run that is
 * wrapping up is not ended: its tool is only denied, and the model goes on to write its final answer.
 */
function stopAtTool(event: string, outcome: Outcome, refusal: string): HookOutput {
	const stop = outcome.aborted ? { continue: false, stopReason: stopText(outcome, refusal) } : {};
	const notices = !outcome.aborted && outcome.notices.length > 0 ? { systemMessage: outcome.notices.join("\n") } : {};
	if (event !== "PreToolUse") return { ...stop, ...notices };
	return {
		...stop,
		...notices,
		hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: refusal },
	};
}

/** Carries out the effects of one hook, in order, and gathers what its answer says. */
async function execute(effects: readonly Effect[], deps: HookDeps): Promise<Outcome> {
	const outcome: Outcome = { notices: [], context: [], refusal: null, aborted: false };
	const carryOut = async (list: readonly Effect[]): Promise<void> => {
		for (const effect of list) {
			switch (effect.kind) {
				case "notify":
					outcome.notices.push(effect.message);
					break;
				case "status":
					// No status bar to set: the status line reads the log itself.
					break;
				case "abort":
					outcome.aborted = true;
					break;
				case "append":
					deps.store.append(effect.record);
					// A budget with time to run out (set, extended, resumed) is watched until it is spent, off or replaced.
					if (
						effect.record.kind === "active" &&
						effect.record.budget.timeLimitMs !== null &&
						effect.record.budget.pausedAt === undefined
					) {
						deps.startWatcher?.(outcomeId(effect.record.budget));
					}
					break;
				case "context":
					outcome.context.push(effect.text);
					break;
				case "refuse":
					outcome.refusal = effect.reason;
					break;
				case "once":
					if (deps.ledger.claim(effect.claim)) await carryOut(effect.then);
					break;
				case "startOnStop": {
					const report = await startOnStop(effect.command, deps.onStop);
					await carryOut(
						transition(EMPTY_SESSION, { type: "onStopReport", command: effect.command, outcome: report }, 0).effects,
					);
					break;
				}
			}
		}
	};
	await carryOut(effects);
	return outcome;
}

/**
 * Starts the on-stop command and waits until it started or failed to; a failing exit comes after this hook is gone.
 * A runner that throws could not start the command: this hook won the stop, so it is the one to say so.
 */
function startOnStop(command: string, runner: OnStopStarter): Promise<OnStopOutcome> {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve({ kind: "started" }), ON_STOP_START_WAIT_MS);
		const settle = (outcome: OnStopOutcome): void => {
			clearTimeout(timer);
			resolve(outcome);
		};
		try {
			runner.start(command, (outcome) => {
				if (outcome.kind !== "exited") settle(outcome);
			});
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			settle({ kind: "failed", problem: `could not start ${quoteInput(command)}: ${reason}` });
		}
	});
}
