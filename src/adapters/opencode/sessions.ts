// The opencode sessions of one process, each on a live session of its own opened on first use, and the sessions
// subagents run in (opencode's `task` tool), whose calls and usage count in the session that started them.

import {
	type BudgetLedger,
	LiveSession,
	type ProjectHistory,
	type ReportPageInput,
	type ResolvedDefault,
	type SettingSources,
} from "../../core/index.ts";
import { SessionLog, toldStore } from "../node/session-log.ts";
import type { ReportPageWriter } from "../report/writer.ts";
import type { costReportingOf } from "./calls.ts";
import type { OpencodeClient } from "./host.ts";
import type { TimeboxPluginDeps } from "./plugin-deps.ts";
import { SubagentTasks } from "./subagents.ts";
import { OPENCODE_TERMS } from "./terms.ts";
import { OpencodeUI } from "./ui.ts";

/** One opencode session's budget, with what the plugin remembers of its calls. */
export interface OpencodeSession {
	live: LiveSession;
	log: SessionLog;
	/** The responses already counted. */
	answered: Set<string>;
	/** Why the calls answering a user message are refused, by its id: the next `chat.params` for it throws it. */
	refused: Map<string, string>;
	/** The user messages that are `/timebox` lines: their calls are never sent. */
	commands: Set<string>;
	/**
	 * The user messages the user sent in this process (each passes `chat.message`). Any other user message of a call is
	 * one opencode wrote itself (a prompt re-sent after a compaction, the "continue" after one), or a prompt of an
	 * earlier process: its calls belong to the latest prompt.
	 */
	sent: Set<string>;
	/** opencode is compacting the session: the next messages transform is the summary's call, not the agent's. */
	compacting: boolean;
	/** Set while a hook runs that refuses by throwing: an abort then would only race the throw. */
	refusing: boolean;
	cost: ReturnType<typeof costReportingOf>;
}

/** What every session of the process opens with. */
export interface SessionsSetup {
	deps: TimeboxPluginDeps;
	client: OpencodeClient;
	/** The plugin's options (`dailyStore`, `team`, a default budget). */
	options: Record<string, unknown>;
	/** The folder opencode works in: the project whose past sessions a suggested budget is made of. */
	project: string | null;
	/** The past sessions of the project, leaving out the session of the id given; null where none are read. */
	history: ((current: string | null) => () => Promise<ProjectHistory>) | null;
	/** The ledger of outcomes every session writes to. */
	ledger: BudgetLedger;
	defaultBudget: ResolvedDefault | null;
	settings: SettingSources;
}

export class OpencodeSessions {
	private readonly sessions = new Map<string, OpencodeSession>();
	/**
	 * The sessions subagents run in (opencode's `task` tool), with the session that started each: their calls belong to
	 * the parent's run, which is budgeted, and what they use counts there.
	 */
	private readonly subagents = new Map<string, string>();
	/** The subagents the `task` tool started, by the id of its call, with their child sessions. */
	readonly tasks = new SubagentTasks();

	/** Stops watching the sessions the TUI shows. */
	private readonly unwatch: (() => void) | undefined;

	constructor(private readonly setup: SessionsSetup) {
		const { interactive, sessionsShown } = setup.deps;
		this.unwatch = interactive ? sessionsShown?.((sessionId) => this.shown(sessionId)) : undefined;
	}

	/**
	 * The TUI shows the session (a session reopened, or picked from the list): one with a log of Timebox's is opened now,
	 * not at its first prompt, so its status is shown and kept up, its deadline stops it while no prompt comes, and an
	 * on-stop command left to start late starts. A session with no log has nothing to restore; a subagent's session is
	 * its parent's.
	 */
	shown(sessionId: string): void {
		if (this.sessions.has(sessionId) || this.isSubagent(sessionId)) return;
		if (new SessionLog(this.setup.deps.dataDir, sessionId).lines().length === 0) return;
		this.sessionOf(sessionId);
	}

	/**
	 * opencode retries a call that failed with what it takes for a provider's passing trouble, by the error's words (a
	 * refusal that names a store's `ECONNREFUSED`, or a `500`): a call Timebox refused is refused again each time, for a
	 * minute. Such a retry of a refusal of this session ends its run instead, where the first refusal was said.
	 */
	retried(sessionId: string, message: string): void {
		const session = this.sessions.get(sessionId);
		if (session === undefined || ![...session.refused.values()].includes(message)) return;
		void this.setup.client.session.abort({ path: { id: sessionId } }).catch(() => {});
	}

	/** Whether a subagent runs in the session. */
	isSubagent(sessionId: string): boolean {
		return this.subagents.has(sessionId);
	}

	/** opencode created a subagent's session, under the session that started it. */
	subagentCreated(sessionId: string, parentId: string): void {
		this.subagents.set(sessionId, parentId);
	}

	/** The session a subagent's session belongs to, through any depth of subagents. */
	budgetedSession(sessionId: string): string {
		let id = sessionId;
		for (let parent = this.subagents.get(id); parent !== undefined; parent = this.subagents.get(id)) id = parent;
		return id;
	}

	/** Every session a subagent of `sessionId` runs in, at any depth. */
	subagentsOf(sessionId: string): string[] {
		return [...this.subagents.keys()].filter((id) => this.budgetedSession(id) === sessionId);
	}

	/** The session, if it was opened. */
	get(sessionId: string): OpencodeSession | undefined {
		return this.sessions.get(sessionId);
	}

	/** The session deleted: it never acts again. */
	delete(sessionId: string): void {
		this.sessions.get(sessionId)?.live.onShutdown();
		this.sessions.delete(sessionId);
	}

	/** The plugin is disposed: every session's timers stop. */
	dispose(): void {
		this.unwatch?.();
		for (const session of this.sessions.values()) session.live.onShutdown();
		this.sessions.clear();
	}

	/** The session of the id, opened (its budget restored, or the default budget given) on first use. */
	sessionOf(sessionId: string): OpencodeSession {
		const known = this.sessions.get(sessionId);
		if (known) return known;
		const { deps, client, options, project, history, ledger, defaultBudget, settings } = this.setup;
		const log = new SessionLog(deps.dataDir, sessionId, deps.clock).setCwd(project);
		const ui = new OpencodeUI({
			interactive: deps.interactive,
			showToast: (toast) => client.tui.showToast({ body: toast }),
			writeStderr: deps.writeStderr,
			dataDir: deps.dataDir,
			sessionId,
		});
		const session: OpencodeSession = {
			log,
			answered: new Set(),
			refused: new Map(),
			commands: new Set(),
			sent: new Set(),
			compacting: false,
			refusing: false,
			cost: "reported",
			live: new LiveSession({
				// A prompt or usage the log cannot take is told as the log's problem, once, and the session goes on.
				store: toldStore(log, (error) => session.live.notifyProblem("session log", error)),
				ledger,
				ui,
				clock: deps.clock,
				scheduler: deps.scheduler,
				onStop: deps.onStop,
				daily: deps.dailyLedger(sessionId, options),
				// The run ends with the subagents it started, those running in the background too.
				// A subagent the rules stop has its next tool and call refused, so no request of its goes out.
				stopAgent: (agent) => this.tasks.stop(agent),
				agent: {
					abortCurrentTurn: () => {
						if (session.refusing) return;
						for (const id of [sessionId, ...this.subagentsOf(sessionId)]) {
							void client.session.abort({ path: { id } }).catch(() => {});
						}
					},
				},
				newBudgetId: deps.newBudgetId,
				costReporting: () => session.cost,
				terms: OPENCODE_TERMS,
				...(deps.reportPage === undefined ? {} : { reportPage: reportPageOf(deps.reportPage, sessionId, project) }),
				...(history === null ? {} : { projectHistory: history(sessionId) }),
			}),
		};
		for (const line of log.lines()) if (line.kind === "usage") session.answered.add(line.responseId);
		this.sessions.set(sessionId, session);
		session.live.onSessionStart("continue", true, defaultBudget, settings);
		return session;
	}
}

/** The report page of an opencode session, written by `write`. */
function reportPageOf(
	write: ReportPageWriter,
	sessionId: string,
	project: string | null,
): (input: ReportPageInput) => Promise<string> {
	return (input) => write(input, { id: sessionId, host: "opencode", project });
}
