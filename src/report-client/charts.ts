/// <reference lib="dom" />
/// <reference lib="dom.iterable" />

// The report page's charts, in the browser: glue from the page's JSON data to uPlot's options. It draws nothing by
// hand beyond the markers of a timeline (turns and the stop); uPlot draws the charts. `npm run build` bundles it with
// uPlot into the one script the page inlines. Each chart is made by session-charts.ts or day-charts.ts, from the parts
// they share (chart-parts.ts).

import uPlot from "uplot";
import type { PageData } from "../adapters/report/page-data.ts";
import { widthOf } from "./chart-parts.ts";
import { daysChart, todayChart } from "./day-charts.ts";
import { budgetChart, subagentsChart } from "./session-charts.ts";

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
