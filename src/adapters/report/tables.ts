// The report page's tables, as HTML written with the page: the figures of each chart beside it, for screen readers,
// for copying, and for a browser with JavaScript off. Every figure is written by the core's own formatters, so it
// reads as `/timebox report` and `/timebox today` print it.

import {
	type BudgetData,
	type DailyLimits,
	type DailyMember,
	type DayUseRow,
	formatCost,
	formatLeftMs,
	formatTime,
	formatTokens,
	measuredEnough,
	type Percentiles,
	type ReportData,
	type SubagentData,
	type SuggestedFigures,
	type TodayData,
} from "../../core/index.ts";

/** Text made safe to put in HTML, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `14:03:07`: a time of day, local. */
export function clockTime(ms: number): string {
	const date = new Date(ms);
	const pad = (value: number) => String(value).padStart(2, "0");
	return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

type Cell = string;

function cell(value: Cell, tag: "td" | "th"): string {
	return tag === "th" ? `<th scope="row">${escapeHtml(value)}</th>` : `<td>${escapeHtml(value)}</td>`;
}

/** A table with a caption, a header row and rows whose first cell names the row. */
export function table(caption: string, head: readonly string[], rows: readonly (readonly Cell[])[]): string {
	const header = head.map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join("");
	const body = rows
		.map((row) => `<tr>${row.map((value, index) => cell(value, index === 0 ? "th" : "td")).join("")}</tr>`)
		.join("");
	return `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${header}</tr></thead><tbody>${body}</tbody></table>`;
}

const NONE = "–";

function orNone(value: number | null, format: (value: number) => string): string {
	return value === null ? NONE : format(value);
}

const count = (value: number) => String(value);

/** A budget's limits, what it used and what is left, one row per limit it has or figure the host measures. */
export function budgetFiguresTable(budget: BudgetData, index: number, report: ReportData): string {
	const { limits, used } = budget;
	const left = (limit: number | null, value: number) => (limit === null ? null : Math.max(0, limit - value));
	const rows: Cell[][] = [
		[
			"Time",
			orNone(limits.timeMs, formatTime),
			formatTime(used.timeMs),
			orNone(left(limits.timeMs, used.timeMs), formatTime),
		],
		["Turns", orNone(limits.turns, count), count(used.turns), orNone(left(limits.turns, used.turns), count)],
	];
	if (report.measured.tokens) {
		rows.push([
			"Tokens",
			orNone(limits.tokens, formatTokens),
			formatTokens(used.tokens),
			orNone(left(limits.tokens, used.tokens), formatTokens),
		]);
	}
	if (report.measured.cost) {
		rows.push([
			"Cost",
			orNone(limits.cost, formatCost),
			formatCost(used.cost),
			orNone(left(limits.cost, used.cost), formatCost),
		]);
	}
	if (limits.steps !== null) rows.push(["Model calls per turn", count(limits.steps), NONE, NONE]);
	if (limits.loop !== null) rows.push(["Identical tool calls per run (loop guard)", count(limits.loop), NONE, NONE]);
	return table(`Budget ${index + 1}: ${budget.words}`, ["", "Limit", "Used", "Left"], rows);
}

const LIMIT_NAMES = { time: "time", turns: "turns", tokens: "tokens", cost: "cost" } as const;

/** What happened to a budget, in the order it happened: its start, the turns, the warnings, the pause and the end. */
export function budgetEvents(budget: BudgetData): { at: number; what: string }[] {
	const events: { at: number; what: string }[] = [{ at: budget.startTime, what: `Budget set: ${budget.words}` }];
	budget.turns.forEach((at, index) => {
		events.push({ at, what: `Turn ${index + 1}` });
	});
	for (const warning of budget.warnings) {
		events.push({
			at: warning.at,
			what: `${Math.round(warning.share * 100)}% of the ${LIMIT_NAMES[warning.limit]} used`,
		});
	}
	if (budget.pausedAt !== null) events.push({ at: budget.pausedAt, what: "Paused" });
	if (budget.ending.kind !== "active") events.push({ at: budget.until, what: budget.ending.text });
	return events.sort((a, b) => a.at - b.at);
}

/** The budget's events, with the time after its start, and the settings the chart cannot show. */
export function budgetEventsTable(budget: BudgetData): string {
	const rows: Cell[][] = budgetEvents(budget).map((event) => [
		clockTime(event.at),
		`+${formatTime(event.at - budget.startTime)}`,
		event.what,
	]);
	const notes: string[] = [];
	if (budget.extensions > 0) notes.push(`Extended ${budget.extensions === 1 ? "once" : `${budget.extensions} times`}.`);
	if (budget.pausedMs > 0) notes.push(`Paused for ${formatTime(budget.pausedMs)} in all.`);
	if (budget.graceMs !== null) notes.push(`Grace period: ${formatTime(budget.graceMs)}.`);
	notes.push(budget.onStopCommand === null ? "No on-stop command." : `On-stop command: ${budget.onStopCommand}`);
	const list = `<ul class="notes">${notes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>`;
	return `${table("What happened", ["Time", "Since the start", "Event"], rows)}${list}`;
}

/** Every subagent: its budget, when it ran, what it used and how it ended. */
export function subagentsTable(subagents: readonly SubagentData[], report: ReportData): string {
	const rows: Cell[][] = subagents.map((agent) => [
		`${agent.task} (${agent.agentType})`,
		agent.budget ?? "none of its own",
		clockTime(agent.startedAt),
		formatTime((agent.endedAt ?? report.now) - agent.startedAt),
		count(agent.steps),
		formatTokens(agent.tokens),
		formatCost(agent.cost),
		agent.line.slice(agent.line.lastIndexOf(". ") + 2),
	]);
	return table("Subagents", ["Subagent", "Budget", "Started", "Ran", "Model calls", "Tokens", "Cost", "Ending"], rows);
}

/** Each daily budget's limits today, what was used and what is left. */
export function todayBudgetTable(today: TodayData): string {
	return today.budgets
		.map((budget) => {
			const rows: Cell[][] = [];
			const { limits, use, left } = budget;
			if (limits.timeMs !== null)
				rows.push([
					"Agent time",
					formatTime(limits.timeMs),
					formatTime(use.agentMs),
					orNone(left.timeMs, formatLeftMs),
				]);
			if (limits.turns !== null)
				rows.push(["Prompts", count(limits.turns), count(use.prompts), orNone(left.turns, count)]);
			if (limits.tokens !== null)
				rows.push(["Tokens", formatTokens(limits.tokens), formatTokens(use.tokens), orNone(left.tokens, formatTokens)]);
			if (limits.cost !== null)
				rows.push(["Cost", formatCost(limits.cost), formatCost(use.cost), orNone(left.cost, formatCost)]);
			const caption = `${budget.who}${budget.off ? ", off until midnight" : ""}`;
			return table(caption, ["", "Limit today", "Used", "Left"], rows);
		})
		.join("");
}

/** The day's sessions, with their host and, for a team, their member. */
export function todaySessionsTable(today: TodayData): string {
	const team = today.sessions.some((session) => session.member !== null);
	const rows: Cell[][] = today.sessions.map((session) => [
		session.session,
		...(team ? [session.member ?? NONE] : []),
		session.host ?? NONE,
		formatTime(session.agentMs),
		count(session.prompts),
		formatTokens(session.tokens),
		formatCost(session.cost),
	]);
	const head = ["Session", ...(team ? ["Member"] : []), "Host", "Agent time", "Prompts", "Tokens", "Cost"];
	return table("Today's sessions", head, rows);
}

/** Who used a team's day: each member (`user@machine (host)`) and their sessions, as the team's store keeps them. */
export function todayMembersTable(members: readonly DailyMember[]): string {
	const rows: Cell[][] = members.map((member) => [member.name, count(member.sessions)]);
	return table("Today's members", ["Member", "Sessions"], rows);
}

/** The use of each of the last days, with the daily limits. */
export function daysTable(rows: readonly DayUseRow[], limits: DailyLimits | null): string {
	const body: Cell[][] = rows.map((row) => [
		row.day,
		formatTime(row.agentMs),
		count(row.prompts),
		formatTokens(row.tokens),
		formatCost(row.cost),
	]);
	if (limits !== null) {
		body.push([
			"Daily limit",
			orNone(limits.timeMs, formatTime),
			orNone(limits.turns, count),
			orNone(limits.tokens, formatTokens),
			orNone(limits.cost, formatCost),
		]);
	}
	return table("Use per day", ["Day", "Agent time", "Prompts", "Tokens", "Cost"], body);
}

/** The suggestion's figures: each one's median and 90th percentile, and how many of the sessions measured it. */
export function suggestionTable(figures: SuggestedFigures, sessions: number): string {
	const row = (name: string, figure: Percentiles, format: (value: number) => string): Cell[] =>
		measuredEnough(figure)
			? [name, format(figure.median), format(figure.p90), `${figure.sessions} of ${sessions}`]
			: [name, NONE, NONE, `${figure.sessions} of ${sessions}: too few measured it`];
	const rows: Cell[][] = [
		row("Time", figures.timeMs, formatTime),
		row("Turns", figures.turns, count),
		row("Model calls", figures.steps, count),
		row("Tokens", figures.tokens, formatTokens),
		row("Cost", figures.cost, formatCost),
	];
	return table("A session's use here", ["", "Median", "90th percentile", "Sessions"], rows);
}
