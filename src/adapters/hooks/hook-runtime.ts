// The runtime of one hook: the session's runtime over ports that write to the session's log, keep a claim the
// ledger cannot take, start the watcher of a time budget when the rules ask (`watchBudget`), wait for the on-stop
// command to start, and gather what the user is told; and the reply it makes of the rules' answer. Loaded for a hook,
// it first starts an on-stop command that a killed hook claimed and never started (the core's recovery rule).

import { randomUUID } from "node:crypto";
import {
	type Answer,
	type BudgetLedger,
	type Clock,
	type DailyPart,
	type DailyPort,
	type Effect,
	EMPTY_SESSION,
	type HostTerms,
	inHostTerms,
	internalErrorMessage,
	type LedgerClaim,
	NO_DAILY_PART,
	type OnStopOutcome,
	type OnStopStarter,
	type OnStopStartOptions,
	type ProjectHistory,
	type ReportPageInput,
	recoverOnStop,
	recoveryLoad,
	type SessionEvent,
	SessionRuntime,
	type SessionState,
	type SettingSource,
	sessionLog,
	transition,
} from "../../core/index.ts";
import type { SessionLog } from "../node/session-log.ts";
import { type LoadOptions, loadEvent } from "./load.ts";
import { logStore } from "./log-store.ts";
import type { HookReply, TranscriptSize } from "./roles.ts";
import type { UsageReader } from "./usage.ts";

/** How long a hook waits to learn whether the on-stop command started (Node says so within a tick or two). */
const ON_STOP_START_WAIT_MS = 1_000;

/** What a hook needs from the outside world. */
export interface HookDeps {
	store: SessionLog;
	ledger: BudgetLedger;
	clock: Clock;
	onStop: OnStopStarter;
	newBudgetId?: () => string;
	/** The default budget for new sessions, from the `TIMEBOX_DEFAULT` environment variable. */
	defaultBudget?: string;
	/** The subagent budget from the `TIMEBOX_SUBAGENTS` environment variable, read at every load. */
	subagents?: SettingSource;
	/**
	 * The daily budgets (from `TIMEBOX_DAILY`) and the ledger every session of the user shares; why `TIMEBOX_DAILY`
	 * could not be read (`unreadable`) is said when a session starts.
	 */
	daily?: DailyPort;
	/** Sets up the host's status line in the user's settings (`/timebox statusline`), and says what was done. */
	setupStatusLine?: () => string;
	/**
	 * Starts the watcher of a time budget: a detached process that stops the budget at its deadline even while no hook
	 * runs (the agent is idle), so its on-stop command runs on time.
	 */
	startWatcher?: (budget: string) => void;
	/** True where the host names no prompt: each prompt gets an id when it is submitted, later events the latest. */
	unnamedPrompts?: boolean;
	/** Reads what model calls used from the transcript; absent where the host's hooks see no usage. */
	readUsage?: UsageReader;
	/** The transcript's size now, where a hook may change a request and bounds its input from the transcript. */
	transcriptSize?: TranscriptSize;
	/** How the host's users type the command and what the host measures. */
	terms?: HostTerms;
	/** Writes the report page of the session (`/timebox report page`); absent where none is written. */
	reportPage?: (page: ReportPageInput) => Promise<string>;
	/** Reads the past sessions of the session's project (`/timebox suggest`, a default of `suggested`). */
	projectHistory?: () => Promise<ProjectHistory>;
}

/**
 * The runtime of one hook: the session as loaded, the daily part of the prompt's run, and ports that write to the
 * session's log, start the watcher of a time budget, wait for the on-stop command to start, and gather what is told.
 * A hook makes one (`HookRuntime.of`) and folds its session once (`load`): every write and event of the hook goes
 * through it.
 */
export class HookRuntime {
	readonly runtime: SessionRuntime;
	private dailyBefore: DailyPart | undefined;
	private readonly waiting: Promise<void>[] = [];
	private readonly told: string[] = [];
	/** Why a prompt that ran could not be kept in the session's log. */
	private unkept: { error: unknown } | null = null;

	constructor(
		readonly deps: HookDeps,
		private promptId: string | null = null,
		state?: SessionState,
		// The daily budgets hear the events of a named prompt's run, and `/timebox today`.
		daily = promptId === null ? undefined : deps.daily,
	) {
		this.dailyBefore = daily && promptId !== null ? sessionLog.dailyPartOf(deps.store.lines(), promptId) : undefined;
		this.runtime = new SessionRuntime(
			{
				store: logStore(deps),
				ledger: {
					claim: (claim) => this.claim(claim),
					...(deps.ledger.startMark ? { startMark: deps.ledger.startMark.bind(deps.ledger) } : {}),
				},
				clock: deps.clock,
				onStop: { start: (command, report, options) => this.startOnStop(command, report, options) },
				// No status bar to set: the status line reads the log itself.
				setStatus: () => {},
				// A hook ends the run through its reply.
				abortRun: () => {},
				problem: (where, error) => {
					// The session's log is all a hook keeps: a line it cannot write ends the carrying out of the event's
					// effects there, and the event's failure is said instead of a change that was not kept.
					if (LOG_WRITES.has(where)) throw error;
					// A prompt the log cannot keep would never count: the hook fails as a whole once it is answered.
					if (where === "recordPrompt") this.unkept ??= { error };
					else this.told.push(internalErrorMessage(where, error));
				},
				late: (late) => this.told.push(...late.notices.map((notice) => notice.message)),
				// A budget with time to run out is watched while no hook runs (the agent idle), so it stops on time.
				...(deps.startWatcher ? { watchBudget: deps.startWatcher } : {}),
				...(daily ? { daily } : {}),
				...(deps.terms ? { terms: deps.terms } : {}),
			},
			state,
			this.dailyBefore,
		);
	}

	/**
	 * The one runtime of a hook, before its session is folded: what it writes first (what the transcript says was used,
	 * the lines that mark a value taken) counts in today's use, and `/timebox today` reads the day.
	 */
	static of(deps: HookDeps): HookRuntime {
		return new HookRuntime(deps, null, undefined, deps.daily);
	}

	/**
	 * Folds the session from its log (with all this hook wrote so far) and the ledger, once, into this runtime, and
	 * returns it. Loaded for a named prompt (`running`), the daily budgets hear the events of its run; else none. With
	 * `recover` (the default), an on-stop command that a killed hook claimed and never started is started first.
	 */
	load(now: number, options: LoadOptions = {}, recover = true): SessionState {
		const event = loadEvent(this.deps, options);
		this.runtime.state = transition(EMPTY_SESSION, event, now).state;
		const prompt = typeof options.running === "string" ? options.running : null;
		this.promptId = prompt;
		this.dailyBefore =
			prompt !== null && this.deps.daily ? sessionLog.dailyPartOf(this.deps.store.lines(), prompt) : undefined;
		this.runtime.daily = this.dailyBefore ?? NO_DAILY_PART;
		// What the core's recovery rule says of the ledger first: an on-stop command that a stop claimed and no process
		// started (its hook was killed) is started, and the user is told with this hook's reply.
		if (recover) this.tell(this.runtime.write(recoverOnStop(event.ledger, now, recoveryLoad(event))));
		return this.runtime.state;
	}

	/** Keeps what an answer outside the hook's event says, for the reply. */
	private tell(answer: Answer): void {
		this.told.push(...answer.notices.map((notice) => notice.message));
	}

	/**
	 * Loads the session by carrying out its load (the session's start: a default budget set in a session that never had
	 * one is written), and answers with what it says.
	 */
	start(event: SessionEvent): Answer {
		return this.runtime.dispatch(event);
	}

	/**
	 * Feeds one event to the rules: to the daily budgets first when it belongs to a named prompt's run, then to the
	 * session's rules (and its subagents').
	 */
	handle(event: SessionEvent): Answer {
		return this.promptId !== null ? this.runtime.handle(event) : this.runtime.dispatch(event);
	}

	/**
	 * The reply to an answer of the rules, once every on-stop command said whether it started. A stop that said nothing
	 * of its own (a prompt that was stopped already) is said by its reason, before any other note.
	 */
	async reply(answer: Answer): Promise<HookReply> {
		await Promise.all(this.waiting.splice(0));
		if (this.unkept !== null) throw this.unkept.error;
		const own = answer.notices.map((notice) => notice.message);
		const said = own.length === 0 && answer.aborted && answer.refusal !== null ? [answer.refusal] : own;
		// What was told so far, once: a hook that replies to its session's start first (a default budget at the first
		// prompt) tells it there, and not again with the prompt.
		const told = this.told.splice(0).map((text) => (this.deps.terms ? inHostTerms(text, this.deps.terms) : text));
		const notices = [...said, ...told];
		const reply: HookReply = {
			notices,
			context: answer.context,
			refusal: answer.refusal,
			stop: answer.aborted,
			answered: false,
		};
		if (answer.stoppedAgents.length > 0) reply.stoppedAgents = answer.stoppedAgents;
		return reply;
	}

	/**
	 * Carries out what a rule of the session's log returned (core's sessionLog) through the one executor; a line the log
	 * cannot take fails the hook.
	 */
	write(effects: readonly Effect[]): void {
		this.runtime.write(effects);
	}

	/** A value read from the session's log, once the lines that mark it taken are written. */
	take<T>(taken: sessionLog.Taken<T>): T {
		this.write(taken.effects);
		return taken.value;
	}

	/** Writes the prompt's part in the daily budgets back to the log; a log that cannot take it is said, not fatal. */
	saveDaily(now: number): void {
		if (!this.dailyBefore || this.promptId === null) return;
		try {
			this.write(sessionLog.dailyPartLines(this.promptId, this.dailyBefore, this.runtime.daily, now));
		} catch (error) {
			this.told.push(internalErrorMessage("session log", error));
		}
	}

	/**
	 * Claims an outcome in the ledger. One that cannot be written is kept in the session's log instead, so the session
	 * never claims it twice; the executor counts it as won and says what failed.
	 */
	private claim(claim: LedgerClaim): boolean {
		try {
			return this.deps.ledger.claim(claim);
		} catch (error) {
			const kept = sessionLog.claimKept(claim, this.deps.store.lines(), this.deps.clock.now());
			if (kept === null) return false;
			this.write(kept);
			throw error;
		}
	}

	/** Starts the on-stop command and waits until it started or failed to; a failing exit comes after this hook is gone. */
	private startOnStop(
		command: string,
		report: (outcome: OnStopOutcome) => void,
		options: OnStopStartOptions | undefined,
	): void {
		let done!: () => void;
		this.waiting.push(new Promise<void>((resolve) => (done = resolve)));
		// The first of the starter's word and the wait's end is what this hook says; a later word comes too late.
		let settled = false;
		const settle = (outcome: OnStopOutcome): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			report(outcome);
			done();
		};
		const timer = setTimeout(() => settle({ kind: "started" }), ON_STOP_START_WAIT_MS);
		try {
			const starting = (outcome: OnStopOutcome) => {
				if (outcome.kind !== "exited") settle(outcome);
			};
			if (options === undefined) this.deps.onStop.start(command, starting);
			else this.deps.onStop.start(command, starting, options);
		} catch (error) {
			clearTimeout(timer);
			done();
			throw error;
		}
	}
}

/** The effects that write the session's log: one that fails fails the hook, as the log is all a hook keeps. */
const LOG_WRITES: ReadonlySet<string> = new Set<Effect["kind"]>(["append", "recordUsage", "logLine"]);

/** A new budget id, never used before. */
export function newBudgetId(deps: Pick<HookDeps, "newBudgetId">): string {
	return (deps.newBudgetId ?? randomUUID)();
}
