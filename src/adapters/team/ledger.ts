// A team's daily ledger: the `DailyLedger` port over the team's store, for every host's Node process. Each read,
// count, reservation and use is one script, one round trip. While the store cannot be reached, the session says so once
// (naming the store without its password) and, by default, counts on this machine's own daily ledger, keeping what it
// used on disk (the team's outbox); the first session of any host on this machine to reach the store again sends it to
// the team's day, once. In the closed mode it refuses new turns instead.

import {
	type Clock,
	type DailyAdjustment,
	type DailyBudget,
	type DailyLedger,
	type DailyMember,
	type DailyStanding,
	type DailyUseAdded,
	type DayUseRow,
	NO_ADJUSTMENT,
	TEAM_DAYS_KEPT,
	TEAM_FIRST_CALL_MS,
	TEAM_KEYS_OUTLIVE_S,
	TEAM_RESERVATION_MS,
	TEAM_RETRY_MS,
	TEAM_WAIT_MS,
	teamStoreRefusal,
	teamStoreUnreachable,
	teamUnsentLostMessage,
} from "../../core/index.ts";
import type { StoreReply, SyncStore } from "./bridge.ts";
import { type TeamConfig, teamDay } from "./config.ts";
import type { TeamOutbox } from "./outbox.ts";
import { dayKeys, type ScriptName } from "./scripts.ts";

/** Use to add to the team's day. */
interface Use {
	prompts: number;
	agentMs: number;
	tokens: number;
	cost: number;
}

/** A flat `[field, value, …]` reply as a map. */
function fields(value: unknown): Map<string, string> {
	const map = new Map<string, string>();
	const flat = Array.isArray(value) ? value : [];
	for (let index = 0; index + 1 < flat.length; index += 2) map.set(String(flat[index]), String(flat[index + 1]));
	return map;
}

/** The read script's reply: the day's use, who used it, the session count, and the others' reservations. */
function readReply(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

function amount(text: string | undefined): number {
	const value = Number(text);
	return Number.isFinite(value) && value > 0 ? value : 0;
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

/** When a day's keys expire (epoch seconds): a day after the day ends (`dayEnd`, epoch ms). */
function keysExpiry(dayEnd: number): number {
	return Math.ceil(dayEnd / 1000) + TEAM_KEYS_OUTLIVE_S;
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

	standings(budgets: readonly DailyBudget[]): DailyStanding[] {
		const team = { name: this.config.team, zone: this.config.zone };
		const teamBudgets = budgets.map((budget) => ({ ...budget, team }));
		const day = teamDay(this.clock.now(), this.config.zone);
		const reply = this.call("read", []);
		if (!reply.ok) {
			const closed = this.config.failure === "closed" ? { closed: this.closedMessage(reply.error) } : {};
			return this.local.standings(teamBudgets).map((standing) => ({ ...standing, ...closed }));
		}
		const [useFields, whoFields, sessions, reservedTokens, reservedCost] = readReply(reply.value);
		const use = fields(useFields);
		const members: DailyMember[] = [...fields(whoFields)].map(([name, count]) => ({ name, sessions: amount(count) }));
		members.sort((a, b) => a.name.localeCompare(b.name));
		const adjustment: DailyAdjustment = {
			addTimeMs: amount(use.get("addTimeMs")),
			addPrompts: amount(use.get("addPrompts")),
			addTokens: amount(use.get("addTokens")),
			addCost: amount(use.get("addCost")),
			off: use.get("off") === "1",
		};
		return teamBudgets.map((budget) => ({
			budget,
			use: {
				agentMs: amount(use.get("agentMs")),
				prompts: amount(use.get("prompts")),
				// The model calls other sessions are making count as what they reserved, until their answers settle them.
				tokens: amount(use.get("tokens")) + amount(String(reservedTokens)),
				cost: amount(use.get("cost")) + amount(String(reservedCost)),
				sessions: amount(String(sessions)),
				members,
			},
			adjustment,
			dayStart: day.start,
		}));
	}

	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean {
		const set = limits.filter((limit): limit is number => limit !== null);
		const limit = set.length === 0 ? -1 : Math.min(...set);
		const reply = this.call("count", [limit]);
		if (reply.ok) return reply.value === 1;
		if (this.config.failure === "closed") return false;
		this.keep({ prompts: 1, agentMs: 0, tokens: 0, cost: 0 });
		return this.local.countPrompt(budgets, limits);
	}

	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void {
		const added = {
			prompts: 0,
			agentMs: Math.round(use.agentMs ?? 0),
			tokens: Math.round(use.tokens ?? 0),
			cost: use.cost ?? 0,
		};
		if (use.tokens !== undefined || use.cost !== undefined) this.lastCall = { tokens: added.tokens, cost: added.cost };
		if (this.call("use", [added.agentMs, added.tokens, added.cost, 0]).ok) return;
		this.keep(added);
		this.local.addUse(budgets, use);
	}

	/** Reserves without waiting: the model call starts at once; the reservation reaches Redis before the next call. */
	reserve(): void {
		const now = this.clock.now();
		if (this.failed !== null && now < this.failed.until) return;
		const day = teamDay(now, this.config.zone);
		const args = [...this.common(day), this.lastCall.tokens, this.lastCall.cost, TEAM_RESERVATION_MS];
		this.store ??= this.open();
		this.store.post("reserve", dayKeys(this.config.team, day.day), args);
	}

	/** Every script's first arguments: when the day's keys expire, the session, the member. */
	private common(day: { end: number }): (string | number)[] {
		return [keysExpiry(day.end), this.sessionId, this.config.member];
	}

	adjust(budget: DailyBudget, adjustment: DailyAdjustment): void {
		const { addTimeMs, addPrompts, addTokens, addCost, off } = { ...NO_ADJUSTMENT, ...adjustment };
		const reply = this.call("adjust", [addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0]);
		if (!reply.ok) this.local.adjust(budget, adjustment);
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

	/**
	 * Sends the use kept in this machine's outbox (by any session of any host) to the team's days it belongs to, each
	 * entry once; a day the store no longer keeps is let go. Stops at the first failure, the rest kept. Whether anything
	 * was added.
	 */
	private sendKept(): boolean {
		if (!this.outbox.waiting()) return false;
		let added = false;
		try {
			for (const batch of this.outbox.take()) {
				for (const entry of batch.entries) {
					const expiry = keysExpiry(entry.dayEnd);
					if (expiry * 1000 <= this.clock.now()) continue;
					const use = [entry.agentMs, entry.tokens, entry.cost, entry.prompts, entry.id];
					const reply = this.request("send", dayKeys(this.config.team, entry.day), [
						expiry,
						entry.session,
						entry.member,
						...use,
					]);
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
	 * The team's use of each of its last `count` days that its store still keeps, oldest first: today and yesterday
	 * (a day's keys outlive it by one day, TEAM_KEYS_OUTLIVE_S); none while the store cannot be read. Today counts the
	 * other sessions' reservations, as the standings do.
	 */
	keptDays(count: number): DayUseRow[] {
		const days: string[] = [];
		let day = teamDay(this.clock.now(), this.config.zone);
		for (let kept = 0; kept < Math.min(count, TEAM_DAYS_KEPT); kept++) {
			days.unshift(day.day);
			day = teamDay(day.start - 1, this.config.zone);
		}
		const rows: DayUseRow[] = [];
		for (const name of days) {
			const reply = this.call("read", [], name);
			if (!reply.ok) return [];
			const [useFields, , , reservedTokens, reservedCost] = readReply(reply.value);
			const use = fields(useFields);
			rows.push({
				day: name,
				agentMs: amount(use.get("agentMs")),
				prompts: amount(use.get("prompts")),
				tokens: amount(use.get("tokens")) + amount(String(reservedTokens)),
				cost: amount(use.get("cost")) + amount(String(reservedCost)),
			});
		}
		return rows;
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
		if (this.sendKept() && script === "read") return this.request(script, keys, [...this.common(day), ...args]);
		return reply;
	}

	/** One script on `keys`; a failure marks the store down (said once), and it is not tried again for a while. */
	private request(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): StoreReply {
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
		if (!reply.ok) return { ok: false, error: this.down(reply.error) };
		this.failed = null;
		return reply;
	}

	/** The store failed: said once per session, without its password; not tried again for a while. Returns why. */
	private down(error: string): string {
		const why = this.hidden(error);
		this.failed = { why, until: this.clock.now() + TEAM_RETRY_MS };
		if (this.saidDown) return why;
		this.saidDown = true;
		this.untold.push(teamStoreUnreachable(this.config.shown, why, this.config.failure === "closed"));
		return why;
	}

	/** The refusal of a new turn while the store cannot be reached, in the closed mode. */
	private closedMessage(why: string): string {
		return teamStoreRefusal(this.config.shown, why);
	}

	/** An error's text without the store's password or full address. */
	private hidden(error: string): string {
		let text = error.split(this.config.url).join(this.config.shown);
		const password = new URL(this.config.url).password;
		if (password) text = text.split(password).join("***").split(decodeURIComponent(password)).join("***");
		return text.trim() || "no answer";
	}
}
