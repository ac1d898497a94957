// A session's rules at work, for every host: the session's state and its part in the daily budgets, each event fed
// to the daily rules and then to the session's rules, and their effects carried out by the one executor. In-process
// hosts keep one for the session's life; hook hosts make one per hook from the session's log.

import { type DailyEvent, type DailySession, dailyRefused, dailyTransition, NO_DAILY_SESSION } from "../daily/daily.ts";
import { spentDaily } from "../daily/daily-budget.ts";
import { parseCommand } from "../grammar/command.ts";
import type { CostReporting } from "../grammar/command-plan.ts";
import type { Clock, OnStopOutcome } from "../ports.ts";
import { refusesCall } from "../session/caps.ts";
import { type Effect, EMPTY_SESSION, isNewPrompt, type SessionEvent, type SessionState } from "../session/index.ts";
import { transitionWithSubagents } from "../subagents/compose.ts";
import { DEFAULT_TERMS, type HostTerms, inHostTerms, modeLine } from "../text/host-terms.ts";
import { type ReportPageOutcome, reportPageReply } from "../text/report-page.ts";
import { suggestReply } from "../text/suggestion.ts";
import { dailyCommandAnswer, hasDailyBudgets } from "./daily-command.ts";
import { type Answer, carryOut, type EffectPorts, mergeAnswer, noAnswer } from "./executor.ts";
import { keptForStore } from "./kept-history.ts";
import type { SuggestOutcome } from "./suggestion.ts";

/** A session's part in its daily budgets, and the prompt they refused: its later calls are refused for the same reason. */
export interface DailyPart {
	readonly session: DailySession;
	readonly refused: { readonly prompt: string; readonly reason: string } | null;
}

/** A session that has done nothing under a daily budget yet. */
export const NO_DAILY_PART: DailyPart = { session: NO_DAILY_SESSION, refused: null };

/** What the rules need from a host, beyond the executor's ports. */
export interface RuntimePorts extends EffectPorts {
	clock: Clock;
	/** An answer that comes after its event (what became of an on-stop command): the host shows its notices. */
	late(answer: Answer): void;
	/** How the host's users type the command and what the host measures; pi's when absent. */
	terms?: HostTerms;
	/**
	 * The host's store is read back only when the session loads again, where only a budget counts its prompts and usage:
	 * it is given them only while a budget is in force (kept-history.ts). Absent, it is given every one: a hook host's
	 * store carries the session from one hook to the next, and a project's past sessions are read from the stores.
	 */
	historyWhileBudgeted?: boolean;
}

/** What a `/timebox` command needs besides its words. */
export interface CommandDetails {
	/** The id a new budget gets. */
	newBudgetId: string;
	/** Whether the user can be asked now: a replacement of the active budget is then asked first. */
	canAsk?: boolean;
	/** Whether a cost limit can be enforced here. */
	cost?: CostReporting;
	/** False where the host never says what a model call used. */
	tokensSeen?: false;
	/** The report of the session's budgets, worked out only for `/timebox report`. */
	report(): string;
	/** The session's user-message count, where the host counts it: a new budget's `startTurn`, read for a set only. */
	turns?: () => number;
	/** What became of writing the report page, for `/timebox report page`; absent where the host writes none. */
	reportPage?: ReportPageOutcome;
	/** What became of the suggestion, for `/timebox suggest`; absent where the host reads no past sessions. */
	suggestion?: SuggestOutcome;
}

/** One session's rules at work: feed it events and commands, and answer the host with what it returns. */
export class SessionRuntime {
	constructor(
		private readonly ports: RuntimePorts,
		public state: SessionState = EMPTY_SESSION,
		public daily: DailyPart = NO_DAILY_PART,
	) {}

	/**
	 * Feeds one event to the daily budgets and then to the session's rules. A refusal of the daily budgets ends the
	 * event there; else their notices and lines for the model come after the session's own. A new prompt that the
	 * session's own budget refuses goes to the session's rules alone: it never runs, so the day does not count it.
	 */
	handle(event: SessionEvent): Answer {
		// A prompt refused after all started no run: nothing of its time counts for the day.
		if (event.type === "promptRefused") this.daily = { ...this.daily, session: dailyRefused(this.daily.session) };
		if (this.sessionHoldsPrompt(event)) return this.dispatch(event);
		if (event.type === "limitAnswer" && event.answer !== "stop") return this.goOnAfterAsking(event);
		const daily = this.dailyAnswer(event);
		if (daily !== null && daily.refusal !== null) return daily;
		const answer = this.dispatch(event);
		const merged = daily === null ? answer : mergeAnswer(answer, daily);
		// The session's rules ended the run (a stop, a cut wrap-up, a step cap): its time counts for the day now, where a
		// host sends no end of a run its hook stopped (Claude Code's classic hooks, Gemini CLI); an end that comes after
		// all adds nothing more.
		if (!answer.aborted || this.daily.session.runStartedAt === null) return merged;
		const ended = this.dailyAnswer({ type: "runEnd" });
		return ended === null ? merged : mergeAnswer(merged, ended);
	}

	/** Feeds one event to the session's rules (and its subagents') alone and carries out what they say. */
	dispatch(event: SessionEvent): Answer {
		try {
			const result = transitionWithSubagents(this.state, event, this.ports.clock.now());
			this.state = result.state;
			return this.carryOut(keptForStore(result.effects, result.state, this.ports.historyWhileBudgeted === true));
		} catch (error) {
			this.ports.problem(event.type === "command" ? "/timebox" : event.type, error);
			return noAnswer();
		}
	}

	/**
	 * Carries out effects that a rule of the host's own bookkeeping returned (run/session-log.ts: the lines one process
	 * leaves the next) through the one executor and the same ports, and returns what they say.
	 */
	write(effects: readonly Effect[]): Answer {
		return this.carryOut(effects);
	}

	/** `/timebox <args>`: `today` and `team` go to the daily budgets, everything else to the session's rules. */
	command(args: string, details: CommandDetails): Answer {
		const parsed = parseCommand(args);
		if (parsed.kind === "today" || parsed.kind === "team") return dailyCommandAnswer(parsed, this.ports, this.terms);
		if (parsed.kind === "reportPage") {
			const answer = noAnswer();
			answer.notices.push(reportPageReply(details.reportPage));
			return answer;
		}
		if (parsed.kind === "suggest") {
			const answer = noAnswer();
			const reply = suggestReply(details.suggestion);
			answer.notices.push({ message: inHostTerms(reply.message, this.terms), level: reply.level });
			return answer;
		}
		const event: SessionEvent = { type: "command", args, newBudgetId: details.newBudgetId };
		if (details.canAsk !== undefined) event.canAsk = details.canAsk;
		if (details.cost !== undefined) event.cost = details.cost;
		if (details.tokensSeen !== undefined) event.tokensSeen = details.tokensSeen;
		if (details.turns !== undefined && parsed.kind === "set") event.turns = details.turns();
		if (parsed.kind === "report") {
			try {
				event.report = details.report();
			} catch (error) {
				this.ports.problem("/timebox report", error);
			}
		}
		const answer = this.dispatch(event);
		const mode = parsed.kind === "status" ? modeLine(this.terms) : null;
		const said = answer.notices[0];
		if (mode !== null && said !== undefined) said.message = `${said.message}\n${mode}`;
		return answer;
	}

	/** Whether a daily budget in force, as last read, limits agent time: a run is then checked as its time goes by. */
	private timedDaily = false;

	get dailyTimed(): boolean {
		return this.timedDaily;
	}

	/** The answer being carried out, which a starter's report that comes at once joins. */
	private carrying: Answer | null = null;

	/** What became of an on-stop command: it joins the answer being carried out, or comes as an answer of its own. */
	private readonly onStopReport = (command: string, outcome: OnStopOutcome, recovery?: string): void => {
		const event: SessionEvent = { type: "onStopReport", command, outcome };
		if (recovery !== undefined) event.recovery = recovery;
		const report = this.dispatch(event);
		if (this.carrying) mergeAnswer(this.carrying, report);
		else this.ports.late(report);
	};

	/** Carries out effects into a new answer; what the user is told is in the host's terms. */
	private carryOut(effects: readonly Effect[]): Answer {
		const answer = noAnswer();
		const outer = this.carrying;
		this.carrying = answer;
		try {
			carryOut(effects, this.ports, answer, this.onStopReport);
		} finally {
			this.carrying = outer;
		}
		if (answer.notices.length > 0) {
			const terms = this.terms;
			for (const notice of answer.notices) notice.message = inHostTerms(notice.message, terms);
		}
		return answer;
	}

	private get terms(): HostTerms {
		return this.ports.terms ?? DEFAULT_TERMS;
	}

	/**
	 * Reports a model call, tool call, answer, time check or the end of a run to the daily budgets, and carries out what
	 * they say; null for an event they do not hear, or where no daily budget covers the session.
	 */
	private dailyAnswer(event: SessionEvent): Answer | null {
		const port = this.ports.daily;
		try {
			// Asked within the guard: a host's ledger may be opened at this first question, and fail.
			if (!hasDailyBudgets(port)) return null;
			const prompt = event.type === "modelCall" ? (event.prompt ?? this.state.lastPrompt) : null;
			const refused = this.daily.refused;
			if (prompt !== null && prompt === refused?.prompt) {
				// The prompt was refused already: its later calls end the same way, without another word.
				return this.carryOut([{ kind: "abort" }, { kind: "refuse", reason: refused.reason }]);
			}
			const dailyEvent = this.dailyEventOf(event);
			if (dailyEvent === null) return null;
			const standings = port.ledger.standings(port.budgets);
			this.timedDaily = standings.some((standing) => standing.budget.limits.timeMs !== null);
			const result = dailyTransition(this.daily.session, dailyEvent, standings, this.ports.clock.now());
			const answer = this.carryOut(result.effects);
			answer.context.push(...result.context);
			const problem = port.ledger.problem();
			// A problem a refusal says (a store down in the closed mode: a day's standing refuses new turns with its words) is
			// said once, as the refusal: this answer's, or the next prompt's, not as a warning before it.
			const refusalSays = standings.some((standing) => standing.closed === problem);
			if (problem !== null && !refusalSays) {
				answer.notices.unshift({ message: inHostTerms(problem, this.terms), level: "warning" });
			}
			if (answer.refusal !== null && prompt !== null && dailyEvent.type === "newPrompt") {
				// Refused here or, when another session took the last prompt meanwhile, by the ledger.
				this.daily = { session: dailyRefused(result.session), refused: { prompt, reason: answer.refusal } };
			} else this.daily = { session: result.session, refused };
			return answer;
		} catch (error) {
			this.ports.problem("daily budget", error);
			return null;
		}
	}

	/**
	 * Whether the event is a new prompt, under a daily budget, that the session's own rules would refuse, or hold while
	 * they ask the user whether to go on at the limit (their transition is pure: asked on the state as it stands, it
	 * changes nothing), where the day would not refuse it first; with `answered`, whether the user's answer to that
	 * question (a `limitAnswer`) still leaves it refused or held. The day counts such a prompt only once it runs: a prompt
	 * the user stops there never ran. False where that cannot be told: the day then counts the prompt, as it does any.
	 */
	private sessionHoldsPrompt(event: SessionEvent, answered = false): boolean {
		if (event.type !== (answered ? "limitAnswer" : "modelCall")) return false;
		try {
			const daily = this.ports.daily;
			const prompt = event.type === "limitAnswer" ? event.reached : event;
			if (!hasDailyBudgets(daily) || this.dailyEventOf(prompt)?.type !== "newPrompt") return false;
			const { effects } = transitionWithSubagents(this.state, event, this.ports.clock.now());
			if (refusesCall(effects)) return true;
			// A day spent already refuses a new prompt as it refuses any: no question whose every answer ends there. Asked
			// again at an answer, the prompt waits for that question as it did for the first.
			const asks = effects.some((effect) => effect.kind === "ask");
			return asks && (answered || !spentDaily(daily.ledger.standings(daily.budgets), true));
		} catch {
			return false;
		}
	}

	/**
	 * The user chose more time or a prompt at the limit: the budget gets its room, and the event that met the limit goes
	 * on. A new prompt held by the question starts there, so the day counts it now; a day that refuses it ends it there,
	 * with the room given all the same (the user asked for it) and the prompt never run.
	 */
	private goOnAfterAsking(event: Extract<SessionEvent, { type: "limitAnswer" }>): Answer {
		const reached = event.reached;
		// Any other event that met the limit (a run's own call, a tool, the time) was heard by the day as it came. A prompt
		// the rules hold still (room of one kind does not lift a limit of the other: they ask again) is not counted yet.
		const held = reached.type === "modelCall" && this.dailyEventOf(reached)?.type === "newPrompt";
		const daily = held && !this.sessionHoldsPrompt(event, true) ? this.dailyAnswer(reached) : null;
		if (daily === null) return this.dispatch(event);
		if (daily.refusal === null) return mergeAnswer(this.dispatch(event), daily);
		return mergeAnswer(this.dispatch({ ...event, reached: { type: "timeCheck" } }), daily);
	}

	/** What an event of the session is to the daily budgets; an answer carries what its model call used. */
	private dailyEventOf(event: SessionEvent): DailyEvent | null {
		switch (event.type) {
			case "modelCall":
				// A run an extension started is no prompt, nor is a subagent's call: neither is counted for the day.
				return event.agent === undefined && isNewPrompt(this.state, event.prompt) && event.startedBy !== "extension"
					? { type: "newPrompt" }
					: { type: "duringRun", modelCall: true };
			case "modelResponse":
				return { type: "duringRun", modelCall: false, used: { tokens: event.tokens, cost: event.cost } };
			case "toolCall":
			case "timeCheck":
				return { type: "duringRun", modelCall: false };
			case "runEnd":
				return { type: "runEnd" };
			default:
				return null;
		}
	}
}
