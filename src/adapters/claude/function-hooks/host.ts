// Timebox in one Claude Code process: the `$` of the latest hook, and the session of the running session id, opened on
// the first event that needs it (read from the store, with the settings of the environment) and closed when the
// session ends. `/clear` and a resume inside Claude Code end a session and go on under another id.

import {
	type Clock,
	DAILY_ENV,
	DAILY_STORE_ENV,
	DAILY_STORE_FAILURE_ENV,
	DEFAULT_ENV,
	isSuggestedDefault,
	parseDailyBudget,
	resolveDefault,
	TEAM_ENV,
	TEAM_TZ_ENV,
} from "../../../core/index.ts";
import { readTeam } from "../../team/config.ts";
import { claudeCodeTerms } from "../terms.ts";
import { dailyDir, ModuleDailyLedger, type ModuleLedger } from "./daily.ts";
import type { Engine } from "./engine.ts";
import { pluginRoot } from "./report-page.ts";
import { ClaudeSession } from "./session.ts";
import { ModuleStore } from "./store.ts";
import { repairNotice } from "./store-repair.ts";
import { engineProjectHistory } from "./suggestion.ts";
import { ModuleTeamLedger, unusableTeam } from "./team.ts";
import { engineScheduler } from "./time.ts";

/** What the module takes from the outside world: the real ones in Claude Code, fakes in tests. */
export interface HostDeps {
	clock: Clock;
	newId: () => string;
}

/** The folder of the module's start marks of on-stop commands, in Timebox's state folder. */
export const ON_STOP_MARKS_FOLDER = "on-stop";

export class ModuleHost {
	/** Set by every hook before anything calls the engine. */
	private bound!: Engine;
	private session: Promise<ClaudeSession> | null = null;
	/** Whether Claude Code runs headless (`claude -p`), as `session.start` said. */
	headless = false;
	/** The folder the session runs in, as `session.start` said: a suggested budget is made of its past sessions. */
	cwd: string | null = null;
	readonly engine = (): Engine => this.bound;
	/** This Claude Code process's id, which its claims carry: one made under another id was made by a process gone. */
	private readonly instance: string;

	constructor(private readonly deps: HostDeps) {
		this.instance = deps.newId();
	}

	/** The engine of the hook that runs now: later calls on the engine go through it. */
	bind(engine: Engine): void {
		this.bound = engine;
	}

	/** The running session, opened on first use; one that failed to open is tried again at the next event. */
	sessionOf(engine: Engine): Promise<ClaudeSession> {
		this.bind(engine);
		if (this.session === null) {
			const opening = this.open();
			this.session = opening;
			opening.catch(() => {
				if (this.session === opening) this.session = null;
			});
		}
		return this.session;
	}

	private async open(): Promise<ClaudeSession> {
		const engine = this.engine;
		// Asked all at once: each is a round trip to Claude Code, and the first prompt waits for the session.
		const { env } = engine();
		const [sessionId, defaultBudget, daily, subagents, stateHome, home, dailyStore, team, zone, failure] =
			await Promise.all([
				engine().session.id(),
				env.defaultBudget(),
				env.dailyBudget(),
				env.subagentBudget(),
				env.stateHome(),
				env.home(),
				env.dailyStore(),
				env.team(),
				env.teamZone(),
				env.dailyStoreFailure(),
			]);
		let session: ClaudeSession | null = null;
		const projectHistory = engineProjectHistory(
			engine,
			() => this.cwd,
			async () => sessionId,
		);
		const text = defaultBudget?.trim();
		const suggested = text !== undefined && isSuggestedDefault(text);
		// The start marks of on-stop commands live in Timebox's state folder, beside the daily ledger.
		const state = dailyDir(stateHome, home);
		const store = await ModuleStore.open(engine, sessionId, {
			clock: this.deps.clock,
			scheduler: engineScheduler(engine),
			problem: (error, where) => session?.live.notifyProblem(where, error),
			cwd: this.cwd,
			...(state === null ? {} : { marks: { dir: `${state}/${ON_STOP_MARKS_FOLDER}`, instance: this.instance } }),
		});
		const ledger = this.dailyLedger(sessionId, daily, { dailyStore, team, zone, failure, stateHome, home });
		session = new ClaudeSession({
			engine,
			clock: this.deps.clock,
			newId: this.deps.newId,
			terms: claudeCodeTerms("function hooks"),
			store,
			...(ledger ? { daily: ledger } : {}),
			projectHistory,
			// A session without a budget is kept too where budgets are suggested from the sessions kept.
			historyWhileBudgeted: !suggested,
		});
		session.ui.headless = this.headless;
		if (store.repaired !== null) session.ui.warn(repairNotice(store.repaired));
		const given = text ? await resolveDefault({ text, source: DEFAULT_ENV }, projectHistory) : null;
		session.ui.withoutReply(() => session.load({ defaultBudget: given, daily, subagents }));
		return session;
	}

	/**
	 * The daily ledger of a session: the team's, through the hook script, when a store and a team are set as every Node
	 * host reads them, with or without a daily budget of its own (the team's limits may be in its store); else this
	 * machine's, through `$`, with a daily budget. A team set wrongly is said once, and `/timebox team` says it again; in
	 * the closed failure mode, new turns are refused with it.
	 */
	private dailyLedger(
		sessionId: string,
		daily: string | undefined,
		env: Record<"dailyStore" | "team" | "zone" | "failure" | "stateHome" | "home", string | undefined>,
	): ModuleLedger | undefined {
		const clock = this.deps.clock;
		const { config, warning, closed } = readTeam(
			{
				[DAILY_STORE_ENV]: env.dailyStore,
				[TEAM_ENV]: env.team,
				[TEAM_TZ_ENV]: env.zone,
				[DAILY_STORE_FAILURE_ENV]: env.failure,
			},
			{},
			// Who the member is, the batch script tells the store: the module never asks.
			() => "",
		);
		if (config !== null) {
			const budget = daily?.trim() ? parseDailyBudget(daily.trim(), "user", DAILY_ENV) : null;
			// A daily budget that cannot be read is said by the rules: the team's limits in its store still count.
			const budgets = budget === null || "warning" in budget ? [] : [budget];
			const root = pluginRoot(import.meta.url);
			return new ModuleTeamLedger(this.engine, {
				sessionId,
				clock,
				budgets,
				closed: config.failure === "closed",
				root,
				team: { name: config.team, zone: config.zone },
			});
		}
		const dir = dailyDir(env.stateHome, env.home);
		const machine =
			daily?.trim() && dir !== null ? new ModuleDailyLedger(this.engine, dir, sessionId, clock) : undefined;
		if (warning === null) return machine;
		return unusableTeam(warning, machine, closed && { team: closed, clock });
	}

	/** The session ended (exit, `/clear`, a resume): its timers stop and its changes are written. */
	async end(): Promise<void> {
		const ending = this.session;
		this.session = null;
		if (ending === null) return;
		const session = await ending.catch(() => null);
		await session?.close();
	}
}
