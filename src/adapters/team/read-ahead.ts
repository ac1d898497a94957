// A team's daily ledger read ahead, for a session whose rules run synchronously but may wait before and after them: a
// hook process (Codex, Gemini CLI, Claude Code's classic hooks) and Claude Code's hooks module. `refresh` reads the day
// before an event (one batch, one round trip; skipped when the last batch read it just now), the rules answer from that
// reading and count a prompt ahead, and `settle` sends what the event wrote in one batch: false when the store refused a
// prompt counted in it (another machine took the day's last turn meanwhile), and `takenRefusal` says why. How a batch
// reaches the store is the session's (`run`: in its own process, or the plugin's batch process); what happens while it
// cannot is the outage policy's (outage.ts).

import {
	type Clock,
	DAILY_TAKEN_REFUSAL,
	type DailyAdjustment,
	type DailyBudget,
	type DailyLedger,
	type DailyStanding,
	type DailyUseAdded,
	NO_ADJUSTMENT,
	promptTakenMessage,
	TEAM_HOP_FRESH_MS,
} from "../../core/index.ts";
import type { TeamOp, TeamReply, TeamRequest } from "./batch.ts";
import { Outage, type OutageTexts } from "./outage.ts";
import type { TeamCarry } from "./team-day.ts";

/** A daily ledger read before each event and written after it. */
export interface ReadAheadDailyLedger extends DailyLedger {
	/** Reads the day before an event. */
	refresh(): Promise<void>;
	/** Writes what the event wrote: false when a prompt counted in it cannot be counted after all. */
	settle(): Promise<boolean>;
	/** Why the last prompt refused at `settle` was refused. */
	takenRefusal(): string;
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
	private untold: string | null = null;
	private told = false;
	/** Why the last prompt refused at `settle` was refused. */
	private taken: string = DAILY_TAKEN_REFUSAL;

	constructor(private readonly options: ReadAheadOptions) {
		this.budgets = options.budgets;
		this.outage = new Outage(options.closed, options.clock, options.texts);
	}

	standings(budgets: readonly DailyBudget[]): DailyStanding[] {
		this.budgets = budgets;
		const standings =
			this.reading ?? budgets.map((budget) => ({ budget, use: NO_USE, adjustment: NO_ADJUSTMENT, dayStart: 0 }));
		const closed = this.outage.refusal();
		return closed === null ? standings : standings.map((standing) => ({ ...standing, closed }));
	}

	/** Counted ahead: the rules count a prompt only where the day just read leaves one; the store decides at `settle`. */
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean {
		this.budgets = budgets;
		this.ops.push({ op: "count", limits: [...limits] });
		return true;
	}

	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void {
		this.budgets = budgets;
		this.ops.push({ op: "use", use });
		// Any use settles the session's reservation.
		this.reserved = false;
	}

	/** Reserves the model call about to start, once: a call counted at its tool's end and at its request is one. */
	reserve(budgets: readonly DailyBudget[]): void {
		this.budgets = budgets;
		if (this.reserved) return;
		this.reserved = true;
		this.ops.push({ op: "reserve" });
	}

	adjust(budget: DailyBudget, adjustment: DailyAdjustment): void {
		this.ops.push({ op: "adjust", budget, adjustment });
	}

	problem(): string | null {
		const said = this.untold;
		this.untold = null;
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
		const ops = this.ops;
		this.ops = [];
		const waiting = this.outage.waiting();
		if (waiting !== null) return this.failed(ops);
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
			return this.failed(ops);
		}
		this.outage.answered();
		if (read) this.reading = outcome.standings;
		this.carried = outcome.carry;
		if (outcome.problem !== null) this.say(outcome.problem);
		if (!outcome.counted.includes(false)) return true;
		this.taken = promptTakenMessage(outcome.standings) ?? DAILY_TAKEN_REFUSAL;
		return false;
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

	/** Says a problem once per session: the first. */
	private say(problem: string): void {
		if (this.told) return;
		this.told = true;
		this.untold = problem;
	}
}
