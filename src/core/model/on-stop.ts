// What the ledger keeps of an on-stop command: the claim it belongs to, and the command as a later process finds it
// with that claim. A leaf: it imports nothing.

/** The claim an on-stop command belongs to: the stop's (`spent`), or the end of the run that wrapped up (`ended`). */
export interface OnStopClaim {
	budgetId: string;
	kind: "spent" | "ended";
}

/**
 * An on-stop command as the ledger finds it, recorded with the claim that was to start it: when that was claimed, and
 * what the ledger can tell of it since. The recovery rule (session/recovery.ts) starts it again from this.
 */
export interface OnStopIntent {
	claim: OnStopClaim;
	command: string;
	/** When it was claimed, in epoch ms (written by the ledger). */
	claimedAt: number;
	/** Its start mark exists: a wrapper took it, and so ran the command or is running it. */
	started: boolean;
	/** The process that claimed it still runs, as far as the ledger can tell. */
	claimantAlive: boolean;
	/** Another process took it over already (the `onStopRecovered` claim). */
	recovered: boolean;
	/**
	 * The run its stop let wrap up was to end by then (epoch ms), and no process has claimed that end (`ended`) yet: the
	 * command is the stop's `onStopAtEnd`, `claimedAt` the stop's, and the claim to take first is the end's.
	 */
	endsBy?: number;
}
