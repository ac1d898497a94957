// What a team's ledger sends and reads beyond the day at hand: the use this machine kept in its outbox while the store
// was down, sent to the days it belongs to, each entry once; and the last days the store still keeps, for the report
// page. Both go through the ledger's own calls, so the store's failures are handled (and said) in one place.

import { type DayUseRow, TEAM_DAYS_KEPT, TEAM_KEYS_OUTLIVE_S } from "../../core/index.ts";
import type { StoreReply } from "./bridge.ts";
import { type TeamConfig, teamDay } from "./config.ts";
import type { TeamOutbox } from "./outbox.ts";
import { amount, fields, listReply } from "./reading.ts";
import { dayKeys } from "./scripts.ts";

/** When a day's keys expire (epoch seconds): a day after the day ends (`dayEnd`, epoch ms). */
export function keysExpiry(dayEnd: number): number {
	return Math.ceil(dayEnd / 1000) + TEAM_KEYS_OUTLIVE_S;
}

/**
 * Sends the use kept in this machine's outbox (by any session of any host) to the team's days it belongs to, each
 * entry once; a day the store no longer keeps is let go. Stops at the first failure, the rest kept; an outbox that
 * fails is `lost`. Whether anything was added.
 */
export function sendKept(
	outbox: TeamOutbox,
	config: TeamConfig,
	now: number,
	send: (keys: string[], args: (string | number)[]) => StoreReply,
	lost: (error: unknown) => void,
): boolean {
	if (!outbox.waiting()) return false;
	let added = false;
	try {
		for (const batch of outbox.take()) {
			for (const entry of batch.entries) {
				const expiry = keysExpiry(entry.dayEnd);
				if (expiry * 1000 <= now) continue;
				const use = [entry.agentMs, entry.tokens, entry.cost, entry.prompts, entry.id];
				const reply = send(dayKeys(config.team, entry.day), [expiry, entry.session, entry.member, ...use]);
				if (!reply.ok) return added;
				added ||= reply.value === 1;
			}
			batch.sent();
		}
	} catch (error) {
		lost(error);
	}
	return added;
}

/**
 * The team's use of each of its last `count` days that its store still keeps, oldest first: today and yesterday
 * (a day's keys outlive it by one day, TEAM_KEYS_OUTLIVE_S); none while the store cannot be read. Today counts the
 * other sessions' reservations, as the standings do. `read` reads a day by its name.
 */
export function keptDays(count: number, zone: string, now: number, read: (day: string) => StoreReply): DayUseRow[] {
	const days: string[] = [];
	let day = teamDay(now, zone);
	for (let kept = 0; kept < Math.min(count, TEAM_DAYS_KEPT); kept++) {
		days.unshift(day.day);
		day = teamDay(day.start - 1, zone);
	}
	const rows: DayUseRow[] = [];
	for (const name of days) {
		const reply = read(name);
		if (!reply.ok) return [];
		const [useFields, , , reservedTokens, reservedCost] = listReply(reply.value);
		const use = fields(useFields);
		rows.push({
			day: name,
			agentMs: amount(use.get("agentMs")),
			prompts: amount(use.get("prompts")),
			tokens: amount(use.get("tokens")) + amount(reservedTokens),
			cost: amount(use.get("cost")) + amount(reservedCost),
		});
	}
	return rows;
}
