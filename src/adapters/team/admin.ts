// What a team's store holds beside the day's use, as steps of the team's day (team-day.ts): the admin's limits (`team
// set`), the day's raises (`today +…`, `today off`; where the store keeps no limits, the day's additions, which only a
// user that may write the limits may make either), the members' requests (`team ask`) and `/timebox team`'s view of
// them. A write the store refuses for this user (its ACL: a member's) or answers with an error changes nothing and says
// so (outage.ts tells which); it never falls back to this machine's ledger.

import {
	type DailyAdjustment,
	type DailyLimits,
	requestsAnswered,
	TEAM_ASKS_KEPT,
	type TeamView,
	type TeamWrite,
	teamAsksFull,
	teamStoreDidNotTake,
	teamStoreNotReached,
	teamViewRefused,
	teamViewUnreadable,
} from "../../core/index.ts";
import type { StoreReply } from "./client.ts";
import type { TeamConfig } from "./config.ts";
import { storeAnswer } from "./outage.ts";
import { asksOf, askText, fields, listReply, storedLimitsOf } from "./reading.ts";
import { adminKeys, dayKeys, type ScriptName } from "./scripts.ts";
import type { Step } from "./store-calls.ts";

/** How the team's writes reach the store, through the session's team's day. */
export interface AdminCalls {
	config: TeamConfig;
	/** This machine's zone (TIMEBOX_TEAM_TZ, else UTC): the team's, kept with the limits this machine sets. */
	zone: string;
	sessionId: string;
	now: number;
	/** The team's day now: its date, and when its keys expire (epoch seconds). */
	day: { day: string; expiry: number };
	/** One script, its error without the store's password; a store that answered with an error is not taken as down. */
	send(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): Step<StoreReply>;
}

/** What became of a write the store did not take: refused for this user, an error, or not reached. */
function notDone(calls: AdminCalls, error: string): TeamWrite {
	const answer = storeAnswer(error);
	if (answer === "refused") return "refused";
	const { shown } = calls.config;
	return { failed: answer === "error" ? teamStoreDidNotTake(shown, error) : teamStoreNotReached(shown, error, false) };
}

/** A write's reply: done, or what became of it. */
function written(calls: AdminCalls, reply: StoreReply): TeamWrite {
	return reply.ok ? "done" : notDone(calls, reply.error);
}

/** The first arguments of every script: the expiry of the day's keys, the session, the member. */
function common(calls: AdminCalls, expiry: number): (string | number)[] {
	return [expiry, calls.sessionId, calls.config.member];
}

/** The admin's limits and the day's open requests, or why they cannot be read. */
export function* viewTeam(calls: AdminCalls): Step<TeamView> {
	const { day, expiry } = calls.day;
	const reply = yield* calls.send("view", dayKeys(calls.config.team, day), common(calls, expiry));
	if (!reply.ok) {
		const { shown } = calls.config;
		const answer = storeAnswer(reply.error);
		if (answer === "refused") return { unreadable: teamViewRefused(shown, reply.error) };
		if (answer === "error") return { unreadable: teamViewUnreadable(shown, reply.error) };
		return { unreadable: teamStoreNotReached(shown, reply.error, true) };
	}
	const [limits, asks] = listReply(reply.value);
	return { stored: storedLimitsOf(fields(limits)), asks: asksOf(fields(asks)) };
}

/** Sets the team's limits (null: removes them), set by this member now. */
export function* setLimits(calls: AdminCalls, limits: DailyLimits | null): Step<TeamWrite> {
	const values =
		limits === null
			? ["off", "", "", ""]
			: [limits.timeMs, limits.turns, limits.tokens, limits.cost].map((v) => v ?? "");
	const args = [...common(calls, 0), ...values, calls.now, calls.zone];
	return written(calls, yield* calls.send("limits", [adminKeys(calls.config.team, calls.day.day).limits], args));
}

/**
 * Raises the day's limits in the store (or ends them for the day), answering the open requests it covers. The raises
 * are the admin's key, which a member's ACL makes read-only, whether the store keeps the team's limits or each
 * machine's own limits are the team's.
 */
function* raise(calls: AdminCalls, adjustment: DailyAdjustment): Step<StoreReply> {
	const view = yield* viewTeam(calls);
	const answered = "unreadable" in view ? [] : requestsAnswered(view.asks, adjustment);
	const { day, expiry } = calls.day;
	const { addTimeMs, addPrompts, addTokens, addCost, off } = adjustment;
	const keys = [adminKeys(calls.config.team, day).raise, dayKeys(calls.config.team, day)[5] as string];
	const args = [...common(calls, expiry), addTimeMs, addPrompts, addTokens, addCost, off ? 1 : 0, ...answered];
	return yield* calls.send("raise", keys, args);
}

/**
 * Raises the team's day (of the limits in its store, or of each machine's own limits as the team's), as the admin's
 * raise: what became of it.
 */
export function* raiseDay(calls: AdminCalls, adjustment: DailyAdjustment): Step<TeamWrite> {
	return written(calls, yield* raise(calls, adjustment));
}

/** Records this member's request for more of today's budget. */
export function* askMore(calls: AdminCalls, adjustment: DailyAdjustment, why: string): Step<TeamWrite> {
	const { day, expiry } = calls.day;
	// Two requests of one session in one millisecond are two requests: the id is never one another request has.
	const id = `${calls.now}-${calls.sessionId}-${Math.random().toString(36).slice(2, 10)}`;
	const text = askText(calls.config.member, adjustment, why, calls.now);
	const args = [...common(calls, expiry), id, text, TEAM_ASKS_KEPT];
	const reply = yield* calls.send("ask", dayKeys(calls.config.team, day), args);
	if (reply.ok && reply.value === 0) return { failed: teamAsksFull(TEAM_ASKS_KEPT) };
	return written(calls, reply);
}
