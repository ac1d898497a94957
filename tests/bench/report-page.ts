// Benchmark 8: the report page of a session of 1,000 turns (three model calls each) with 20 subagents, on a day of 30
// sessions: the file's size, the time to write it, and the time the system's Chromium takes to open it and draw every
// chart (playwright-core, headless; nothing downloads a browser).

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { writeReportPage } from "../../src/adapters/report/write-page.ts";
import { type HistoryItem, NOTHING_RECORDED, reportData } from "../../src/core/index.ts";
import { median, nowMs } from "./stats.ts";

export const PAGE_TURNS = 1_000;
export const PAGE_SUBAGENTS = 20;
export const PAGE_OPENS = 7;
const CHROMIUM = process.env.TIMEBOX_CHROMIUM ?? "/usr/bin/chromium";

export interface ReportPageResult {
	bytes: number;
	writeMs: number;
	openMs: number;
}

function history(start: number): HistoryItem[] {
	const budget = {
		version: 2,
		id: "bench",
		timeLimitMs: 24 * 3_600_000,
		turnLimit: PAGE_TURNS + 10,
		tokenLimit: 50_000_000,
		costLimit: 500,
		startTime: start,
		onStopCommand: "say done",
	};
	const items: HistoryItem[] = [{ kind: "record", record: { kind: "active", budget } }];
	let at = start;
	for (let turn = 0; turn < PAGE_TURNS; turn++) {
		at += 30_000;
		items.push({ kind: "prompt", key: `p${turn}`, at });
		for (let call = 0; call < 3; call++) {
			at += 5_000;
			items.push({ kind: "usage", tokens: 12_000, cost: 0.1, at });
		}
	}
	for (let index = 0; index < PAGE_SUBAGENTS; index++) {
		const startedAt = start + index * 600_000;
		const agent = {
			id: `a${index}`,
			parent: null,
			agentType: "worker",
			task: `task ${index}`,
			budget: { timeLimitMs: 300_000, stepLimit: 30 },
			startedAt,
			steps: 12,
			spend: { tokens: 40_000, cost: 0.3 },
			warned: false,
			told: true,
			spent: null,
			wrapUp: null,
			ended: "answered",
			closed: true,
			endedAt: startedAt + 120_000,
		};
		items.push({ kind: "record", record: { kind: "subagent", agent } });
	}
	return items;
}

export async function measureReportPage(): Promise<ReportPageResult> {
	const dir = mkdtempSync(join(tmpdir(), "timebox-bench-page-"));
	try {
		const now = Date.now();
		const items = history(now - (PAGE_TURNS * 45_000 + 60_000));
		const env = { XDG_STATE_HOME: dir, HOME: dir };
		const daily = {
			scope: "user",
			source: "bench",
			limits: { timeMs: 8 * 3_600_000, turns: 2_000, tokens: null, cost: 100 },
		};
		const standings = [
			{
				budget: daily,
				use: { agentMs: 3_600_000, prompts: 900, tokens: 0, cost: 40, sessions: 30 },
				adjustment: { addTimeMs: 0, addPrompts: 0, addTokens: 0, addCost: 0, off: false },
				dayStart: now - 3_600_000,
			},
		];
		const out = join(dir, "page.html");
		const writes: number[] = [];
		for (let run = 0; run < PAGE_OPENS; run++) {
			const started = nowMs();
			writeReportPage(
				{ report: reportData(items, () => NOTHING_RECORDED, now), standings },
				{ env, now, session: { id: "bench", host: "pi" }, out },
			);
			writes.push(nowMs() - started);
		}
		const browser = await chromium.launch({
			executablePath: CHROMIUM,
			headless: true,
			args: [
				"--no-sandbox",
				"--disable-gpu",
				"--disable-background-networking",
				"--disable-component-update",
				"--disable-sync",
				"--no-first-run",
			],
		});
		const opens: number[] = [];
		try {
			for (let run = 0; run < PAGE_OPENS; run++) {
				const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
				const started = nowMs();
				await page.goto(`file://${out}`, { waitUntil: "load" });
				await page.waitForFunction(() =>
					[...document.querySelectorAll("figure[data-chart]")].every((figure) => figure.querySelector("canvas")),
				);
				opens.push(nowMs() - started);
				await page.close();
			}
		} finally {
			await browser.close();
		}
		return { bytes: statSync(out).size, writeMs: median(writes), openMs: median(opens) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
