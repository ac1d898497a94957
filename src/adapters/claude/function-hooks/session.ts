// One Claude Code session on the core's live session: each engine event becomes one session event, and the answer
// becomes what the engine takes (a dropped prompt, context beside the prompt or after a tool's result, a step answered
// with no request, a denied tool). It remembers only what the engine does not say twice: the running turn, the prompt
// the run belongs to, the tools still running and how to stop them. No rule lives here.

import type {
	Clock,
	DefaultText,
	HostTerms,
	ProjectHistory,
	SessionEvent,
	SettingSources,
} from "../../../core/index.ts";
import { type Answer, DAILY_ENV, LiveSession, SUBAGENTS_ENV, TOOL_STOPPED_REFUSAL } from "../../../core/index.ts";
import { tokensOf } from "../tokens.ts";
import type { ModuleLedger } from "./daily.ts";
import type {
	AgentSpawnAnswer,
	AgentSpawnEvent,
	Engine,
	PromptSubmitAnswer,
	PromptSubmitEvent,
	ToolCallAnswer,
	ToolCallEvent,
	TurnCompleteEvent,
	TurnStepAnswer,
	TurnStepEvent,
} from "./engine.ts";
import { engineOnStop } from "./on-stop.ts";
import { engineReportPage } from "./report-page.ts";
import type { ModuleStore } from "./store.ts";
import { engineScheduler } from "./time.ts";
import { ModuleUI } from "./ui.ts";

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

/** A step answered in place of its request: an empty answer that ends the turn. */
export function noRequest(event: TurnStepEvent): TurnStepAnswer {
	return { turnId: event.turnId, index: event.index, answer: "", toolUses: [], stopReason: "end_turn", usage: null };
}

/** What the module remembers of a loop's last step: its tools still to end, and the call that follows them. */
interface Loop {
	toolsLeft: number;
	/** The main loop's next step number. */
	nextStep: number;
	/** A subagent's next call was counted at its last tool's end: its request is only checked. */
	called: boolean;
	/** The main loop's next step was refused when it was counted: its request is not sent. */
	refused: string | null;
}

/** The marker a tool's race settles to when the rules stopped the run while it ran. */
const STOPPED = Symbol("stopped");

export class ClaudeSession {
	readonly live: LiveSession;
	readonly ui: ModuleUI;
	/** The main loop's running turn, or null while idle. */
	private turnId: string | null = null;
	/** The prompt the latest run belongs to, by its key; null before the first. */
	private prompt: string | null = null;
	/** Each loop's last step (the main loop's under null, a subagent's under its key). */
	private readonly loops = new Map<string | null, Loop>();
	/** Settles each running tool's race as stopped, with the subagent it runs in (null: the main loop). */
	private readonly stoppers = new Map<() => void, string | null>();
	/** Each subagent's key in the rules (its Agent tool call's id), by Claude Code's id of its loop. */
	private readonly agents = new Map<string, string>();
	/** The keys of the subagents being spawned, whose loop's id is not known yet. */
	private readonly spawning: string[] = [];
	/** The subagents the rules stopped, until they end. */
	private readonly stopped = new Set<string>();
	/** What the parent reads with a subagent's answer, by the subagent's key, until its Agent tool call returns. */
	private readonly linesForParent = new Map<string, readonly string[]>();
	/**
	 * The session's running cost (Claude Code's total) when the last response was counted, or before the request that
	 * runs; null while no budget stands (it is read again before the next request under one).
	 */
	private costSeen: number | null = null;

	constructor(private readonly deps: SessionDeps) {
		this.ui = new ModuleUI(deps.engine);
		this.live = new LiveSession({
			store: deps.store,
			ledger: deps.store,
			ui: this.ui,
			clock: deps.clock,
			scheduler: engineScheduler(deps.engine),
			onStop: engineOnStop(deps.engine),
			agent: { abortCurrentTurn: () => this.abortRun() },
			stopAgent: (agent) => this.stopAgent(agent),
			newBudgetId: deps.newId,
			terms: deps.terms,
			...(deps.daily ? { daily: deps.daily } : {}),
			reportPage: engineReportPage(deps.engine, () => deps.store.flush()),
			projectHistory: deps.projectHistory,
		});
	}

	/**
	 * The daily ledger's writes, in order: an event reads the day's files after the writes before it. Each resolves to
	 * why a prompt counted in it was refused after all, or null.
	 */
	private dailyWrites: Promise<string | null> = Promise.resolve(null);

	/** Feeds an event to the rules, with the day's files read before it and written after it. */
	private async handle(event: SessionEvent): Promise<Answer> {
		await this.readDaily();
		const answer = await this.live.handle(event);
		void this.writeDaily();
		return answer;
	}

	private async readDaily(): Promise<void> {
		const daily = this.deps.daily;
		if (!daily) return;
		await this.dailyWrites;
		await daily.refresh();
	}

	/** Writes what the rules wrote to the daily ledger: why a prompt counted there was taken meanwhile, or null. */
	private writeDaily(): Promise<string | null> {
		const daily = this.deps.daily;
		if (!daily) return this.dailyWrites;
		this.dailyWrites = this.dailyWrites.then(async () => ((await daily.settle()) ? null : daily.takenRefusal()));
		return this.dailyWrites;
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

	/** `/timebox <args>`: the reply's text, with no model request. */
	async command(args: string): Promise<string> {
		await this.readDaily();
		const { said } = await this.ui.gather(() => this.live.command(args));
		void this.writeDaily();
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
		await this.readDaily();
		const { value: answer, said } = await this.ui.gather(() => this.live.handle(sessionEvent));
		const taken = await this.writeDaily();
		if (answer.refusal !== null) return { drop: said.length > 0 ? said.join("\n") : answer.refusal };
		this.ui.tell(said);
		if (taken !== null) return { drop: taken };
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
		const agent = this.agentOf(event);
		if (agent === null) this.turnId = event.turnId;
		// What the model is to read at this call went with the prompt, into the subagent's task, or with the last tool
		// result before it; a subagent's call that was counted then is only checked now (it has no step number).
		// While a budget stands, what this request costs counts from Claude Code's total before it.
		if (this.live.state.standing === null) this.costSeen = null;
		else if (this.costSeen === null) this.costSeen = (await this.deps.engine().session.usage()).cost.usd;
		const loop = this.loopOf(agent);
		const counted = loop.called;
		const refused = loop.refused;
		loop.called = false;
		loop.refused = null;
		if (refused !== null) return refused;
		// A subagent's call counted at its last tool's end is only checked now: once the rules stopped the subagent, they
		// refuse it (and it is answered with no request).
		if (agent !== null && counted && !this.stopped.has(agent)) return null;
		const sessionEvent: SessionEvent =
			agent !== null
				? { type: "modelCall", prompt: null, agent }
				: this.prompt === null
					? { type: "modelCall", prompt: null }
					: { type: "modelCall", prompt: this.prompt, step: event.index + 1 };
		const answer = await this.handle(sessionEvent);
		return answer.refusal;
	}

	/** A loop's last step, made on first use. */
	private loopOf(agent: string | null): Loop {
		let loop = this.loops.get(agent);
		if (!loop) {
			loop = { toolsLeft: 0, nextStep: 1, called: false, refused: null };
			this.loops.set(agent, loop);
		}
		return loop;
	}

	/** After a model response: what it used, and the tools it asked for, before the loop's next call. */
	async afterStep(event: TurnStepEvent, response: TurnStepAnswer): Promise<void> {
		const agent = this.agentOf(event);
		const loop = this.loopOf(agent);
		loop.toolsLeft = response.toolUses.length;
		loop.nextStep = event.index + 2;
		if (!response.usage) return;
		const tokens = tokensOf(response.usage);
		const cost = await this.costSince();
		// The rules keep what the response used in the store (recordUsage), named by its turn and step.
		const responseId = `${event.turnId}:${event.index}`;
		await this.handle({ type: "modelResponse", tokens, cost, responseId, ...(agent === null ? {} : { agent }) });
	}

	/** What the session cost since the last response: the engine's running total, read only while a budget is set. */
	private async costSince(): Promise<number> {
		if (this.live.state.standing === null) return 0;
		const { usd } = (await this.deps.engine().session.usage()).cost;
		const before = this.costSeen ?? usd;
		this.costSeen = usd;
		return Math.max(0, usd - before);
	}

	/**
	 * A tool call: refused once the run is stopped or wrapping up; while it runs, stopped (refused, which kills it) the
	 * moment the rules end the run. The main loop's last tool of a step carries what the model is to read at the next.
	 */
	async toolCall<E extends ToolCallEvent>(
		event: E,
		next: (event: E) => Promise<ToolCallAnswer>,
	): Promise<ToolCallAnswer> {
		const agent = this.agentOf(event);
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
		const ran = await this.whileRunning(next(event), agent);
		if (ran === STOPPED) return { deny: TOOL_STOPPED_REFUSAL };
		const result = this.withParentLines(event, ran);
		if (result.deny !== undefined) return result;
		const call = await this.nextCall(agent);
		return call === null ? result : withContext(result, call);
	}

	/**
	 * After a loop's tool: when it was the step's last, the loop's next call, counted now so that what its model is to
	 * read reaches it with this tool's result (Claude Code cannot add to the request a `turn.step` hooks); else null.
	 */
	private async nextCall(agent: string | null): Promise<Answer | null> {
		const loop = this.loopOf(agent);
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

	/** The tool's answer, or STOPPED when the run, or the subagent it runs in, is ended while it runs. */
	private whileRunning(
		pending: Promise<ToolCallAnswer>,
		agent: string | null,
	): Promise<ToolCallAnswer | typeof STOPPED> {
		return new Promise((resolve, reject) => {
			const stop = () => resolve(STOPPED);
			this.stoppers.set(stop, agent);
			pending.then(resolve, reject).finally(() => this.stoppers.delete(stop));
		});
	}

	/** An Agent tool call's result, with what the parent is to read of the subagent's end (stopped at its budget). */
	private withParentLines(event: { tool_use_id: string }, result: ToolCallAnswer): ToolCallAnswer {
		const lines = this.linesForParent.get(event.tool_use_id);
		if (lines === undefined) return result;
		this.linesForParent.delete(event.tool_use_id);
		return result.deny !== undefined ? result : { ...result, context: [...(result.context ?? []), ...lines] };
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
		const parent = event.parentAgentId === undefined ? null : this.keyOf(event.parentAgentId);
		const task = event.description || event.prompt;
		const answer = await this.handle({ type: "agentStart", agent: key, parent, agentType: event.subagentType, task });
		if (answer.refusal !== null) return { deny: answer.refusal };
		const told =
			answer.context.length === 0 ? event : { ...event, prompt: [event.prompt, ...answer.context].join("\n\n") };
		this.spawning.push(key);
		try {
			const started = await next(told);
			if (started.deny === undefined && started.agentId !== undefined) this.agents.set(started.agentId, key);
			return started;
		} finally {
			this.spawning.splice(this.spawning.indexOf(key), 1);
		}
	}

	/** The key of the subagent an event belongs to, or null for the main loop. */
	private agentOf(event: { agentId?: string }): string | null {
		return event.agentId === undefined ? null : this.keyOf(event.agentId);
	}

	/**
	 * A subagent's key by its loop's id. One that starts before its spawn returned is the one being spawned, when only
	 * one is; any other is known by its own id (the rules let an agent they never saw start run, and count its usage).
	 */
	private keyOf(agentId: string): string {
		const known = this.agents.get(agentId);
		if (known !== undefined) return known;
		const [only, ...others] = this.spawning;
		if (only === undefined || others.length > 0) return agentId;
		this.agents.set(agentId, only);
		return only;
	}

	/** The rules stopped a subagent: its running tools are stopped; its next request is answered with none. */
	private stopAgent(agent: string): void {
		this.stopped.add(agent);
		for (const [stop, runningIn] of [...this.stoppers]) if (runningIn === agent) stop();
	}

	/**
	 * A turn ended: the main loop's run is over, or a subagent's answer goes back to its parent, with what the parent
	 * is to read of how it ended (given with its Agent tool call's result).
	 */
	async turnComplete(event: TurnCompleteEvent): Promise<void> {
		const agent = this.agentOf(event);
		if (agent !== null) {
			const ended = await this.handle({ type: "agentEnd", agent, ...(event.answer ? { result: event.answer } : {}) });
			this.stopped.delete(agent);
			this.loops.delete(agent);
			if (ended.context.length > 0) this.linesForParent.set(agent, ended.context);
			return;
		}
		this.turnId = null;
		this.loopOf(null).toolsLeft = 0;
		await this.handle({ type: "runEnd" });
	}

	/** The rules end the run: running tools are stopped; a turn with none running (a response streaming) is aborted. */
	private abortRun(): void {
		if (this.stoppers.size > 0) {
			for (const stop of [...this.stoppers.keys()]) stop();
			this.stoppers.clear();
			return;
		}
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
		await this.writeDaily();
		await this.deps.store.flush();
	}
}

/** A tool's result with what the model is to read at the next step after it, unless that step is refused. */
function withContext(result: ToolCallAnswer & { deny?: undefined }, call: Answer): ToolCallAnswer {
	if (call.refusal !== null || call.context.length === 0) return result;
	return { ...result, context: [...(result.context ?? []), ...call.context] };
}
