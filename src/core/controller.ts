// The host-agnostic Timebox session (spec §7.2–§7.4): commands, restore, soft nudge, hard stop and the status refresh.
// A host adapter forwards its events here and implements the ports; this file holds every behaviour rule.

import type { Decision, TimeboxBudget } from "./budget.ts";
import { type BudgetView, planCommand } from "./command-plan.ts";
import {
	MAX_TIMER_DELAY_MS,
	NUDGE_CRITICAL_RATIO,
	NUDGE_WARNING_RATIO,
	STATUS_REFRESH_INTERVAL_MS,
} from "./constants.ts";
import { decide, urgencyFor } from "./decide.ts";
import { formatNudgePrompt, formatStatus, SPENT_STATUS } from "./format.ts";
import { elapsedMs, worstRatio } from "./measure.ts";
import {
	expiredMessage,
	internalErrorMessage,
	nudgeMessage,
	onStopProblemMessage,
	onStopStartedMessage,
	restoredMessage,
	spentMessage,
	UNUSABLE_RECORD,
} from "./messages.ts";
import { parseCommand, type TimeboxCommand } from "./parse.ts";
import { assessRestore, turnsUsedSince } from "./persist.ts";
import type {
	AgentBridge,
	BudgetStore,
	Cancel,
	Clock,
	OnStopRunner,
	Scheduler,
	TranscriptBridge,
	UIBridge,
} from "./ports.ts";

/** Everything the controller needs from its host, passed in so that tests can supply fakes. */
export interface TimeboxControllerDeps {
	store: BudgetStore;
	ui: UIBridge;
	transcript: TranscriptBridge;
	agent: AgentBridge;
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopRunner;
}

type StopDecision = Extract<Decision, { kind: "stop" }>;

/** Points of the time limit at which the budget is evaluated on time, not at the next status refresh. */
const TIME_CHECKPOINTS = [NUDGE_WARNING_RATIO, NUDGE_CRITICAL_RATIO, 1];

/**
 * One session's budget. Turns are counted as prompts: the count is taken when a prompt starts (before it enters the
 * transcript) and held for that prompt's whole run, so the prompt being answered never counts against itself and the
 * limit is enforced when the next prompt starts. Time is enforced on time by a timer at the deadline and at each
 * nudge point, and by the status refresh. No method throws: failures are reported once through the UI.
 */
export class TimeboxController {
	private budget: TimeboxBudget | null = null;
	private spent: { usedTurns: number; elapsedMs: number } | null = null;
	/** User messages in the transcript when last counted. */
	private userMessages = 0;
	/** User messages before the prompt being answered; null while idle. */
	private runBaseline: number | null = null;
	private baselineFromPrompt = false;
	private runInProgress = false;
	private stoppedDuringRun = false;
	private statusTimer: Cancel | null = null;
	private deadlineTimer: Cancel | null = null;
	private commandQueue: Promise<void> = Promise.resolve();
	private readonly reportedErrors = new Set<string>();

	constructor(private readonly deps: TimeboxControllerDeps) {}

	/** A copy of the budget in force (active or spent), or null. */
	get currentBudget(): TimeboxBudget | null {
		return this.budget ? { ...this.budget } : null;
	}

	/** The session loaded (cold start, reload, new, resume, fork): restore the budget from the session's records. */
	async sessionStart(): Promise<void> {
		await this.guardAsync("session start", async () => {
			this.clearSessionState();
			const records = await this.deps.store.loadRecords();
			this.userMessages = this.deps.transcript.countUserMessages();
			const assessment = assessRestore(records, this.now(), this.userMessages);
			if (assessment.newestUnusable) this.deps.ui.notify(UNUSABLE_RECORD, "warning");
			switch (assessment.status) {
				case "restored":
					this.budget = assessment.budget;
					this.startTimers(assessment.budget);
					this.refreshStatus();
					this.deps.ui.notify(
						restoredMessage(this.statusText(assessment.budget), assessment.budget.onStopCommand),
						"info",
					);
					break;
				case "expired":
					this.deps.ui.notify(expiredMessage(assessment.budget, assessment.timeRanOut), "warning");
					this.refreshStatus();
					break;
				case "none":
					this.refreshStatus();
					break;
			}
		});
	}

	/** A prompt is about to run: take the turn count, nudge if due, and add the warning block to the system prompt. */
	agentStart(): void {
		this.guard("before agent start", () => {
			this.userMessages = this.deps.transcript.countUserMessages();
			this.runBaseline = this.userMessages;
			this.baselineFromPrompt = true;
			this.runInProgress = true;
			this.stoppedDuringRun = false;
			const budget = this.budget;
			if (!budget?.active) return;
			const now = this.now();
			const used = this.usedTurns(budget);
			const decision = decide(budget, now, used);
			// A spent budget is stopped at the run's first turn start, where an abort reaches the running agent.
			if (decision.kind === "nudge") this.nudge(budget, decision);
			if (budget.softNudgeSent) {
				const urgency = urgencyFor(worstRatio(budget, now, used));
				this.deps.agent.appendSystemPrompt(formatNudgePrompt(budget, now, used, urgency));
			}
			this.refreshStatus();
		});
	}

	/** One LLM call is about to start; `firstOfRun` marks the first call of a prompt's run. */
	turnStart(firstOfRun: boolean): void {
		this.guard("turn start", () => {
			if (firstOfRun && !this.baselineFromPrompt) {
				// A run that started without a prompt (nothing came through agentStart): count now.
				this.userMessages = this.deps.transcript.countUserMessages();
				this.runBaseline = this.userMessages;
				this.stoppedDuringRun = false;
			}
			this.baselineFromPrompt = false;
			this.runInProgress = true;
			const budget = this.budget;
			if (!budget) return;
			if (!budget.active) {
				// Stopped while this run was starting up: make sure the abort lands.
				if (this.stoppedDuringRun) this.deps.agent.abortCurrentTurn();
				return;
			}
			this.apply(budget, decide(budget, this.now(), this.usedTurns(budget)));
		});
	}

	/** The run ended: count the prompt just answered (and any typed meanwhile) and show the new count. */
	agentEnd(): void {
		this.guard("agent end", () => {
			this.endRun();
			this.userMessages = this.deps.transcript.countUserMessages();
			this.refreshStatus();
		});
	}

	/** The session ends (quit, reload, new, resume, fork): stop the timers and forget the state; write nothing. */
	shutdown(): void {
		this.guard("session shutdown", () => {
			this.clearSessionState();
			this.deps.ui.setStatus(undefined);
		});
	}

	/** `/timebox <args>`. Commands run one at a time, in the order given. */
	command(args: string): Promise<void> {
		const run = this.commandQueue.then(() => this.guardAsync("/timebox", () => this.runCommand(parseCommand(args))));
		this.commandQueue = run;
		return run;
	}

	private async runCommand(command: TimeboxCommand): Promise<void> {
		if (command.kind === "status" && !this.runInProgress) {
			this.userMessages = this.deps.transcript.countUserMessages();
		}
		const plan = planCommand(command, this.view(command.kind === "set"));
		switch (plan.change) {
			case "none":
				if (command.kind === "status" && this.budget) this.refreshStatus();
				break;
			case "set":
				await this.deps.store.appendActive({ ...plan.budget });
				this.budget = plan.budget;
				this.spent = null;
				this.userMessages = plan.budget.startTurn;
				this.stoppedDuringRun = false;
				this.startTimers(plan.budget);
				this.refreshStatus();
				break;
			case "off":
				await this.deps.store.appendOff(plan.disabledAt);
				this.cancelTimers();
				this.budget = null;
				this.spent = null;
				this.deps.ui.setStatus(undefined);
				break;
		}
		this.deps.ui.notify(plan.reply.message, plan.reply.level);
	}

	/** The session as a command sees it; a new budget counts turns from a fresh transcript count. */
	private view(countNow: boolean): BudgetView {
		return {
			budget: this.budget,
			spent: this.spent,
			usedTurns: this.budget ? this.usedTurns(this.budget) : 0,
			userMessages: countNow ? this.deps.transcript.countUserMessages() : this.userMessages,
			now: this.now(),
		};
	}

	private apply(budget: TimeboxBudget, decision: Decision): void {
		switch (decision.kind) {
			case "stop":
				this.hardStop(budget, decision);
				return;
			case "nudge":
				this.nudge(budget, decision);
				this.refreshStatus();
				return;
			case "ok":
				this.refreshStatus();
				return;
		}
	}

	/** Evaluates the time dimension only: turns are spent by prompts and enforced when a prompt starts. */
	private checkTime(budget: TimeboxBudget): void {
		this.apply(budget, decide({ ...budget, turnLimit: null }, this.now(), this.usedTurns(budget)));
	}

	private nudge(budget: TimeboxBudget, decision: Extract<Decision, { kind: "nudge" }>): void {
		budget.softNudgeSent = true;
		this.deps.ui.notify(nudgeMessage(decision.urgency, decision.detail), "warning");
	}

	/** Spec §7.3: notify, deactivate and stop the timers, start the on-stop command, abort the run. Each step runs even if one before it fails. */
	private hardStop(budget: TimeboxBudget, decision: StopDecision): void {
		budget.active = false;
		this.spent = { usedTurns: decision.usedTurns, elapsedMs: decision.elapsedMs };
		this.cancelTimers();
		this.stoppedDuringRun = this.runInProgress;
		this.guard("hard stop", () => this.deps.ui.notify(spentMessage(decision.usedTurns, decision.elapsedMs), "error"));
		this.guard("hard stop", () => this.deps.ui.setStatus(SPENT_STATUS));
		const command = decision.onStopCommand;
		if (command !== null) this.guard("on-stop command", () => this.startOnStop(command));
		if (this.runInProgress) this.guard("abort", () => this.deps.agent.abortCurrentTurn());
	}

	private startOnStop(command: string): void {
		this.deps.onStop.run(command, (problem) =>
			this.guard("on-stop command", () => this.deps.ui.notify(onStopProblemMessage(problem), "warning")),
		);
		this.deps.ui.notify(onStopStartedMessage(command), "info");
	}

	/** Starts the status refresh and the time checkpoints of a newly active budget; timers of the old one stop. */
	private startTimers(budget: TimeboxBudget): void {
		this.cancelTimers();
		this.statusTimer = this.deps.scheduler.setInterval(
			() => this.guard("status refresh", () => this.checkTime(budget)),
			STATUS_REFRESH_INTERVAL_MS,
		);
		this.armTimeCheckpoint(budget);
	}

	/** Schedules a check at the next time checkpoint still ahead: 80%, 95% or 100% of the time limit. */
	private armTimeCheckpoint(budget: TimeboxBudget): void {
		this.deadlineTimer = null;
		if (!budget.active || budget.timeLimitMs === null) return;
		const limitMs = budget.timeLimitMs;
		const elapsed = elapsedMs(budget, this.now());
		const next = Math.min(
			...TIME_CHECKPOINTS.map((ratio) => ratio * limitMs).filter((point) => point > elapsed),
			limitMs,
		);
		// Never sooner than 1 ms (a late check is re-run at once), never longer than a timer can hold (it re-arms).
		const delayMs = Math.min(MAX_TIMER_DELAY_MS, Math.max(1, Math.ceil(next - elapsed)));
		this.deadlineTimer = this.deps.scheduler.setTimeout(
			() =>
				this.guard("time check", () => {
					this.checkTime(budget);
					this.armTimeCheckpoint(budget);
				}),
			delayMs,
		);
	}

	private cancelTimers(): void {
		this.statusTimer?.();
		this.deadlineTimer?.();
		this.statusTimer = null;
		this.deadlineTimer = null;
	}

	private endRun(): void {
		this.runBaseline = null;
		this.baselineFromPrompt = false;
		this.runInProgress = false;
		this.stoppedDuringRun = false;
	}

	private clearSessionState(): void {
		this.cancelTimers();
		this.endRun();
		this.budget = null;
		this.spent = null;
		this.userMessages = 0;
	}

	/** Prompts used of a budget: those sent since it was set, not counting one being answered now. */
	private usedTurns(budget: TimeboxBudget): number {
		return turnsUsedSince(budget, this.runBaseline ?? this.userMessages);
	}

	private statusText(budget: TimeboxBudget): string {
		return formatStatus(budget, this.now(), this.usedTurns(budget));
	}

	private refreshStatus(): void {
		this.deps.ui.setStatus(this.budget ? this.statusText(this.budget) : undefined);
	}

	private now(): number {
		return this.deps.clock.now();
	}

	private guard(where: string, action: () => void): void {
		try {
			action();
		} catch (error) {
			this.report(where, error);
		}
	}

	private async guardAsync(where: string, action: () => Promise<void>): Promise<void> {
		try {
			await action();
		} catch (error) {
			this.report(where, error);
		}
	}

	/** Tells the user about an internal error, once per place, and never throws itself. */
	private report(where: string, error: unknown): void {
		if (this.reportedErrors.has(where)) return;
		this.reportedErrors.add(where);
		try {
			this.deps.ui.notify(internalErrorMessage(where, error), "error");
		} catch {
			// The UI itself is failing: there is nobody left to tell.
		}
	}
}
