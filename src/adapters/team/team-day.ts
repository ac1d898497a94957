// A session's team's day, as the rules of its daily ledger, written once for every way to the store: each read, count,
// reservation and use is a step that yields the store call it needs and takes its reply, and a driver carries the
// calls out, synchronously (a worker thread, ledger.ts) or asynchronously (a client in the process, async-ledger.ts).
// While the store cannot be reached the outage policy (outage.ts) decides: this machine's own ledger counts, and what
// it counted waits in this machine's outbox until a session of any host here reaches the store again and sends it
// once; or, in the closed mode, new turns are refused.

import {
	type Clock,
	type DailyAdjustment,
	type DailyBudget,
	type DailyLedger,
	type DailyStanding,
	type DailyUseAdded,
	type DayUseRow,
	NO_ADJUSTMENT,
	TEAM_DAYS_KEPT,
	TEAM_FIRST_CALL_MS,
	TEAM_RESERVATION_MS,
	TEAM_WAIT_MS,
	teamStoreRefusal,
	teamStoreUnreachable,
	teamUnsentLostMessage,
} from "../../core/index.ts";
import type { StoreReply } from "./client.ts";
import { type TeamConfig, teamDay } from "./config.ts";
import { dayRowOf, keysExpiry, standingsOf, teamBudgets, type Use } from "./day.ts";
import { type Failure, Outage } from "./outage.ts";
import type { TeamOutbox } from "./outbox.ts";
import { dayKeys, type ScriptName } from "./scripts.ts";

/** One store call a step needs: a script on a day's keys, waited for at most `timeoutMs`, or sent without waiting. */
export interface StoreCall {
	script: ScriptName;
	keys: string[];
	args: (string | number)[];
	timeoutMs: number;
	/** Sent without waiting for its reply (its step gets `{ ok: true, value: null }`). */
	post?: true;
}

/** A step of the ledger: it yields the store calls it needs, one at a time, and returns its result. */
export type Step<T> = Generator<StoreCall, T, StoreReply>;

/**
 * What a session's team ledger keeps from one call to the next, handed from one process to the next where each batch
 * of a session's calls runs in a process of its own (Claude Code's hooks module, through the plugin's batch): what its
 * last model call used, and why and until when the store is left alone. What it could not send is in the outbox.
 */
export interface TeamCarry {
	lastCall: { tokens: number; cost: number };
	failed: Failure | null;
}

/** How a team ledger runs in a process: what it takes over from the one before, and how long it waits for a call. */
export interface TeamLedgerOptions {
	carried?: TeamCarry | undefined;
	/** How long any call waits at most (a process that must end in time); else the first call's and the later ones'. */
	waitMs?: number;
}

const NOTHING: Use = { prompts: 0, agentMs: 0, tokens: 0, cost: 0 };

/** The team's day of one session, over its store, with this machine's own ledger to fall back on. */
export class TeamDay {
	private calledOnce = false;
	private readonly outage: Outage;
	private saidLost = false;
	private untold: string[] = [];
	/** Whether this session looked for use kept on this machine to send: at its first answer, and once the store is back. */
	private outboxSeen = false;
	/** What this session's last model call used: what its next one reserves. */
	private lastCall = { tokens: 0, cost: 0 };

	constructor(
		readonly config: TeamConfig,
		private readonly local: DailyLedger,
		private readonly sessionId: string,
		private readonly clock: Clock,
		private readonly outbox: TeamOutbox,
		private readonly options: TeamLedgerOptions = {},
	) {
		const carried = options.carried;
		if (carried) this.lastCall = { ...carried.lastCall };
		this.outage = new Outage(
			config.failure === "closed",
			clock,
			{
				unreachable: (why, closed) => teamStoreUnreachable(config.shown, why, closed),
				refusal: (why) => teamStoreRefusal(config.shown, why),
			},
			carried?.failed ?? null,
		);
	}

	/**
	 * Whether a call may first send what this machine kept while the store was down (the session's first answer, or the
	 * store's first after a failure, with something kept): a read made with it must wait for it to see what it sent.
	 */
	sendsFirst(): boolean {
		return this.outage.down || (!this.outboxSeen && this.outbox.waiting());
	}

	/** What the next process of this session takes over (`TeamLedgerOptions.carried`). */
	carry(): TeamCarry {
		return { lastCall: { ...this.lastCall }, failed: this.outage.carry() };
	}

	*standings(budgets: readonly DailyBudget[]): Step<DailyStanding[]> {
		const day = teamDay(this.clock.now(), this.config.zone);
		const reply = yield* this.call("read", []);
		if (reply.ok) return standingsOf(reply.value, budgets, this.config, day.start);
		const local = this.local.standings(teamBudgets(budgets, this.config));
		const closed = this.outage.refusal();
		return closed === null ? local : local.map((standing) => ({ ...standing, closed }));
	}

	*countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): Step<boolean> {
		const set = limits.filter((limit): limit is number => limit !== null);
		const limit = set.length === 0 ? -1 : Math.min(...set);
		const reply = yield* this.call("count", [limit]);
		if (reply.ok) return reply.value === 1;
		if (!this.outage.takesTurns()) return false;
		this.keep({ ...NOTHING, prompts: 1 });
		return this.local.countPrompt(budgets, limits);
	}

	*addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): Step<void> {
		const added = {
			prompts: 0,
			agentMs: Math.round(use.agentMs ?? 0),
			tokens: Math.round(use.tokens ?? 0),
			cost: use.cost ?? 0,
		};
		if (use.tokens !== undefined || use.cost !== undefined) this.lastCall = { tokens: added.tokens, cost: added.cost };
		if ((yield* this.call("use", [added.agentMs, added.tokens, added.cost, 0])).ok) return;
		this.keep(added);
		this.local.addUse(budgets, use);
	}

	/** Reserves without waiting: the model call starts at once; the reservation reaches Redis before the next call. */
	*reserve(): Step<void> {
		const now = this.clock.now();
		if (this.outage.waiting() !== null) return;
		const day = teamDay(now, this.config.zone);
		const args = [...this.common(day), this.lastCall.tokens, this.lastCall.cost, TEAM_RESERVATION_MS];
		yield { script: "reserve", keys: dayKeys(this.config.team, day.day), args, timeoutMs: 0, post: true };
	}

	*adjust(budget: DailyBudget, adjustment: DailyAdjustment): Step<void> {
		const { addTimeMs, addPrompts, addTokens, addCost, off } = { ...NO_ADJUSTMENT, ...adjustment };
		const reply = yield* this.call("adjust", [addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0]);
		if (!reply.ok) this.local.adjust(budget, adjustment);
	}

	/**
	 * The team's use of each of its last `count` days that its store still keeps, oldest first: today and yesterday
	 * (a day's keys outlive it by one day, TEAM_KEYS_OUTLIVE_S); none while the store cannot be read. Today counts the
	 * other sessions' reservations, as the standings do.
	 */
	*keptDays(count: number): Step<DayUseRow[]> {
		const days: string[] = [];
		let day = teamDay(this.clock.now(), this.config.zone);
		for (let kept = 0; kept < Math.min(count, TEAM_DAYS_KEPT); kept++) {
			days.unshift(day.day);
			day = teamDay(day.start - 1, this.config.zone);
		}
		const rows: DayUseRow[] = [];
		for (const name of days) {
			const reply = yield* this.call("read", [], name);
			if (!reply.ok) return [];
			rows.push(dayRowOf(name, reply.value));
		}
		return rows;
	}

	problem(): string | null {
		return this.untold.shift() ?? this.local.problem();
	}

	/** Every script's first arguments: when the day's keys expire, the session, the member. */
	private common(day: { end: number }): (string | number)[] {
		return [keysExpiry(day.end), this.sessionId, this.config.member];
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

	/**
	 * Sends the use kept in this machine's outbox (by any session of any host) to the team's days it belongs to, each
	 * entry once; a day the store no longer keeps is let go. Stops at the first failure, the rest kept. Whether anything
	 * was added.
	 */
	private *sendKept(): Step<boolean> {
		if (!this.outbox.waiting()) return false;
		let added = false;
		try {
			for (const batch of this.outbox.take()) {
				for (const entry of batch.entries) {
					const expiry = keysExpiry(entry.dayEnd);
					if (expiry * 1000 <= this.clock.now()) continue;
					const use = [entry.agentMs, entry.tokens, entry.cost, entry.prompts, entry.id];
					const keys = dayKeys(this.config.team, entry.day);
					const reply = yield* this.request("send", keys, [expiry, entry.session, entry.member, ...use]);
					if (!reply.ok) return added;
					added ||= reply.value === 1;
				}
				batch.sent();
			}
		} catch (error) {
			this.lost(error);
		}
		return added;
	}

	/**
	 * Calls a script on today's keys (or those of `dayName`, a past day's, to read). At the session's first answer, and
	 * once the store answers again, the use kept on this machine goes to the team's day, and a read reads it back.
	 */
	private *call(script: ScriptName, args: readonly (string | number)[], dayName?: string): Step<StoreReply> {
		const day = teamDay(this.clock.now(), this.config.zone);
		const keys = dayKeys(this.config.team, dayName ?? day.day);
		const wasDown = this.outage.down;
		const reply = yield* this.request(script, keys, [...this.common(day), ...args]);
		if (!reply.ok || (this.outboxSeen && !wasDown)) return reply;
		this.outboxSeen = true;
		if ((yield* this.sendKept()) && script === "read")
			return yield* this.request(script, keys, [...this.common(day), ...args]);
		return reply;
	}

	/** One script on `keys`; a failure is the outage policy's (said once, the store left alone for a while). */
	private *request(script: ScriptName, keys: string[], args: (string | number)[]): Step<StoreReply> {
		const waiting = this.outage.waiting();
		if (waiting !== null) return { ok: false, error: waiting };
		const timeoutMs = this.options.waitMs ?? (this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS);
		this.calledOnce = true;
		const reply = yield { script, keys, args, timeoutMs };
		if (reply.ok) {
			this.outage.answered();
			return reply;
		}
		const why = this.hidden(reply.error);
		this.outage.failed(why);
		const said = this.outage.told();
		if (said !== null) this.untold.push(said);
		return { ok: false, error: why };
	}

	/** An error's text without the store's password or full address. */
	private hidden(error: string): string {
		let text = error.split(this.config.url).join(this.config.shown);
		const password = new URL(this.config.url).password;
		if (password) text = text.split(password).join("***").split(decodeURIComponent(password)).join("***");
		return text.trim() || "no answer";
	}
}
