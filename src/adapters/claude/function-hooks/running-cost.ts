// What a Claude Code session's model calls cost, from Claude Code's running total: read before the request that runs
// and after each response, and only while a budget stands.

import type { Engine } from "./engine.ts";

export class RunningCost {
	/**
	 * The running total when the last response was counted, or before the request that runs; null while no budget
	 * stands (it is read again before the next request under one).
	 */
	private seen: number | null = null;

	constructor(private readonly engine: () => Engine) {}

	/** Before a request: the total it starts from, read once a budget stands; forgotten while none does. */
	async beforeRequest(budgeted: boolean): Promise<void> {
		if (!budgeted) this.seen = null;
		else if (this.seen === null) this.seen = (await this.engine().session.usage()).cost.usd;
	}

	/** What the session cost since the last response: the engine's running total, read only while a budget is set. */
	async since(budgeted: boolean): Promise<number> {
		if (!budgeted) return 0;
		const { usd } = (await this.engine().session.usage()).cost;
		const before = this.seen ?? usd;
		this.seen = usd;
		return Math.max(0, usd - before);
	}
}
