// What a session does while the team's store cannot be reached, decided here once for every way to it (a client in
// the session's process or its worker thread, or the plugin's hook script that Claude Code's hooks module starts):
// the failure is said once per session, in the words of the way that failed, without the store's password; the store
// is left alone for TEAM_RETRY_MS; and by the mode (`TIMEBOX_DAILY_STORE_FAILURE`), new turns are either refused
// (`closed`, saying why) or taken on what this machine can count (`open`). What "this machine can count" is, is the
// caller's: the machine's own ledger and its outbox where the session can write them.

import { type Clock, TEAM_RETRY_MS } from "../../core/index.ts";

/** Why the store failed, and until when it is left alone (epoch ms). */
export interface Failure {
	why: string;
	until: number;
}

/** The texts of one way to the store: what is said once when it fails, and the refusal of new turns in the closed mode. */
export interface OutageTexts {
	unreachable(why: string, closed: boolean): string;
	refusal(why: string): string;
}

export class Outage {
	private failure: Failure | null;
	private said = false;
	private untold: string | null = null;

	constructor(
		/** `TIMEBOX_DAILY_STORE_FAILURE=closed`: new turns are refused while the store cannot be reached. */
		readonly closed: boolean,
		private readonly clock: Clock,
		private readonly texts: OutageTexts,
		/** A failure a session's last process left (carried from one process to the next). */
		carried: Failure | null = null,
	) {
		this.failure = carried;
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

	/** The store failed: it is left alone for a while, and the session is told once. */
	failed(why: string): void {
		this.failure = { why, until: this.clock.now() + TEAM_RETRY_MS };
		if (this.said) return;
		this.said = true;
		this.untold = this.texts.unreachable(why, this.closed);
	}

	/** The store answered. */
	answered(): void {
		this.failure = null;
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

	/** In the closed mode, while the store failed, why new turns are refused; else null. */
	refusal(): string | null {
		return this.closed && this.failure !== null ? this.texts.refusal(this.failure.why) : null;
	}

	/** What the session's next process takes over. */
	carry(): Failure | null {
		return this.failure;
	}
}
