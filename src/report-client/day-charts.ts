/// <reference lib="dom" />
/// <reference lib="dom.iterable" />

// The charts of the days on the report page: today's use of each daily limit, and the last days against it.

import type uPlot from "uplot";
import type { PageData } from "../adapters/report/page-data.ts";
import {
	bars,
	COLOURS,
	categoryAxis,
	guide,
	HEIGHT,
	LIMIT,
	line,
	type Options,
	percentAxis,
	type Series,
} from "./chart-parts.ts";

/** Today's use of each daily limit, stacked by session (or by member, for a team), against 100%. */
export function todayChart(data: PageData): [Options, uPlot.AlignedData] | null {
	const budget = data.today?.budgets[0];
	const today = data.today;
	if (!budget || !today) return null;
	const dims = (
		[
			["Agent time", budget.limits.timeMs, "agentMs"],
			["Prompts", budget.limits.turns, "prompts"],
			["Tokens", budget.limits.tokens, "tokens"],
			["Cost", budget.limits.cost, "cost"],
		] as const
	).filter((dim) => dim[1] !== null);
	// A team's store keeps the day's use, not each session's: with no sessions, the day is one stack, the budget's own.
	const { agentMs, prompts, tokens, cost } = budget.use;
	const sessions =
		today.sessions.length > 0
			? today.sessions
			: [{ session: budget.who, host: null, member: budget.who, agentMs, prompts, tokens, cost }];
	const team = sessions.some((session) => session.member !== null);
	const groups = new Map<string, (typeof sessions)[number][]>();
	for (const session of sessions) {
		const name = team
			? (session.member ?? "another member")
			: `${session.host ?? "another session"} · ${session.session.slice(0, 8)}`;
		groups.set(name, [...(groups.get(name) ?? []), session]);
	}
	const names = [...groups.keys()];
	const running = dims.map(() => 0);
	const stacked = names.map((name) =>
		dims.map((dim, index) => {
			const used = (groups.get(name) ?? []).reduce((sum, session) => sum + session[dim[2]], 0);
			running[index] = (running[index] ?? 0) + (100 * used) / (dim[1] as number);
			return running[index] as number;
		}),
	);
	// The tallest stack is drawn first, so that each shorter one shows on top of it.
	const order = names.map((_name, index) => index).reverse();
	const series: Series[] = [
		{},
		...order.map((index) => ({
			label: names[index] as string,
			fill: COLOURS[index % COLOURS.length] as string,
			stroke: COLOURS[index % COLOURS.length] as string,
			scale: "%",
			paths: bars(),
			points: { show: false },
		})),
		guide("Limit", LIMIT),
	];
	const xs = dims.map((_dim, index) => index);
	return [
		{
			width: 0,
			height: HEIGHT,
			series,
			scales: {
				x: { time: false, range: [-0.5, dims.length - 0.5] },
				"%": { range: (_u, _min, max) => [0, Math.max(110, max)] },
			},
			axes: [categoryAxis(dims.map((dim) => dim[0])), percentAxis],
			legend: { live: false },
		},
		[xs, ...order.map((index) => stacked[index] as number[]), xs.map(() => 100)] as uPlot.AlignedData,
	];
}

/** The use of each of the last days against the daily limit: the share of each limit, or agent time with none. */
export function daysChart(data: PageData): [Options, uPlot.AlignedData] | null {
	const { rows, limits } = data.days;
	if (rows.length === 0) return null;
	const xs = rows.map((_row, index) => index);
	const names = rows.map((row) => row.day.slice(5));
	const dims = (
		[
			["Agent time", limits?.timeMs ?? null, "agentMs"],
			["Prompts", limits?.turns ?? null, "prompts"],
			["Tokens", limits?.tokens ?? null, "tokens"],
			["Cost", limits?.cost ?? null, "cost"],
		] as const
	).filter((dim) => dim[1] !== null);
	const series: Series[] = [{}];
	const columns: number[][] = [];
	if (dims.length === 0) {
		series.push({
			label: "Agent time (min)",
			fill: COLOURS[0] as string,
			stroke: COLOURS[0] as string,
			paths: bars(),
			points: { show: false },
		});
		columns.push(rows.map((row) => row.agentMs / 60_000));
	} else {
		dims.forEach((dim, index) => {
			const limit = dim[1] as number;
			const colour = COLOURS[index] as string;
			series.push(line(dim[0], colour, "%", { points: { show: true, size: 7, fill: colour } }));
			columns.push(rows.map((row) => (100 * row[dim[2]]) / limit));
		});
		series.push(guide("Daily limit", LIMIT));
		columns.push(xs.map(() => 100));
	}
	return [
		{
			width: 0,
			height: HEIGHT,
			series,
			scales: {
				x: { time: false, range: [-0.5, rows.length - 0.5] },
				"%": { range: (_u, _min, max) => [0, Math.max(110, max)] },
			},
			axes: [categoryAxis(names), dims.length === 0 ? {} : percentAxis],
			legend: { live: false },
		},
		[xs, ...columns] as uPlot.AlignedData,
	];
}
