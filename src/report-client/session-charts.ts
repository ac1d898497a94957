/// <reference lib="dom" />
/// <reference lib="dom.iterable" />

// The charts of one session on the report page: each budget along the clock, and the subagents as lanes.

import uPlot from "uplot";
import type { PageData } from "../adapters/report/page-data.ts";
import {
	COLOURS,
	CRITICAL,
	drawMarks,
	guide,
	HEIGHT,
	LIMIT,
	line,
	type Options,
	percentAxis,
	type Series,
	seconds,
	timeAxis,
	WARN,
} from "./chart-parts.ts";

/** One budget along the clock: the share of each limit used, the model calls as points, the turns and the stop. */
export function budgetChart(data: PageData, index: number): [Options, uPlot.AlignedData] | null {
	const budget = data.report?.budgets[index];
	if (!budget) return null;
	const { limits, startTime, until } = budget;
	const times = new Set<number>([startTime, until]);
	for (const at of budget.turns) times.add(at);
	for (const step of budget.steps) times.add(step.at);
	for (const warning of budget.warnings) times.add(warning.at);
	const xs = [...times].filter((at) => at >= startTime && at <= until).sort((a, b) => a - b);
	const series: Series[] = [{}];
	const columns: (number | null)[][] = [];
	// What was used and how many turns were sent by each time of the axis, in one pass over the sorted times.
	const used = xs.map(() => ({ tokens: 0, cost: 0 }));
	const sent = xs.map(() => 0);
	let step = -1;
	let turn = 0;
	xs.forEach((at, index) => {
		while (step + 1 < budget.steps.length && (budget.steps[step + 1]?.at ?? Number.POSITIVE_INFINITY) <= at) step++;
		while (turn < budget.turns.length && (budget.turns[turn] ?? Number.POSITIVE_INFINITY) <= at) turn++;
		used[index] = budget.steps[step] ?? { tokens: 0, cost: 0 };
		sent[index] = turn;
	});
	const lastStep = (index: number) => used[index] ?? { tokens: 0, cost: 0 };
	if (limits.timeMs !== null) {
		const limit = limits.timeMs;
		series.push(line("Time", COLOURS[0] as string));
		columns.push(xs.map((at) => (100 * (at - startTime)) / limit));
	}
	if (limits.turns !== null) {
		const limit = limits.turns;
		series.push(line("Turns", COLOURS[1] as string, "%", { paths: uPlot.paths.stepped?.({ align: 1 }) }));
		columns.push(sent.map((count) => (100 * count) / limit));
	}
	const measured = data.report?.measured;
	if (measured?.tokens) {
		const limit = limits.tokens;
		// Each model call is a point where they are far enough apart to show; uPlot leaves them out when dense.
		const stepPoints = { size: 5 };
		if (limit !== null) {
			series.push(line("Tokens", COLOURS[2] as string, "%", { points: stepPoints }));
			columns.push(xs.map((_at, index) => (100 * lastStep(index).tokens) / limit));
		} else {
			series.push(line("Tokens (right axis)", COLOURS[2] as string, "tokens", { points: stepPoints }));
			columns.push(xs.map((_at, index) => lastStep(index).tokens));
		}
	}
	if (measured?.cost && limits.cost !== null) {
		const limit = limits.cost;
		series.push(line("Cost", COLOURS[3] as string));
		columns.push(xs.map((_at, index) => (100 * lastStep(index).cost) / limit));
	}
	series.push(guide("80% warning", WARN), guide("95% warning", CRITICAL), guide("Limit", LIMIT));
	columns.push(
		xs.map(() => 80),
		xs.map(() => 95),
		xs.map(() => 100),
	);
	const axes: uPlot.Axis[] = [timeAxis, percentAxis];
	if (series.some((one) => one.scale === "tokens"))
		axes.push({ scale: "tokens", side: 1, grid: { show: false }, size: 60 });
	const marks = [...budget.turns.map((at) => ({ at, colour: "rgba(224,123,57,.35)" }))];
	if (budget.ending.kind !== "active") marks.push({ at: until, colour: CRITICAL });
	return [
		{
			width: 0,
			height: HEIGHT,
			series,
			axes,
			scales: { x: { time: true }, "%": { range: (_u, _min, max) => [0, Math.max(110, Math.ceil(max / 10) * 10)] } },
			hooks: { draw: [(u) => drawMarks(u, marks)] },
			legend: { live: false },
		},
		[xs.map(seconds), ...columns] as uPlot.AlignedData,
	];
}

/** The subagents as lanes under the session: each from its start to its end, coloured by how it ended. */
export function subagentsChart(data: PageData): [Options, uPlot.AlignedData] | null {
	const report = data.report;
	if (!report || report.subagents.length === 0) return null;
	const budget = report.budgets[report.budgets.length - 1];
	const lanes = [
		...(budget ? [{ label: "Session", from: budget.startTime, to: budget.until, colour: COLOURS[0] as string }] : []),
		...report.subagents.map((agent) => ({
			label: agent.parent === null ? agent.agentType : `↳ ${agent.agentType}`,
			from: agent.startedAt,
			to: agent.endedAt ?? report.now,
			colour: agent.ended === "answered" ? "#2f9e6e" : agent.ended === null ? "#3b6fd8" : CRITICAL,
		})),
	];
	const xs = [...new Set(lanes.flatMap((lane) => [lane.from, lane.to]))].sort((a, b) => a - b);
	const series: Series[] = [{}];
	const columns = lanes.map((lane, index) => {
		series.push({
			label: lane.label,
			stroke: lane.colour,
			width: 10,
			spanGaps: true,
			scale: "lane",
			points: { show: true, size: 12, fill: lane.colour },
		});
		return xs.map((at) => (at === lane.from || at === lane.to ? index : null));
	});
	const names = lanes.map((lane) => lane.label);
	return [
		{
			width: 0,
			height: Math.max(140, 50 + lanes.length * 34),
			series,
			scales: { x: { time: true }, lane: { range: [-0.6, lanes.length - 0.4] } },
			axes: [
				timeAxis,
				{
					scale: "lane",
					splits: () => names.map((_name, index) => index),
					values: (_u, ticks) => ticks.map((tick) => names[tick] ?? ""),
					size: 110,
					grid: { show: false },
				},
			],
			legend: { show: false },
		},
		[xs.map(seconds), ...columns] as uPlot.AlignedData,
	];
}
