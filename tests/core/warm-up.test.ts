// The warm-up a live session runs as it loads: a prompt's rules run once on a copy of the session, so that the first
// prompt of a fresh process runs them warm. The copy changes nothing: it writes no record or prompt, claims nothing in
// the ledger (a claim it made would keep the real stop from firing), starts no on-stop command, aborts nothing and says
// nothing; the session's own first prompt then stops and runs the command, once, as it would have.

import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../src/core/model/history.ts";
import type { TimeboxRecord } from "../../src/core/model/records.ts";
import { LiveSession } from "../../src/core/run/live-session.ts";
import { warmUp } from "../../src/core/run/warm-up.ts";
import { EMPTY_SESSION } from "../../src/core/session/index.ts";
import { START } from "../support/budgets.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryLedger, MemoryUI, RecordingStarter } from "../support/memory-host.ts";

/** A budget of one turn, its turn used: the next prompt's model call stops it and runs `lmk`. */
const SPENT_AT_NEXT_PROMPT: HistoryItem[] = [
	{
		kind: "record",
		record: {
			kind: "active",
			budget: { version: 2, id: "b1", timeLimitMs: null, turnLimit: 1, startTime: START, onStopCommand: "lmk" },
		},
	},
	{ kind: "prompt", key: "p1", at: START },
];

describe("the warm-up as a session loads", () => {
	it("changes nothing, and the first prompt stops and runs the on-stop command once, as it would have", async () => {
		const history = [...SPENT_AT_NEXT_PROMPT];
		const appended: (TimeboxRecord | string)[] = [];
		const time = new FakeTime(START + 1_000);
		const ledger = new MemoryLedger();
		const ui = new MemoryUI();
		const onStop = new RecordingStarter();
		let aborts = 0;
		const session = new LiveSession({
			store: {
				append: (record) => appended.push(record),
				appendPrompt: (prompt) => appended.push(prompt),
				history: () => history,
			},
			ledger,
			ui,
			clock: time,
			scheduler: time,
			onStop,
			agent: { abortCurrentTurn: () => aborts++ },
			newBudgetId: () => "b2",
		});
		session.onSessionStart("restore", true);
		expect({ appended, claims: [...ledger.claims.keys()], commands: onStop.commands, aborts }).toEqual({
			appended: [],
			claims: [],
			commands: [],
			aborts: 0,
		});
		expect(ui.notifications.map((notice) => notice.message)).toEqual([
			"Timebox restored: no time limit | 0 turns left (1/1). On stop it runs: lmk",
		]);
		const answer = await session.handle({ type: "modelCall", prompt: "p2" });
		expect(answer.aborted).toBe(true);
		expect(onStop.commands).toEqual(["lmk"]);
		expect([...ledger.claims.keys()]).toEqual(["b1.spent"]);
	});

	it("leaves the state it is given as it was", () => {
		const state = structuredClone(EMPTY_SESSION);
		warmUp(state, { now: () => START });
		expect(state).toEqual(EMPTY_SESSION);
	});
});
