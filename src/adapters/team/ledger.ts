// A team's daily ledger: the `DailyLedger` port over the team's store, for every host's Node process. Each read, count,
// reservation and use is one script, one round trip; the budgets in force are the core's rule (the admin's limits in
// the store, a member's own budget a personal cap on this machine beside them; else each machine's own as the team's).
// While the store cannot be reached, the session says so once (without the password) and, by default, counts on this
// machine's own ledger, keeping what it used in the outbox, which the first session on this machine to reach the store
// sends to the team's day, once; in the closed mode it refuses new turns. The admin's writes are in admin.ts.
import {
	byWhereCounted,
	type Clock,
	closedTeamStanding,
	countsInStore,
	type DailyAdjustment,
	type DailyBudget,
	type DailyLedger,
	type DailyLimits,
	type DailyStanding,
	type DailyTeam,
	type DailyUseAdded,
	type DayUseRow,
	TEAM_FIRST_CALL_MS,
	TEAM_RESERVATION_MS,
	TEAM_RETRY_MS,
	TEAM_WAIT_MS,
	type TeamView,
	type TeamWrite,
	teamStandings,
	teamStoreRefusal,
	teamStoreUnreachable,
	teamUnsentLostMessage,
} from "../../core/index.ts";
import { type AdminCalls, addToDay, askMore, raiseDay, setLimits, storeAnswer, viewTeam } from "./admin.ts";
import type { StoreReply, SyncStore } from "./bridge.ts";
import { hiddenIn, type TeamConfig, teamDay } from "./config.ts";
import type { TeamOutbox } from "./outbox.ts";
import { dayReading } from "./reading.ts";
import { dayKeys, type ScriptName } from "./scripts.ts";
import { keptDays, keysExpiry, sendKept } from "./sending.ts";

/** Use to add to the team's day. */
interface Use {
	prompts: number;
	agentMs: number;
	tokens: number;
	cost: number;
}

/**
 * What a session's team ledger keeps from one call to the next, handed from one process to the next where each batch
 * of a session's calls runs in a process of its own (Claude Code's hooks module, through the hook script): what its
 * last model call used, and why and until when the store is left alone. What it could not send is in the outbox.
 */
export interface TeamCarry {
	lastCall: { tokens: number; cost: number };
	failed: { why: string; until: number } | null;
}

/** How a team ledger runs in a process: what it takes over from the one before, and how long it waits for a call. */
export interface TeamLedgerOptions {
	carried?: TeamCarry | undefined;
	/** How long any call waits at most (a process that must end in time); else the first call's and the later ones'. */
	waitMs?: number;
}

/** The team's daily ledger for one session, over its store, with this machine's own ledger to fall back on. */
export class TeamLedger implements DailyLedger {
	private store: SyncStore | null = null;
	private calledOnce = false;
	/** Why the store failed, and until when it is not tried again (epoch ms); null while it answers. */
	private failed: { why: string; until: number } | null = null;
	/** What the session is to be told, once each: that the store cannot be reached, that kept use could not be kept. */
	private untold: string[] = [];
	private saidDown = false;
	private saidLost = false;
	/** Whether this session looked for use kept on this machine to send: at its first answer, and once the store is back. */
	private outboxSeen = false;
	/** What this session's last model call used: what its next one reserves. */
	private lastCall = { tokens: 0, cost: 0 };

	constructor(
		private readonly config: TeamConfig,
		private readonly open: () => SyncStore,
		private readonly local: DailyLedger,
		private readonly sessionId: string,
		private readonly clock: Clock,
		private readonly outbox: TeamOutbox,
		private readonly options: TeamLedgerOptions = {},
	) {
		const carried = options.carried;
		if (carried) {
			this.lastCall = { ...carried.lastCall };
			this.failed = carried.failed;
		}
	}

	/** What the next process of this session takes over (`TeamLedgerOptions.carried`). */
	carry(): TeamCarry {
		return { lastCall: { ...this.lastCall }, failed: this.failed };
	}

	/** The team whose store this ledger counts in. */
	get team(): DailyTeam {
		return { name: this.config.team, zone: this.config.zone };
	}

	standings(budgets: readonly DailyBudget[]): DailyStanding[] {
		const team = this.team;
		const day = teamDay(this.clock.now(), this.config.zone);
		const reply = this.call("read", []);
		if (!reply.ok) return this.standingsWhileDown(budgets, team, reply.error);
		const reading = dayReading(reply.value, day.start);
		return teamStandings(budgets, team, reading, (personal) => this.local.standings(personal));
	}

	/**
	 * While the store cannot be reached, whether it keeps limits is not known: the session's own daily budgets count on
	 * this machine as the team's; in the closed mode, new turns are refused, by a standing of the team's where the
	 * session sets none.
	 */
	private standingsWhileDown(budgets: readonly DailyBudget[], team: DailyTeam, error: string): DailyStanding[] {
		const standings = this.local.standings(budgets.map((budget) => ({ ...budget, team })));
		if (this.config.failure !== "closed") return standings;
		const closed = teamStoreRefusal(this.config.shown, error);
		if (standings.length > 0) return standings.map((standing) => ({ ...standing, closed }));
		return [closedTeamStanding(team, closed, teamDay(this.clock.now(), this.config.zone).start)];
	}

	/**
	 * Counts a prompt: in the personal caps on this machine first (each a member's own budget beside the store's limits),
	 * then in the team's store under the lowest of its budgets' limits. A prompt the store then refuses stays counted
	 * on this machine: the team's day is spent, so that cap matters only if the admin raises the day.
	 */
	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean {
		const { store, machine, own } = byWhereCounted(budgets, limits);
		if (machine.budgets.length > 0 && !this.local.countPrompt(machine.budgets, machine.limits)) return false;
		if (store.budgets.length === 0) return true;
		const set = store.limits.filter((limit): limit is number => limit !== null);
		const limit = set.length === 0 ? -1 : Math.min(...set);
		const reply = this.call("count", [limit]);
		if (reply.ok) return reply.value === 1;
		if (this.config.failure === "closed") return false;
		this.keep({ prompts: 1, agentMs: 0, tokens: 0, cost: 0 });
		// A machine's own limits as the team's count here meanwhile; the store's are not this machine's to count.
		return own.budgets.length === 0 || this.local.countPrompt(own.budgets, own.limits);
	}

	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void {
		const { store, machine, own } = byWhereCounted(budgets, []);
		if (machine.budgets.length > 0) this.local.addUse(machine.budgets, use);
		if (store.budgets.length === 0) return;
		const added = {
			prompts: 0,
			agentMs: Math.round(use.agentMs ?? 0),
			tokens: Math.round(use.tokens ?? 0),
			cost: use.cost ?? 0,
		};
		if (use.tokens !== undefined || use.cost !== undefined) this.lastCall = { tokens: added.tokens, cost: added.cost };
		if (this.call("use", [added.agentMs, added.tokens, added.cost, 0]).ok) return;
		this.keep(added);
		if (own.budgets.length > 0) this.local.addUse(own.budgets, use);
	}

	/** Reserves without waiting: the model call starts at once; the reservation reaches Redis before the next call. */
	reserve(budgets: readonly DailyBudget[]): void {
		const now = this.clock.now();
		if (!budgets.some(countsInStore) || (this.failed !== null && now < this.failed.until)) return;
		const day = teamDay(now, this.config.zone);
		const args = [...this.common(day), this.lastCall.tokens, this.lastCall.cost, TEAM_RESERVATION_MS];
		this.store ??= this.open();
		this.store.post("reserve", dayKeys(this.config.team, day.day), args);
	}

	/** Every script's first arguments: when the day's keys expire, the session, the member. */
	private common(day: { end: number }): (string | number)[] {
		return [keysExpiry(day.end), this.sessionId, this.config.member];
	}

	/**
	 * Raises a budget for the rest of the day, or ends it: the store's limits by the admin's raise (a member's user is
	 * refused by the store, and nothing changes); a machine's own limits as the team's by the day's additions, which any
	 * member may write (on this machine meanwhile, while the store cannot be reached); a personal cap on this machine.
	 */
	adjust(budget: DailyBudget, adjustment: DailyAdjustment): TeamWrite | undefined {
		if (!countsInStore(budget)) return this.local.adjust(budget, adjustment);
		if (budget.stored !== undefined) return raiseDay(this.admin, adjustment);
		return addToDay(this.admin, adjustment) ?? this.local.adjust(budget, adjustment);
	}

	teamView(): TeamView {
		return viewTeam(this.admin);
	}

	setTeamLimits(limits: DailyLimits | null): TeamWrite {
		return setLimits(this.admin, limits);
	}

	askTeam(adjustment: DailyAdjustment, why: string): TeamWrite {
		return askMore(this.admin, adjustment, why);
	}

	/** How the admin's writes and the team's view reach the store. */
	private get admin(): AdminCalls {
		return {
			config: this.config,
			sessionId: this.sessionId,
			clock: this.clock,
			day: () => {
				const day = teamDay(this.clock.now(), this.config.zone);
				return { day: day.day, expiry: keysExpiry(day.end) };
			},
			send: (script, keys, args) => this.request(script, keys, args, true),
		};
	}

	problem(): string | null {
		return this.untold.shift() ?? this.local.problem();
	}

	/** The outbox failed: the use is this machine's alone. Said once per session. */
	private lost(error: unknown): void {
		if (this.saidLost) return;
		this.saidLost = true;
		this.untold.push(teamUnsentLostMessage(error instanceof Error ? error.message : String(error)));
	}

	/** Keeps use the store could not take in this machine's outbox, for the team's day of now. */
	private keep(use: Use): void {
		if (use.prompts === 0 && use.agentMs === 0 && use.tokens === 0 && use.cost === 0) return;
		const day = teamDay(this.clock.now(), this.config.zone);
		try {
			this.outbox.keep({ day: day.day, dayEnd: day.end, session: this.sessionId, member: this.config.member, ...use });
		} catch (error) {
			this.lost(error);
		}
	}

	/** The team's use of each of its last `count` days that its store still keeps, oldest first (sending.ts). */
	keptDays(count: number): DayUseRow[] {
		return keptDays(count, this.config.zone, this.clock.now(), (day) => this.call("read", [], day));
	}

	/**
	 * Calls a script on today's keys (or those of `dayName`, a past day's, to read). At the session's first answer, and
	 * once the store answers again, the use kept on this machine goes to the team's day, and a read reads it back.
	 */
	private call(script: ScriptName, args: readonly (string | number)[], dayName?: string): StoreReply {
		const day = teamDay(this.clock.now(), this.config.zone);
		const keys = dayKeys(this.config.team, dayName ?? day.day);
		const wasDown = this.failed !== null;
		const reply = this.request(script, keys, [...this.common(day), ...args]);
		if (!reply.ok || (this.outboxSeen && !wasDown)) return reply;
		this.outboxSeen = true;
		const sent = sendKept(
			this.outbox,
			this.config,
			this.clock.now(),
			(dayKeys, dayArgs) => this.request("send", dayKeys, dayArgs),
			(error) => this.lost(error),
		);
		if (sent && script === "read") return this.request(script, keys, [...this.common(day), ...args]);
		return reply;
	}

	/**
	 * One script on `keys`; a failure marks the store down (said once), and it is not tried again for a while. A write
	 * (`write`) the store answered with an error (its ACL refused the user, a script failed) leaves it up: it answers.
	 */
	private request(
		script: ScriptName,
		keys: readonly string[],
		args: readonly (string | number)[],
		write = false,
	): StoreReply {
		if (this.failed !== null && this.clock.now() < this.failed.until) return { ok: false, error: this.failed.why };
		const timeout = this.options.waitMs ?? (this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS);
		this.calledOnce = true;
		let reply: StoreReply;
		try {
			this.store ??= this.open();
			reply = this.store.call(script, keys, args, timeout);
		} catch (error) {
			reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
		}
		if (!reply.ok && write && storeAnswer(reply.error) !== null)
			return { ok: false, error: hiddenIn(this.config, reply.error) };
		if (!reply.ok) return { ok: false, error: this.down(reply.error) };
		this.failed = null;
		return reply;
	}

	/** The store failed: said once per session, without its password; not tried again for a while. Returns why. */
	private down(error: string): string {
		const why = hiddenIn(this.config, error);
		this.failed = { why, until: this.clock.now() + TEAM_RETRY_MS };
		if (this.saidDown) return why;
		this.saidDown = true;
		this.untold.push(teamStoreUnreachable(this.config.shown, why, this.config.failure === "closed"));
		return why;
	}
}
