// The daily ledger a Node host opens: this machine's without a team, this machine's with a warning said once when the
// team is set wrongly, the team's (and no client loaded yet) when a store and a team are set.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AsyncTeamLedger } from "../../../src/adapters/team/async-ledger.ts";
import { TeamLedger } from "../../../src/adapters/team/ledger.ts";
import { ReadAheadLedger } from "../../../src/adapters/team/read-ahead.ts";
import { type DailyBudget, NO_ADJUSTMENT } from "../../../src/core/index.ts";
import {
	machineLedger,
	memberName,
	openBatchLedger,
	openDailyLedger,
	openHookDailyLedger,
	readAheadIn,
} from "../../../src/entries/daily-ledgers.ts";
import { TEAM_CONFIG } from "./memory-store.ts";

let state: string;
const clock = { now: () => Date.UTC(2026, 10, 28, 12) };
const budget: DailyBudget = {
	scope: "user",
	source: "s",
	limits: { timeMs: null, turns: 2, tokens: null, cost: null },
};
beforeEach(() => {
	state = mkdtempSync(join(tmpdir(), "timebox-open-"));
});
afterEach(() => rmSync(state, { recursive: true, force: true }));

const options = (env: NodeJS.ProcessEnv) => ({
	env: { XDG_STATE_HOME: state, ...env },
	sessionId: "s1",
	clock,
	host: "pi",
	entry: import.meta.url,
});

describe("opening the daily ledger", () => {
	it("opens this machine's ledger without a team", () => {
		const ledger = openDailyLedger(options({}));
		expect(ledger).not.toBeInstanceOf(TeamLedger);
		expect(ledger.countPrompt([budget], [2])).toBe(true);
		expect(ledger.problem()).toBeNull();
	});

	it("says once why a team set wrongly is not used, and counts on this machine", () => {
		const ledger = openDailyLedger(options({ TIMEBOX_TEAM: "platform" }));
		expect(ledger.problem()).toMatch(/^Timebox: TIMEBOX_TEAM is set without TIMEBOX_DAILY_STORE/);
		expect(ledger.problem()).toBeNull();
		expect(ledger.countPrompt([budget], [2])).toBe(true);
		ledger.addUse([budget], { tokens: 5 });
		ledger.adjust(budget, { ...NO_ADJUSTMENT, addPrompts: 1 });
		expect(ledger.standings([budget])[0]).toMatchObject({
			use: { prompts: 1, tokens: 5 },
			adjustment: { addPrompts: 1 },
		});
	});

	it("opens the team's ledger with a store and a team, naming the member by user, machine and host", () => {
		const ledger = openDailyLedger({
			...options({ TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1", TIMEBOX_TEAM: "platform" }),
			settings: {},
		});
		expect(ledger).toBeInstanceOf(TeamLedger);
		expect(memberName("codex")).toMatch(/^.+@.+ \(codex\)$/);
		// Nothing listens on port 1: the store is named, and this machine counts.
		expect(ledger.countPrompt([budget], [2])).toBe(true);
		expect(ledger.problem()).toMatch(/^Timebox: the team's daily store redis:\/\/127\.0\.0\.1:1 cannot be reached \(/);
	});
});

describe("this machine's ledger, made at its first use", () => {
	it("is not made while only whether a team is set is asked, and is made once for what it counts", () => {
		let made = 0;
		const ledger = machineLedger(() => {
			made++;
			return openDailyLedger(options({}));
		});
		expect(ledger.team).toBeUndefined();
		expect(made).toBe(0);
		expect(ledger.countPrompt([budget], [2])).toBe(true);
		ledger.addUse([budget], { tokens: 5 });
		expect(ledger.adjust(budget, { ...NO_ADJUSTMENT, addPrompts: 1 })).toBeUndefined();
		expect(ledger.standings([budget])[0]).toMatchObject({
			use: { prompts: 1, tokens: 5 },
			adjustment: { addPrompts: 1 },
		});
		expect(ledger.problem()).toBeNull();
		expect(made).toBe(1);
	});
});

describe("opening a process's own daily ledger", () => {
	const team = { TIMEBOX_DAILY_STORE: "redis://127.0.0.1:1", TIMEBOX_TEAM: "platform" };

	it("reads a hook's team's day ahead, its store called from the process, and counts on this machine while it cannot", async () => {
		const ledger = openHookDailyLedger(options(team), [budget]);
		expect(ledger).toBeInstanceOf(ReadAheadLedger);
		const readAhead = ledger as ReadAheadLedger;
		// Nothing listens on port 1: refused at once, said once, and the prompt counted here.
		await readAhead.refresh();
		expect(readAhead.problem()).toMatch(
			/^Timebox: the team's daily store redis:\/\/127\.0\.0\.1:1 cannot be reached \(/,
		);
		expect(readAhead.countPrompt([budget], [2])).toBe(true);
		expect(await readAhead.settle()).toBe(true);
		expect(openHookDailyLedger(options({}), [budget])).not.toBeInstanceOf(ReadAheadLedger);
	});

	it("names the store when a hook's batch fails in its process, and refuses new turns then in the closed mode", async () => {
		const broken = {
			standings: () => {
				throw new Error("out of memory");
			},
			countPrompt: () => true,
			addUse: () => {},
			adjust: () => undefined,
			problem: () => null,
		};
		const config = { ...TEAM_CONFIG, failure: "closed" as const };
		const readAhead = readAheadIn(broken, config, { sessionId: "s1", clock }, [budget]);
		await readAhead.refresh();
		const refused =
			"Timebox: the team's daily store redis://timebox@127.0.0.1:6390/0 cannot be reached (out of memory), so new turns are refused until it answers.";
		// The problem says what a refused turn says: an answer that refuses one says it once.
		expect(readAhead.problem()).toBe(refused);
		expect(readAhead.standings([budget])[0]?.closed).toBe(refused);
	});

	it("keeps only a team's ledger's failure for the session's next hook: a ledger with nothing to carry keeps none", async () => {
		const kept: unknown[] = [];
		const told = {
			said: () => false,
			first: () => true,
			failed: () => null,
			keepFailed: (failed: unknown) => kept.push(failed),
		};
		const none = {
			standings: () => [],
			countPrompt: () => true,
			addUse: () => {},
			adjust: () => undefined,
			problem: () => null,
		};
		await readAheadIn(none, TEAM_CONFIG, { sessionId: "s1", clock, told }, [budget]).refresh();
		expect(kept).toEqual([]);
		const failed = { why: "down", until: 9 };
		const carrying = { ...none, carry: () => ({ lastCall: { tokens: 0, cost: 0 }, failed }) };
		await readAheadIn(carrying, TEAM_CONFIG, { sessionId: "s1", clock, told }, [budget]).refresh();
		expect(kept).toEqual([failed]);
	});

	it("opens the batch script's ledger over the store, else this machine's", async () => {
		const ledger = openBatchLedger(options(team));
		expect(ledger).toBeInstanceOf(AsyncTeamLedger);
		expect(await ledger.countPrompt([budget], [2])).toBe(true);
		expect(ledger.problem()).toMatch(/cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:1\)/);
		expect(openBatchLedger(options({}))).not.toBeInstanceOf(AsyncTeamLedger);
	});
});
