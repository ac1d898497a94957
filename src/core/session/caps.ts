// The cap on a model call's answer under a `tokens:` or `cost:` budget, the session's or a subagent's: what is left of
// the budget less a bound on the call's input, at the model's prices for cost. The input of a call cannot be capped; it
// is bounded by the prompt the latest answer reported plus one token per byte of what was added since (no tokenizer
// makes more tokens than bytes), plus what Timebox adds itself. A call whose room is under a minimal answer is not sent.

import { MIN_ANSWER_TOKENS, NOTE_ALLOWANCE_BYTES } from "../constants.ts";
import type { Decision, Spend, TimeboxBudget } from "../model/budget.ts";
import type { Effect, ModelRequest } from "../model/events.ts";
import { safeAmount } from "../model/measure.ts";

/** The limits a cap heeds: a session's budget or a subagent's. */
export interface SpendLimits {
	readonly tokenLimit?: number;
	readonly costLimit?: number;
}

/** The output tokens a call may use, and the limit that allows no more. */
export interface Room {
	tokens: number;
	limit: "tokens" | "cost";
}

const PER_MILLION = 1_000_000;

/** What `capsInForce` reads of a session: its budget in force, and its subagents' budgets (set, and running). */
export interface CappedSession {
	readonly standing: { readonly budget: SpendLimits } | null;
	readonly subagents: {
		readonly budgets: { readonly byType: Readonly<Record<string, { readonly budget: SpendLimits }>> } | null;
		readonly runs: Readonly<Record<string, { readonly budget: SpendLimits | null }>>;
	};
}

/**
 * Whether a model call's request matters to the rules: a budget of tokens or cost is in force, the session's or a
 * subagent's (one set for new subagents, or a running one's). Without one, a host need not measure the request, nor
 * look up the model's prices and limits for it.
 */
export function capsInForce(session: CappedSession): boolean {
	const spends = (limits: SpendLimits | null | undefined) =>
		limits?.tokenLimit !== undefined || limits?.costLimit !== undefined;
	if (spends(session.standing?.budget)) return true;
	const set = Object.values(session.subagents.budgets?.byType ?? {});
	return (
		set.some((entry) => spends(entry.budget)) || Object.values(session.subagents.runs).some((run) => spends(run.budget))
	);
}

/** The most input tokens the call can carry: the latest answer's prompt, a token per byte added since, Timebox's notes. */
export function inputBound(request: ModelRequest): number {
	return safeAmount(request.answeredInput ?? 0) + safeAmount(request.addedBytes) + NOTE_ALLOWANCE_BYTES;
}

/**
 * The output tokens a call may use without passing `limits` after `spend`: the tokens left less the input bound, and the
 * dollars left less the input at the model's dearest input price (a cache that expired is written again), at its output
 * price. Null where neither limit can be reckoned (no limit, or a cost limit with no prices).
 */
export function roomLeft(limits: SpendLimits, spend: Spend, request: ModelRequest): Room | null {
	const bound = inputBound(request);
	let room: Room | null = null;
	if (limits.tokenLimit !== undefined) {
		room = { tokens: Math.floor(limits.tokenLimit - safeAmount(spend.tokens) - bound), limit: "tokens" };
	}
	const prices = request.prices;
	if (limits.costLimit === undefined || prices === undefined) return room;
	const inputPrice = Math.max(safeAmount(prices.input), safeAmount(prices.cacheRead), safeAmount(prices.cacheWrite));
	const outputPrice = safeAmount(prices.output);
	// A model priced at nothing costs nothing: its cost limit is never reached (and said so when it was set).
	if (inputPrice === 0 && outputPrice === 0) return room;
	const left = limits.costLimit - safeAmount(spend.cost) - (bound * inputPrice) / PER_MILLION;
	// The smaller count that keeps the cost within the limit, a hair under so that the host's own sum cannot round past.
	const tokens =
		left < 0 ? -1 : outputPrice === 0 ? Number.MAX_SAFE_INTEGER : Math.floor((left * PER_MILLION) / outputPrice - 1e-6);
	return room === null || tokens < room.tokens ? { tokens, limit: "cost" } : room;
}

/** The main agent's key among the calls in flight (a subagent's is its id). */
export const MAIN_AGENT = "";

/**
 * What a budget has used, and holds back for each agent's call in flight (sent, not answered yet) at the most that call
 * may use: a call sent meanwhile (a subagent's, while the call of its parent's that started it is open) heeds both.
 */
export interface Holding {
	readonly spend: Spend;
	readonly inFlight?: Readonly<Record<string, Spend>>;
}

/** What is used, with what the calls in flight of every agent but `agent` may still use. */
export function spendBeside(holding: Holding, agent: string): Spend {
	let { tokens, cost } = holding.spend;
	for (const [key, most] of Object.entries(holding.inFlight ?? {})) {
		if (key === agent) continue;
		tokens += most.tokens;
		cost += most.cost;
	}
	return { tokens, cost };
}

/** The most a call may use: its input at its bound and its answer at its cap, and what they cost at the dearest prices. */
export function mostUsed(request: ModelRequest, cap: number): Spend {
	const bound = inputBound(request);
	const prices = request.prices;
	const cost = prices
		? (bound * Math.max(prices.input, prices.cacheRead, prices.cacheWrite) + cap * prices.output) / PER_MILLION
		: 0;
	return { tokens: bound + cap, cost };
}

/** The holding with `agent`'s call in flight at `most`, or with none (its answer came). */
export function withInFlight<T extends Holding>(holding: T, agent: string, most: Spend | null): T {
	const { [agent]: _answered, ...others } = holding.inFlight ?? {};
	return { ...holding, inFlight: most === null ? others : { ...others, [agent]: most } };
}

/** Whether a call with this room is not sent: it cannot hold a minimal answer. */
export function tooLittleRoom(room: Room | null): room is Room {
	return room !== null && room.tokens < MIN_ANSWER_TOKENS;
}

/**
 * The decision for a model call about to be sent, once its room is known: a budget not spent otherwise is spent here
 * when the call cannot hold a minimal answer (`stopHere` builds that stop); any other decision stands.
 */
export function withRoom(
	decision: Decision,
	budget: TimeboxBudget,
	holding: Holding,
	request: ModelRequest | undefined,
	stopHere: (limit: Room["limit"]) => Decision,
	agent = MAIN_AGENT,
): Decision {
	if (decision.kind === "stop" || request === undefined) return decision;
	const room = roomLeft(budget, spendBeside(holding, agent), request);
	return tooLittleRoom(room) ? stopHere(room.limit) : decision;
}

/**
 * The cap effect for this room, if any; never under a minimal answer, since a call that goes has room for one (the rules
 * stop one that has not) and a call after its budget is spent by design gets one.
 */
export function capEffect(room: number | null): Effect[] {
	return room === null ? [] : [{ kind: "capOutput", maxTokens: Math.max(room, MIN_ANSWER_TOKENS) }];
}

/** Whether an event's effects refuse its call outright (a refusal or an abort; a question may still let it go). */
export function refusesCall(effects: readonly Effect[]): boolean {
	return effects.some((effect) => effect.kind === "refuse" || effect.kind === "abort");
}

/** Whether an event's effects let its call go (no refusal, abort or question): only such a call gets a cap. */
export function callGoes(effects: readonly Effect[]): boolean {
	return !refusesCall(effects) && !effects.some((effect) => effect.kind === "ask");
}
