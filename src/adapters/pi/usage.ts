// What a pi model call used, from its assistant message's `usage`: tokens (input, output, cache read and cache write)
// and the cost pi worked out in US dollars; and whether the model in use reports a cost at all.

import type { CostReporting } from "../../core/index.ts";

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

/**
 * Tokens and cost of one assistant message, or null for any other message.
 * @example usageOf({ role: "assistant", usage: { input: 500, output: 100, cacheRead: 0, cacheWrite: 0, cost: { total: 0.006 } } }) // { tokens: 600, cost: 0.006 }
 */
export function usageOf(message: MessageWithUsage): { tokens: number; cost: number; at?: number } | null {
	if (message.role !== "assistant") return null;
	const usage = message.usage;
	const tokens =
		numberIn(usage, "input") + numberIn(usage, "output") + numberIn(usage, "cacheRead") + numberIn(usage, "cacheWrite");
	const cost = numberIn(
		typeof usage === "object" && usage !== null ? (usage as { cost?: unknown }).cost : null,
		"total",
	);
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
		tokens +=
			numberIn(usage, "input") +
			numberIn(usage, "output") +
			numberIn(usage, "cacheRead") +
			numberIn(usage, "cacheWrite");
		cost += numberIn(usage, "cost");
	}
	return { tokens, cost };
}
