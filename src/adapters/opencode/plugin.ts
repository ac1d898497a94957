// Wires opencode's hooks and events to one live session of the core rulebook per opencode session. Registration and
// translation only: each hook turns one opencode event into a session event, and the answer into what opencode takes
// (a thrown error refuses a model call or a tool call; a note part reaches the model; `session.abort` ends a run).
// Subagents (the `task` tool's child sessions) are reported by the id of the `task` call that started them: their model
// calls, tools and usage under that id, their end with the line their parent reads added to the task's result.

import {
	type BudgetLedger,
	type Clock,
	COMMAND_ANSWERED_REFUSAL,
	COMMAND_DONE_REFUSAL,
	COMMAND_NAME,
	type DailyLedger,
	LEDGER_FOLDER,
	LiveSession,
	type OnStopStarter,
	type ReportPageInput,
	resolveDefault,
	type Scheduler,
} from "../../core/index.ts";
import { SessionLog, toldStore } from "../node/session-log.ts";
import type { ProjectHistoryReader, ReportPageWriter } from "../report/writer.ts";
import { answerCounter } from "./answers.ts";
import {
	addBudgetNote,
	type CallMessage,
	COMMAND_TEMPLATE,
	commandArguments,
	costReportingOf,
	dropCommands,
	isCommandText,
	type ModelCall,
	modelCallOf,
} from "./calls.ts";
import type { Hooks, PluginInput } from "./host.ts";
import { refusing } from "./refusing.ts";
import { OpencodeRequests, providersLookup } from "./request-cap.ts";
import { defaultBudgetOf, settingsOf } from "./settings.ts";
import { SubagentTasks, TASK_TOOL, taskRequestOf } from "./subagents.ts";
import { OPENCODE_TERMS } from "./terms.ts";
import { OpencodeUI } from "./ui.ts";

/** What the plugin takes from the outside world: the real ones in production, fakes in tests. */
export interface TimeboxPluginDeps {
	clock: Clock;
	scheduler: Scheduler;
	onStop: OnStopStarter;
	newBudgetId: () => string;
	env: NodeJS.ProcessEnv;
	/** Timebox's data folder for opencode: session logs, the ledger of outcomes, the status files. */
	dataDir: string;
	ledger: (folder: string) => BudgetLedger;
	/**
	 * The daily ledger every session of the user shares (a team's with a store and a team set), for the session of this
	 * id; `options` are the plugin's (`dailyStore`, `team`).
	 */
	dailyLedger: (sessionId: string, options: Record<string, unknown>) => DailyLedger;
	/** Whether a user watches opencode's TUI (false in `opencode run`, where toasts print nothing). */
	interactive: boolean;
	writeStderr: (line: string) => void;
	/** Writes the report page (`/timebox report page`); absent where none is written. */
	reportPage?: ReportPageWriter;
	/** Reads the past sessions of a project (`/timebox suggest`, a default of `suggested`); absent where none are. */
	projectHistory?: ProjectHistoryReader;
}

/** The agent of opencode's title call, and of its summary when it compacts a session: neither is the user's model. */
export const TITLE_AGENT = "title";
export const COMPACTION_AGENT = "compaction";
/** The command's line in opencode's `/` list. */
export const COMMAND_DESCRIPTION = "Set a Timebox budget: /timebox 15m turns:3 | status | off | subagents 5m steps:30";

/** One opencode session's budget, with what the plugin remembers of its calls. */
interface OpencodeSession {
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

/** Builds the server plugin: opencode calls it once per process with its client and the plugin's options. */
export function createTimeboxPlugin(deps: TimeboxPluginDeps) {
	return async (
		input: Pick<PluginInput, "client"> & Partial<Pick<PluginInput, "directory">>,
		options: Record<string, unknown> = {},
	): Promise<Hooks> => {
		const { client } = input;
		/** The folder opencode works in: the project whose past sessions a suggested budget is made of. */
		const project = input.directory ?? null;
		const read = deps.projectHistory;
		const history = read && project !== null ? (current: string | null) => () => read(project, current) : null;
		const sessions = new Map<string, OpencodeSession>();
		/**
		 * The sessions subagents run in (opencode's `task` tool), with the session that started each: their calls belong to
		 * the parent's run, which is budgeted, and what they use counts there.
		 */
		const subagents = new Map<string, string>();
		/** The session a subagent's session belongs to, through any depth of subagents. */
		const budgetedSession = (sessionId: string): string => {
			let id = sessionId;
			for (let parent = subagents.get(id); parent !== undefined; parent = subagents.get(id)) id = parent;
			return id;
		};
		/** The subagents the `task` tool started, by the id of its call, with their child sessions. */
		const tasks = new SubagentTasks();
		const ledger = deps.ledger(`${deps.dataDir}/${LEDGER_FOLDER}`);
		/** Each model call's size, and the cap the rules set on its answer (written at `chat.params`). */
		const requests = new OpencodeRequests(providersLookup(() => client.config.providers()));
		// A default of `suggested` is read once, as the plugin starts: every session of the process gets that budget.
		const defaultBudget = await resolveDefault(defaultBudgetOf(deps.env, options), history?.(null));
		const settings = settingsOf(deps.env, options);

		const sessionOf = (sessionId: string): OpencodeSession => {
			const known = sessions.get(sessionId);
			if (known) return known;
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
					stopAgent: (agent) => tasks.stop(agent),
					agent: {
						abortCurrentTurn: () => {
							if (session.refusing) return;
							for (const id of [sessionId, ...subagentsOf(sessionId)]) {
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
			sessions.set(sessionId, session);
			session.live.onSessionStart("continue", true, defaultBudget, settings);
			return session;
		};

		/** Every session a subagent of `sessionId` runs in, at any depth. */
		const subagentsOf = (sessionId: string): string[] =>
			[...subagents.keys()].filter((id) => budgetedSession(id) === sessionId);

		/** Each answer opencode completed, counted once where it is first seen. */
		const answers = answerCounter({
			sessionOf: (id) => sessionOf(budgetedSession(id)),
			agentOf: (id) => tasks.agentOf(id),
			isSubagent: (id) => subagents.has(id),
			requests,
		});

		/** A subagent ended: the rules hear it once, and the lines its parent is to read of it come back. */
		const endSubagent = async (session: OpencodeSession, agent: string, result?: string): Promise<string[]> => {
			tasks.ended(agent);
			const answer = await session.live.handle(
				result === undefined ? { type: "agentEnd", agent } : { type: "agentEnd", agent, result },
			);
			return answer.context;
		};

		/** The `task` tool is about to start a subagent: the rules give it its budget, or refuse it (the model reads why). */
		const startSubagent = async (
			session: OpencodeSession,
			tool: { sessionID: string; callID: string },
			args: unknown,
		): Promise<void> => {
			const request = taskRequestOf(args);
			const answer = await refusing(session, () =>
				session.live.handle({
					type: "agentStart",
					agent: tool.callID,
					parent: tasks.agentOf(tool.sessionID) ?? null,
					agentType: request.agentType,
					task: request.task,
				}),
			);
			if (answer.refusal !== null) throw new Error(answer.refusal);
			tasks.started(tool.callID, tool.sessionID, request.description, answer.context);
		};

		/** A model call of a subagent's session: counted under the subagent, with what it is to read. */
		const subagentCall = async (call: ModelCall, messages: CallMessage[]): Promise<void> => {
			const agent = tasks.agentOf(call.sessionId);
			if (agent === undefined || tasks.isStopped(agent)) return;
			const session = sessionOf(budgetedSession(call.sessionId));
			const answer = await requests.handled(call, messages, (request) =>
				refusing(session, () => session.live.handle({ type: "modelCall", prompt: null, agent, ...request })),
			);
			// A refused call is a stopped subagent's (the rules stopped it through stopAgent): chat.params ends it.
			if (answer.refusal === null) addBudgetNote(messages, call, [...tasks.takeContext(agent), ...answer.context]);
		};

		return {
			...requests.hooks,
			// The `/timebox` command, listed in opencode's `/` menu.
			config: async (config) => {
				config.command = {
					...config.command,
					[COMMAND_NAME]: { template: COMMAND_TEMPLATE, description: COMMAND_DESCRIPTION },
				};
			},
			// `/timebox …`: answered before any model call. In the TUI the answer is a toast and the line ends here; in
			// `opencode run` an error here would read "Unexpected server error", so the line's calls are refused instead.
			"command.execute.before": async (command) => {
				if (command.command !== COMMAND_NAME || subagents.has(command.sessionID)) return;
				await sessionOf(command.sessionID).live.command(commandArguments(command.arguments));
				if (deps.interactive) throw new Error(COMMAND_DONE_REFUSAL);
			},
			// A prompt the user sent (a `/timebox` line in `opencode run` too): the only user messages that count as prompts.
			"chat.message": async (message, output) => {
				if (subagents.has(message.sessionID)) return;
				const session = sessionOf(message.sessionID);
				if (isCommandText(output.parts)) {
					session.commands.add(output.message.id);
					return;
				}
				// The rules keep it in the session's log once it runs (recordPrompt).
				session.sent.add(output.message.id);
			},
			// opencode is about to summarise the session: that call is neither a prompt nor a step, and reads no note.
			"experimental.session.compacting": async (compaction) => {
				if (!subagents.has(compaction.sessionID)) sessionOf(compaction.sessionID).compacting = true;
			},
			// Before every model call of the agent (the title call has none): count a new prompt, or refuse the call;
			// add what the model is to read of its budget; keep Timebox's command lines out of the request.
			"experimental.chat.messages.transform": async (_input, output) => {
				const messages: CallMessage[] = output.messages;
				const call = modelCallOf(messages);
				dropCommands(messages);
				await answers.unseen(messages);
				if (!call || call.command) return;
				if (subagents.has(call.sessionId)) return subagentCall(call, messages);
				const session = sessionOf(call.sessionId);
				if (session.compacting) {
					session.compacting = false;
					return;
				}
				// A message the user did not send in this process (opencode's "continue", a prompt it sent again after a
				// compaction, a prompt of an earlier process) belongs to the latest prompt, at a step the rules count on.
				const sent = session.sent.has(call.message);
				const event = sent ? { prompt: call.message, step: call.step } : { prompt: null };
				const answer = await requests.handled(call, messages, (request) =>
					refusing(session, () => session.live.handle({ type: "modelCall", ...event, ...request })),
				);
				if (answer.refusal === null) addBudgetNote(messages, call, answer.context);
				else session.refused.set(call.message, answer.refusal);
			},
			// Each model call, the title call too: a `/timebox` line or a refused prompt ends here, with its reason.
			// A subagent the rules stopped sends no request: its run ends here, and the task's result its parent reads is
			// this error, which says that it stopped at its budget.
			"chat.params": async (call, output) => {
				requests.params(call, output, call.agent !== TITLE_AGENT && call.agent !== COMPACTION_AGENT);
				if (subagents.has(call.sessionID)) {
					const agent = tasks.agentOf(call.sessionID);
					if (agent === undefined || !tasks.isStopped(agent)) return;
					const lines = await endSubagent(sessionOf(budgetedSession(call.sessionID)), agent);
					throw new Error(lines.join("\n"));
				}
				const session = sessionOf(call.sessionID);
				if (call.agent !== TITLE_AGENT && call.agent !== COMPACTION_AGENT) session.cost = costReportingOf(call.model);
				if (session.commands.has(call.message.id)) throw new Error(COMMAND_ANSWERED_REFUSAL);
				const refusal = session.refused.get(call.message.id);
				if (refusal !== undefined) throw new Error(refusal);
			},
			// A tool is about to run: refused (the model reads why) once the budget stopped or is wrapping up the run, or as a
			// loop (its tool and arguments compared).
			// A subagent's tool is its own, under its budget and the session's; one the `task` tool starts is a subagent.
			"tool.execute.before": async (tool, output) => {
				const session = sessionOf(budgetedSession(tool.sessionID));
				const agent = tasks.agentOf(tool.sessionID);
				// A stopped subagent starts nothing: the rules refuse its tools, with their reason.
				const stopped = tasks.isStopped(agent);
				// A `task` call is the start of a subagent first: the rules refuse it once the session's budget is spent.
				if (tool.tool === TASK_TOOL && !stopped) await startSubagent(session, tool, output.args);
				const call = { tool: tool.tool, input: output.args };
				const answer = await session.live.handle(
					agent === undefined
						? { type: "toolCall", prompt: null, call }
						: { type: "toolCall", prompt: null, agent, call },
				);
				if (answer.refusal === null) return;
				// The call is refused as a tool (its run is wrapping up): a subagent it started never runs.
				if (tool.tool === TASK_TOOL && !stopped) await endSubagent(session, tool.callID);
				throw new Error(answer.refusal);
			},
			// The `task` tool's result: the subagent ended, and the line that it stopped at its budget goes with its answer.
			"tool.execute.after": async (tool, output) => {
				if (tool.tool !== TASK_TOOL || tasks.sessionOf(tool.callID) === null) return;
				const lines = await endSubagent(sessionOf(budgetedSession(tool.sessionID)), tool.callID, output.output);
				if (lines.length > 0) output.output = `${output.output}\n\n${lines.join("\n")}`;
			},
			event: async ({ event }) => {
				if (event.type === "session.created" && event.properties.info.parentID) {
					const { id, parentID, title } = event.properties.info;
					subagents.set(id, parentID);
					tasks.created(id, parentID, title);
				} else if (event.type === "message.updated") {
					await answers.count(event.properties.info);
				} else if (event.type === "session.idle") {
					await sessions.get(event.properties.sessionID)?.live.handle({ type: "runEnd" });
				} else if (event.type === "session.deleted") {
					sessions.get(event.properties.info.id)?.live.onShutdown();
					sessions.delete(event.properties.info.id);
				}
			},
			dispose: async () => {
				for (const session of sessions.values()) session.live.onShutdown();
				sessions.clear();
			},
		};
	};
}

/** The report page of an opencode session, written by `write`. */
function reportPageOf(
	write: ReportPageWriter,
	sessionId: string,
	project: string | null,
): (input: ReportPageInput) => Promise<string> {
	return (input) => write(input, { id: sessionId, host: "opencode", project });
}
