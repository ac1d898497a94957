// A session's team's day, as the rules of its daily ledger, written once for every way to the store: each read, count,
// reservation and use is a step that yields the store call it needs and takes its reply, and a driver carries the
// calls out, synchronously (a worker thread, ledger.ts) or asynchronously (a client in the process, async-ledger.ts).
// While the store cannot be reached the outage policy (outage.ts) decides: this machine's own ledger counts, and what
// it counted waits in this machine's outbox until a session of any host here reaches the store again and sends it
// once; or, in the closed mode, new turns are refused. The budgets in force are the core's rule (day.ts): with limits
// in the store, a member's own daily budget is a personal cap counted on this machine beside them. The admin's writes
// and the team's view are steps of admin.ts; a store that refuses this user a call is no outage (outage.ts).

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
	NO_ADJUSTMENT,
	TEAM_DAYS_KEPT,
	TEAM_RESERVATION_MS,
	type TeamView,
	type TeamWrite,
	teamDayRefused,
	teamDayUnread,
} from "../../core/index.ts";
import { type AdminCalls, askMore, raiseDay, setLimits, viewTeam } from "./admin.ts";
import { type TeamConfig, teamDay } from "./config.ts";
import { dayRowOf, keysExpiry, standingsOf, teamBudgets, teamOf, type Use } from "./day.ts";
import { type Failure, storeAnswer, storeTexts } from "./outage.ts";
import type { TeamOutbox } from "./outbox.ts";
import { dayKeys } from "./scripts.ts";
import { type Step, TeamStoreCalls } from "./store-calls.ts";

export type { Step, StoreCall } from "./store-calls.ts";

/**
 * What a session's team ledger keeps from one call to the next, handed from one process to the next where each batch
 * of a session's calls runs in a process of its own (Claude Code's hooks module, through the plugin's batch): what its
 * last model call used, and why and until when the store is left alone. What it could not send is in the outbox.
 */
export interface TeamCarry {
	lastCall: { tokens: number; cost: number };
	failed: Failure | null;
	/** The zone the team's admin keeps with its limits, where it is not this machine's own: the day is counted in it. */
	zone?: string;
}

/** How a team ledger runs in a process: what it takes over from the one before, and how long it waits for a call. */
export interface TeamLedgerOptions {
	carried?: TeamCarry | undefined;
	/** How long any call waits at most (a process that must end in time); else the first call's and the later ones'. */
	waitMs?: number;
}

const NOTHING: Use = { prompts: 0, agentMs: 0, tokens: 0, cost: 0 };

/** The team's day of one session, over its store, with this machine's own ledger to fall back on. */
export class TeamDay extends TeamStoreCalls {
	/** What this session's last model call used: what its next one reserves. */
	private lastCall = { tokens: 0, cost: 0 };
	/** Why the day could not be read at the last reading, or null. */
	private unread: string | null = null;

	constructor(
		config: TeamConfig,
		private readonly local: DailyLedger,
		sessionId: string,
		clock: Clock,
		outbox: TeamOutbox,
		options: TeamLedgerOptions = {},
	) {
		super(config, sessionId, clock, outbox, storeTexts(config.shown), options, options.carried?.failed ?? null);
		const carried = options.carried;
		if (carried) this.lastCall = { ...carried.lastCall };
		// The team's zone, learned by this session's last process (said there): counted in from the first call.
		this.takeZone(carried?.zone);
		// How the team was read, said with the session's first answer (once per session: see told.ts).
		if (config.note !== undefined) this.untold.push(config.note);
	}

	/** What the next process of this session takes over (`TeamLedgerOptions.carried`). */
	carry(): TeamCarry {
		const zone = this.config.zone === this.ownZone ? {} : { zone: this.config.zone };
		return { lastCall: { ...this.lastCall }, failed: this.outage.carry(), ...zone };
	}

	/** The team whose store this day is counted in. */
	get team(): DailyTeam {
		return teamOf(this.config);
	}

	*standings(budgets: readonly DailyBudget[]): Step<DailyStanding[]> {
		const reply = yield* this.call("read", []);
		// Found after the reading, which may have taken the team's zone.
		const day = teamDay(this.clock.now(), this.config.zone);
		this.unread = reply.ok ? null : unreadDay(reply.error, this.config.shown);
		if (reply.ok) return standingsOf(reply.value, budgets, this.config, day.start, (own) => this.local.standings(own));
		// Whether the store keeps limits is not known: the session's own budgets count on this machine as the team's.
		const local = this.local.standings(teamBudgets(budgets, this.config));
		const closed = this.outage.refusal();
		if (closed === null) return local;
		if (local.length > 0) return local.map((standing) => ({ ...standing, closed }));
		// A session that sets no daily budget of its own is refused new turns all the same: the limits may be in the store.
		return [closedTeamStanding(this.team, closed, day.start)];
	}

	/**
	 * Counts a prompt: in the personal caps on this machine first (each a member's own budget beside the store's limits),
	 * then in the team's store under the lowest of its budgets' limits. A prompt the store then refuses stays counted
	 * on this machine: the team's day is spent, so that cap matters only if the admin raises the day.
	 */
	*countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): Step<boolean> {
		const { store, machine, own } = byWhereCounted(budgets, limits);
		if (machine.budgets.length > 0 && !this.local.countPrompt(machine.budgets, machine.limits)) return false;
		if (store.budgets.length === 0) {
			if (this.keepsUnheld()) this.keep({ ...NOTHING, prompts: 1 }, true);
			return true;
		}
		const set = store.limits.filter((limit): limit is number => limit !== null);
		const limit = set.length === 0 ? -1 : Math.min(...set);
		const reply = yield* this.call("count", [limit]);
		if (reply.ok) return reply.value === 1;
		if (!this.outage.takesTurns() || this.outage.refusing) return false;
		this.keep({ ...NOTHING, prompts: 1 });
		// A machine's own limits as the team's count here meanwhile; the store's are not this machine's to count.
		return own.budgets.length === 0 || this.local.countPrompt(own.budgets, own.limits);
	}

	*addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): Step<void> {
		const { store, machine, own } = byWhereCounted(budgets, []);
		if (machine.budgets.length > 0) this.local.addUse(machine.budgets, use);
		const added = {
			prompts: 0,
			agentMs: Math.round(use.agentMs ?? 0),
			tokens: Math.round(use.tokens ?? 0),
			cost: use.cost ?? 0,
		};
		if (store.budgets.length === 0) {
			if (this.keepsUnheld()) this.keep(added, true);
			return;
		}
		if (use.tokens !== undefined || use.cost !== undefined) this.lastCall = { tokens: added.tokens, cost: added.cost };
		if ((yield* this.call("use", [added.agentMs, added.tokens, added.cost, 0])).ok || this.outage.refusing) return;
		this.keep(added);
		if (own.budgets.length > 0) this.local.addUse(own.budgets, use);
	}

	/**
	 * Whether a session with no daily budget in force is to keep what it uses, to send once the store answers: while the
	 * store is down (here, or in the session's last process), whether it keeps limits is not known, and the limits it
	 * may keep cover the session (a member set up with the store and the team alone). A store that refuses this user is
	 * no outage: nothing is kept.
	 */
	private keepsUnheld(): boolean {
		return this.outage.down && !this.outage.refusing;
	}

	/** Reserves without waiting: the model call starts at once; the reservation reaches Redis before the next call. */
	*reserve(budgets: readonly DailyBudget[]): Step<void> {
		const now = this.clock.now();
		if (!budgets.some(countsInStore) || this.outage.waiting() !== null) return;
		const day = teamDay(now, this.config.zone);
		const args = [...this.common(day), this.lastCall.tokens, this.lastCall.cost, TEAM_RESERVATION_MS];
		yield { script: "reserve", keys: dayKeys(this.config.team, day.day), args, timeoutMs: 0, post: true };
	}

	/**
	 * Raises a budget for the rest of the day, or ends it: the team's day (its store's limits, or a machine's own limits
	 * as the team's) by the admin's raise, which a member's user is refused, and a store that cannot be reached does not
	 * take: nothing changes then, nor on this machine instead (it cannot tell an admin from a member); a personal cap on
	 * this machine.
	 */
	*adjust(budget: DailyBudget, adjustment: DailyAdjustment): Step<TeamWrite | undefined> {
		const full = { ...NO_ADJUSTMENT, ...adjustment };
		if (!countsInStore(budget)) return this.local.adjust(budget, full);
		return yield* raiseDay(this.admin(), full);
	}

	/** The admin's limits and the day's open requests (`/timebox team`). */
	view(): Step<TeamView> {
		return viewTeam(this.admin());
	}

	/** Sets the team's limits in its store (null: removes them), as the store's user may. */
	setLimits(limits: DailyLimits | null): Step<TeamWrite> {
		return setLimits(this.admin(), limits);
	}

	/** Records this member's request for more of today's budget. */
	ask(adjustment: DailyAdjustment, why: string): Step<TeamWrite> {
		return askMore(this.admin(), adjustment, why);
	}

	/** How the admin's writes and the team's view reach the store: a store that answers is not down. */
	private admin(): AdminCalls {
		const now = this.clock.now();
		const day = teamDay(now, this.config.zone);
		return {
			config: this.config,
			zone: this.ownZone,
			sessionId: this.sessionId,
			now,
			day: { day: day.day, expiry: keysExpiry(day.end) },
			send: (script, keys, args) => this.request(script, [...keys], [...args], true),
		};
	}

	/**
	 * The team's use of each of its last `count` days that its store still keeps, oldest first: today and yesterday
	 * (a day's keys outlive it by one day, TEAM_KEYS_OUTLIVE_S); none while the store cannot be read. Today counts the
	 * other sessions' reservations, as the standings do.
	 */
	*keptDays(count: number): Step<DayUseRow[]> {
		// Today first: its reading may take the team's zone, in which the days before it are found.
		const today = yield* this.call("read", []);
		const days: string[] = [];
		const todayName = teamDay(this.clock.now(), this.config.zone).day;
		let day = teamDay(this.clock.now(), this.config.zone);
		for (let kept = 0; kept < Math.min(count, TEAM_DAYS_KEPT); kept++) {
			days.unshift(day.day);
			day = teamDay(day.start - 1, this.config.zone);
		}
		const rows: DayUseRow[] = [];
		for (const name of days) {
			const reply = name === todayName ? today : yield* this.call("read", [], name);
			if (!reply.ok) return [];
			rows.push(dayRowOf(name, reply.value));
		}
		return rows;
	}

	problem(): string | null {
		return this.untold.shift() ?? this.local.problem();
	}

	/** Why the day could not be read at the last reading (the store's answer or failure), or null. */
	dayUnread(): string | null {
		return this.unread;
	}
}

/** Why the day could not be read: the store refused this user (its ACL), or failed another way. */
function unreadDay(why: string, shown: string): string {
	return storeAnswer(why) === "refused" ? teamDayRefused(why, shown) : teamDayUnread(why, shown);
}
