// A team set wrongly (a store or a team alone, a name that is not one, no port, an unknown zone): the session's daily
// ledger is this machine's, which says why the team is not used once, before anything of its own, and carries it as
// its team for `/timebox team` to say again. In the closed failure mode it refuses new turns with that reason, as a
// store that cannot be reached does. Free of Node's modules: Claude Code's hooks module uses it too.

import { type Clock, closedTeamStanding, type DailyLedger, type DailyTeam } from "../../core/index.ts";
import { teamDay } from "./config.ts";
import { firstTold, type SessionTold } from "./told.ts";

/** A team set wrongly in the closed failure mode: the team as set (its day in its zone), and the session's clock. */
export interface ClosedUnusableTeam {
	team: DailyTeam;
	clock: Clock;
}

/**
 * A ledger that says `warning` once, before anything of its own: why the team set cannot be used. Once per session
 * where `session` keeps what it was told across its processes (a hook host's). With `closed`, every standing refuses
 * new turns with `warning` (a session with no daily budget of its own has one standing for the team's day), and no
 * prompt is counted.
 */
export function saying(
	warning: string,
	ledger: DailyLedger,
	session?: SessionTold,
	closed?: ClosedUnusableTeam,
): DailyLedger & { team: { unusable: string } } {
	let told = false;
	return {
		team: { unusable: warning },
		standings(budgets) {
			const own = ledger.standings(budgets);
			if (closed === undefined) return own;
			if (own.length === 0)
				return [closedTeamStanding(closed.team, warning, teamDay(closed.clock.now(), closed.team.zone).start)];
			return own.map((standing) => ({ ...standing, closed: warning }));
		},
		countPrompt: (budgets, limits) => closed === undefined && ledger.countPrompt(budgets, limits),
		addUse: (budgets, use) => ledger.addUse(budgets, use),
		adjust: (budget, adjustment) => ledger.adjust(budget, adjustment),
		problem() {
			if (!told) {
				told = true;
				if (session === undefined || session.first(warning)) return warning;
			}
			return firstTold(() => ledger.problem(), session);
		},
	};
}

/** The ledger of a session with no daily budget of its own: nothing to count, nothing to say. */
export const NO_DAILY_LEDGER: DailyLedger = {
	standings: () => [],
	countPrompt: () => true,
	addUse: () => {},
	adjust: () => undefined,
	problem: () => null,
};
