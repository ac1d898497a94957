// Wires pi's events and the /timebox command to a live session of the core rulebook. Registration only: each handler
// translates one pi event into a session event and the answer back into pi's return value. A pi process that runs a
// subagent (named in its environment by the parent that started it) budgets itself as that subagent; a tool call that
// starts one names it, and its result carries what the subagent's process said of its end. The session's budget spent
// while a subagent runs is passed on to its process (the rules' `stopSubagents`), whose rules then stop it.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
	type BudgetLedger,
	type Cancel,
	type Clock,
	COMMAND_NAME,
	type DailyLedger,
	DEFAULT_TERMS,
	type HostTerms,
	isSuggestedDefault,
	keepChildRecord,
	LiveSession,
	NO_TEAM,
	type OnStopStarter,
	type ProjectHistory,
	RELOAD_NOTICE_DELAY_MS,
	type ReportPageInput,
	type ResolvedDefault,
	resolveDefault,
	type Scheduler,
	type SettingSources,
	setBudgetFor,
} from "../../core/index.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../report/writer.ts";
import { withBudgetNote } from "./budget-note.ts";
import { CallRequests } from "./call-request.ts";
import { createTimeboxCommand } from "./command.ts";
import { DEFAULT_FLAG, readDefaultBudget, readSettings } from "./defaults.ts";
import { liveOnlyScheduler } from "./live-scheduler.ts";
import { SessionContext } from "./session-context.ts";
import { PiBudgetStore, subagentProcessStore } from "./store.ts";
import { SubagentProcesses, sessionStopped, takeOutcome, writeOutcome } from "./subagent-files.ts";
import {
	identityFor,
	identityOf,
	PARENT_SOURCE,
	SUBAGENT_ENV,
	type SubagentOutcome,
	spawnRequestOf,
} from "./subagents.ts";
import { type FallbackWriter, PiUIBridge } from "./ui-bridge.ts";
import { costReportingOf, usageOf, usageOfSubagents } from "./usage.ts";

/** What the extension takes from the outside world: the real ones in production, fakes in tests. */
export interface TimeboxExtensionDeps {
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopStarter;
	writeFallback: FallbackWriter;
	/** The per-user ledger; asked for each time pi loads the extension, so it follows pi's agent directory. */
	ledger: () => BudgetLedger;
	newBudgetId: () => string;
	/** The environment (PI_TIMEBOX) and the user's settings file, where a default budget may come from. */
	env: NodeJS.ProcessEnv;
	globalSettings: () => string;
	/** The daily ledger every session of the user shares, for the session of this id. */
	dailyLedger?: (sessionId: string) => DailyLedger;
	/** Writes the report page (`/timebox report page`); absent where none is written. */
	reportPage?: ReportPageWriter;
	/** Reads the past sessions of a project (`/timebox suggest`, a default of `suggested`); absent where none are read. */
	projectHistory?: ProjectHistoryReader;
}

/** Builds the pi extension factory. pi calls it once per session (again after /new, /resume, /fork and /reload). */
export function createTimeboxExtension(deps: TimeboxExtensionDeps): (pi: ExtensionAPI) => void {
	return (pi) => {
		const context = new SessionContext();
		const ui = new PiUIBridge(context, deps.writeFallback);
		/** The subagent this process runs, where its parent named one; null for a session of the user's own. */
		const self = identityOf(deps.env);
		/** What a subagent's process tells its parent at its end: what the user was told, how it stood. */
		const told: SubagentOutcome = { lines: [], notices: [], record: null };
		const piStore = new PiBudgetStore(pi, context);
		/** The subagents this session's tool calls started, running in processes of their own. */
		const subagents = new SubagentProcesses();
		/** Whether this subagent's process has learned the session's stop (and told its rules). */
		let stopLearned = false;
		/**
		 * A subagent's process learns the session's stop from its parent before its model calls and tools: the rules' answer
		 * to wait for, or null with nothing to learn (the usual case: the handler goes on at once, with no extra turn).
		 */
		const learnStop = (): Promise<unknown> | null => {
			if (self === null || stopLearned || !sessionStopped(self)) return null;
			stopLearned = true;
			return session.handle({ type: "sessionStop" });
		};
		/** The tag of the subagent this process runs, made once; empty for a session of the user's own. */
		const ownAgentTag: { agent?: string } = self === null ? {} : { agent: self.agent };
		/** An event tagged with the subagent this process runs, if any (the user's own session's events go as they are). */
		const ownAgent = <E extends object>(event: E): E & { agent?: string } =>
			self === null ? event : { ...event, ...ownAgentTag };
		const scheduler = liveOnlyScheduler(deps.scheduler, () => context.isLive());
		/** The pending second showing of what was restored; a shut-down instance shows nothing. */
		let restoreNoticeAgain: Cancel | null = null;
		/** What the rules add to the system prompt of the agent about to start (set in before_agent_start). */
		let systemPromptExtra = "";
		/** Each model call's size, and the cap the rules set on the answer of the call about to be sent. */
		const calls = new CallRequests(pi);
		const session = new LiveSession({
			store:
				self === null
					? piStore
					: subagentProcessStore(piStore, (record) => {
							told.record = record;
						}),
			ledger: deps.ledger(),
			ui:
				self === null
					? ui
					: {
							notify: (message, level) => {
								told.notices.push({ message, level });
								ui.notify(message, level);
							},
							setStatus: (text) => ui.setStatus(text),
						},
			clock: deps.clock,
			scheduler,
			...(deps.dailyLedger
				? { daily: lazyDailyLedger(() => context.require().sessionManager.getSessionId(), deps.dailyLedger) }
				: {}),
			onStop: deps.onStop,
			agent: {
				abortCurrentTurn: () => context.require().abort(),
				appendSystemPrompt: (extra) => {
					systemPromptExtra += extra;
				},
			},
			transcript: piStore,
			// The session's stop reaches the subagents running in processes of their own through their files.
			stopSubagents: () => subagents.stopAll(),
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

		pi.registerFlag(DEFAULT_FLAG, {
			type: "string",
			description: 'A budget for new sessions, e.g. --timebox "30m turns:10"',
		});
		// The session loaded (startup, reload, new, resume, fork, clone): restore the budget of its branch, or give a
		// session that never had one the default budget.
		pi.on("session_start", (event, ctx) => {
			context.bind(ctx);
			const sources = {
				flag: pi.getFlag(DEFAULT_FLAG),
				env: deps.env,
				cwd: ctx.cwd,
				globalSettings: deps.globalSettings(),
			};
			// A subagent's process takes no default budget: its budget is the one its parent named. A default of `suggested`
			// is the budget suggested from the project's past sessions, read first (pi awaits the session's start).
			const given = self === null ? readDefaultBudget(sources) : null;
			if (given !== null && isSuggestedDefault(given.text)) {
				const read = deps.projectHistory && readWith(deps.projectHistory, context);
				return resolveDefault(given, read).then((resolved) => start(event, ctx, resolved, readSettings(sources)));
			}
			start(event, ctx, given, readSettings(sources));
		});
		/** The session's start, once its default budget is known. */
		const start = (
			event: { reason: string },
			ctx: { hasUI: boolean },
			given: ResolvedDefault | null,
			settings: SettingSources,
		): void => {
			const shown = ui.record(() =>
				self === null
					? session.onSessionStart("restore", true, given, settings)
					: session.onSessionStart("restore", false, null, {
							...settings,
							subagents: self.budget === null ? null : { value: self.budget, source: PARENT_SOURCE },
						}),
			);
			if (self !== null) {
				void session.handle({
					type: "agentStart",
					agent: self.agent,
					parent: null,
					agentType: self.agentType,
					task: self.task,
					contextAtStart: false,
				});
			}
			// What was restored names the on-stop command that will run, but pi's UI hides it: its "Reloaded …" line
			// replaces it, and a resumed chat is replayed below it. Show it again once pi has done so.
			const restored = shown.filter((notice) => notice.level === "info");
			if (ctx.hasUI && event.reason !== "new" && restored.length > 0) {
				// pi's reload keeps the old instance's context usable, so only the shutdown below stops this timer.
				restoreNoticeAgain = scheduler.setTimeout(() => {
					restoreNoticeAgain = null;
					for (const notice of restored) ui.notify(notice.message, notice.level);
				}, RELOAD_NOTICE_DELAY_MS);
			}
		};
		// A turn begins: the budget is checked (time, tokens, cost) and its status refreshed. Turns are counted, and a spent
		// budget's stop comes, at the turn's model call (`context`), which knows the prompt it belongs to.
		pi.on("turn_start", async (_event, ctx) => {
			context.bind(ctx);
			await session.onTurnStart();
		});
		// The agent is about to start: while a budget is in force its system prompt says so, in words that stay the same
		// while it is (what is left comes at the end of each call's messages), so the prompt cache holds. The text goes
		// after the prompt this start builds (the event's): `ctx.getSystemPrompt()` still holds the previous start's
		// addition, so adding to it would pile the text up start after start.
		pi.on("before_agent_start", (event, ctx) => {
			context.bind(ctx);
			systemPromptExtra = "";
			session.onAgentStart();
			return systemPromptExtra === "" ? undefined : { systemPrompt: event.systemPrompt + systemPromptExtra };
		});
		// /tree moved to another branch: take that branch's budget and prompts.
		pi.on("session_tree", (_event, ctx) => {
			context.bind(ctx);
			session.onSessionStart("restore", false);
		});
		// Before every model call (pi awaits this one): count a new prompt, or stop the run before the call is sent; the
		// call carries what the model is to read of its budget, at the end of its messages, never in the session file. A
		// run an extension started is no prompt: the core is told so and counts its calls as steps only.
		pi.on("context", async (event, ctx) => {
			context.bind(ctx);
			const call = calls.callOf(event.messages, ctx, self?.agent ?? null);
			ui.hold();
			const learning = learnStop();
			if (learning !== null) await learning;
			const answer = await session.handle(call);
			calls.capNext(answer.maxOutputTokens);
			// A stopped run's notice is shown once the run has ended, below the prompt it stopped.
			if (!answer.aborted) ui.release();
			return withBudgetNote(event.messages, answer.context, deps.clock.now());
		});
		// A model call was answered: what it used counts, and a budget it used up stops the run before its tools run.
		pi.on("message_end", async (event, ctx) => {
			context.bind(ctx);
			calls.meter.answer(event.message);
			const used = usageOf(event.message);
			if (used) await session.handle(ownAgent({ type: "modelResponse", tokens: used.tokens, cost: used.cost }));
		});
		// A tool is about to run: refused once the budget stopped its prompt, or as a loop (its tool and input compared).
		// A call of the subagent tool names the subagent in the environment its process inherits.
		pi.on("tool_call", async (event, ctx) => {
			context.bind(ctx);
			const learning = learnStop();
			if (learning !== null) await learning;
			const call = { tool: event.toolName, input: event.input };
			const answer = await session.handle(ownAgent({ type: "toolCall", prompt: null, call }));
			if (answer.refusal !== null) return { block: true, reason: answer.refusal };
			const request = spawnRequestOf(event.toolName, event.input);
			if (request === null) return undefined;
			const identity = identityFor(
				event.toolCallId,
				request,
				setBudgetFor(session.state.subagents, request.agentType)?.words ?? null,
			);
			subagents.started(event.toolCallId, identity);
			deps.env[SUBAGENT_ENV] = JSON.stringify(identity);
			return undefined;
		});
		// The subagent tool's result: what its process used counts here, what it said is shown, how it stood is kept for
		// the report, and the line that it stopped at its budget goes with its answer.
		pi.on("tool_result", async (event, ctx) => {
			context.bind(ctx);
			const identity = subagents.ended(event.toolCallId);
			if (identity === undefined) return undefined;
			if (deps.env[SUBAGENT_ENV] === JSON.stringify(identity)) delete deps.env[SUBAGENT_ENV];
			const used = usageOfSubagents(event.details);
			if (used) await session.handle(ownAgent({ type: "modelResponse", tokens: used.tokens, cost: used.cost }));
			const outcome = takeOutcome(identity.outcome);
			if (outcome === null) return undefined;
			for (const notice of outcome.notices) ui.notify(notice.message, notice.level);
			session.write(keepChildRecord(outcome.record));
			if (outcome.lines.length === 0) return undefined;
			return { content: [...event.content, { type: "text" as const, text: outcome.lines.join("\n") }] };
		});
		// The run ended: the answered prompt now shows as used.
		pi.on("agent_end", async (_event, ctx) => {
			context.bind(ctx);
			ui.release();
			if (self === null) {
				await session.handle({ type: "runEnd" });
				return;
			}
			// A subagent's run is its whole task: its end, and what its parent is to read of it.
			const answer = await session.handle({ type: "agentEnd", agent: self.agent });
			writeOutcome(self.outcome, { ...told, lines: answer.context });
		});
		// The instance is replaced or pi quits: it never acts again.
		pi.on("session_shutdown", (_event, ctx) => {
			context.bind(ctx);
			try {
				// What a stopped run held back is shown before the instance goes; a context pi made stale shows nothing.
				ui.release();
			} catch {
				// Nothing can be shown on a replaced session: the instance still goes.
			}
			restoreNoticeAgain?.();
			restoreNoticeAgain = null;
			session.onShutdown();
		});
		pi.registerCommand(
			COMMAND_NAME,
			createTimeboxCommand((args, ctx) => {
				context.bind(ctx);
				return session.command(args);
			}),
		);
	};
}

/** A daily ledger opened at its first use, when the session (and so its id) is known. */
function lazyDailyLedger(sessionId: () => string, open: (sessionId: string) => DailyLedger): DailyLedger {
	let ledger: DailyLedger | null = null;
	const get = (): DailyLedger => {
		ledger ??= open(sessionId());
		return ledger;
	};
	return {
		get team() {
			return get().team;
		},
		standings: (budgets) => get().standings(budgets),
		countPrompt: (budgets, limits) => get().countPrompt(budgets, limits),
		addUse: (budgets, use) => get().addUse(budgets, use),
		reserve: (budgets) => get().reserve?.(budgets),
		adjust: (budget, adjustment) => get().adjust(budget, adjustment),
		problem: () => get().problem(),
		teamView: () => get().teamView?.() ?? { unreadable: NO_TEAM },
		setTeamLimits: (limits) => get().setTeamLimits?.(limits) ?? { failed: NO_TEAM },
		askTeam: (adjustment, why) => get().askTeam?.(adjustment, why) ?? { failed: NO_TEAM },
	};
}

/** pi in its users' words: a daily budget is set in its settings file, or in the project's. */
function piTerms(settingsFile: string): HostTerms {
	return {
		...DEFAULT_TERMS,
		dailySetting: `Set one under the timebox key of ${settingsFile} ("daily": "3h turns:60 cost:10"), or of .pi/settings.json in the project.`,
	};
}

/** The report page of this pi session, written by `write`, with the suggested budget of its working folder. */
function writeWith(write: ReportPageWriter, context: SessionContext): (input: ReportPageInput) => Promise<string> {
	return (input) => {
		const ctx = context.require();
		return write(input, { id: ctx.sessionManager.getSessionId(), host: "pi", project: ctx.cwd });
	};
}

/** The past sessions of this pi session's working folder, read by `read`, leaving this one out. */
function readWith(read: ProjectHistoryReader, context: SessionContext): () => Promise<ProjectHistory> {
	return () => {
		const ctx = context.require();
		return read(ctx.cwd, ctx.sessionManager.getSessionId());
	};
}
