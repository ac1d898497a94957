// The report page as one self-contained HTML file: its tables written here (they read with JavaScript off), its data
// in a `<script type="application/json">`, and the chart library with the glue that draws the charts from that data in
// one script element. A Content-Security-Policy allows that script and style by their hashes and nothing else: the
// page loads nothing, from the network or from files.

import { createHash } from "node:crypto";
import { dataScriptText, type PageData } from "./page-data.ts";
import {
	budgetEventsTable,
	budgetFiguresTable,
	clockTime,
	daysTable,
	escapeHtml,
	subagentsTable,
	suggestionTable,
	todayBudgetTable,
	todayMembersTable,
	todaySessionsTable,
} from "./tables.ts";

/** The page's script (the chart library and its glue) and style, inlined as they are. */
export interface PageAssets {
	script: string;
	css: string;
}

/** The page's own look: system fonts, quiet colours, and the charts beside their tables. */
export const PAGE_CSS = `:root{color-scheme:light;--ink:#1d2433;--muted:#5b6475;--line:#e3e6ec;--bg:#f7f8fa;--card:#fff;--accent:#3b6fd8}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
header{padding:28px 32px 8px;max-width:1200px;margin:0 auto}h1{font-size:26px;margin:0 0 4px;letter-spacing:-.01em}
header p{margin:0;color:var(--muted)}main{max-width:1200px;margin:0 auto;padding:8px 32px 40px}
section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px 24px;margin:18px 0}
h2{font-size:18px;margin:0 0 12px}h3{font-size:15px;margin:18px 0 8px;color:var(--muted);font-weight:600}
.pair{display:grid;grid-template-columns:minmax(0,3fr) minmax(280px,2fr);gap:24px;align-items:start}
@media (max-width:900px){.pair{grid-template-columns:1fr}}
figure.chart{margin:0;min-height:40px}figure.chart:empty{display:none}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:13.5px;margin:0 0 12px}
caption{text-align:left;font-weight:600;padding:0 0 6px;color:var(--ink)}
th,td{text-align:left;padding:5px 10px 5px 0;border-bottom:1px solid var(--line);vertical-align:top}
thead th{color:var(--muted);font-weight:600;font-size:12.5px;text-transform:uppercase;letter-spacing:.04em}
tbody th{font-weight:500}pre.report{background:#f1f3f7;border-radius:8px;padding:14px 16px;white-space:pre-wrap;font:13px/1.55 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}
ul.notes{margin:0;padding-left:18px;color:var(--muted);font-size:13.5px}.empty{color:var(--muted);margin:0}
.u-legend{font-size:12.5px}.u-title{font-size:14px;font-weight:600}`;

/** A `sha256-…` source of a Content-Security-Policy for an inline script or style. */
export function cspHash(text: string): string {
	return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

function chart(name: string, label: string, index = 0): string {
	return `<figure class="chart" data-chart="${name}" data-index="${index}" role="img" aria-label="${escapeHtml(label)}"></figure>`;
}

function empty(text: string): string {
	return `<p class="empty">${escapeHtml(text)}</p>`;
}

function sessionSection(data: PageData): string {
	const report = data.report;
	if (report === null) return `<section id="session"><h2>This session</h2>${empty("No session was found.")}</section>`;
	const text = `<h3>What ${escapeHtml("/timebox report")} says</h3><pre class="report">${escapeHtml(report.text)}</pre>`;
	const budgets = report.budgets
		.map((budget, index) => {
			const label = `Budget ${index + 1} along the clock: the share of each limit used, the turns and the model calls`;
			const tables = `${budgetFiguresTable(budget, index, report)}${budgetEventsTable(budget)}`;
			return `<h3>Budget ${index + 1}: ${escapeHtml(budget.words)}</h3><div class="pair">${chart("budget", label, index)}<div>${tables}</div></div>`;
		})
		.join("");
	return `<section id="session"><h2>This session's budget</h2>${budgets}${text}</section>`;
}

function subagentSection(data: PageData): string {
	const report = data.report;
	if (report === null || report.subagents.length === 0) return "";
	const label = "Subagents as lanes under the session, from their start to their end";
	return `<section id="subagents"><h2>Subagents</h2>${chart("subagents", label)}${subagentsTable(report.subagents, report)}</section>`;
}

function todaySection(data: PageData): string {
	const today = data.today;
	if (today === null) return `<section id="today"><h2>Today</h2>${empty("Nothing was used today.")}</section>`;
	const members = today.budgets[0]?.use.members ?? [];
	const sessions = `${today.sessions.length === 0 ? "" : todaySessionsTable(today)}${members.length === 0 ? "" : todayMembersTable(members)}`;
	if (today.budgets.length === 0) {
		return `<section id="today"><h2>Today</h2>${empty("No daily budget is set.")}${sessions}</section>`;
	}
	const team = members.length > 0 || today.sessions.some((session) => session.member !== null);
	const label = `Today's use of each daily limit, stacked by ${team ? "member" : "session"}, and what is left`;
	const text = `<h3>What ${escapeHtml("/timebox today")} says</h3><pre class="report">${escapeHtml(today.text)}</pre>`;
	return `<section id="today"><h2>Today</h2><div class="pair">${chart("today", label)}<div>${todayBudgetTable(today)}</div></div>${sessions}${text}</section>`;
}

function daysSection(data: PageData): string {
	const { rows, limits, note } = data.days;
	const said = note === undefined ? "" : `<ul class="notes"><li>${escapeHtml(note)}</li></ul>`;
	if (rows.length === 0) return said === "" ? "" : `<section id="days"><h2>The last days</h2>${said}</section>`;
	const label = "Use per day against the daily limit";
	return `<section id="days"><h2>The last ${rows.length === 1 ? "day" : `${rows.length} days`}</h2><div class="pair">${chart("days", label)}<div>${daysTable(rows, limits)}${said}</div></div></section>`;
}

/** The budget suggested from the project's past sessions, where the page knows the project. */
function suggestionSection(data: PageData): string {
	const given = data.suggestion;
	if (given === undefined) return "";
	const { figures } = given.suggestion;
	const heading = `<h2>A suggested budget for ${escapeHtml(given.project)}</h2>`;
	const text = `<pre class="report">${escapeHtml(given.text)}</pre>`;
	if (figures === null) return `<section id="suggestion">${heading}${text}</section>`;
	const said = `<h3>What ${escapeHtml("/timebox suggest")} says</h3>${text}`;
	return `<section id="suggestion">${heading}${suggestionTable(figures, given.suggestion.sessions)}${said}</section>`;
}

/**
 * The whole page: one HTML file that needs nothing else.
 * @example renderPage(data, { script, css }) // "<!doctype html>…"
 */
export function renderPage(data: PageData, assets: PageAssets): string {
	const style = `${assets.css}\n${PAGE_CSS}`;
	const csp = `default-src 'none'; img-src data:; style-src ${cspHash(style)}; script-src ${cspHash(assets.script)}`;
	const who =
		data.session === null ? "" : `Session ${escapeHtml(data.session.id)} on ${escapeHtml(data.session.host)}, `;
	const written = new Date(data.writtenAt);
	const day = written.toISOString().slice(0, 10);
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Timebox report${data.session === null ? "" : ` · ${escapeHtml(data.session.id)}`}</title>
<style>${style}</style></head>
<body><header><h1>Timebox report</h1><p>${who}written ${day} at ${clockTime(data.writtenAt)}.</p></header>
<main>${sessionSection(data)}${subagentSection(data)}${todaySection(data)}${daysSection(data)}${suggestionSection(data)}</main>
<script type="application/json" id="timebox-data">${dataScriptText(data)}</script>
<script>${assets.script}</script>
</body></html>
`;
}
