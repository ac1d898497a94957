// The daily ledger's reads and writes for one Claude Code session, in order: an event reads the day's files after the
// writes before it, and what the rules wrote is settled after it.

import type { ModuleLedger } from "./daily.ts";

export class DailyOrder {
	/** The writes, in order. Each resolves to why a prompt counted in the ledger was refused after all, or null. */
	private writes: Promise<string | null> = Promise.resolve(null);

	constructor(private readonly daily: ModuleLedger | undefined) {}

	/** Reads the day's files, after the writes before. */
	async read(): Promise<void> {
		const daily = this.daily;
		if (!daily) return;
		await this.writes;
		await daily.refresh();
	}

	/** A daily command's reads and writes on a team's store, prepared after the writes before; else a plain read. */
	async prepare(args: string): Promise<void> {
		const daily = this.daily;
		if (daily?.prepare) {
			await this.writes;
			await daily.prepare(args);
		} else await this.read();
	}

	/** Writes what the rules wrote to the daily ledger: why a prompt counted there was taken meanwhile, or null. */
	write(): Promise<string | null> {
		const daily = this.daily;
		if (!daily) return this.writes;
		this.writes = this.writes.then(async () => ((await daily.settle()) ? null : daily.takenRefusal()));
		return this.writes;
	}
}
