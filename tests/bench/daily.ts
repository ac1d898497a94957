// Benchmark 5: what the daily ledger costs a session, per prompt and per model call, with 10 sessions sharing a day
// that already holds 10,000 records.

import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDailyLedger, localDay } from "../../src/adapters/node/daily-ledger.ts";
import {
	type DailyBudget,
	type DailyEvent,
	type DailyPort,
	type DailySession,
	dailyTransition,
	EMPTY_SESSION,
	NO_DAILY_SESSION,
	type SessionState,
	transitionWithSubagents,
} from "../../src/core/index.ts";
import { carryOut, noAnswer } from "../../src/core/run/executor.ts";
import { median, nowMs } from "./stats.ts";

export const DAILY_SESSIONS = 10;
export const DAILY_RECORDS = 10_000;
export const DAILY_SAMPLES = 201;

export interface DailyResult {
	promptMs: number;
	callMs: number;
	/** Per prompt under a daily budget: the session's rules asked first whether they refuse it (one pure transition). */
	refusalMs: number;
}

const BUDGET: DailyBudget = {
	scope: "user",
	source: "bench",
	limits: { timeMs: 1_000 * 3_600_000, turns: 1_000_000, tokens: null, cost: null },
};

/** One daily event as a session carries it out: today's standings read, the rules stepped, their writes made. */
export function step(port: DailyPort, session: DailySession, event: DailyEvent): DailySession {
	const result = dailyTransition(session, event, port.ledger.standings(port.budgets), Date.now());
	const ports = {
		daily: port,
		store: { append: () => {} },
		ledger: { claim: () => true },
		setStatus: () => {},
		onStop: { start: () => {} },
		abortRun: () => {},
		problem: () => {},
	};
	carryOut(result.effects, ports, noAnswer(), () => {});
	return result.session;
}

/**
 * What a new prompt under a daily budget adds before the day counts it: the session's rules asked whether they refuse
 * it, on a session with a budget in force and 50 prompts behind it (`SessionRuntime.handle`).
 */
function sessionRefusalMs(): number {
	const now = Date.now();
	let state: SessionState = transitionWithSubagents(
		EMPTY_SESSION,
		{ type: "command", args: "10h turns:100000", newBudgetId: "bench" },
		now,
	).state;
	for (let prompt = 0; prompt < 50; prompt++) {
		state = transitionWithSubagents(state, { type: "modelCall", prompt: `p${prompt}` }, now).state;
	}
	const times: number[] = [];
	for (let sample = 0; sample < DAILY_SAMPLES; sample++) {
		const started = nowMs();
		transitionWithSubagents(state, { type: "modelCall", prompt: `next${sample}` }, now);
		times.push(nowMs() - started);
	}
	return median(times);
}

/** Per prompt: today's standing read on and a prompt counted; per call: the standing read on and checked. */
export async function measureDaily(): Promise<DailyResult> {
	const dir = mkdtempSync(join(tmpdir(), "timebox-bench-daily-"));
	try {
		const clock = { now: () => Date.now() };
		const ledgers = Array.from({ length: DAILY_SESSIONS }, (_, index) => createDailyLedger(dir, `s${index}`, clock));
		for (const ledger of ledgers) ledger.standings([BUDGET]);
		const records = Array.from({ length: DAILY_RECORDS }, (_, index) =>
			JSON.stringify({ session: `s${index % DAILY_SESSIONS}`, tokens: 1_200, agentMs: 500 }),
		).join("\n");
		appendFileSync(join(dir, "daily", "user", localDay(Date.now()), "use.jsonl"), `${records}\n`);
		const own = createDailyLedger(dir, "measured", clock);
		own.standings([BUDGET]);
		const port = { ledger: own, budgets: [BUDGET] };
		const prompts: number[] = [];
		const calls: number[] = [];
		for (let sample = 0; sample < DAILY_SAMPLES; sample++) {
			// Another session used the model meanwhile: each read has a little to catch up on, as in real use.
			ledgers[sample % DAILY_SESSIONS]?.addUse([BUDGET], { tokens: 1_000 });
			let started = nowMs();
			const session = step(port, NO_DAILY_SESSION, { type: "newPrompt" });
			prompts.push(nowMs() - started);
			started = nowMs();
			step(port, session, { type: "duringRun", modelCall: true });
			calls.push(nowMs() - started);
		}
		return { promptMs: median(prompts), callMs: median(calls), refusalMs: sessionRefusalMs() };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
