// A team's daily ledger for a host whose rules call it synchronously in the session's own process (pi, oh-my-pi,
// opencode): the `DailyLedger` port over the team's day (team-day.ts), each store call made through the worker thread
// (bridge.ts) and waited for there, never past its bound; and the team's store beside the day (`/timebox team`).

import type {
	DailyAdjustment,
	DailyBudget,
	DailyLedger,
	DailyLimits,
	DailyTeam,
	DailyUseAdded,
	DayUseRow,
	TeamView,
	TeamWrite,
} from "../../core/index.ts";
import type { StoreReply, SyncStore } from "./bridge.ts";
import type { Step, TeamDay } from "./team-day.ts";

/** Carries a step out on a store called synchronously (opened at the first call); a store that cannot be opened fails. */
export function runSync<T>(step: Step<T>, store: () => SyncStore): T {
	let next = step.next();
	while (!next.done) {
		const call = next.value;
		let reply: StoreReply;
		try {
			if (call.post) {
				store().post(call.script, call.keys, call.args);
				reply = { ok: true, value: null };
			} else reply = store().call(call.script, call.keys, call.args, call.timeoutMs);
		} catch (error) {
			reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
		}
		next = step.next(reply);
	}
	return next.value;
}

/** The team's daily ledger for one session, over its store, with this machine's own ledger to fall back on. */
export class TeamLedger implements DailyLedger {
	private store: SyncStore | null = null;

	constructor(
		private readonly day: TeamDay,
		private readonly open: () => SyncStore,
	) {}

	private run<T>(step: Step<T>): T {
		return runSync(step, () => {
			this.store ??= this.open();
			return this.store;
		});
	}

	standings(budgets: readonly DailyBudget[]) {
		return this.run(this.day.standings(budgets));
	}

	countPrompt(budgets: readonly DailyBudget[], limits: readonly (number | null)[]): boolean {
		return this.run(this.day.countPrompt(budgets, limits));
	}

	addUse(budgets: readonly DailyBudget[], use: DailyUseAdded): void {
		this.run(this.day.addUse(budgets, use));
	}

	get team(): DailyTeam {
		return this.day.team;
	}

	reserve(budgets: readonly DailyBudget[]): void {
		this.run(this.day.reserve(budgets));
	}

	adjust(budget: DailyBudget, adjustment: DailyAdjustment): TeamWrite | undefined {
		return this.run(this.day.adjust(budget, adjustment));
	}

	teamView(): TeamView {
		return this.run(this.day.view());
	}

	setTeamLimits(limits: DailyLimits | null): TeamWrite {
		return this.run(this.day.setLimits(limits));
	}

	askTeam(adjustment: DailyAdjustment, why: string): TeamWrite {
		return this.run(this.day.ask(adjustment, why));
	}

	keptDays(count: number): DayUseRow[] {
		return this.run(this.day.keptDays(count));
	}

	problem(): string | null {
		return this.day.problem();
	}

	dayUnread(): string | null {
		return this.day.dayUnread();
	}
}
