// What the handlers of one pi session share: its context, UI and live session, the subagent this process runs (if its
// parent named one) and those its tool calls started, and the little each handler leaves for another.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { type Cancel, LiveSession, type Scheduler } from "../../core/index.ts";
import { CallRequests } from "./call-request.ts";
import type { TimeboxExtensionDeps } from "./extension-deps.ts";
import { liveOnlyScheduler } from "./live-scheduler.ts";
import { SessionContext } from "./session-context.ts";
import { lazyDailyLedger, piTerms, readWith, type SessionDailyLedger, writeWith } from "./session-ports.ts";
import { sessionUI } from "./session-ui.ts";
import { PiBudgetStore, subagentProcessStore } from "./store.ts";
import { SubagentProcesses, sessionStopped } from "./subagent-files.ts";
import { identityOf, type SubagentIdentity, type SubagentOutcome } from "./subagents.ts";
import { PiUIBridge } from "./ui-bridge.ts";
import { costReportingOf } from "./usage.ts";

export class PiWiring {
	readonly context = new SessionContext();
	readonly ui: PiUIBridge;
	/** The subagent this process runs, where its parent named one; null for a session of the user's own. */
	readonly self: SubagentIdentity | null;
	/** What a subagent's process tells its parent at its end: what the user was told, how it stood. */
	readonly told: SubagentOutcome = { lines: [], notices: [], record: null };
	/** The subagents this session's tool calls started, running in processes of their own. */
	readonly subagents = new SubagentProcesses();
	readonly scheduler: Scheduler;
	readonly session: LiveSession;
	/** The pending second showing of what was restored; a shut-down instance shows nothing. */
	restoreNoticeAgain: Cancel | null = null;
	/** What the rules add to the system prompt of the agent about to start (set in before_agent_start). */
	systemPromptExtra = "";
	/** The daily ledger the session shares with every session of the user, opened at the session's start; null: none. */
	readonly daily: SessionDailyLedger | null;
	/** Each model call's size, and the cap the rules set on the answer of the call about to be sent. */
	readonly calls: CallRequests;
	/** Whether this subagent's process has learned the session's stop (and told its rules). */
	private stopLearned = false;
	/** The tag of the subagent this process runs, made once; empty for a session of the user's own. */
	private readonly ownAgentTag: { agent?: string };

	constructor(
		readonly pi: ExtensionAPI,
		readonly deps: TimeboxExtensionDeps,
	) {
		const context = this.context;
		const self = identityOf(deps.env);
		// A subagent's process runs without pi's UI; what it is told goes to its parent, which shows it (`told`). Its
		// stderr is no place for it: pi 1.x's subagent example hands that to the main agent with the tool's result.
		this.ui = new PiUIBridge(context, self === null ? deps.writeFallback : () => {});
		this.self = self;
		this.ownAgentTag = self === null ? {} : { agent: self.agent };
		const piStore = new PiBudgetStore(pi, context);
		this.scheduler = liveOnlyScheduler(deps.scheduler, () => context.isLive());
		this.calls = new CallRequests(pi);
		const daily = deps.dailyLedger
			? lazyDailyLedger(() => context.require().sessionManager.getSessionId(), deps.dailyLedger)
			: null;
		this.daily = daily;
		this.session = new LiveSession({
			store:
				self === null
					? piStore
					: subagentProcessStore(piStore, (record) => {
							this.told.record = record;
						}),
			ledger: deps.ledger(),
			ui: sessionUI(this.ui, self, this.told),
			clock: deps.clock,
			scheduler: this.scheduler,
			...(daily === null ? {} : { daily }),
			onStop: deps.onStop,
			agent: {
				abortCurrentTurn: () => context.require().abort(),
				appendSystemPrompt: (extra) => {
					this.systemPromptExtra += extra;
				},
			},
			transcript: piStore,
			// The session's stop reaches the subagents running in processes of their own through their files.
			stopSubagents: () => this.subagents.stopAll(),
			// The subagent this process runs (the one subagent its rules know) is stopped: its run ends, with no further
			// request.
			...(self === null ? {} : { stopAgent: () => context.require().abort() }),
			newBudgetId: deps.newBudgetId,
			canAsk: () => context.require().hasUI,
			costReporting: () => costReportingOf(context.require().model),
			terms: piTerms(deps.globalSettings()),
			...(deps.reportPage === undefined ? {} : { reportPage: writeWith(deps.reportPage, context) }),
			...(deps.projectHistory === undefined ? {} : { projectHistory: readWith(deps.projectHistory, context) }),
			ask: async (question, choices, timeoutMs, signal) => {
				const options = { timeout: timeoutMs, signal };
				const chosen = await context.require().ui.select(question, [...choices], options);
				return chosen === undefined ? undefined : choices.indexOf(chosen);
			},
		});
	}

	/**
	 * A subagent's process learns the session's stop from its parent before its model calls and tools: the rules' answer
	 * to wait for, or null with nothing to learn (the usual case: the handler goes on at once, with no extra turn).
	 */
	learnStop(): Promise<unknown> | null {
		if (this.self === null || this.stopLearned || !sessionStopped(this.self)) return null;
		this.stopLearned = true;
		return this.session.handle({ type: "sessionStop" });
	}

	/** An event tagged with the subagent this process runs, if any (the user's own session's events go as they are). */
	ownAgent<E extends object>(event: E): E & { agent?: string } {
		return this.self === null ? event : { ...event, ...this.ownAgentTag };
	}
}
