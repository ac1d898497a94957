// The one executor: carries out the rulebook's effects through a host's ports, in order, and gathers what the host
// must answer now (notices, context for the model, a refusal, an abort, questions). Every host uses it, in process or
// one hook at a time; no adapter interprets an effect itself.

import { budgetsCounting } from "../daily/daily.ts";
import type { DailyPort } from "../daily/daily-budget.ts";
import { NO_TEAM, teamWriteRefusal } from "../daily/team-text.ts";
import { quoteInput } from "../grammar/command.ts";
import type { TeamWrite } from "../model/daily.ts";
import type { Effect } from "../model/events.ts";
import type { BudgetLedger, NotifyLevel, OnStopOutcome, OnStopStarter, SessionStore } from "../ports.ts";

/** A question for the user that the rules raised: the host asks it and reports the answer. */
export type Question = Extract<Effect, { kind: "ask" }>;

/** A message for the user. */
export interface Notice {
	message: string;
	level: NotifyLevel;
}

/** What the host answers to the event it reported. */
export interface Answer {
	/** What the user is told, in order. */
	notices: Notice[];
	/** Blocks to add to what the model reads in the model call about to start. */
	context: string[];
	/** Why the announced prompt, model call or tool call is refused, or null to let it run. */
	refusal: string | null;
	/** Whether the running run is to end now. */
	aborted: boolean;
	/** Questions for the user the event raised. */
	questions: Question[];
	/** The subagents to end now, with no further model request (`stopAgent`), in order, each once. */
	stoppedAgents: string[];
	/**
	 * The most output tokens the model call about to start may answer with (`capOutput`): the host writes it into the
	 * request, never raising a lower limit the request has. Absent: no cap.
	 */
	maxOutputTokens?: number;
}

/** An answer that says nothing yet. */
export function noAnswer(): Answer {
	return { notices: [], context: [], refusal: null, aborted: false, questions: [], stoppedAgents: [] };
}

/**
 * Adds `more` to `answer`: its notices, context, questions and stopped subagents after those there; its refusal and
 * abort win, and the lower of the two caps.
 */
export function mergeAnswer(answer: Answer, more: Answer): Answer {
	answer.notices.push(...more.notices);
	answer.context.push(...more.context);
	answer.questions.push(...more.questions);
	for (const agent of more.stoppedAgents) stopAgent(answer, agent);
	answer.refusal = more.refusal ?? answer.refusal;
	answer.aborted ||= more.aborted;
	if (more.maxOutputTokens !== undefined) capAnswer(answer, more.maxOutputTokens);
	return answer;
}

/** Caps the answer's model call at `maxTokens` output tokens, or keeps the lower cap it has. */
function capAnswer(answer: Answer, maxTokens: number): void {
	answer.maxOutputTokens = Math.min(answer.maxOutputTokens ?? maxTokens, maxTokens);
}

/** Names a subagent to stop in the answer, once however many rules stop it. */
function stopAgent(answer: Answer, agent: string): void {
	if (!answer.stoppedAgents.includes(agent)) answer.stoppedAgents.push(agent);
}

/** What the executor needs from a host. */
export interface EffectPorts {
	store: Pick<SessionStore, "append" | "appendPrompt" | "dropPrompt" | "recordUsage" | "appendLine" | "keepFold">;
	/** The ledger's claims, and where it keeps the start mark of an on-stop command (where it keeps marks). */
	ledger: Pick<BudgetLedger, "claim" | "startMark">;
	/** The daily budgets that cover the session, with the ledger every session shares; absent where there is none. */
	daily?: DailyPort;
	/** Shows the status text; undefined clears it. A host with no status bar ignores it. */
	setStatus(text: string | undefined): void;
	onStop: OnStopStarter;
	/** Ends the host's running run, and any re-run it has pending. Harmless while idle. */
	abortRun(): void;
	/** A part of Timebox failed at `where`: the host tells the user, and the session goes on. */
	problem(where: string, error: unknown): void;
	/** Tells the subagents running in processes of their own that the session's budget is spent (`stopSubagents`). */
	stopSubagents?(): void;
	/** Starts the watcher of a budget with time to run out (`watchBudget`), where the host needs one. */
	watchBudget?(budgetId: string): void;
}

/** Hears what became of an on-stop command; `recovery` names the budget whose command a late start began. */
export type OnStopReporter = (command: string, outcome: OnStopOutcome, recovery?: string) => void;

/**
 * Carries out `effects` in order and adds what they say to `answer`. An effect that fails is reported and the rest
 * still run. A ledger claim that cannot be written counts as won: a limit must fire even when its outcome cannot be
 * recorded. `onStopReport` hears what became of an on-stop command, whenever the runner says so.
 */
export function carryOut(
	effects: readonly Effect[],
	ports: EffectPorts,
	answer: Answer,
	onStopReport: OnStopReporter,
): Answer {
	for (const effect of effects) {
		try {
			carryOutOne(effect, ports, answer, onStopReport);
		} catch (error) {
			ports.problem(DAILY_WRITES.has(effect.kind) ? "daily budget" : effect.kind, error);
		}
	}
	return answer;
}

/** The effects that write today's ledger: a failure among them is the daily budget's. */
const DAILY_WRITES: ReadonlySet<Effect["kind"]> = new Set([
	"countPrompt",
	"reserveDaily",
	"addDailyUse",
	"adjustDaily",
	"setTeamLimits",
	"askTeam",
]);

function carryOutOne(effect: Effect, ports: EffectPorts, answer: Answer, onStopReport: OnStopReporter): void {
	switch (effect.kind) {
		case "notify":
			answer.notices.push({ message: effect.message, level: effect.level });
			return;
		case "status":
			ports.setStatus(effect.text);
			return;
		case "append":
			ports.store.append(effect.record);
			return;
		case "recordPrompt":
			ports.store.appendPrompt?.(effect.prompt);
			return;
		case "dropPrompt":
			ports.store.dropPrompt?.(effect.prompt);
			return;
		case "recordUsage":
			ports.store.recordUsage?.(effect.usage);
			return;
		case "logLine":
			ports.store.appendLine?.(effect.line);
			return;
		case "keepLogFold":
			ports.store.keepFold?.(effect.fold);
			return;
		case "context":
			answer.context.push(effect.text);
			return;
		case "capOutput":
			capAnswer(answer, effect.maxTokens);
			return;
		case "abort":
			answer.aborted = true;
			ports.abortRun();
			return;
		case "refuse":
			answer.refusal = effect.reason;
			return;
		case "ask":
			answer.questions.push(effect);
			return;
		case "stopAgent":
			stopAgent(answer, effect.agent);
			return;
		case "stopSubagents":
			ports.stopSubagents?.();
			return;
		case "watchBudget":
			ports.watchBudget?.(effect.budgetId);
			return;
		case "once":
			if (claim(effect, ports)) carryOut(effect.then, ports, answer, onStopReport);
			return;
		case "countPrompt":
			if (ports.daily && !ports.daily.ledger.countPrompt(effect.budgets ?? ports.daily.budgets, effect.limits))
				carryOut(effect.refused, ports, answer, onStopReport);
			return;
		case "reserveDaily":
			ports.daily?.ledger.reserve?.(effect.budgets ?? ports.daily.budgets);
			return;
		case "addDailyUse":
			ports.daily?.ledger.addUse(effect.budgets ?? budgetsCounting(ports.daily), effect.use);
			return;
		case "adjustDaily": {
			const daily = ports.daily;
			if (!daily) return;
			// A team's budget comes first: a store that refuses it changes nothing after it.
			for (const budget of effect.budgets ?? daily.budgets) {
				if (refusedWrite(daily.ledger.adjust(budget, effect.adjustment), false, answer)) return;
			}
			carryOut(effect.done ?? [], ports, answer, onStopReport);
			return;
		}
		case "setTeamLimits": {
			const write = ports.daily?.ledger.setTeamLimits?.(effect.limits) ?? NO_TEAM_STORE;
			if (!refusedWrite(write, false, answer)) carryOut(effect.done, ports, answer, onStopReport);
			return;
		}
		case "askTeam": {
			const write = ports.daily?.ledger.askTeam?.(effect.adjustment, effect.why) ?? NO_TEAM_STORE;
			if (!refusedWrite(write, true, answer)) carryOut(effect.done, ports, answer, onStopReport);
			return;
		}
		case "startOnStop": {
			const command = effect.command;
			const report = (outcome: OnStopOutcome) => onStopReport(command, outcome, effect.recovery);
			try {
				// The wrapper takes the claim's start mark before it runs the command: a second start of it ends there.
				const mark = startMark(effect, ports);
				if (mark === undefined) ports.onStop.start(command, report);
				else ports.onStop.start(command, report, { mark });
			} catch (error) {
				// A starter that throws could not start the command: the user hears it as such.
				const reason = error instanceof Error ? error.message : String(error);
				report({ kind: "failed", problem: `could not start ${quoteInput(command)}: ${reason}` });
			}
			return;
		}
	}
}

/** A write to a ledger with no team's store to take it. */
const NO_TEAM_STORE: TeamWrite = { failed: NO_TEAM };

/** Whether a write to the team's store was not done: then its refusal is said (`asking`: a request's). */
function refusedWrite(write: TeamWrite | undefined, asking: boolean, answer: Answer): boolean {
	const refusal = write === undefined ? null : teamWriteRefusal(write, asking);
	if (refusal === null) return false;
	answer.notices.push({ message: refusal, level: "warning" });
	return true;
}

/**
 * Where the start mark of an on-stop command goes, or undefined: none named, or a ledger with no marks. A mark the
 * ledger cannot name (a budget id no file may have, whose claim could not be written either) is no reason to lose the
 * command: it starts without one, as a claim that could not be written fires.
 */
function startMark(effect: Extract<Effect, { kind: "startOnStop" }>, ports: EffectPorts): string | undefined {
	if (!effect.claim || !ports.ledger.startMark) return undefined;
	try {
		return ports.ledger.startMark(effect.claim);
	} catch (error) {
		ports.problem("ledger", error);
		return undefined;
	}
}

/** A ledger that cannot be written must not keep the budget from firing: a failed claim counts as won. */
function claim(effect: Extract<Effect, { kind: "once" }>, ports: EffectPorts): boolean {
	try {
		return ports.ledger.claim(effect.claim);
	} catch (error) {
		ports.problem("ledger", error);
		return true;
	}
}
