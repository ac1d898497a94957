// The executor for hosts that keep a session in memory (pi): it holds the state, feeds each event to the rulebook,
// carries out the effects through the host's ports, and keeps the time checks armed. It decides nothing itself.

import type { CostReporting } from "./command-plan.ts";
import { STATUS_REFRESH_INTERVAL_MS } from "./constants.ts";
import {
	type DailyBudget,
	type DailyEvent,
	type DailySession,
	NO_DAILY_SESSION,
	parseDailyBudget,
	runDaily,
	todayCommand,
	todayReport,
} from "./daily.ts";
import { foldHistory } from "./history.ts";
import { COMMAND_AFTER_RELOAD, internalErrorMessage } from "./messages.ts";
import { parseCommand } from "./parse.ts";
import type {
	BudgetLedger,
	BudgetStore,
	Cancel,
	Clock,
	DailyLedger,
	OnStopRunner,
	Scheduler,
	UIBridge,
} from "./ports.ts";
import { sessionReport } from "./report.ts";
import {
	type Effect,
	EMPTY_SESSION,
	isActive,
	isNewPrompt,
	type LoadMode,
	NOTHING_RECORDED,
	nextTimeCheckIn,
	readLedger,
	type SessionEvent,
	type SessionState,
	step,
} from "./session.ts";

/** Everything a live session needs from its host. */
export interface LiveSessionPorts {
	store: BudgetStore;
	ledger: BudgetLedger;
	ui: UIBridge;
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopRunner;
	/** Ends the host's running run, and any re-run it has pending. Harmless while idle. */
	abortRun(): void;
	/** A new budget id, never used before. */
	newBudgetId(): string;
	/** Whether the user can be asked now (an interactive UI); a host that can never ask leaves it out. */
	canAsk?(): boolean;
	/**
	 * Asks the user to choose; resolves to the index chosen, or undefined when nobody chose within `timeoutMs`. Only
	 * called while `canAsk()` says so.
	 */
	ask?(question: string, choices: readonly string[], timeoutMs: number | null): Promise<number | undefined>;
	/** Whether the model in use reports what it costs, so that a cost limit can be enforced; default: it does. */
	costReporting?(): CostReporting;
	/** The ledger of the daily budgets every session shares; absent where there is none. */
	daily?: DailyLedger;
}

type Question = Extract<Effect, { kind: "ask" }>;

/** `/timebox today …`: the daily budgets' command, with what follows `today`. */
const TODAY_COMMAND = /^today(?:\s+([\s\S]*))?$/i;

/** A setting's value and where it came from, as the user would name it. */
export interface SettingSource {
	value: unknown;
	source: string;
}

/** The session's settings: what to do at the limit, what the model is told, and the grace period at the limit. */
export interface SettingSources {
	onLimit?: SettingSource | null;
	awareness?: SettingSource | null;
	grace?: SettingSource | null;
	/** The daily budgets that cover this session, with whose sessions share each (`user`, `project:<path>`). */
	daily?: readonly (SettingSource & { scope: string })[];
}

/** What the host answers to the event it reported. */
export interface Answer {
	/** Blocks to add to what the model reads for the prompt about to run. */
	context: string[];
	/** Why the announced prompt, model call or tool call is refused, or null to let it run. */
	refusal: string | null;
	/** Questions for the user the event raised: `handle` asks them and carries out the answers. */
	questions: Question[];
}

/**
 * One session's budget, live. Events after `dispose` (a replaced or shut-down instance) do nothing, so an old instance
 * never stops, warns or runs anything, whatever order commands and reloads arrive in. No method throws: a failure is
 * reported once per place and the session goes on.
 */
export class LiveSession {
	private current: SessionState = EMPTY_SESSION;
	/** The settings of the first load, kept for a load that names none (another branch of the same session). */
	private settings: SettingSources = {};
	private dailyBudgets: DailyBudget[] = [];
	private dailySession: DailySession = NO_DAILY_SESSION;
	/** The prompt a daily budget refused, and why: its later calls are refused for the same reason, without a word. */
	private dailyRefused: { prompt: string; reason: string } | null = null;
	private disposed = false;
	private refreshTimer: Cancel | null = null;
	private checkTimer: Cancel | null = null;
	private checkDue: number | null = null;
	private readonly reported = new Set<string>();
	/** Whether a question is open: events that come meanwhile wait for `answered`. */
	private asking = false;
	private answered: Promise<unknown> = Promise.resolve();

	constructor(private readonly ports: LiveSessionPorts) {}

	get state(): SessionState {
		return this.current;
	}

	/**
	 * Loads the budget from the session's history and the ledger; a session where no budget was ever set gets
	 * `defaultBudget`, if there is one.
	 */
	load(
		mode: LoadMode,
		announce: boolean,
		defaultBudget: { text: string; source: string } | null = null,
		settings?: SettingSources,
	): void {
		this.settings = settings ?? this.settings;
		this.guard("session start", () => {
			const history = foldHistory(this.ports.store.history());
			const ledger = history.budget ? readLedger(this.ports.ledger, history.budget) : NOTHING_RECORDED;
			const event: SessionEvent = { type: "load", history, ledger, mode, announce };
			if (defaultBudget) event.defaultBudget = { ...defaultBudget, newBudgetId: this.ports.newBudgetId() };
			const { onLimit, awareness, grace } = this.settings;
			if (onLimit) {
				event.onLimit = onLimit;
				event.canAsk = this.canAsk();
			}
			if (awareness) event.awareness = awareness;
			if (grace) event.grace = grace;
			this.dispatch(event);
			this.loadDaily(settings !== undefined);
		});
	}

	/** Reads the daily budgets of the settings, naming any that cannot be read (once, at the first load). */
	private loadDaily(announce: boolean): void {
		const budgets: DailyBudget[] = [];
		for (const setting of this.settings.daily ?? []) {
			const budget = parseDailyBudget(setting.value, setting.scope, setting.source);
			if ("warning" in budget) {
				if (announce) this.ports.ui.notify(budget.warning, "warning");
			} else budgets.push(budget);
		}
		this.dailyBudgets = this.ports.daily ? budgets : [];
	}

	/** `/timebox <args>`. One that reaches a replaced instance changes nothing, and the user is told to type it again. */
	async command(args: string): Promise<void> {
		if (this.disposed) {
			this.guard("/timebox", () => this.ports.ui.notify(COMMAND_AFTER_RELOAD, "warning"));
			return;
		}
		const today = TODAY_COMMAND.exec(args.trim());
		if (today) {
			this.guard("/timebox today", () => {
				const daily = this.ports.daily;
				const reply = daily
					? todayCommand({ ledger: daily, budgets: this.dailyBudgets }, today[1] ?? "")
					: { message: todayReport([]), level: "info" as const };
				this.ports.ui.notify(reply.message, reply.level);
			});
			return;
		}
		const events: SessionEvent[] = [];
		this.guard("/timebox", () => {
			const event: SessionEvent = {
				type: "command",
				args,
				newBudgetId: this.ports.newBudgetId(),
				canAsk: this.canAsk(),
			};
			if (this.ports.costReporting) event.cost = this.ports.costReporting();
			if (parseCommand(args).kind === "report") {
				const ledger = this.ports.ledger;
				event.report = sessionReport(
					this.ports.store.history(),
					(budget) => readLedger(ledger, budget),
					this.ports.clock.now(),
				);
			}
			events.push(event);
		});
		for (const event of events) await this.handle(event);
	}

	/**
	 * Feeds one event to the rules once no question is open, asks what the rules ask, and carries out the answers. Model
	 * calls and tools go through here, so that none starts while the user is being asked.
	 */
	handle(event: SessionEvent): Promise<Answer> {
		if (this.asking) return this.answered.then(() => this.handle(event));
		const daily = this.daily(event);
		if (daily && daily.refusal !== null) return Promise.resolve(daily);
		const answer = this.dispatch(event);
		if (daily) answer.context.push(...daily.context);
		if (answer.questions.length === 0) return Promise.resolve(answer);
		this.asking = true;
		const settled = this.settle(answer).finally(() => {
			this.asking = false;
		});
		this.answered = settled;
		return settled;
	}

	/**
	 * Reports a model call, tool call, answer, time check or the end of a run to the daily budgets, and carries out what
	 * they say. A refusal there ends the run before the session's own rules hear of the event.
	 */
	private daily(event: SessionEvent): Answer | null {
		const ledger = this.ports.daily;
		if (!ledger || this.dailyBudgets.length === 0 || this.disposed) return null;
		const port = { ledger, budgets: this.dailyBudgets };
		const answer: Answer = { context: [], refusal: null, questions: [] };
		this.guard("daily budget", () => {
			const now = this.ports.clock.now();
			let dailyEvent: DailyEvent;
			const key = event.type === "modelCall" ? (event.prompt ?? this.current.lastPrompt) : null;
			switch (event.type) {
				case "modelCall": {
					if (key !== null && key === this.dailyRefused?.prompt) {
						answer.refusal = this.dailyRefused.reason;
						this.ports.abortRun();
						return;
					}
					const isNew = isNewPrompt(this.current, event.prompt) && event.startedBy !== "extension";
					dailyEvent = isNew ? { type: "newPrompt" } : { type: "duringRun", modelCall: true };
					break;
				}
				case "modelResponse":
					ledger.addUse(this.dailyBudgets, { tokens: event.tokens, cost: event.cost });
					dailyEvent = { type: "duringRun", modelCall: false };
					break;
				case "toolCall":
				case "timeCheck":
					dailyEvent = { type: "duringRun", modelCall: false };
					break;
				case "runEnd":
					dailyEvent = { type: "runEnd" };
					break;
				default:
					return;
			}
			const result = runDaily(port, this.dailySession, dailyEvent, now);
			this.dailySession = result.session;
			this.execute(result.effects, answer);
			answer.context.push(...result.context);
			if (answer.refusal !== null && key !== null && dailyEvent.type === "newPrompt") {
				this.dailyRefused = { prompt: key, reason: answer.refusal };
			}
		});
		return answer;
	}

	/** Asks each question in turn and reports the answer to the rules; what they answer is added to `answer`. */
	private async settle(answer: Answer): Promise<Answer> {
		const merged: Answer = { ...answer, questions: [] };
		const open = [...answer.questions];
		for (let question = open.shift(); question; question = open.shift()) {
			const choice = await this.choose(question);
			const next = this.dispatch(choice);
			merged.context.push(...next.context);
			merged.refusal = next.refusal ?? merged.refusal;
			open.push(...next.questions);
		}
		return merged;
	}

	private async choose(question: Question): Promise<SessionEvent> {
		try {
			const labels = question.choices.map((choice) => choice.label);
			const index = await this.ports.ask?.(question.question, labels, question.timeoutMs);
			return (index === undefined ? undefined : question.choices[index]?.answer) ?? question.onTimeout;
		} catch (error) {
			this.report("question", error);
			return question.onTimeout;
		}
	}

	private canAsk(): boolean {
		return this.ports.ask !== undefined && this.ports.canAsk?.() === true;
	}

	/** Feeds one event to the rules and carries out what they say. */
	dispatch(event: SessionEvent): Answer {
		const answer: Answer = { context: [], refusal: null, questions: [] };
		if (this.disposed) return answer;
		this.guard(event.type, () => {
			const result = step(this.current, event, this.ports.clock.now());
			this.current = result.state;
			this.execute(result.effects, answer);
			this.armTimers();
		});
		return answer;
	}

	/** The instance is gone (shut down, reloaded, replaced): stop the timers and ignore everything from now on. */
	dispose(): void {
		this.disposed = true;
		this.cancelTimers();
		this.guard("session shutdown", () => this.ports.ui.setStatus(undefined));
	}

	private execute(effects: readonly Effect[], answer: Answer): void {
		for (const effect of effects) this.guard(effect.kind, () => this.run(effect, answer));
	}

	private run(effect: Effect, answer: Answer): void {
		switch (effect.kind) {
			case "notify":
				this.ports.ui.notify(effect.message, effect.level);
				return;
			case "status":
				this.ports.ui.setStatus(effect.text);
				return;
			case "append":
				this.ports.store.append(effect.record);
				return;
			case "context":
				answer.context.push(effect.text);
				return;
			case "abort":
				this.ports.abortRun();
				return;
			case "refuse":
				answer.refusal = effect.reason;
				return;
			case "ask":
				answer.questions.push(effect);
				return;
			case "once":
				if (this.claim(effect)) this.execute(effect.then, answer);
				return;
			case "runOnStop": {
				const command = effect.command;
				this.ports.onStop.run(command, (outcome) => this.dispatch({ type: "onStopReport", command, outcome }));
				return;
			}
		}
	}

	/** A ledger that cannot be written must not keep the budget from firing: a failed claim counts as won. */
	private claim(effect: Extract<Effect, { kind: "once" }>): boolean {
		try {
			return this.ports.ledger.claim(effect.claim);
		} catch (error) {
			this.report("ledger", error);
			return true;
		}
	}

	/** Keeps the status refresh running while the budget is active, and the next time check armed at its point. */
	private armTimers(): void {
		// A run under a daily time limit is checked every refresh too: its time counts against the day.
		const dailyRun =
			this.dailySession.runStartedAt !== null && this.dailyBudgets.some((budget) => budget.limits.timeMs !== null);
		if (!isActive(this.current) && !dailyRun) {
			this.cancelTimers();
			return;
		}
		this.refreshTimer ??= this.ports.scheduler.setInterval(
			() => void this.handle({ type: "timeCheck" }),
			STATUS_REFRESH_INTERVAL_MS,
		);
		const now = this.ports.clock.now();
		const delay = nextTimeCheckIn(this.current, now);
		if (delay === null) {
			this.cancelTimeCheck();
			return;
		}
		if (now + delay === this.checkDue) return;
		this.cancelTimeCheck();
		this.checkDue = now + delay;
		this.checkTimer = this.ports.scheduler.setTimeout(() => {
			this.checkDue = null;
			this.checkTimer = null;
			void this.handle({ type: "timeCheck" });
		}, delay);
	}

	private cancelTimeCheck(): void {
		this.checkTimer?.();
		this.checkTimer = null;
		this.checkDue = null;
	}

	private cancelTimers(): void {
		this.refreshTimer?.();
		this.refreshTimer = null;
		this.cancelTimeCheck();
	}

	private guard(where: string, action: () => void): void {
		try {
			action();
		} catch (error) {
			this.report(where, error);
		}
	}

	/** A host's own part failed (`where`): the user is told once per place, and the session goes on. */
	notifyProblem(where: string, error: unknown): void {
		this.report(where, error);
	}

	/** Tells the user about an internal error, once per place, and never throws itself. */
	private report(where: string, error: unknown): void {
		if (this.reported.has(where)) return;
		this.reported.add(where);
		try {
			this.ports.ui.notify(internalErrorMessage(where, error), "error");
		} catch {
			// The UI itself is failing: there is nobody left to tell.
		}
	}
}
