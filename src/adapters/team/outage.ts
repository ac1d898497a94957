// What a session does while the team's store cannot be reached, decided here once for every way to it (a client in
// the session's process or its worker thread, or the plugin's hook script that Claude Code's hooks module starts):
// the failure is said once per session, in the words of the way that failed, without the store's password; the store
// is left alone for TEAM_RETRY_MS; and by the mode (`TIMEBOX_DAILY_STORE_FAILURE`), new turns are either refused
// (`closed`, saying why) or taken on what this machine can count (`open`). What "this machine can count" is, is the
// caller's: the machine's own ledger and its outbox where the session can write them.
//
// A store that answers, refusing this user a call (its ACL: NOPERM), is no outage: it is reached, and what it refuses
// is refused here too. A write of the admin's (the limits, a raise) is answered "refused" (the one line of
// `teamWriteRefusal`); a call of the team's day refused to a member's user refuses new turns in either mode, said once,
// and nothing it held is counted on this machine instead.

import {
	type Clock,
	TEAM_RETRY_MS,
	teamStoreDenied,
	teamStoreRefusal,
	teamStoreUnreachable,
} from "../../core/index.ts";

/** Why the store failed, and until when it is left alone (epoch ms). */
export interface Failure {
	why: string;
	until: number;
}

/** The texts of one way to the store: what is said once when it fails, and the refusal of new turns in the closed mode. */
export interface OutageTexts {
	unreachable(why: string, closed: boolean): string;
	refusal(why: string): string;
	/** The store refused this user a call of the team's day (`why`, its answer): new turns are refused. */
	denied?(why: string): string;
}

/**
 * What a store's error is: its refusal of this user (`refused`: NOPERM, or a key a script may not touch), its answer
 * with another error (`error`: a script's error, an unknown command, a key of the wrong type), or no answer at all
 * (null: it cannot be reached, timed out, or is still loading its data).
 */
export function storeAnswer(error: string): "refused" | "error" | null {
	if (/^NOPERM\b/.test(error) || error.includes("The user executing the script can't")) return "refused";
	if (/^(ERR|WRONGTYPE|NOSCRIPT)\b/.test(error)) return "error";
	return null;
}

/**
 * The texts of a team's store named `shown` (without its password), for every way to it: a store that answered the
 * day's call with an error (a key of the wrong type) is said to be unable to read the day, not to be out of reach.
 */
export function storeTexts(shown: string): Required<OutageTexts> {
	const answered = (why: string) => storeAnswer(why) === "error";
	return {
		unreachable: (why, closed) => teamStoreUnreachable(shown, why, closed, answered(why)),
		refusal: (why) => teamStoreRefusal(shown, why, answered(why)),
		denied: (why) => teamStoreDenied(shown, why),
	};
}

export class Outage {
	private failure: Failure | null;
	private said = false;
	private untold: string | null = null;
	/** Why the store refuses this user the team's day (its answer), while it does; null while it takes the calls. */
	private deniedWhy: string | null = null;
	private saidDenied = false;

	constructor(
		/** `TIMEBOX_DAILY_STORE_FAILURE=closed`: new turns are refused while the store cannot be reached. */
		readonly closed: boolean,
		private readonly clock: Clock,
		private readonly texts: OutageTexts,
		/** A failure a session's last process left (carried from one process to the next). */
		carried: Failure | null = null,
	) {
		if (carried === null) {
			this.failure = null;
			return;
		}
		// A wait that ends later than a failure now would leave the store alone is from a clock set back since: not waited.
		const now = clock.now();
		this.failure = { why: carried.why, until: carried.until > now + TEAM_RETRY_MS ? now : carried.until };
		// A failure the session's last process met is said here again, until the store answers; where the session keeps
		// what it was told from one process to the next (a hook host's), it is said once all the same.
		this.said = true;
		this.untold = texts.unreachable(carried.why, closed);
	}

	/** Why the store is being left alone now, or null when it may be tried. */
	waiting(): string | null {
		const failure = this.failure;
		return failure !== null && this.clock.now() < failure.until ? failure.why : null;
	}

	/** Whether the store failed and has not answered since (left alone or not). */
	get down(): boolean {
		return this.failure !== null;
	}

	/**
	 * The store failed: it is left alone for a while, and the session is told once. While it stays down, why is why it
	 * first failed: one outage is said in one set of words, however its later tries fail.
	 */
	failed(why: string): void {
		this.failure = { why: this.failure?.why ?? why, until: this.clock.now() + TEAM_RETRY_MS };
		if (this.said) return;
		this.said = true;
		this.untold = this.texts.unreachable(why, this.closed);
	}

	/** The store answered: a failure carried from the session's last process is not said any more. */
	answered(): void {
		this.failure = null;
		this.deniedWhy = null;
		this.untold = null;
	}

	/**
	 * The store answered, refusing this user a call of the team's day (its ACL): not an outage, so it is not left alone
	 * and nothing falls back on this machine; new turns are refused while it does, in either mode. Said once.
	 */
	denied(why: string): void {
		this.deniedWhy = why;
		if (this.saidDenied) return;
		this.saidDenied = true;
		this.untold = this.deniedText(why);
	}

	/** Whether the store refused this user the last call of the team's day. */
	get refusing(): boolean {
		return this.deniedWhy !== null;
	}

	private deniedText(why: string): string {
		return this.texts.denied?.(why) ?? this.texts.refusal(why);
	}

	/** What the session is to be told, once. */
	told(): string | null {
		const text = this.untold;
		this.untold = null;
		return text;
	}

	/** Whether a new turn is taken while the store cannot be reached: refused in the closed mode. */
	takesTurns(): boolean {
		return !this.closed;
	}

	/** Why new turns are refused: the store refuses this user, or, in the closed mode, it failed; else null. */
	refusal(): string | null {
		if (this.deniedWhy !== null) return this.deniedText(this.deniedWhy);
		return this.closed && this.failure !== null ? this.texts.refusal(this.failure.why) : null;
	}

	/** What the session's next process takes over. */
	carry(): Failure | null {
		return this.failure;
	}
}
