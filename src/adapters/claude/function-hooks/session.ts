// One Claude Code session on the core's live session: each engine event becomes one session event, and the answer
// becomes what the engine takes (a dropped prompt, context beside the prompt or after a tool's result, a step answered
// with no request, a denied tool). It remembers only what the engine does not say twice: the running turn and the prompt
// the run belongs to here; each loop's last step, the tools still running, the subagents, the daily ledger's order and
// the running cost in a file each beside it. No rule lives here.

import type { SessionEvent, SettingSources } from "../../../core/index.ts";
import { type Answer, DAILY_ENV, LiveSession, SUBAGENTS_ENV, TOOL_STOPPED_REFUSAL } from "../../../core/index.ts";
import { tokensOf } from "../tokens.ts";
import { DailyOrder } from "./daily-order.ts";
import type {
	AgentSpawnAnswer,
	AgentSpawnEvent,
	PromptSubmitAnswer,
	PromptSubmitEvent,
	ToolCallAnswer,
	ToolCallEvent,
	TurnCompleteEvent,
	TurnStepAnswer,
	TurnStepEvent,
} from "./engine.ts";
import { Loops } from "./loops.ts";
import { engineOnStop } from "./on-stop.ts";
import { engineReportPage } from "./report-page.ts";
import { RunningCost } from "./running-cost.ts";
import { RunningTools, STOPPED } from "./running-tools.ts";
import type { OpenSettings, SessionDeps } from "./session-deps.ts";
import { Subagents } from "./subagents.ts";
import { engineScheduler } from "./time.ts";
import { ModuleUI } from "./ui.ts";

export class ClaudeSession {
	readonly live: LiveSession;
	readonly ui: ModuleUI;
	/** The main loop's running turn, or null while idle. */
	private turnId: string | null = null;
	/** The prompt the latest run belongs to, by its key; null before the first. */
	private prompt: string | null = null;
	private readonly loops = new Loops();
	private readonly tools = new RunningTools();
	private readonly subagents = new Subagents();
	private readonly daily: DailyOrder;
	private readonly cost: RunningCost;

	constructor(private readonly deps: SessionDeps) {
		this.ui = new ModuleUI(deps.engine);
		this.daily = new DailyOrder(deps.daily);
		this.cost = new RunningCost(deps.engine);
		this.live = new LiveSession({
			store: deps.store,
			ledger: deps.store,
			ui: this.ui,
			clock: deps.clock,
			scheduler: engineScheduler(deps.engine),
			onStop: engineOnStop(deps.engine, (say) => this.ui.withoutReply(say)),
			agent: { abortCurrentTurn: () => this.abortRun() },
			stopAgent: (agent) => this.stopAgent(agent),
			newBudgetId: deps.newId,
			terms: deps.terms,
			...(deps.daily ? { daily: deps.daily } : {}),
			reportPage: engineReportPage(deps.engine, () => deps.store.flush()),
			projectHistory: deps.projectHistory,
			historyWhileBudgeted: deps.historyWhileBudgeted,
		});
	}

	/** Feeds an event to the rules, with the day's files read before it and written after it. */
	private async handle(event: SessionEvent): Promise<Answer> {
		await this.daily.read();
		const answer = await this.live.handle(event);
		void this.daily.write();
		return answer;
	}

	/** Loads the session's budget, or the default budget where none was ever set. */
	load(settings: OpenSettings): void {
		const daily = settings.daily?.trim();
		const subagents = settings.subagents?.trim();
		const sources: SettingSources = {
			...(daily ? { daily: [{ value: daily, source: DAILY_ENV, scope: "user" }] } : {}),
			...(subagents ? { subagents: { value: subagents, source: SUBAGENTS_ENV } } : {}),
		};
		this.live.onSessionStart("continue", true, settings.defaultBudget, sources);
	}

	/**
	 * `/timebox <args>`: the reply's text, with no model request. A daily command's reads and writes on a team's store
	 * are prepared first, after the writes before it.
	 */
	async command(args: string): Promise<string> {
		await this.daily.prepare(args);
		const { said } = await this.ui.gather(() => this.live.command(args));
		void this.daily.write();
		return said.join("\n");
	}

	/**
	 * A prompt, before any request: counted as a new prompt's first model call, or refused. One delivered into the
	 * running turn belongs to that turn's prompt, and is refused once that prompt is stopped.
	 */
	async promptSubmit(
		event: PromptSubmitEvent,
		next: (event: PromptSubmitEvent) => Promise<PromptSubmitAnswer>,
	): Promise<PromptSubmitAnswer> {
		if (event.command !== undefined) return next(event);
		const joining = event.turnId !== undefined && this.turnId !== null && this.prompt !== null;
		const key = joining && this.prompt !== null ? this.prompt : this.deps.newId();
		const sessionEvent: SessionEvent = joining
			? { type: "toolCall", prompt: key }
			: { type: "modelCall", prompt: key, step: 1, ...(event.isMeta ? { startedBy: "extension" as const } : {}) };
		await this.daily.read();
		const { value: answer, said } = await this.ui.gather(() => this.live.handle(sessionEvent));
		const taken = await this.daily.write();
		if (answer.refusal !== null) return { drop: said.length > 0 ? said.join("\n") : answer.refusal };
		this.ui.tell(said);
		if (taken !== null) {
			// The team's store took the day's last turn meanwhile: the prompt the rules counted (their latest: a message
			// joining the running turn counts none, so none of its is taken) never runs.
			await this.live.handle({ type: "promptRefused" });
			return { drop: taken };
		}
		// The rules kept the prompt once it ran (recordPrompt); a run the person did not start is no prompt.
		if (!joining) this.prompt = key;
		return next(
			answer.context.length === 0 ? event : { ...event, context: [...(event.context ?? []), ...answer.context] },
		);
	}

	/**
	 * Before a model request: a step of the prompt's run, or a subagent's model call, or its refusal (the step is answered
	 * with no request, which ends the turn: a stopped subagent's answer goes back to its parent).
	 */
	async beforeStep(event: TurnStepEvent): Promise<string | null> {
		const agent = this.subagents.agentOf(event);
		if (agent === null) this.turnId = event.turnId;
		// What the model is to read at this call went with the prompt, into the subagent's task, or with the last tool
		// result before it; a subagent's call that was counted then is only checked now (it has no step number).
		// While a budget stands, what this request costs counts from Claude Code's total before it.
		await this.cost.beforeRequest(this.live.state.standing !== null);
		const loop = this.loops.of(agent);
		const counted = loop.called;
		const refused = loop.refused;
		loop.called = false;
		loop.refused = null;
		if (refused !== null) return refused;
		// A subagent's call counted at its last tool's end is only checked now: once the rules stopped the subagent, they
		// refuse it (and it is answered with no request).
		if (agent !== null && counted && !this.subagents.stopped.has(agent)) return null;
		const sessionEvent: SessionEvent =
			agent !== null
				? { type: "modelCall", prompt: null, agent }
				: this.prompt === null
					? { type: "modelCall", prompt: null }
					: { type: "modelCall", prompt: this.prompt, step: event.index + 1 };
		const answer = await this.handle(sessionEvent);
		return answer.refusal;
	}

	/** After a model response: what it used, and the tools it asked for, before the loop's next call. */
	async afterStep(event: TurnStepEvent, response: TurnStepAnswer): Promise<void> {
		const agent = this.subagents.agentOf(event);
		const loop = this.loops.of(agent);
		loop.toolsLeft = response.toolUses.length;
		loop.nextStep = event.index + 2;
		if (!response.usage) return;
		const tokens = tokensOf(response.usage);
		const cost = await this.cost.since(this.live.state.standing !== null);
		// The rules keep what the response used in the store (recordUsage), named by its turn and step.
		const responseId = `${event.turnId}:${event.index}`;
		await this.handle({ type: "modelResponse", tokens, cost, responseId, ...(agent === null ? {} : { agent }) });
	}

	/**
	 * A tool call: refused once the run is stopped or wrapping up; while it runs, stopped (refused, which kills it) the
	 * moment the rules end the run. The main loop's last tool of a step carries what the model is to read at the next.
	 */
	async toolCall<E extends ToolCallEvent>(
		event: E,
		next: (event: E) => Promise<ToolCallAnswer>,
	): Promise<ToolCallAnswer> {
		const agent = this.subagents.agentOf(event);
		const main = agent === null;
		// The tool's input is the event's fields but its own.
		const { tool, tool_use_id: _id, agentId: _agent, requestMeta: _meta, ...input } = event;
		const asked = { tool, input };
		const before = await this.handle(
			main
				? { type: "toolCall", prompt: this.prompt, call: asked }
				: { type: "toolCall", prompt: null, agent, call: asked },
		);
		if (before.refusal !== null) {
			// A subagent reads why, and with it what it is to read at its next call, when this was the step's last tool.
			// The main loop's next step is left to its request: the rules count a step once, and decide it then.
			const call = main ? null : await this.nextCall(agent);
			const told = call === null || call.refusal !== null ? [] : call.context;
			return { deny: [before.refusal, ...told].join("\n\n") };
		}
		const ran = await this.tools.run(next(event), agent);
		if (ran === STOPPED) return { deny: TOOL_STOPPED_REFUSAL };
		const result = this.subagents.withParentLines(event, ran);
		if (result.deny !== undefined) return result;
		const call = await this.nextCall(agent);
		return call === null ? result : withContext(result, call);
	}

	/**
	 * After a loop's tool: when it was the step's last, the loop's next call, counted now so that what its model is to
	 * read reaches it with this tool's result (Claude Code cannot add to the request a `turn.step` hooks); else null.
	 */
	private async nextCall(agent: string | null): Promise<Answer | null> {
		const loop = this.loops.of(agent);
		if (loop.toolsLeft === 0 || --loop.toolsLeft > 0) return null;
		const call = await this.handle(
			agent === null
				? { type: "modelCall", prompt: this.prompt, step: loop.nextStep }
				: { type: "modelCall", prompt: null, agent },
		);
		loop.called = agent !== null;
		// A step refused when it was counted is refused at its request too, whatever comes between.
		if (agent === null && call.refusal !== null) loop.refused = call.refusal;
		return call;
	}

	/**
	 * A subagent about to start: refused once the session's budget is spent; else it starts with its budget in its
	 * task. It is known to the rules by its Agent tool call's id (its loop's id comes only once it started).
	 */
	async agentSpawn(
		event: AgentSpawnEvent,
		next: (event: AgentSpawnEvent) => Promise<AgentSpawnAnswer>,
	): Promise<AgentSpawnAnswer> {
		const key = event.tool_use_id || this.deps.newId();
		const parent = event.parentAgentId === undefined ? null : this.subagents.keyOf(event.parentAgentId);
		const task = event.description || event.prompt;
		const answer = await this.handle({ type: "agentStart", agent: key, parent, agentType: event.subagentType, task });
		if (answer.refusal !== null) return { deny: answer.refusal };
		const told =
			answer.context.length === 0 ? event : { ...event, prompt: [event.prompt, ...answer.context].join("\n\n") };
		return this.subagents.spawn(key, () => next(told));
	}

	/** The rules stopped a subagent: its running tools are stopped; its next request is answered with none. */
	private stopAgent(agent: string): void {
		this.subagents.stopped.add(agent);
		this.tools.stopIn(agent);
	}

	/**
	 * A turn ended: the main loop's run is over, or a subagent's answer goes back to its parent, with what the parent
	 * is to read of how it ended (given with its Agent tool call's result).
	 */
	async turnComplete(event: TurnCompleteEvent): Promise<void> {
		const agent = this.subagents.agentOf(event);
		if (agent !== null) {
			const ended = await this.handle({ type: "agentEnd", agent, ...(event.answer ? { result: event.answer } : {}) });
			this.subagents.end(agent, ended.context);
			this.loops.end(agent);
			return;
		}
		this.turnId = null;
		this.loops.of(null).toolsLeft = 0;
		await this.handle({ type: "runEnd" });
	}

	/** The rules end the run: running tools are stopped; a turn with none running (a response streaming) is aborted. */
	private abortRun(): void {
		if (this.tools.stopAll()) return;
		const turnId = this.turnId;
		if (turnId === null) return;
		this.ui.turnStopped();
		this.deps
			.engine()
			.turn.abort({ turnId })
			.catch(() => {
				// The turn ended meanwhile: nothing is left to stop.
			});
	}

	/** The session ends: its timers stop, and every change is written. */
	async close(): Promise<void> {
		this.live.onShutdown();
		await this.daily.write();
		await this.deps.store.flush();
	}
}

/** A tool's result with what the model is to read at the next step after it, unless that step is refused. */
function withContext(result: ToolCallAnswer & { deny?: undefined }, call: Answer): ToolCallAnswer {
	if (call.refusal !== null || call.context.length === 0) return result;
	return { ...result, context: [...(result.context ?? []), ...call.context] };
}
