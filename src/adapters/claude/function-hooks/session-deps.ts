// What one Claude Code session takes from the outside world, and the settings it reads when it opens.

import type { Clock, DefaultText, HostTerms, ProjectHistory } from "../../../core/index.ts";
import type { ModuleLedger } from "./daily.ts";
import type { Engine } from "./engine.ts";
import type { ModuleStore } from "./store.ts";

/** What a session takes from the outside world. */
export interface SessionDeps {
	/** The `$` of the latest hook: every call on the engine goes through it. */
	engine: () => Engine;
	clock: Clock;
	newId: () => string;
	terms: HostTerms;
	store: ModuleStore;
	/** The daily ledger every session of the user (or the team) shares, when a daily budget is set. */
	daily?: ModuleLedger;
	/** Reads the past sessions of the session's project, through the hook script. */
	projectHistory: () => Promise<ProjectHistory>;
	/** Its prompts and usage are kept only while a budget is in force (no suggested budget reads them otherwise). */
	historyWhileBudgeted: boolean;
}

/**
 * What the session reads when it opens: a default budget (`TIMEBOX_DEFAULT`, a suggested one made into its words), the
 * daily budgets, the subagents' budget.
 */
export interface OpenSettings {
	defaultBudget: (DefaultText & { unavailable?: string }) | null;
	daily: string | undefined;
	subagents?: string | undefined;
}
