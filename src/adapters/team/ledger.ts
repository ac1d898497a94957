// A team's daily ledger: the `DailyLedger` port over the team's store, for every host's Node process. Each read,
// count, reservation and use is one script, one round trip. While the store cannot be reached, the session says so once
// (naming the store without its password) and, by default, counts on this machine's own daily ledger, keeping what it
// used to send to the team's day once the store answers again; in the closed mode it refuses new turns instead.

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
} from "../../core/index.ts";
import type { StoreReply, SyncStore } from "./bridge.ts";
import { type TeamConfig, teamDay } from "./config.ts";
import { dayKeys, type ScriptName } from "./scripts.ts";

/** What this session used while the store could not be reached, to send once it answers. */
interface Unsent {
	prompts: number;
	agentMs: number;
	tokens: number;
	cost: number;
}

const NOTHING_UNSENT: Unsent = { prompts: 0, agentMs: 0, tokens: 0, cost: 0 };

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

/** The team's daily ledger for one session, over its store, with this machine's own ledger to fall back on. */
export class TeamLedger implements DailyLedger {
	private store: SyncStore | null = null;
	private calledOnce = false;
	/** Why the store failed, and until when it is not tried again (epoch ms); null while it answers. */
	private failed: { why: string; until: number } | null = null;
	private trouble: string | null = null;
	private told = false;
	private unsent: Unsent = NOTHING_UNSENT;
	/** What this session's last model call used: what its next one reserves. */
	private lastCall = { tokens: 0, cost: 0 };

	constructor(
		private readonly config: TeamConfig,
		private readonly open: () => SyncStore,
		private readonly local: DailyLedger,
		private readonly sessionId: string,
		private readonly clock: Clock,
	) {}

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
		this.unsent = { ...this.unsent, prompts: this.unsent.prompts + 1 };
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
		if (this.send(added)) return;
		this.unsent = {
			prompts: this.unsent.prompts,
			agentMs: this.unsent.agentMs + added.agentMs,
			tokens: this.unsent.tokens + added.tokens,
			cost: this.unsent.cost + added.cost,
		};
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
		return [Math.ceil(day.end / 1000) + TEAM_KEYS_OUTLIVE_S, this.sessionId, this.config.member];
	}

	adjust(budget: DailyBudget, adjustment: DailyAdjustment): void {
		const { addTimeMs, addPrompts, addTokens, addCost, off } = { ...NO_ADJUSTMENT, ...adjustment };
		const reply = this.call("adjust", [addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0]);
		if (!reply.ok) this.local.adjust(budget, adjustment);
	}

	problem(): string | null {
		if (this.trouble !== null && !this.told) {
			this.told = true;
			return this.trouble;
		}
		return this.local.problem();
	}

	/** Sends use to the team's day, with what was left unsent: whether the store took it. */
	private send(use: Unsent): boolean {
		const all = {
			prompts: use.prompts + this.unsent.prompts,
			agentMs: use.agentMs + this.unsent.agentMs,
			tokens: use.tokens + this.unsent.tokens,
			cost: use.cost + this.unsent.cost,
		};
		const reply = this.call("use", [all.agentMs, all.tokens, all.cost, all.prompts]);
		if (reply.ok) this.unsent = NOTHING_UNSENT;
		return reply.ok;
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
	 * Calls a script on today's keys (or those of `dayName`, a past day's, to read); sends what was left unsent first,
	 * once the store answers again.
	 */
	private call(script: ScriptName, args: readonly (string | number)[], dayName?: string): StoreReply {
		const now = this.clock.now();
		if (this.failed !== null && now < this.failed.until) return { ok: false, error: this.failed.why };
		const day = teamDay(now, this.config.zone);
		const common = this.common(day);
		const timeout = this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS;
		this.calledOnce = true;
		let reply: StoreReply;
		try {
			this.store ??= this.open();
			reply = this.store.call(script, dayKeys(this.config.team, dayName ?? day.day), [...common, ...args], timeout);
		} catch (error) {
			reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
		}
		if (!reply.ok) {
			return { ok: false, error: this.down(reply.error) };
		}
		const wasDown = this.failed !== null;
		this.failed = null;
		if (wasDown && script !== "use" && this.unsent !== NOTHING_UNSENT) {
			// Back: what was used meanwhile goes to the team's day first, and a read reads it back.
			this.send(NOTHING_UNSENT);
			if (script === "read") return this.call(script, args, dayName);
		}
		return reply;
	}

	/** The store failed: said once per session, without its password; not tried again for a while. Returns why. */
	private down(error: string): string {
		const why = this.hidden(error);
		this.failed = { why, until: this.clock.now() + TEAM_RETRY_MS };
		const goesOn =
			this.config.failure === "closed"
				? "new turns are refused until it answers"
				: "this machine counts today's use on its own until it answers, then sends it to the team";
		this.trouble ??= teamStoreUnreachable(this.config.shown, why, goesOn);
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
