// The live session for hosts that keep a session in memory (pi, opencode): it holds the session's runtime, shows what
// the rules say, asks the questions they raise, and keeps the time checks armed. It decides nothing itself.

import { type DailyBudget, parseDailyBudget } from "../daily/daily.ts";
import { parseCommand } from "../grammar/command.ts";
import { foldHistory } from "../model/history.ts";
import { capsInForce } from "../session/caps.ts";
import {
	type Effect,
	EMPTY_SESSION,
	isActive,
	type LoadMode,
	NOTHING_RECORDED,
	readLedger,
	type SessionEvent,
	type SessionState,
} from "../session/index.ts";
import { COMMAND_AFTER_RELOAD, internalErrorMessage } from "../text/messages.ts";
import { BUDGET_IN_FORCE_PROMPT } from "../text/model-notes.ts";
import { sessionReport } from "../text/report.ts";
import type { ReportPageOutcome } from "../text/report-page.ts";
import { type Answer, noAnswer } from "./executor.ts";
import type { LiveSessionPorts, SettingSources } from "./live-ports.ts";
import { livePageSource, writeReportPage } from "./live-report-page.ts";
import { Questions } from "./questions.ts";
import { type CommandDetails, type RuntimePorts, SessionRuntime } from "./runtime.ts";
import { type ResolvedDefault, readSuggestion } from "./suggestion.ts";
import { TimeChecks } from "./time-checks.ts";
import { warmUp } from "./warm-up.ts";

export type { Answer } from "./executor.ts";
export type { LiveSessionPorts, ReportPageInput, SettingSource, SettingSources } from "./live-ports.ts";

/**
 * One session's budget, live. Events after `dispose` (a replaced or shut-down instance) do nothing, so an old instance
 * never stops, warns or runs anything, whatever order commands and reloads arrive in. No method throws: a failure is
 * reported once per place and the session goes on.
 */
export class LiveSession {
	private readonly runtime: SessionRuntime;
	private readonly runtimePorts: RuntimePorts;
	/** The settings of the first load, kept for a load that names none (another branch of the same session). */
	private settings: SettingSources = {};
	/** The daily budgets that cover the session, read from the settings at the first load. */
	private dailyBudgets: readonly DailyBudget[] = [];
	private disposed = false;
	private readonly timeChecks: TimeChecks;
	private readonly reported = new Set<string>();
	/** The questions the rules ask: events that come while one is open wait for its answer, time checks excepted. */
	private readonly questions: Questions;

	constructor(private readonly ports: LiveSessionPorts) {
		this.runtimePorts = {
			store: ports.store,
			ledger: ports.ledger,
			clock: ports.clock,
			onStop: ports.onStop,
			setStatus: (text) => ports.ui.setStatus(text),
			abortRun: () => ports.agent.abortCurrentTurn(),
			problem: (where, error) => this.report(where, error),
			late: (answer) => this.show(answer),
			...(ports.terms ? { terms: ports.terms } : {}),
			...(ports.stopSubagents ? { stopSubagents: () => ports.stopSubagents?.() } : {}),
			historyWhileBudgeted: ports.historyWhileBudgeted === true,
		};
		this.runtime = new SessionRuntime(this.runtimePorts);
		this.timeChecks = new TimeChecks(ports.scheduler, ports.clock, () => void this.handle({ type: "timeCheck" }));
		this.questions = new Questions(ports, (where, error) => this.report(where, error));
	}

	get state(): SessionState {
		return this.runtime.state;
	}

	/**
	 * The session loaded (a cold start or a reload): the budget comes back from the session's history and the ledger; a
	 * session where no budget was ever set gets `defaultBudget`, if there is one.
	 */
	onSessionStart(
		mode: LoadMode,
		announce: boolean,
		defaultBudget: ResolvedDefault | null = null,
		settings?: SettingSources,
	): void {
		this.settings = settings ?? this.settings;
		this.guard("session start", () => {
			const history = foldHistory(this.ports.store.history());
			const ledger = history.budget ? readLedger(this.ports.ledger, history.budget) : NOTHING_RECORDED;
			const event: SessionEvent = { type: "load", history, ledger, mode, announce };
			if (defaultBudget) event.defaultBudget = { ...defaultBudget, newBudgetId: this.ports.newBudgetId() };
			const { onLimit, awareness, grace, subagents } = this.settings;
			if (onLimit) {
				event.onLimit = onLimit;
				event.canAsk = this.questions.canAsk();
			}
			Object.assign(event, awareness && { awareness }, grace && { grace }, subagents && { subagents });
			this.dispatch(event);
			this.loadDaily(settings !== undefined);
		});
		// The first prompt then runs the rules' code warm (warm-up.ts): a copy that changes nothing and never throws.
		warmUp(this.runtime.state, this.ports.clock);
	}

	/** Reads the daily budgets of the settings, naming any that cannot be read (once, at the first load). */
	private loadDaily(announce: boolean): void {
		const budgets: DailyBudget[] = [];
		const unreadable: string[] = [];
		for (const setting of this.settings.daily ?? []) {
			const budget = parseDailyBudget(setting.value, setting.scope, setting.source);
			if ("warning" in budget) {
				unreadable.push(budget.warning);
				if (announce) this.ports.ui.notify(budget.warning, "warning");
			} else budgets.push(budget);
		}
		const ledger = this.ports.daily;
		this.dailyBudgets = ledger ? budgets : [];
		if (ledger) this.runtimePorts.daily = { ledger, budgets, unreadable };
	}

	/** `/timebox <args>`. One that reaches a replaced instance changes nothing, and the user is told to type it again. */
	async command(args: string): Promise<void> {
		if (this.disposed) {
			this.guard("/timebox", () => this.ports.ui.notify(COMMAND_AFTER_RELOAD, "warning"));
			return;
		}
		if (this.questions.isOpen) await this.questions.whenNone();
		if (this.disposed) return;
		const kind = parseCommand(args).kind;
		const page = kind === "reportPage" ? await this.writeReportPage() : undefined;
		const suggestion =
			kind === "suggest" ? await readSuggestion(this.ports.projectHistory?.bind(this.ports)) : undefined;
		if (this.disposed) return;
		let details: CommandDetails | null = null;
		const transcript = this.ports.transcript;
		this.guard("/timebox", () => {
			details = {
				newBudgetId: this.ports.newBudgetId(),
				...(transcript ? { turns: () => transcript.countUserMessages() } : {}),
				canAsk: this.questions.canAsk(),
				...(this.ports.costReporting ? { cost: this.ports.costReporting() } : {}),
				report: () =>
					sessionReport(
						this.ports.store.history(),
						(budget) => readLedger(this.ports.ledger, budget),
						this.ports.clock.now(),
						this.ports.terms,
					),
				...(page === undefined ? {} : { reportPage: page }),
				...(suggestion === undefined ? {} : { suggestion }),
			};
		});
		if (details !== null) await this.settle(this.runtime.command(args, details));
	}

	/** `/timebox report page`: the page written through the host, where it writes one. */
	private writeReportPage(): Promise<ReportPageOutcome | undefined> {
		return writeReportPage(this.ports.reportPage?.bind(this.ports), livePageSource(this.ports, this.dailyBudgets));
	}

	/**
	 * Feeds one event to the rules once no question is open, asks what the rules ask, and carries out the answers. Model
	 * calls and tools go through here, so that none starts while the user is being asked; time checks do not wait, so a
	 * time limit fires on time whatever question is open.
	 */
	handle(event: SessionEvent): Promise<Answer> {
		if (this.disposed) return Promise.resolve(noAnswer());
		if (this.questions.isOpen && event.type !== "timeCheck") {
			return this.questions.whenNone().then(() => (this.disposed ? noAnswer() : this.handleNow(event)));
		}
		return this.handleNow(event);
	}

	private handleNow(event: SessionEvent): Promise<Answer> {
		const before = this.runtime.state;
		const answer = this.runtime.handle(event);
		this.closeMootQuestion(before);
		return this.settle(answer);
	}

	/**
	 * Carries out effects that a rule returned outside any event (a subagent's record its own process wrote) through the
	 * one executor, and shows what they say.
	 */
	write(effects: readonly Effect[]): void {
		this.show(this.runtime.write(effects));
	}

	/**
	 * Feeds one event to the session's rules and carries out what they say, without waiting for an open question. An
	 * answer to a question goes past the daily budgets too: a prompt the question held starts there, and counts then.
	 */
	dispatch(event: SessionEvent, asked = false): Answer {
		if (this.disposed) return noAnswer();
		const before = this.runtime.state;
		const answer = asked ? this.runtime.handle(event) : this.runtime.dispatch(event);
		this.show(answer);
		this.armTimers();
		this.closeMootQuestion(before);
		return answer;
	}

	/**
	 * A stop, or the question at the limit, makes an open question moot (more steps, another budget): it is closed, so
	 * that one question at most is ever open.
	 */
	private closeMootQuestion(before: SessionState): void {
		const after = this.runtime.state;
		const stopped = before.standing?.spent == null && after.standing?.spent != null;
		if (stopped || (!before.asking && after.asking)) this.questions.close();
	}

	/** Shows the answer's notices, then asks each question in turn and reports the answer to the rules. */
	private settle(first: Answer): Promise<Answer> {
		this.show(first);
		this.armTimers();
		return first.questions.length === 0
			? Promise.resolve(first)
			: this.questions.askAll(first, (event) => this.dispatch(event, true));
	}

	/**
	 * Whether a model call about to be sent needs its request measured: a budget of tokens or cost is in force
	 * (`capsInForce`), or a question is open whose answer may set one before the call is let go.
	 */
	needsRequest(): boolean {
		return this.questions.isOpen || capsInForce(this.runtime.state);
	}

	/** A turn begins, before the agent runs: the budget is checked on time, tokens and cost, and its status refreshed. */
	onTurnStart(): Promise<Answer> {
		return this.handle({ type: "timeCheck" });
	}

	/**
	 * The agent is about to start: while a budget is in force, its system prompt gets the text that says so. That text is
	 * the same for as long as the budget is in force, so the prompt's cached prefix changes only when a budget is set
	 * or ends; what is left is told at the end of each model call's messages.
	 */
	onAgentStart(): void {
		if (this.disposed || !isActive(this.runtime.state)) return;
		this.guard("agent start", () => this.ports.agent.appendSystemPrompt?.(BUDGET_IN_FORCE_PROMPT));
	}

	/**
	 * The instance is gone (shut down, reloaded, replaced): a run under way ends here, as its host sends no end of it (a
	 * quit while wrapping up starts the on-stop command now); then all is cleared, and all that comes after ignored.
	 */
	onShutdown(): void {
		if (this.disposed) return;
		this.questions.close();
		if (this.runtime.state.running) this.guard("shutdown", () => this.show(this.runtime.handle({ type: "runEnd" })));
		this.disposed = true;
		this.runtime.state = EMPTY_SESSION;
		this.timeChecks.cancel();
		this.guard("session shutdown", () => this.ports.ui.setStatus(undefined));
	}

	/** Tells the user what an answer says, and stops the subagents it stops. */
	private show(answer: Answer): void {
		if (this.disposed) return;
		for (const notice of answer.notices) this.guard("notify", () => this.ports.ui.notify(notice.message, notice.level));
		for (const agent of answer.stoppedAgents) this.guard("stop a subagent", () => this.ports.stopAgent?.(agent));
	}

	/** Keeps the status refresh running while the budget is active, and the next time check armed at its point. */
	private armTimers(): void {
		// A run under a daily time limit is checked every refresh too: its time counts against the day.
		const dailyRun = this.runtime.daily.session.runStartedAt !== null && this.runtime.dailyTimed;
		try {
			this.timeChecks.arm(this.runtime.state, dailyRun);
		} catch (error) {
			this.report("timers", error);
		}
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
