// The team's store's replies as values: a hash's `[field, value, …]` as a map, its amounts, the admin's limits, a day's
// additions and raises, and the members' open requests. What Redis holds may have been written by hand: a value that
// cannot be read counts as none, and nothing here throws.

import type {
	DailyAdjustment,
	DailyLimits,
	DailyMember,
	StoredLimits,
	TeamAsk,
	TeamDayReading,
} from "../../core/index.ts";

/** A flat `[field, value, …]` reply as a map. */
export function fields(value: unknown): Map<string, string> {
	const map = new Map<string, string>();
	const flat = Array.isArray(value) ? value : [];
	for (let index = 0; index + 1 < flat.length; index += 2) map.set(String(flat[index]), String(flat[index + 1]));
	return map;
}

/** A script's reply that is a list, or an empty one. */
export function listReply(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

/** A positive amount, or 0. */
export function amount(text: unknown): number {
	const value = Number(text);
	return Number.isFinite(value) && value > 0 ? value : 0;
}

/** A positive limit, or null for none. */
function limit(text: string | undefined): number | null {
	const value = amount(text);
	return value > 0 ? value : null;
}

/** The admin's limits as the store keeps them, or null when it keeps none (or none that can be read). */
export function storedLimitsOf(hash: Map<string, string>): StoredLimits | null {
	const limits: DailyLimits = {
		timeMs: limit(hash.get("timeMs")),
		turns: limit(hash.get("turns")),
		tokens: limit(hash.get("tokens")),
		cost: limit(hash.get("cost")),
	};
	if (limits.timeMs === null && limits.turns === null && limits.tokens === null && limits.cost === null) return null;
	return { limits, setBy: hash.get("by") ?? "someone", setAt: amount(hash.get("at")) };
}

/** A day's additions (or the admin's raises) as the store keeps them. */
export function adjustmentOf(hash: Map<string, string>): DailyAdjustment {
	return {
		addTimeMs: amount(hash.get("addTimeMs")),
		addPrompts: amount(hash.get("addPrompts")),
		addTokens: amount(hash.get("addTokens")),
		addCost: amount(hash.get("addCost")),
		off: hash.get("off") === "1",
	};
}

/** A request as the store keeps it (its JSON), or null. */
function askOf(id: string, text: string): TeamAsk | null {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return null;
	}
	if (typeof value !== "object" || value === null) return null;
	const ask = value as Record<string, unknown>;
	return {
		id,
		member: typeof ask.member === "string" ? ask.member : "someone",
		adjustment: { ...adjustmentOf(new Map(Object.entries(ask).map(([k, v]) => [k, String(v)]))), off: false },
		why: typeof ask.why === "string" ? ask.why : "",
		at: amount(ask.at),
	};
}

/** The day's open requests, oldest first; a request that cannot be read is left out. */
export function asksOf(hash: Map<string, string>): TeamAsk[] {
	const asks: TeamAsk[] = [];
	for (const [id, text] of hash) {
		const ask = askOf(id, text);
		if (ask !== null) asks.push(ask);
	}
	return asks.sort((a, b) => a.at - b.at);
}

/** A request as the store keeps it: its JSON. */
export function askText(member: string, adjustment: DailyAdjustment, why: string, at: number): string {
	const { addTimeMs, addPrompts, addTokens, addCost } = adjustment;
	return JSON.stringify({ member, addTimeMs, addPrompts, addTokens, addCost, why, at });
}

/** The read script's reply as today's reading: the use (reservations and members among it), limits and raises. */
export function dayReading(value: unknown, dayStart: number): TeamDayReading {
	const [useFields, whoFields, sessions, reservedTokens, reservedCost, limits, raise] = listReply(value);
	const use = fields(useFields);
	const members: DailyMember[] = [...fields(whoFields)].map(([name, count]) => ({ name, sessions: amount(count) }));
	members.sort((a, b) => a.name.localeCompare(b.name));
	return {
		use: {
			agentMs: amount(use.get("agentMs")),
			prompts: amount(use.get("prompts")),
			// The model calls other sessions are making count as what they reserved, until their answers settle them.
			tokens: amount(use.get("tokens")) + amount(reservedTokens),
			cost: amount(use.get("cost")) + amount(reservedCost),
			sessions: amount(sessions),
			members,
		},
		stored: storedLimitsOf(fields(limits)),
		raise: adjustmentOf(fields(raise)),
		dayStart,
	};
}
