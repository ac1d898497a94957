/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The report page's charts, in the browser: glue from the page's JSON data to uPlot's options. It draws nothing by
// hand beyond the markers of a timeline (turns and the stop); uPlot draws the charts. `npm run build` bundles it with
// uPlot into the one script the page inlines.

import uPlot from "uplot";
import type { PageData } from "../adapters/report/page-data.ts";

const COLOURS = ["#3b6fd8", "#e07b39", "#2f9e6e", "#9b59b6", "#d64f6a", "#1aa3b8", "#b8902b", "#6b7a99"];
const WARN = "#e0a030";
const CRITICAL = "#d9534f";
const LIMIT = "#1d2433";
const HEIGHT = 260;
/** The steps of a time axis, in seconds: whole seconds at the least, so a short session reads `:53`, not `:53.500`. */
const TIME_INCRS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
const timeAxis: uPlot.Axis = { incrs: TIME_INCRS };

type Options = uPlot.Options;
type Series = uPlot.Series;

const seconds = (ms: number) => ms / 1000;

function widthOf(element: HTMLElement): number {
	return Math.max(320, Math.floor(element.getBoundingClientRect().width || 640));
}

function line(label: string, stroke: string, scale = "%", extra: Partial<Series> = {}): Series {
	return { label, stroke, scale, width: 2, points: { show: false }, ...extra };
}

function guide(label: string, stroke: string): Series {
	return { label, stroke, scale: "%", width: 1, dash: [6, 4], points: { show: false } };
}

const percentAxis: uPlot.Axis = { scale: "%", values: (_u, ticks) => ticks.map((tick) => `${tick}%`), size: 52 };

/** One budget along the clock: the share of each limit used, the model calls as points, the turns and the stop. */
function budgetChart(data: PageData, index: number): [Options, uPlot.AlignedData] | null {
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

/** Vertical markers on a timeline: the turns, and the stop. */
function drawMarks(u: uPlot, marks: readonly { at: number; colour: string }[]): void {
	const { ctx } = u;
	const { top, height } = u.bbox;
	ctx.save();
	ctx.lineWidth = Math.max(1, devicePixelRatio);
	// One path per colour: a session of a thousand turns strokes twice, not a thousand times.
	for (const colour of new Set(marks.map((mark) => mark.colour))) {
		ctx.strokeStyle = colour;
		ctx.beginPath();
		for (const mark of marks) {
			if (mark.colour !== colour) continue;
			const x = u.valToPos(seconds(mark.at), "x", true);
			ctx.moveTo(x, top);
			ctx.lineTo(x, top + height);
		}
		ctx.stroke();
	}
	ctx.restore();
}

/** The subagents as lanes under the session: each from its start to its end, coloured by how it ended. */
function subagentsChart(data: PageData): [Options, uPlot.AlignedData] | null {
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

const bars = () => uPlot.paths.bars?.({ size: [0.55, 90] });

function categoryAxis(names: readonly string[]): uPlot.Axis {
	return {
		splits: () => names.map((_name, index) => index),
		values: (_u, ticks) => ticks.map((tick) => names[tick] ?? ""),
		grid: { show: false },
	};
}

/** Today's use of each daily limit, stacked by session (or by member, for a team), against 100%. */
function todayChart(data: PageData): [Options, uPlot.AlignedData] | null {
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
function daysChart(data: PageData): [Options, uPlot.AlignedData] | null {
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

function draw(): void {
	const source = document.getElementById("timebox-data");
	if (!source?.textContent) return;
	const data = JSON.parse(source.textContent) as PageData;
	for (const figure of document.querySelectorAll<HTMLElement>("figure[data-chart]")) {
		const index = Number(figure.dataset.index ?? 0);
		const made =
			figure.dataset.chart === "budget"
				? budgetChart(data, index)
				: figure.dataset.chart === "subagents"
					? subagentsChart(data)
					: figure.dataset.chart === "today"
						? todayChart(data)
						: daysChart(data);
		if (made === null) continue;
		const [options, columns] = made;
		new uPlot({ ...options, width: widthOf(figure) }, columns, figure);
	}
}

draw();
