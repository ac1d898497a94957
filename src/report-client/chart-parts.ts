/// <reference lib="dom" />
/// <reference lib="dom.iterable" />

// What the report page's charts share: the colours, the scales' axes, a series drawn as a line or a guide, bars, and
// the markers drawn on a timeline.

import uPlot from "uplot";

export const COLOURS = ["#3b6fd8", "#e07b39", "#2f9e6e", "#9b59b6", "#d64f6a", "#1aa3b8", "#b8902b", "#6b7a99"];
export const WARN = "#e0a030";
export const CRITICAL = "#d9534f";
export const LIMIT = "#1d2433";
export const HEIGHT = 260;
/** The steps of a time axis, in seconds: whole seconds at the least, so a short session reads `:53`, not `:53.500`. */
const TIME_INCRS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
export const timeAxis: uPlot.Axis = { incrs: TIME_INCRS };

export type Options = uPlot.Options;
export type Series = uPlot.Series;

export const seconds = (ms: number) => ms / 1000;

export function widthOf(element: HTMLElement): number {
	return Math.max(320, Math.floor(element.getBoundingClientRect().width || 640));
}

export function line(label: string, stroke: string, scale = "%", extra: Partial<Series> = {}): Series {
	return { label, stroke, scale, width: 2, points: { show: false }, ...extra };
}

export function guide(label: string, stroke: string): Series {
	return { label, stroke, scale: "%", width: 1, dash: [6, 4], points: { show: false } };
}

export const percentAxis: uPlot.Axis = { scale: "%", values: (_u, ticks) => ticks.map((tick) => `${tick}%`), size: 52 };

/** Vertical markers on a timeline: the turns, and the stop. */
export function drawMarks(u: uPlot, marks: readonly { at: number; colour: string }[]): void {
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

export const bars = () => uPlot.paths.bars?.({ size: [0.55, 90] });

export function categoryAxis(names: readonly string[]): uPlot.Axis {
	return {
		splits: () => names.map((_name, index) => index),
		values: (_u, ticks) => ticks.map((tick) => names[tick] ?? ""),
		grid: { show: false },
	};
}
