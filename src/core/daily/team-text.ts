// What the user reads of a team's store beside its day: `/timebox team` (the admin's limits, who set them and when,
// today's use, the open requests), the replies to `team set` and `team ask`, and why the store did not take a write.

import type { DailyAdjustment, DailyTeam, StoredLimits, TeamAsk } from "../model/daily.ts";
import type { DailyStanding } from "./daily-budget.ts";
import { describeDaily, todayLine } from "./daily-text.ts";

/** Where a team's budget from its store says it was set, in `/timebox today` and on the report page. */
export const STORE_SOURCE = "set in its store";

export { NO_TEAM } from "../text/messages.ts";

/** A member's `today +…`, `today off` or `team set`, which the store refused for this user. */
export const ADMIN_ONLY =
	"Timebox: only the team's admin can change its budget (the store refused this user). Ask with /timebox team ask +30m <why>.";

/** A request the store refused for this user (its user may not write the team's day). */
export const ASK_REFUSED =
	"Timebox: the team's store refused to record the request for this user (it may not write the team's day). Nothing was asked.";

/** What became of a write the store did not take, as the user reads it; null when it was done. */
export function teamWriteRefusal(write: "done" | "refused" | { failed: string }, asking: boolean): string | null {
	if (write === "done") return null;
	if (write === "refused") return asking ? ASK_REFUSED : ADMIN_ONLY;
	return write.failed;
}

/** A write that was not sent to the team's store (`why`: the way to it failed, or a write before it was not done). */
export function teamWriteNotSent(why: string): string {
	return `Timebox: the team's daily store did not get it (${why}). Nothing changed.`;
}

/** The store (`shown`, without its password) answered a write with an error (`why`): nothing changed. */
export function teamStoreDidNotTake(shown: string, why: string): string {
	return `Timebox: the team's daily store ${shown} did not take it (${why}). Nothing changed.`;
}

/** The store cannot be reached (`why`) for a write, or for `/timebox team`: nothing changed, nothing shown. */
export function teamStoreNotReached(shown: string, why: string, showing: boolean): string {
	const what = showing ? "so the team cannot be shown" : "so nothing changed";
	return `Timebox: the team's daily store ${shown} cannot be reached (${why}), ${what}.`;
}

/** The store (`shown`) refused this user the read of `/timebox team` (`why`, its answer): said as such, not as an outage. */
export function teamViewRefused(shown: string, why: string): string {
	return `Timebox: the team's daily store ${shown} refused this user (${why}), so the team cannot be shown (docs/team.md gives a member's ACL).`;
}

/**
 * The store (`shown`) answered the read of `/timebox team` with an error (`why`: a key of the wrong type, a script that
 * failed): said as what it is, not as an outage.
 */
export function teamViewUnreadable(shown: string, why: string): string {
	return `Timebox: the team could not be read from its daily store ${shown} (${why}), so the team cannot be shown.`;
}

/** `2026-05-02 09:14 UTC`: an instant, as the team's messages give it. */
export function teamTime(ms: number): string {
	const iso = new Date(ms).toISOString();
	return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `30m of agent time and 20 turns`: what a raise or a request adds. */
export function describeAdded(adjustment: DailyAdjustment): string {
	const some = (value: number) => (value > 0 ? value : null);
	return describeDaily(
		{
			timeMs: some(adjustment.addTimeMs),
			turns: some(adjustment.addPrompts),
			tokens: some(adjustment.addTokens),
			cost: some(adjustment.addCost),
		},
		true,
	);
}

/** The reply to `team set <limits>`. */
export function teamLimitsSet(
	team: DailyTeam,
	stored: Pick<StoredLimits, "limits">,
	notes: readonly string[] = [],
): string {
	const replaced = notes.map((note) => `\n${note}`).join("");
	return `Timebox: the team ${team.name}'s limits are now ${describeDaily(stored.limits, true)} a day, in its store, for every member from their next check.${replaced}`;
}

/**
 * What of today new limits leave in force (`team set`'s notes): the admin's raise of the team's day, or the day turned
 * off, which are today's alone and outlast a change of the limits until midnight.
 */
export function keptToday(standings: readonly DailyStanding[]): string[] {
	const day = standings.find((standing) => standing.budget.team !== undefined && standing.budget.personal !== true);
	if (day === undefined) return [];
	if (day.adjustment.off)
		return ["The team's day is off until midnight (/timebox today off): they count from tomorrow."];
	const added = describeAdded(day.adjustment);
	return added === "" ? [] : [`Today's raise of ${added} still holds on top of them until midnight.`];
}

/** The reply to `team set off`. */
export function teamLimitsRemoved(team: DailyTeam): string {
	return `Timebox: the team ${team.name}'s limits are removed from its store: each machine's own daily budget (TIMEBOX_DAILY) is the team's again.`;
}

/** The reply to `team set off` where the store was read to keep no limits. */
export function teamHadNoLimits(team: DailyTeam): string {
	return `Timebox: the team ${team.name}'s store keeps no limits, so there were none to remove: each machine's own daily budget (TIMEBOX_DAILY) is the team's.`;
}

/** The reply to `team ask`: what was asked, and how the admin grants it (`grant`: the words to add, `+30m`). */
export function teamAsked(team: DailyTeam, adjustment: DailyAdjustment, why: string, grant: string): string {
	const reason = why === "" ? "" : ` (${JSON.stringify(why)})`;
	return `Timebox: asked the team ${team.name}'s admin for ${describeAdded(adjustment)}${reason}. The admin sees it in /timebox team, and grants it with /timebox today ${grant}.`;
}

/** The line of the admin's limits, or of their absence. */
function limitsLine(team: DailyTeam, stored: StoredLimits | null): string {
	if (stored === null) {
		return `Timebox team ${team.name}: its store keeps no limits, so each machine's own daily budget (TIMEBOX_DAILY) is the team's. An admin sets them with /timebox team set 4h turns:200 $50.`;
	}
	const limits = describeDaily(stored.limits, true);
	return `Timebox team ${team.name}: ${limits} a day, set by ${stored.setBy} on ${teamTime(stored.setAt)}.`;
}

/** One open request, as a line of the list. */
function askLine(ask: TeamAsk): string {
	const reason = ask.why === "" ? "" : `: ${JSON.stringify(ask.why)}`;
	return `- ${ask.member} at ${teamTime(ask.at).slice(11)} asks for ${describeAdded(ask.adjustment)}${reason}`;
}

/**
 * `/timebox team`: the admin's limits, who set them and when; today's use of the team's budgets that cover this
 * session (`standings`); and the members' open requests, oldest first.
 */
export function teamReport(
	team: DailyTeam,
	view: { stored: StoredLimits | null; asks: readonly TeamAsk[] },
	standings: readonly DailyStanding[],
	unread: string | null = null,
): string {
	const today = standings.filter((standing) => standing.budget.team !== undefined).map(todayLine);
	const lines = [limitsLine(team, view.stored)];
	// A day that could not be read is not an empty one: the standings are this machine's stand-ins, not the team's.
	if (unread !== null) lines.push(teamDayUnreadLine(unread));
	else lines.push(...(today.length > 0 ? today : ["No daily budget of the team covers this session today."]));
	const asks = [...view.asks].sort((a, b) => a.at - b.at);
	if (asks.length === 0) lines.push("No open requests.");
	else lines.push(`Open requests (${asks.length}):`, ...asks.map(askLine));
	return lines.join("\n");
}

/** `/timebox today` on a team's machine that sets no daily budget, while the team's store keeps no limits. */
export function noTeamLimitsHere(team: DailyTeam): string {
	return `The team ${team.name}'s store keeps no limits either: /timebox team shows it.`;
}

/** Why the team's day could not be read: its store (`shown`, where known) and its answer or failure (`why`). */
export function teamDayUnread(why: string, shown?: string): string {
	return `today's use could not be read from the team's daily store${shown ? ` ${shown}` : ""} (${why})`;
}

/** Why the team's day could not be read where its store (`shown`) refused this user the read (`why`, its answer). */
export function teamDayRefused(why: string, shown: string): string {
	return `the team's daily store ${shown} would not let this user read today's use (${why})`;
}

/** `/timebox team`'s line for today where the team's day could not be read (`unread`). */
export function teamDayUnreadLine(unread: string): string {
	return `${unread.charAt(0).toUpperCase()}${unread.slice(1)}, so the team's standing today is not known.`;
}

/** A daily command answered while the team's day could not be read (`unread`): nothing of it is done. */
export function teamDayUnknown(unread: string, changing: boolean): string {
	return `Timebox: ${unread}, so the team's standing today is not known.${changing ? " Nothing changed." : ""}`;
}

/**
 * `/timebox today` while the team's day could not be read (`unread`), where the session's own daily budget holds it on
 * this machine meanwhile: said before that budget's standing, which is this machine's, not the team's.
 */
export function teamDayUnknownHere(unread: string): string {
	return `Timebox: ${unread}, so the team's standing today is not known. Meanwhile this machine's own daily budget holds this session:`;
}

/**
 * Said once where this machine's zone (`own`: TIMEBOX_TEAM_TZ, else UTC) is not the one the team's admin keeps with its
 * limits (`zone`): the team's day is the admin's, on every machine.
 */
export function teamZoneOfStore(team: string, zone: string, own: string): string {
	return `Timebox: the team ${team}'s day starts at midnight ${zone}, the time zone its admin keeps with its limits; this machine's (${own}, from TIMEBOX_TEAM_TZ or UTC) is not used.`;
}

/** A request the team's day cannot take: it holds `count` open requests already. */
export function teamAsksFull(count: number): string {
	return `Timebox: the team's day holds ${count} open requests already, so this one was not recorded. Ask the admin directly.`;
}
