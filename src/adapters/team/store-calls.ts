// How a session's team's day reaches its store, for every way to it: each store call a step yields, bounded in time;
// the outage policy (outage.ts) deciding what a failure means; and the use this machine kept in its outbox while the
// store was down, sent to the team's days it belongs to, once, at the session's first answer and once the store is back.
// The team's day starts at midnight in the zone its admin keeps with the limits: a reading of today learns it, and a
// machine whose own zone differs reads the day again in the team's and counts there from then on.

import {
	type Clock,
	TEAM_FIRST_CALL_MS,
	TEAM_WAIT_MS,
	teamUnsentLostMessage,
	teamZoneOfStore,
} from "../../core/index.ts";
import type { StoreReply } from "./client.ts";
import { knownZone, type TeamConfig, teamDay } from "./config.ts";
import { keysExpiry, type Use } from "./day.ts";
import { type Failure, Outage, type OutageTexts, storeAnswer } from "./outage.ts";
import type { TeamOutbox } from "./outbox.ts";
import { fields, listReply } from "./reading.ts";
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

/** How a team's day runs in a process: what it takes over from the one before, and how long it waits for a call. */
export interface StoreCallOptions {
	/** How long any call waits at most (a process that must end in time); else the first call's and the later ones'. */
	waitMs?: number;
}

/** The store calls of one session's team's day, with the outage policy and this machine's outbox. */
export class TeamStoreCalls {
	private calledOnce = false;
	protected readonly outage: Outage;
	private saidLost = false;
	protected untold: string[] = [];
	/** Whether this session looked for use kept on this machine to send: at its first answer, and once the store is back. */
	private outboxSeen = false;
	/** The store answered a call that does not send (the admin's, the team's view) after it was down: still to send. */
	private backUnsent = false;

	/** This machine's own zone (TIMEBOX_TEAM_TZ, else UTC); `config.zone` is the team's once a reading said it. */
	readonly ownZone: string;

	constructor(
		public config: TeamConfig,
		protected readonly sessionId: string,
		protected readonly clock: Clock,
		private readonly outbox: TeamOutbox,
		texts: OutageTexts,
		private readonly callOptions: StoreCallOptions,
		carried: Failure | null,
	) {
		this.outage = new Outage(config.failure === "closed", clock, texts, carried);
		this.ownZone = config.zone;
	}

	/** Counts the team's day in `zone` from now on, where it is one Intl knows: whether it changed. */
	protected takeZone(zone: unknown): boolean {
		if (typeof zone !== "string" || zone === this.config.zone || !knownZone(zone)) return false;
		this.config = { ...this.config, zone };
		return true;
	}

	/**
	 * The zone the admin keeps with the limits, from a reading of today (the read script's reply): where it is not the
	 * one the day was read in, it is taken, said once, and the day is to be read again. Whether it was.
	 */
	private learnZone(reading: unknown): boolean {
		const own = this.config.zone;
		if (!this.takeZone(fields(listReply(reading)[5]).get("zone"))) return false;
		this.untold.push(teamZoneOfStore(this.config.team, this.config.zone, own));
		return true;
	}

	/**
	 * Whether a call may first send what this machine kept while the store was down (the session's first answer, or the
	 * store's first after a failure, with something kept): a read made with it must wait for it to see what it sent.
	 */
	sendsFirst(): boolean {
		return this.outage.down || (!this.outboxSeen && this.outbox.waiting());
	}

	/** Every script's first arguments: when the day's keys expire, the session, the member. */
	protected common(day: { end: number }): (string | number)[] {
		return [keysExpiry(day.end), this.sessionId, this.config.member];
	}

	/** The outbox failed: the use is this machine's alone. Said once per session. */
	private lost(error: unknown): void {
		if (this.saidLost) return;
		this.saidLost = true;
		this.untold.push(teamUnsentLostMessage(error instanceof Error ? error.message : String(error)));
	}

	/**
	 * Keeps use the store could not take in this machine's outbox, for the team's day of now; `unheld`: only for a team
	 * whose store keeps limits when it is sent (the session had no daily budget of its own).
	 */
	protected keep(use: Use, unheld = false): void {
		if (use.prompts === 0 && use.agentMs === 0 && use.tokens === 0 && use.cost === 0) return;
		const day = teamDay(this.clock.now(), this.config.zone);
		const member = this.config.member;
		try {
			this.outbox.keep({
				day: day.day,
				dayEnd: day.end,
				session: this.sessionId,
				member,
				...use,
				...(unheld ? { unheld } : {}),
			});
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
					const use = [entry.agentMs, entry.tokens, entry.cost, entry.prompts, entry.id, entry.unheld ? 1 : 0];
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
	protected *call(script: ScriptName, args: readonly (string | number)[], dayName?: string): Step<StoreReply> {
		const day = teamDay(this.clock.now(), this.config.zone);
		const keys = dayKeys(this.config.team, dayName ?? day.day);
		const wasDown = this.outage.down || this.backUnsent;
		const reply = yield* this.request(script, keys, [...this.common(day), ...args]);
		// Today read in another zone than the team's: read again in the team's (which a second reading does not change).
		if (reply.ok && script === "read" && dayName === undefined && this.learnZone(reply.value))
			return yield* this.call(script, args);
		if (!reply.ok || (this.outboxSeen && !wasDown)) return reply;
		this.outboxSeen = true;
		this.backUnsent = false;
		if ((yield* this.sendKept()) && script === "read")
			return yield* this.request(script, keys, [...this.common(day), ...args]);
		return reply;
	}

	/**
	 * One script on `keys`; a failure is the outage policy's (said once, the store left alone for a while). A store that
	 * answered is not down: its refusal of this user is the policy's own outcome (for a call of the team's day, new turns
	 * are refused), and an error it answered a write with (`write`: the admin's, a request) is that write's alone.
	 */
	protected *request(script: ScriptName, keys: string[], args: (string | number)[], write = false): Step<StoreReply> {
		const waiting = this.outage.waiting();
		if (waiting !== null) {
			this.tell();
			return { ok: false, error: waiting };
		}
		const timeoutMs = this.callOptions.waitMs ?? (this.calledOnce ? TEAM_WAIT_MS : TEAM_FIRST_CALL_MS);
		this.calledOnce = true;
		const reply = yield { script, keys, args, timeoutMs };
		if (reply.ok) {
			// The next call of the team's day sends what this machine kept meanwhile.
			if (this.outage.down) this.backUnsent = true;
			this.outage.answered();
			return reply;
		}
		const why = this.hidden(reply.error);
		const answer = storeAnswer(why);
		if (answer !== null && write) return { ok: false, error: why };
		if (answer === "refused") this.outage.denied(why);
		else this.outage.failed(why);
		this.tell();
		return { ok: false, error: why };
	}

	/** What the outage policy has to say, to say with the session's next answer. */
	private tell(): void {
		const said = this.outage.told();
		if (said !== null) this.untold.push(said);
	}

	/** An error's text without the store's password or full address. */
	private hidden(error: string): string {
		return hidePassword(error, this.config.url, this.config.shown);
	}
}

/**
 * Redis's refusals of a log-in or a command, in its own fixed words, which never hold a password: a password that is
 * also one of those words (`user`, `pass`, `script`) is not masked in them, where `***` would spell it out. The
 * refusals of this user (`storeAnswer`'s), and of a log-in.
 */
function fixedRefusal(text: string): boolean {
	return storeAnswer(text) === "refused" || /^(WRONGPASS|NOAUTH)\b/.test(text);
}

/**
 * `error` with the store's address (`url`) given as `shown`, and its password, as written in the address and as it
 * reads decoded, as `***` wherever it stands as a word of its own (not inside another: `username-password pair`).
 */
export function hidePassword(error: string, url: string, shown: string): string {
	let text = error.split(url).join(shown);
	const password = new URL(url).password;
	if (password !== "" && !fixedRefusal(text)) {
		for (const written of new Set([password, decodeURIComponent(password)])) {
			const escaped = written.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
			text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "gu"), "***");
		}
	}
	return text.trim() || "no answer";
}
