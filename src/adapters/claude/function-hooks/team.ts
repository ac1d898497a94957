// A team's daily ledger in Claude Code's hooks module, which runs in Claude Code's own process and cannot open a socket:
// its calls go to the team's store through the plugin's hook script (`timebox.mjs team <request>`), one process per
// batch, where the real team ledger runs them (and, while the store cannot be reached, counts on this machine's daily
// ledger as every Node host does). The rules stay synchronous: `refresh` reads the day before an event (unless the last
// batch read it just now), the rules answer from that reading and count a prompt ahead, and `settle` sends what the
// event wrote, with a read; a count the store refused (another machine took the last turn) refuses the prompt then.
// `/timebox today …` and `/timebox team …` are answered in a batch of their own, by the core against the real ledger,
// since what they show and change is the store's (the admin's limits, the requests, a member's refused raise).

import {
	type Clock,
	closedTeamStanding,
	DAILY_TAKEN_REFUSAL,
	type DailyAdjustment,
	type DailyBudget,
	type DailyStanding,
	type DailyTeam,
	type DailyUseAdded,
	NO_ADJUSTMENT,
	promptTakenMessage,
	TEAM_HOP_FRESH_MS,
	TEAM_HOP_MS,
	TEAM_RETRY_MS,
	teamHopFailed,
} from "../../../core/index.ts";
import type { TeamOp, TeamReply, TeamRequest } from "../../team/batch.ts";
import type { TeamCarry } from "../../team/ledger.ts";
import type { ModuleLedger } from "./daily.ts";
import type { Engine, EngineTimer } from "./engine.ts";
import { hookScriptLine } from "./report-page.ts";

/** The shell line that runs a team's batch (`$1`, its request) with the plugin's hook script. */
export const TEAM_LINE = hookScriptLine('team "$1"');

/** What a batch answered, or why it did not. */
type BatchOutcome = TeamReply | { error: string };

/** The hook script's reply, or why it cannot be read. */
export function readBatchReply(result: { exitCode: number; stdout: string; stderr: string }): BatchOutcome {
	if (result.exitCode !== 0) {
		return { error: result.stderr.trim().split("\n")[0] || `the hook script exited with ${result.exitCode}` };
	}
	let reply: unknown;
	try {
		reply = JSON.parse(result.stdout);
	} catch {
		return { error: "the hook script's reply is not JSON" };
	}
	if (typeof reply === "object" && reply !== null) {
		const fields = reply as Record<string, unknown>;
		if (typeof fields.error === "string") return { error: fields.error };
		// The plugin's own hook script wrote it: its shape is that of `runTeamBatch`'s reply.
		if (Array.isArray(fields.counted) && Array.isArray(fields.standings)) return reply as TeamReply;
	}
	return { error: "the hook script's reply cannot be read" };
}

/** What the team's ledger in the hooks module is set up with. */
export interface ModuleTeamOptions {
	sessionId: string;
	clock: Clock;
	/** The session's daily budgets, as the rules read them. */
	budgets: readonly DailyBudget[];
	/** `TIMEBOX_DAILY_STORE_FAILURE=closed`: new turns are refused while the store cannot be reached. */
	closed: boolean;
	/** The plugin's folder, where `$CLAUDE_PLUGIN_ROOT` is not set. */
	root: string;
	/** The team, as set (the hook script checks it, and says what is wrong with it). */
	team: DailyTeam;
}

const NO_USE = { agentMs: 0, prompts: 0, tokens: 0, cost: 0, sessions: 0 };

/** The team's daily ledger of one session of Claude Code's hooks module. */
export class ModuleTeamLedger implements ModuleLedger {
	/** The day as the last batch read it; null before the first. */
	private reading: DailyStanding[] | null = null;
	/** When the day was last read (or a batch failed), epoch ms; null before the first. */
	private readAt: number | null = null;
	/** Why the hook script last failed, and until when it is not started again; null while it runs. */
	private scriptDown: { why: string; until: number } | null = null;
	/** Why new turns are refused (closed mode, the hook script failed), or null. */
	private closedBy: string | null = null;
	private ops: TeamOp[] = [];
	private carried: TeamCarry | null = null;
	private budgets: readonly DailyBudget[];
	/** Whether the session's model call is reserved already (until an answer's use settles it). */
	private reserved = false;
	private untold: string | null = null;
	private told = false;
	/** Why the last prompt refused at `settle` was refused. */
	private taken: string = DAILY_TAKEN_REFUSAL;

	constructor(
		private readonly engine: () => Engine,
		private readonly options: ModuleTeamOptions,
	) {
		this.budgets = options.budgets;
	}

	get team(): DailyTeam {
		return this.options.team;
	}

	standings(budgets: readonly DailyBudget[]): DailyStanding[] {
		this.budgets = budgets;
		const standings =
			this.reading ?? budgets.map((budget) => ({ budget, use: NO_USE, adjustment: NO_ADJUSTMENT, dayStart: 0 }));
		const closed = this.closedBy;
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

	/** Sent with the next batch; `/timebox today +…` itself is answered in a batch of its own (`command`). */
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): undefined {
		this.ops.push({ op: "adjust", budget, adjustment });
		return undefined;
	}

	/** A daily command, answered in a batch with the calls made since the last: what it said. */
	async command(words: string): Promise<string[]> {
		return (await this.exchange(words)).said;
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
		await this.send();
	}

	/** Sends what the event wrote, with a read: false when the store refused a prompt counted in it. */
	async settle(): Promise<boolean> {
		if (this.ops.length === 0) return true;
		return this.send();
	}

	/** Runs the calls made since the last batch, then a read, in one process of the hook script. */
	private async send(): Promise<boolean> {
		return (await this.exchange()).ok;
	}

	/**
	 * Runs the calls made since the last batch, then `command` (a daily command's words), then a read, in one process
	 * of the hook script: whether the store took every count, and what the command said (where the hook script could
	 * not run it, why, and in the closed mode a count among the calls is refused).
	 */
	private async exchange(command?: string): Promise<{ ok: boolean; said: string[] }> {
		const ops = this.ops;
		this.ops = [];
		const down = this.scriptDown;
		if (down !== null && this.options.clock.now() < down.until) return this.failedWith(down.why, ops);
		const request: TeamRequest = {
			session: this.options.sessionId,
			budgets: [...this.budgets],
			ops,
			...(this.carried ? { carry: this.carried } : {}),
			...(command === undefined ? {} : { command }),
		};
		const outcome = await this.batch(request);
		const now = this.options.clock.now();
		this.readAt = now;
		if ("error" in outcome) {
			this.scriptDown = { why: outcome.error, until: now + TEAM_RETRY_MS };
			return this.failedWith(outcome.error, ops);
		}
		this.scriptDown = null;
		this.reading = outcome.standings;
		this.carried = outcome.carry;
		this.closedBy = null;
		if (outcome.problem !== null) this.say(outcome.problem);
		const said = (outcome.said ?? []).map((notice) => notice.message);
		if (!outcome.counted.includes(false)) return { ok: true, said };
		this.taken = promptTakenMessage(outcome.standings) ?? DAILY_TAKEN_REFUSAL;
		return { ok: false, said };
	}

	/**
	 * The hook script could not run the batch (or failed just before): said once, and not started again for a while; in
	 * the closed mode new turns are refused (a prompt counted in the batch among them), else the session goes on and
	 * what the batch held is not counted for the team.
	 */
	private failedWith(why: string, ops: readonly TeamOp[]): { ok: boolean; said: string[] } {
		const closed = this.options.closed;
		const text = teamHopFailed(why, closed);
		this.say(text);
		if (!closed) return { ok: true, said: [text] };
		this.closedBy = text;
		this.taken = text;
		return { ok: !ops.some((op) => op.op === "count"), said: [text] };
	}

	/** Says a problem once per session: the first. */
	private say(problem: string): void {
		if (this.told) return;
		this.told = true;
		this.untold = problem;
	}

	/** The hook script's answer to a batch, bounded in time: a process that does not end in time is taken as failed. */
	private async batch(request: TeamRequest): Promise<BatchOutcome> {
		const engine = this.engine();
		let timer: EngineTimer | undefined;
		const late = new Promise<BatchOutcome>((resolve) => {
			timer = engine.clock.after(TEAM_HOP_MS, () => resolve({ error: `no answer within ${TEAM_HOP_MS} ms` }));
		});
		const ran = engine.process
			.run(["sh", "-c", TEAM_LINE, "sh", JSON.stringify(request), this.options.root])
			.then(readBatchReply, (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
		try {
			return await Promise.race([ran, late]);
		} finally {
			timer?.cancel();
		}
	}
}
