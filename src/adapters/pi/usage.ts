// What a pi model call used, from its assistant message's `usage`: tokens and the cost pi worked out in US dollars; and
// whether the model in use reports a cost at all. pi's `Usage` holds `input` (the prompt read afresh), `output` (what
// the model wrote, its reasoning with it: pi's providers add a model's reasoning or thinking tokens to it), `cacheRead`
// and `cacheWrite`, each apart from the others: the core's `ResponseTokens` by the same names, so every one counts.

import { type CostReporting, type ResponseTokens, responseTokens } from "../../core/index.ts";

/** The part of pi's assistant message this file reads; anything missing or malformed counts as nothing used. */
export interface MessageWithUsage {
	role: string;
	timestamp?: unknown;
	usage?: unknown;
}

function numberIn(fields: unknown, key: string): number {
	if (typeof fields !== "object" || fields === null) return 0;
	const value = (fields as Record<string, unknown>)[key];
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** A count or amount pi reported: a positive finite number, anything else counts as nothing. */
function amount(value: unknown): number {
	return typeof value === "number" && value > 0 && value < Number.POSITIVE_INFINITY ? value : 0;
}

/** The fields of pi's `usage` this file reads: its counts of tokens, by the core's names, and its cost. */
interface UsageFields extends ResponseTokens {
	cost?: unknown;
}

const NO_USAGE: UsageFields = {};

function fieldsOf(usage: unknown): UsageFields {
	return typeof usage === "object" && usage !== null ? usage : NO_USAGE;
}

/**
 * The tokens of an assistant message's `usage` (input, output, cache read and cache write), as the core adds them. A
 * session's start reads every answer of the session with it, before the JIT has warmed up: pi's own object is handed
 * on, with no copy made.
 */
export function tokensOf(usage: unknown): number {
	return responseTokens(fieldsOf(usage));
}

/** The cost in US dollars of an assistant message's `usage`, as pi worked it out. */
export function costOf(usage: unknown): number {
	const cost = fieldsOf(usage).cost;
	return typeof cost === "object" && cost !== null ? amount((cost as { total?: unknown }).total) : 0;
}

/**
 * Tokens and cost of one assistant message, or null for any other message.
 * @example usageOf({ role: "assistant", usage: { input: 500, output: 100, cacheRead: 0, cacheWrite: 0, cost: { total: 0.006 } } }) // { tokens: 600, cost: 0.006 }
 */
export function usageOf(message: MessageWithUsage): { tokens: number; cost: number; at?: number } | null {
	if (message.role !== "assistant") return null;
	const tokens = tokensOf(message.usage);
	const cost = costOf(message.usage);
	return typeof message.timestamp === "number" ? { tokens, cost, at: message.timestamp } : { tokens, cost };
}

/** Whether a model's prices say it reports a cost: a model priced at zero (or not known) reports none. */
export function costReportingOf(model: { cost?: unknown } | undefined): CostReporting {
	const cost = model?.cost;
	const priced = ["input", "output", "cacheRead", "cacheWrite"].some((key) => numberIn(cost, key) > 0);
	return priced ? "reported" : "model reports none";
}

/**
 * What the subagents of one call of the subagent tool used, from the tool's `details` (pi's subagent example lists each
 * subagent's `usage` there: tokens in, out and from the cache, and the cost in dollars); null where it lists none.
 * @example usageOfSubagents({ results: [{ usage: { input: 500, output: 100, cacheRead: 0, cacheWrite: 0, cost: 0.01 } }] }) // { tokens: 600, cost: 0.01 }
 */
export function usageOfSubagents(details: unknown): { tokens: number; cost: number } | null {
	const results = typeof details === "object" && details !== null ? (details as { results?: unknown }).results : null;
	if (!Array.isArray(results) || results.length === 0) return null;
	let tokens = 0;
	let cost = 0;
	for (const result of results) {
		const usage = typeof result === "object" && result !== null ? (result as { usage?: unknown }).usage : null;
		tokens += tokensOf(usage);
		cost += numberIn(usage, "cost");
	}
	return { tokens, cost };
}
