// The read-ahead team ledger on its own, with batches the test answers: a batch that cannot run is the outage
// policy's (said once, in the words of the way that failed; new turns refused in the closed mode, a prompt counted in it
// among them), and a batch that sends only what an event wrote reads nothing where nothing needs the day after it.
// tests/adapters/hooks/team-day.test.ts and tests/adapters/claude/function-hooks/team.test.ts run it with real batches.

import { describe, expect, it } from "vitest";
import type { TeamReply, TeamRequest } from "../../../src/adapters/team/batch.ts";
import { type BatchOutcome, ReadAheadLedger } from "../../../src/adapters/team/read-ahead.ts";
import { type DailyBudget, NO_ADJUSTMENT, NO_TEAM, TEAM_HOP_FRESH_MS, TEAM_RETRY_MS } from "../../../src/core/index.ts";

const BUDGET: DailyBudget = {
	scope: "user",
	source: "TIMEBOX_DAILY",
	limits: { timeMs: null, turns: 3, tokens: null, cost: null },
};
const TEXTS = {
	unreachable: (why: string, closed: boolean) => `down (${why}, ${closed})`,
	refusal: (why: string) => `refused (${why})`,
};

function ledger(run: (request: TeamRequest) => Promise<BatchOutcome>, closed = false, now = { at: 0 }) {
	return new ReadAheadLedger({
		sessionId: "s1",
		clock: { now: () => now.at },
		budgets: [BUDGET],
		closed,
		run,
		texts: TEXTS,
		readAfter: false,
		team: { name: "platform", zone: "UTC" },
	});
}

const reply = (prompts: number, problems: string[] = []): TeamReply => ({
	counted: [],
	standings: [
		{
			budget: BUDGET,
			use: { agentMs: 0, prompts, tokens: 0, cost: 0, sessions: 1 },
			adjustment: NO_ADJUSTMENT,
			dayStart: 1,
		},
	],
	problems,
	carry: null,
});

describe("a read-ahead team ledger", () => {
	it("goes on when a batch cannot run, said once in its own words, and tries again after TEAM_RETRY_MS", async () => {
		const now = { at: 0 };
		const requests: TeamRequest[] = [];
		let fail = true;
		let later: string[] = [];
		const readAhead = ledger(
			async (request) => {
				requests.push(request);
				if (fail) throw "the batch broke";
				return reply(1, later);
			},
			false,
			now,
		);
		await readAhead.refresh();
		expect(readAhead.problem()).toBe("down (the batch broke, false)");
		expect(readAhead.countPrompt([BUDGET], [3])).toBe(true);
		expect(await readAhead.settle()).toBe(true);
		expect(requests).toHaveLength(1);
		// Within the retry window the batch is held back, with nothing new to say; a problem the store's batch meets once
		// it answers is said next.
		now.at += TEAM_RETRY_MS - 1;
		readAhead.addUse([BUDGET], { agentMs: 1 });
		expect(await readAhead.settle()).toBe(true);
		fail = false;
		later = ["later"];
		now.at += 1;
		await readAhead.refresh();
		expect(readAhead.standings([BUDGET])[0]?.use.prompts).toBe(1);
		expect(readAhead.problem()).toBe("later");
		expect(readAhead.problem()).toBeNull();
	});

	it("keeps each problem as said as it is taken to be shown, and only then", async () => {
		const first: string[] = [];
		const told = {
			said: () => false,
			first: (text: string) => first.push(text) > 0,
			failed: () => null,
			keepFailed: () => {},
		};
		const readAhead = new ReadAheadLedger({
			sessionId: "s1",
			clock: { now: () => 0 },
			budgets: [BUDGET],
			closed: false,
			run: async () => reply(1, ["the store is down"]),
			texts: TEXTS,
			readAfter: false,
			team: { name: "platform", zone: "UTC" },
			told,
		});
		await readAhead.refresh();
		expect(first).toEqual([]);
		expect(readAhead.problem()).toBe("the store is down");
		expect(readAhead.problem()).toBeNull();
		expect(first).toEqual(["the store is down"]);
	});

	it("refuses new turns while a batch cannot run in the closed mode, a prompt counted in it among them", async () => {
		const readAhead = ledger(async () => ({ error: "exec: node: not found" }), true);
		await readAhead.refresh();
		expect(readAhead.standings([BUDGET])[0]).toMatchObject({
			budget: BUDGET,
			closed: "refused (exec: node: not found)",
		});
		// A session with no daily budget of its own is refused too: the team's limits may be in the store.
		const [refused, ...more] = readAhead.standings([]);
		expect(more).toEqual([]);
		expect(refused?.closed).toBe("refused (exec: node: not found)");
		expect(refused?.budget.team).toEqual({ name: "platform", zone: "UTC" });
		expect(readAhead.problem()).toBe("down (exec: node: not found, true)");
		expect(readAhead.countPrompt([BUDGET], [3])).toBe(true);
		expect(await readAhead.settle()).toBe(false);
		expect(readAhead.takenRefusal()).toBe("refused (exec: node: not found)");
		// A batch that held no prompt refuses nothing: what it held is this machine's.
		readAhead.addUse([BUDGET], { agentMs: 5 });
		expect(await readAhead.settle()).toBe(true);
	});

	it("reads the day again once the last reading is TEAM_HOP_FRESH_MS old, a batch that read nothing aside", async () => {
		const now = { at: 0 };
		const requests: TeamRequest[] = [];
		let fail = false;
		const readAhead = ledger(
			async (request) => {
				requests.push(request);
				return fail ? { error: "gone" } : reply(1);
			},
			false,
			now,
		);
		// Nothing read yet: the team's store beside the day is not known.
		expect(readAhead.teamView()).toEqual({ unreadable: NO_TEAM });
		await readAhead.refresh();
		now.at += TEAM_HOP_FRESH_MS - 500;
		readAhead.addUse([BUDGET], { agentMs: 5 });
		expect(await readAhead.settle()).toBe(true);
		now.at += 500;
		await readAhead.refresh();
		expect(requests.map((request) => request.read ?? true)).toEqual([true, false, true]);
		// A batch that read nothing and failed leaves the day as read: it is not unread.
		fail = true;
		readAhead.addUse([BUDGET], { agentMs: 5 });
		await readAhead.settle();
		expect(readAhead.dayUnread()).toBeNull();
	});

	it("sends what an event wrote without reading the day after it, keeping the reading it had, and says each problem once", async () => {
		const requests: TeamRequest[] = [];
		const readAhead = ledger(async (request) => {
			requests.push(request);
			// The first batch meets one problem, the second the same again and another after it.
			return reply(requests.length === 1 ? 2 : 9, requests.length === 1 ? ["problem 1"] : ["problem 1", "problem 2"]);
		});
		await readAhead.refresh();
		readAhead.addUse([BUDGET], { agentMs: 5 });
		expect(await readAhead.settle()).toBe(true);
		expect(requests[1]).toMatchObject({ ops: [{ op: "use", use: { agentMs: 5 } }], read: false });
		expect(readAhead.standings([BUDGET])[0]?.use.prompts).toBe(2);
		expect(readAhead.problem()).toBe("problem 1");
		expect(readAhead.problem()).toBe("problem 2");
		expect(readAhead.problem()).toBeNull();
	});
});
