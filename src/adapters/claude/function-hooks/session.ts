// One Claude Code session on the core's live session: each engine event becomes one session event, and the answer
// becomes what the engine takes (a dropped prompt, context beside the prompt or after a tool's result, a step answered
// with no request, a denied tool). It remembers only what the engine does not say twice: the running turn, the prompt
// the run belongs to, the tools still running and how to stop them. No rule lives here.

import type { Clock, HostTerms, SessionEvent, SettingSources } from "../../../core/index.ts";
import { type Answer, DEFAULT_ENV, LiveSession } from "../../../core/index.ts";
import type { ModuleDailyLedger } from "./daily.ts";
import type {
	Engine,
	PromptSubmitAnswer,
	PromptSubmitEvent,
	StepUsage,
	ToolCallAnswer,
	TurnStepAnswer,
	TurnStepEvent,
} from "./engine.ts";
import { engineOnStop } from "./on-stop.ts";
import type { ModuleStore } from "./store.ts";
import { engineScheduler } from "./time.ts";
import { ModuleUI } from "./ui.ts";

/** A prompt whose place in the day's budget another session took while it was counted. */
export const DAILY_TAKEN = "Timebox: another session took today's last prompt just now, so this prompt was not sent.";
/** What the model reads of a tool stopped while it ran (the person reads the stop's own notice). */
export const TOOL_STOPPED = "Timebox stopped this tool: the session's budget ran out while it ran. Run no more tools.";

/** What a session takes from the outside world. */
export interface SessionDeps {
	/** The `$` of the latest hook: every call on the engine goes through it. */
	engine: () => Engine;
	clock: Clock;
	newId: () => string;
	terms: HostTerms;
	store: ModuleStore;
	/** The daily ledger every session of the user shares, when a daily budget is set. */
	daily?: ModuleDailyLedger;
}

/** What the session reads when it opens: a default budget, the daily budgets, and whether a person is at the prompt. */
export interface OpenSettings {
	defaultBudget: string | undefined;
	daily: string | undefined;
}

/** The tokens of one response, every kind counted. */
export function tokensOf(usage: StepUsage): number {
	const counts = [
		usage.input_tokens,
		usage.output_tokens,
		usage.cache_read_input_tokens,
		usage.cache_creation_input_tokens,
	];
	return counts.reduce((sum, count) => sum + (Number.isFinite(count) && count > 0 ? count : 0), 0);
}

/** A step answered in place of its request: an empty answer that ends the turn. */
export function noRequest(event: TurnStepEvent): TurnStepAnswer {
	return { turnId: event.turnId, index: event.index, answer: "", toolUses: [], stopReason: "end_turn", usage: null };
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
	/** The main loop's tools of the last step still to end, and the number of the step that follows them. */
	private toolsLeft = 0;
	private nextStep = 1;
	/** Settles each running tool's race as stopped. */
	private readonly stoppers = new Set<() => void>();
	/** The session's cost at the last response, read from the engine (null until first read). */
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
			abortRun: () => this.abortRun(),
			newBudgetId: deps.newId,
			terms: deps.terms,
			...(deps.daily ? { daily: deps.daily } : {}),
		});
	}

	/** The daily ledger's writes, in order: an event reads the day's files after the writes before it. */
	private dailyWrites: Promise<boolean> = Promise.resolve(true);

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

	/** Writes what the rules wrote to the daily ledger: false when a prompt counted there was taken meanwhile. */
	private writeDaily(): Promise<boolean> {
		const daily = this.deps.daily;
		if (!daily) return this.dailyWrites;
		this.dailyWrites = this.dailyWrites.then(() => daily.settle());
		return this.dailyWrites;
	}

	/** Loads the session's budget, or the default budget where none was ever set. */
	load(settings: OpenSettings): void {
		const text = settings.defaultBudget?.trim();
		const daily = settings.daily?.trim();
		const sources: SettingSources = daily ? { daily: [{ value: daily, source: "TIMEBOX_DAILY", scope: "user" }] } : {};
		this.live.load("continue", true, text ? { text, source: DEFAULT_ENV } : null, sources);
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
		const counted = await this.writeDaily();
		if (answer.refusal !== null) return { drop: said.length > 0 ? said.join("\n") : answer.refusal };
		this.ui.tell(said);
		if (!counted) return { drop: DAILY_TAKEN };
		if (!joining) {
			this.prompt = key;
			this.deps.store.appendPrompt(key);
		}
		return next(
			answer.context.length === 0 ? event : { ...event, context: [...(event.context ?? []), ...answer.context] },
		);
	}

	/**
	 * Before a model request: a step of the prompt's run, or its refusal (the step is answered with no request, which
	 * ends the turn). A subagent's request is a step of the run that started it: refused once that run is stopped.
	 */
	async beforeStep(event: TurnStepEvent): Promise<string | null> {
		const main = event.agentId === undefined;
		if (main) this.turnId = event.turnId;
		const sessionEvent: SessionEvent = !main
			? { type: "toolCall", prompt: null }
			: this.prompt === null
				? { type: "modelCall", prompt: null }
				: { type: "modelCall", prompt: this.prompt, step: event.index + 1 };
		// What the model is to read of this step went with the prompt, or after the tools before it.
		const answer = await this.handle(sessionEvent);
		return answer.refusal;
	}

	/** After a model response: what it used; for the main loop, the tools it asked for, before the next step. */
	async afterStep(event: TurnStepEvent, response: TurnStepAnswer): Promise<void> {
		if (event.agentId === undefined) {
			this.toolsLeft = response.toolUses.length;
			this.nextStep = event.index + 2;
		}
		if (!response.usage) return;
		const tokens = tokensOf(response.usage);
		const cost = await this.costSince();
		this.deps.store.appendUsage(tokens, cost);
		await this.handle({ type: "modelResponse", tokens, cost });
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
	async toolCall<E extends { agentId?: string }>(
		event: E,
		next: (event: E) => Promise<ToolCallAnswer>,
	): Promise<ToolCallAnswer> {
		const main = event.agentId === undefined;
		const prompt = main ? this.prompt : null;
		const before = await this.handle({ type: "toolCall", prompt });
		if (before.refusal !== null) return { deny: before.refusal };
		const result = await this.whileRunning(next(event));
		if (result === STOPPED) return { deny: TOOL_STOPPED };
		if (!main || result.deny !== undefined || this.toolsLeft === 0 || --this.toolsLeft > 0) return result;
		const call = await this.handle({ type: "modelCall", prompt: this.prompt, step: this.nextStep });
		return withContext(result, call);
	}

	/** The tool's answer, or STOPPED when the run is ended while it runs. */
	private whileRunning(pending: Promise<ToolCallAnswer>): Promise<ToolCallAnswer | typeof STOPPED> {
		return new Promise((resolve, reject) => {
			const stop = () => resolve(STOPPED);
			this.stoppers.add(stop);
			pending.then(resolve, reject).finally(() => this.stoppers.delete(stop));
		});
	}

	/** The main loop's turn ended: the run is over. */
	async turnComplete(event: { agentId?: string }): Promise<void> {
		if (event.agentId !== undefined) return;
		this.turnId = null;
		this.toolsLeft = 0;
		await this.handle({ type: "runEnd" });
	}

	/** The rules end the run: running tools are stopped; a turn with none running (a response streaming) is aborted. */
	private abortRun(): void {
		if (this.stoppers.size > 0) {
			for (const stop of [...this.stoppers]) stop();
			this.stoppers.clear();
			return;
		}
		const turnId = this.turnId;
		if (turnId === null) return;
		this.deps
			.engine()
			.turn.abort({ turnId })
			.catch(() => {
				// The turn ended meanwhile: nothing is left to stop.
			});
	}

	/** The session ends: its timers stop, and every change is written. */
	async close(): Promise<void> {
		this.live.dispose();
		await this.writeDaily();
		await this.deps.store.flush();
	}
}

/** A tool's result with what the model is to read at the next step after it, unless that step is refused. */
function withContext(result: ToolCallAnswer, call: Answer): ToolCallAnswer {
	if (call.refusal !== null || call.context.length === 0 || result.deny !== undefined) return result;
	return { ...result, context: [...(result.context ?? []), ...call.context] };
}
