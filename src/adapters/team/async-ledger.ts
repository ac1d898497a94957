// A team's daily ledger for a process that reaches the store itself and can wait for it between events (a hook
// process, the plugin's batch for Claude Code's hooks module): the team's day (team-day.ts) over Timebox's own client,
// each store call sent as it is made, so that calls made together go out together and cost one round trip.

import type {
	DailyAdjustment,
	DailyBudget,
	DailyLimits,
	DailyStanding,
	DailyUseAdded,
	TeamView,
	TeamWrite,
} from "../../core/index.ts";
import type { AsyncStore, StoreReply } from "./client.ts";
import type { Step, TeamCarry, TeamDay } from "./team-day.ts";

/** Carries a step out on a store called asynchronously (opened at the first call). */
export async function runAsync<T>(step: Step<T>, store: () => AsyncStore): Promise<T> {
	let next = step.next();
	while (!next.done) {
		const call = next.value;
		let reply: StoreReply = { ok: true, value: null };
		if (call.post) store().post(call.script, call.keys, call.args);
		else reply = await store().call(call.script, call.keys, call.args, call.timeoutMs);
		next = step.next(reply);
	}
	return next.value;
}

/** The team's day of one session, over a store it calls asynchronously. */
export class AsyncTeamLedger {
	private store: AsyncStore | null = null;

	constructor(
		private readonly day: TeamDay,
		private readonly open: () => AsyncStore,
	) {}

	private run<T>(step: Step<T>): Promise<T> {
		return runAsync(step, () => {
			this.store ??= this.open();
			return this.store;
		});
	}

	standings(budgets: readonly DailyBudget[]): Promise<DailyStanding[]> {
		return this.run(this.day.standings(budgets));
	}

	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): Promise<boolean> {
		return this.run(this.day.countPrompt(budgets, limits));
	}

	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): Promise<void> {
		return this.run(this.day.addUse(budgets, use));
	}

	reserve(budgets: readonly DailyBudget[]): Promise<void> {
		return this.run(this.day.reserve(budgets));
	}

	adjust(budget: DailyBudget, adjustment: DailyAdjustment): Promise<TeamWrite | undefined> {
		return this.run(this.day.adjust(budget, adjustment));
	}

	teamView(): Promise<TeamView> {
		return this.run(this.day.view());
	}

	setTeamLimits(limits: DailyLimits | null): Promise<TeamWrite> {
		return this.run(this.day.setLimits(limits));
	}

	askTeam(adjustment: DailyAdjustment, why: string): Promise<TeamWrite> {
		return this.run(this.day.ask(adjustment, why));
	}

	problem(): string | null {
		return this.day.problem();
	}

	dayUnread(): string | null {
		return this.day.dayUnread();
	}

	sendsFirst(): boolean {
		return this.day.sendsFirst();
	}

	carry(): TeamCarry {
		return this.day.carry();
	}
}
