// The daily ledger a Node host opens for a session: the team's, over its store, when a store and a team are set (the
// client is loaded then, and only then), else this machine's own. A team set wrongly is said once, and the machine's
// own ledger counts.

import { hostname, userInfo } from "node:os";
import { type Clock, type DailyLedger, TEAM_CALL_MS, TEAM_CONNECT_MS } from "../../core/index.ts";
import { createDailyLedger, dailyStateDir } from "../node/daily-ledger.ts";
import { clientLocation, openSyncStore } from "./bridge.ts";
import { readTeam, type TeamSettings } from "./config.ts";
import { TeamLedger, type TeamLedgerOptions } from "./ledger.ts";
import { fileOutbox, outboxFolder } from "./outbox.ts";

/** Who runs this session, for the team: `user@machine (host)`. */
export function memberName(host: string): string {
	return `${userInfo().username}@${hostname()} (${host})`;
}

/** A ledger that says `warning` once, before anything of its own: why the team set cannot be used. */
function saying(warning: string, ledger: DailyLedger): DailyLedger {
	let told = false;
	return {
		team: { unusable: warning },
		standings: (budgets) => ledger.standings(budgets),
		countPrompt: (budgets, limits) => ledger.countPrompt(budgets, limits),
		addUse: (budgets, use) => ledger.addUse(budgets, use),
		adjust: (budget, adjustment) => ledger.adjust(budget, adjustment),
		problem() {
			if (told) return ledger.problem();
			told = true;
			return warning;
		},
	};
}

/** What opening a daily ledger needs from the host. */
export interface DailyLedgerOptions {
	env: NodeJS.ProcessEnv;
	sessionId: string;
	clock: Clock;
	/** The host's name, as the team's members see it (`pi`, `codex`). */
	host: string;
	/** The host's settings `dailyStore` and `team`, where it has settings. */
	settings?: TeamSettings;
	/** The module the client bundle is looked for beside (a host package's entry), as a file URL. */
	entry: string;
	/** How the team's ledger runs, where it is one of a session's processes (Claude Code's hooks module). */
	team?: TeamLedgerOptions;
}

/** The session's daily ledger: the team's when a store and a team are set, else this machine's. */
export function openDailyLedger(options: DailyLedgerOptions): DailyLedger {
	const { env, sessionId, clock } = options;
	const stateDir = dailyStateDir(env);
	const local = createDailyLedger(stateDir, sessionId, clock);
	const { config, warning } = readTeam(env, options.settings ?? {}, memberName(options.host));
	if (warning !== null) return saying(warning, local);
	if (config === null) return local;
	const open = () => openSyncStore(config.url, clientLocation(options.entry), TEAM_CONNECT_MS, TEAM_CALL_MS);
	const outbox = fileOutbox(outboxFolder(stateDir, config.team));
	return new TeamLedger(config, open, local, sessionId, clock, outbox, options.team);
}
