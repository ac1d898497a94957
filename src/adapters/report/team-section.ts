// The report page's part of a team's store: the limits its admin keeps there, who set them and when, and the members'
// open requests, as tables, with what `/timebox team` says. Shown by `npm run report` with a team's store set, and by
// `/timebox report page` in a session that counts in one.

import {
	type DailyStanding,
	type DailyTeam,
	describeAdded,
	formatCost,
	formatTime,
	formatTokens,
	type StoredLimits,
	type TeamAsk,
	type TeamView,
	teamReport,
	teamTime,
} from "../../core/index.ts";
import { escapeHtml, table } from "./tables.ts";

/** A team's store on the page: its name, the admin's limits (null: none), the open requests, `/timebox team`'s text. */
export interface TeamPageData {
	name: string;
	stored: StoredLimits | null;
	asks: TeamAsk[];
	text: string;
}

/** A team's store on the page, or nothing where it cannot be read. */
export function teamPageData(
	team: DailyTeam,
	view: TeamView,
	standings: readonly DailyStanding[],
	/** Why today could not be read (`dayUnread`), or null. */
	unread: string | null = null,
): TeamPageData | undefined {
	if ("unreadable" in view) return undefined;
	const text = teamReport(team, view, standings, unread);
	return { name: team.name, stored: view.stored, asks: [...view.asks], text };
}

/** The admin's limits, a row each, with who set them and when. */
function limitsTable(stored: StoredLimits): string {
	const { limits } = stored;
	const rows: string[][] = [];
	if (limits.timeMs !== null) rows.push(["Agent time", formatTime(limits.timeMs)]);
	if (limits.turns !== null) rows.push(["Turns", String(limits.turns)]);
	if (limits.tokens !== null) rows.push(["Tokens", formatTokens(limits.tokens)]);
	if (limits.cost !== null) rows.push(["Cost", formatCost(limits.cost)]);
	rows.push(["Set by", stored.setBy], ["Set on", teamTime(stored.setAt)]);
	return table("The team's limits, a day", ["Limit", "Value"], rows);
}

/** The open requests, oldest first. */
function asksTable(asks: readonly TeamAsk[]): string {
	const rows = asks.map((ask) => [teamTime(ask.at), ask.member, describeAdded(ask.adjustment), ask.why]);
	return table("Open requests", ["Asked", "Member", "For", "Why"], rows);
}

/** The team's section of the page; nothing without a team's store. */
export function teamSection(team: TeamPageData | undefined): string {
	if (team === undefined) return "";
	const limits =
		team.stored === null
			? `<p class="empty">${escapeHtml("Its store keeps no limits: each machine's TIMEBOX_DAILY is the team's.")}</p>`
			: limitsTable(team.stored);
	const asks =
		team.asks.length === 0 ? `<p class="empty">${escapeHtml("No open requests.")}</p>` : asksTable(team.asks);
	const text = `<h3>What ${escapeHtml("/timebox team")} says</h3><pre class="report">${escapeHtml(team.text)}</pre>`;
	return `<section id="team"><h2>The team ${escapeHtml(team.name)}</h2>${limits}${asks}${text}</section>`;
}
