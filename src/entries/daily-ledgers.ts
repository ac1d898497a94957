// The daily ledger a Node host opens for a session: the team's, over its store, when a store and a team are set (the
// client is started then, and only then), else this machine's own. A team set wrongly is said once, and the machine's
// own ledger counts (in the closed failure mode, new turns are refused with it). A host whose rules call the ledger in
// its own long-lived process opens it synchronous (its store in a worker thread); a hook process, which can wait before
// and after its event, opens it read ahead, its store called from the process itself; the plugin's batch script opens
// it as a batch's ledger.

import { hostname } from "node:os";
import { createDailyLedger, dailyStateDir } from "../adapters/node/daily-ledger.ts";
import { userName } from "../adapters/node/user-name.ts";
import { AsyncTeamLedger } from "../adapters/team/async-ledger.ts";
import { type BatchLedger, runTeamBatch } from "../adapters/team/batch.ts";
import { openSyncStore, storeWorkerLocation } from "../adapters/team/bridge.ts";
import { nodeConnector, openStore } from "../adapters/team/client.ts";
import { readTeam, type TeamConfig, type TeamSettings } from "../adapters/team/config.ts";
import { TeamLedger } from "../adapters/team/ledger.ts";
import { storeTexts } from "../adapters/team/outage.ts";
import { fileOutbox, outboxFolder } from "../adapters/team/outbox.ts";
import { type ReadAheadDailyLedger, ReadAheadLedger } from "../adapters/team/read-ahead.ts";
import { SCRIPT_SHAS, SCRIPTS } from "../adapters/team/scripts.ts";
import { handleConnector, tcpBindings } from "../adapters/team/tcp-handle.ts";
import { TeamDay, type TeamLedgerOptions } from "../adapters/team/team-day.ts";
import { firstTold, type SessionTold } from "../adapters/team/told.ts";
import { saying } from "../adapters/team/unusable.ts";
import { type Clock, type DailyBudget, type DailyLedger, TEAM_CALL_MS, TEAM_CONNECT_MS } from "../core/index.ts";

/** Who runs this session, for the team: `user@machine (host)`. */
export function memberName(host: string): string {
	return `${userName()}@${hostname()} (${host})`;
}

/**
 * This machine's ledger, made at its first use (`create`). A session with no daily budget and no team asks its ledger
 * only whether a team is set, at every event: its process never makes the ledger, nor compiles the ledger's code, which
 * a fresh process's first prompt would pay for.
 */
export function machineLedger(create: () => DailyLedger, told?: SessionTold): DailyLedger {
	let ledger: DailyLedger | null = null;
	const get = (): DailyLedger => {
		ledger ??= create();
		return ledger;
	};
	return {
		standings: (budgets) => get().standings(budgets),
		countPrompt: (budgets, limits) => get().countPrompt(budgets, limits),
		addUse: (budgets, use) => get().addUse(budgets, use),
		adjust: (budget, adjustment) => get().adjust(budget, adjustment),
		problem: () => firstTold(() => get().problem(), told),
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
	/** The module the store worker's bundle is beside (a host package's entry), as a file URL. */
	entry: string;
	/** How the team's ledger runs, where it is one of a session's processes (Claude Code's hooks module). */
	team?: TeamLedgerOptions;
	/** What the session was told before, where each of its hooks is a process (a hook host's): said once per session. */
	told?: SessionTold;
}

/**
 * This machine's ledger (saying once why a team set wrongly is not used), and the team's day when a team is set. What
 * the session was told is looked at where a problem is taken to be shown, once: by this machine's ledger where no team
 * is used, else by the team's ledger read ahead (the day's own ledger beneath it leaves it to that one).
 */
function opening(options: DailyLedgerOptions): {
	local: DailyLedger;
	team: { config: TeamConfig; day: TeamDay } | null;
} {
	const { env, sessionId, clock, told } = options;
	const stateDir = dailyStateDir(env);
	const { config, warning, closed } = readTeam(env, options.settings ?? {}, () => memberName(options.host));
	const create = () => createDailyLedger(stateDir, sessionId, clock);
	if (warning !== null) {
		const refusing = closed && { team: closed, clock };
		return { local: saying(warning, machineLedger(create), told, refusing), team: null };
	}
	if (config === null) return { local: machineLedger(create, told), team: null };
	const created = machineLedger(create);
	const outbox = fileOutbox(outboxFolder(stateDir, config.team));
	const team = options.team ?? carriedBy(told);
	return { local: created, team: { config, day: new TeamDay(config, created, sessionId, clock, outbox, team) } };
}

/** What a team's day takes over from the session's last hook: why and until when its store is left alone. */
export function carriedBy(told: SessionTold | undefined): TeamLedgerOptions {
	return told === undefined ? {} : { carried: { lastCall: { tokens: 0, cost: 0 }, failed: told.failed() } };
}

/** The session's daily ledger, called synchronously: the team's when a store and a team are set, else this machine's. */
export function openDailyLedger(options: DailyLedgerOptions): DailyLedger {
	const { local, team } = opening(options);
	if (team === null) return local;
	const open = () => openSyncStore(team.config.url, storeWorkerLocation(options.entry), TEAM_CONNECT_MS, TEAM_CALL_MS);
	return new TeamLedger(team.day, open);
}

/**
 * The team's store, called from this process (a hook's, or the hooks module's batch): on Node's TCP handle, which spares
 * a process that makes two or three calls loading node:net.
 */
function asyncStore(config: TeamConfig) {
	return openStore(config.url, SCRIPTS, {
		connectMs: TEAM_CONNECT_MS,
		callMs: TEAM_CALL_MS,
		connector: handleConnector(tcpBindings(process), nodeConnector),
		shas: SCRIPT_SHAS,
	});
}

/** The session's daily ledger as a batch runs on it (the plugin's batch script): the team's, else this machine's. */
export function openBatchLedger(options: DailyLedgerOptions): BatchLedger {
	const { local, team } = opening(options);
	if (team === null) return local;
	return new AsyncTeamLedger(team.day, () => asyncStore(team.config));
}

/**
 * The daily ledger of a hook process (`budgets`, the session's daily budgets): the team's read ahead, its batches run
 * in this process, when a store and a team are set; else this machine's, which needs no reading ahead.
 */
export function openHookDailyLedger(
	options: DailyLedgerOptions,
	budgets: readonly DailyBudget[],
): DailyLedger | ReadAheadDailyLedger {
	const { local, team } = opening(options);
	if (team === null) return local;
	const { config } = team;
	return readAheadIn(new AsyncTeamLedger(team.day, () => asyncStore(config)), config, options, budgets);
}

/** A team's ledger read ahead whose batches run on `ledger` in this process (a hook process's). */
export function readAheadIn(
	ledger: BatchLedger,
	config: TeamConfig,
	options: Pick<DailyLedgerOptions, "sessionId" | "clock" | "told">,
	budgets: readonly DailyBudget[],
): ReadAheadDailyLedger {
	const { told } = options;
	return new ReadAheadLedger({
		sessionId: options.sessionId,
		clock: options.clock,
		budgets,
		closed: config.failure === "closed",
		run: async (request) => {
			const reply = await runTeamBatch(request, ledger);
			// The session's next hook leaves the store alone as this one would have.
			if (reply.carry !== null) told?.keepFailed(reply.carry.failed);
			return reply;
		},
		texts: storeTexts(config.shown),
		// The process ends after its event: nothing reads the day after it.
		readAfter: false,
		...(told === undefined ? {} : { told }),
		team: { name: config.team, zone: config.zone },
	});
}
