// A team's daily ledger read ahead, for a session whose rules run synchronously but may wait before and after them: a
// hook process (Codex, Gemini CLI, Claude Code's classic hooks) and Claude Code's hooks module. `refresh` reads the day
// before an event (one batch, one round trip; skipped when the last batch read it just now), the rules answer from that
// reading and count a prompt ahead, and `settle` sends what the event wrote in one batch: false when the store refused a
// prompt counted in it (another machine took the day's last turn meanwhile), and `takenRefusal` says why. How a batch
// reaches the store is the session's (`run`: in its own process, or the plugin's batch process); what happens while it
// cannot is the outage policy's (outage.ts).
//
// A daily command (`/timebox today …`, `/timebox team …`) is `prepare`d before the rules answer it: the day and the
// team's store beside it (the admin's limits, the open requests) are read in one batch, the rules answer the command
// once on that reading to learn the writes it makes, those go to the store in one batch, in order, and when the rules
// answer it for the session the ledger answers each write with what the store made of it (prepared-writes.ts).

import {
	type Clock,
	closedTeamStanding,
	DAILY_TAKEN_REFUSAL,
	type DailyAdjustment,
	type DailyBudget,
	type DailyLedger,
	type DailyLimits,
	type DailyStanding,
	type DailyTeam,
	type DailyUseAdded,
	dailyCommandAnswer,
	dailyCommandPorts,
	NO_ADJUSTMENT,
	NO_TEAM,
	parseCommand,
	promptTakenMessage,
	TEAM_HOP_FRESH_MS,
	type TeamView,
	type TeamWrite,
	teamDayUnread,
	teamWriteNotSent,
} from "../../core/index.ts";
import type { TeamOp, TeamReply, TeamRequest } from "./batch.ts";
import { Outage, type OutageTexts } from "./outage.ts";
import { PreparedWrites } from "./prepared-writes.ts";
import type { TeamCarry } from "./team-day.ts";
import type { SessionTold } from "./told.ts";

/** A daily ledger read before each event and written after it. */
export interface ReadAheadDailyLedger extends DailyLedger {
	/** Reads the day before an event. */
	refresh(): Promise<void>;
	/** Writes what the event wrote: false when a prompt counted in it cannot be counted after all. */
	settle(): Promise<boolean>;
	/** Why the last prompt refused at `settle` was refused. */
	takenRefusal(): string;
	/** Before the rules answer `/timebox <words>`: a daily command's reads and writes (else `refresh`). */
	prepare(words: string): Promise<void>;
}

/** What a batch answered, or why it could not run. */
export type BatchOutcome = TeamReply | { error: string };

export interface ReadAheadOptions {
	sessionId: string;
	clock: Clock;
	/** The session's daily budgets, as the rules read them. */
	budgets: readonly DailyBudget[];
	/** `TIMEBOX_DAILY_STORE_FAILURE=closed`: new turns are refused while the store cannot be reached. */
	closed: boolean;
	/** Runs a batch against the store. */
	run: (request: TeamRequest) => Promise<BatchOutcome>;
	/** What is said when a batch could not run at all, and the refusal of new turns then in the closed mode. */
	texts: OutageTexts;
	/** Whether the batch that sends what an event wrote reads the day too (a session whose next event may use it). */
	readAfter: boolean;
	/** The team whose store the batches reach. */
	team: DailyTeam;
	/** What the session was told before, where it outlives this process (a hook host's): a problem is said once. */
	told?: SessionTold;
}

const NO_USE = { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 };

export class ReadAheadLedger implements ReadAheadDailyLedger {
	/** The day as the last batch read it; null before the first. */
	private reading: DailyStanding[] | null = null;
	/** When the day was last read (or a batch failed), epoch ms; null before the first. */
	private readAt: number | null = null;
	/** A batch that could not run at all: the outage policy's. */
	private readonly outage: Outage;
	private ops: TeamOp[] = [];
	private carried: TeamCarry | null = null;
	private budgets: readonly DailyBudget[];
	/** Whether the session's model call is reserved already (until an answer's use settles it). */
	private reserved = false;
	/** The problems still to say, one with each answer of the rules that asks. */
	private untold: string[] = [];
	/** Every problem this process said, or has still to say. */
	private readonly said = new Set<string>();
	/** Why the last prompt refused at `settle` was refused. */
	private taken: string = DAILY_TAKEN_REFUSAL;
	/** Why the day could not be read at the last batch that read it (or that could not run), or null. */
	private unread: string | null = null;
	/** The team's store beside the day, as a daily command's batch read it. */
	private view: TeamView = { unreadable: NO_TEAM };
	/** A daily command's writes, learnt before the rules answer it and sent. */
	private readonly writes = new PreparedWrites();

	constructor(private readonly options: ReadAheadOptions) {
		this.budgets = options.budgets;
		this.outage = new Outage(options.closed, options.clock, options.texts);
	}

	get team(): DailyTeam {
		return this.options.team;
	}

	standings(budgets: readonly DailyBudget[]): DailyStanding[] {
		this.budgets = budgets;
		const standings =
			this.reading ?? budgets.map((budget) => ({ budget, use: NO_USE, adjustment: NO_ADJUSTMENT, dayStart: 0 }));
		const closed = this.outage.refusal();
		if (closed === null) return standings;
		// A session with no daily budget of its own is refused new turns all the same: the team's limits are in the store.
		if (standings.length === 0) return [closedTeamStanding(this.options.team, closed, 0)];
		return standings.map((standing) => ({ ...standing, closed }));
	}

	/** Counted ahead: the rules count a prompt only where the day just read leaves one; the store decides at `settle`. */
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean {
		this.ops.push({ op: "count", limits: [...limits], budgets: [...budgets] });
		return true;
	}

	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void {
		this.ops.push({ op: "use", use, budgets: [...budgets] });
		// Any use settles the session's reservation.
		this.reserved = false;
	}

	/** Reserves the model call about to start, once: a call counted at its tool's end and at its request is one. */
	reserve(budgets: readonly DailyBudget[]): void {
		if (this.reserved) return;
		this.reserved = true;
		this.ops.push({ op: "reserve", budgets: [...budgets] });
	}

	adjust(budget: DailyBudget, adjustment: DailyAdjustment): TeamWrite {
		return this.writes.write({ op: "adjust", budget, adjustment });
	}

	teamView(): TeamView {
		return this.view;
	}

	setTeamLimits(limits: DailyLimits | null): TeamWrite {
		return this.writes.write({ op: "limits", limits });
	}

	askTeam(adjustment: DailyAdjustment, why: string): TeamWrite {
		return this.writes.write({ op: "ask", adjustment, why });
	}

	/**
	 * Before the rules answer `/timebox <words>`: for a daily command, the day and the team's store beside it are read,
	 * the writes the rules make for it learnt on that reading and sent, in order, in one batch; for the report page, the
	 * day and the store read (its limits and open requests are on the page); else the day is read as before any event.
	 */
	async prepare(words: string): Promise<void> {
		const command = parseCommand(words);
		const daily = command.kind === "today" || command.kind === "team";
		if (!daily && command.kind !== "reportPage") return this.refresh();
		this.writes.forget();
		const ops: TeamOp[] = [...this.takeOps(), { op: "view" }];
		const read = await this.exchange(ops, true);
		if ("error" in read) {
			this.failed(ops);
			this.view = { unreadable: this.options.texts.unreachable(read.error, this.options.closed) };
		} else this.view = read.view ?? { unreadable: teamWriteNotSent("the batch did not read it") };
		if (!daily) return;
		const writes = this.writes.learn((unanswered) =>
			dailyCommandAnswer(command, dailyCommandPorts({ ledger: this, budgets: this.budgets }, unanswered)),
		);
		this.writes.sent(writes, writes.length === 0 ? null : await this.exchange(writes, false));
	}

	dayUnread(): string | null {
		return this.unread;
	}

	problem(): string | null {
		const said = this.untold.shift() ?? null;
		// Kept as said where the session outlives this process once it is taken to be shown, not when it was found.
		if (said !== null) this.options.told?.first(said);
		return said;
	}

	takenRefusal(): string {
		return this.taken;
	}

	/** Reads the day before an event, unless the last batch read it just now. */
	async refresh(): Promise<void> {
		if (this.readAt !== null && this.options.clock.now() - this.readAt < TEAM_HOP_FRESH_MS) return;
		await this.send(true);
	}

	/**
	 * Sends what the event wrote, with a read where `readAfter` or where a prompt was counted (a prompt the store refused
	 * is refused in the words of the day as it stands): false when the store refused a prompt counted in it.
	 */
	async settle(): Promise<boolean> {
		if (this.ops.length === 0) return true;
		return this.send(this.options.readAfter || this.ops.some((op) => op.op === "count"));
	}

	/** Runs the calls made since the last batch, then a read where `read`, in one batch. */
	private async send(read: boolean): Promise<boolean> {
		const ops = this.takeOps();
		const outcome = await this.exchange(ops, read);
		if ("error" in outcome) return this.failed(ops);
		if (!outcome.counted.includes(false)) return true;
		this.taken = promptTakenMessage(outcome.standings) ?? DAILY_TAKEN_REFUSAL;
		return false;
	}

	/** The calls made since the last batch, taken to send. */
	private takeOps(): TeamOp[] {
		const ops = this.ops;
		this.ops = [];
		return ops;
	}

	/** Runs `ops`, then a read where `read`, in one batch: its reply, or why it could not run (the outage policy's). */
	private async exchange(ops: TeamOp[], read: boolean): Promise<BatchOutcome> {
		const waiting = this.outage.waiting();
		if (waiting !== null) return { error: waiting };
		const request: TeamRequest = {
			session: this.options.sessionId,
			budgets: [...this.budgets],
			ops,
			...(this.carried ? { carry: this.carried } : {}),
			...(read ? {} : { read: false }),
		};
		const outcome = await this.options.run(request).catch((error: unknown) => ({
			error: error instanceof Error ? error.message : String(error),
		}));
		if (read || "error" in outcome) this.readAt = this.options.clock.now();
		if ("error" in outcome) {
			this.outage.failed(outcome.error);
			if (read) this.unread = teamDayUnread(outcome.error);
			return outcome;
		}
		this.outage.answered();
		if (read) {
			this.reading = outcome.standings;
			this.unread = outcome.unread ?? null;
		}
		this.carried = outcome.carry;
		for (const problem of outcome.problems) this.say(problem);
		return outcome;
	}

	/**
	 * A batch that could not run (or one held back while the way to the store is left alone): said once; in the closed
	 * mode new turns are refused (a prompt counted in the batch among them), else the session goes on and what the
	 * batch held is not counted for the team.
	 */
	private failed(ops: readonly TeamOp[]): boolean {
		const said = this.outage.told();
		if (said !== null) this.say(said);
		const refusal = this.outage.refusal();
		if (refusal === null) return true;
		this.taken = refusal;
		return !ops.some((op) => op.op === "count");
	}

	/** Says each problem once per session: one the session was told before (where it keeps that) is not said again. */
	private say(problem: string): void {
		if (this.said.has(problem) || this.options.told?.said(problem)) return;
		this.said.add(problem);
		this.untold.push(problem);
	}
}
