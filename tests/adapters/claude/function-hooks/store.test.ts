// The module's store of one Claude Code session over `$.store`: the ledger's claims, first one wins, read back as the
// rules read them.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { engineOf } from "../../../../src/adapters/claude/function-hooks/engine.ts";
import { moduleStartMark, startedMarks } from "../../../../src/adapters/claude/function-hooks/on-stop.ts";
import { claimedView, ModuleStore, type SavedClaim } from "../../../../src/adapters/claude/function-hooks/store.ts";
import type { LedgerClaim } from "../../../../src/core/index.ts";
import { FakeTime } from "../../../support/fake-time.ts";
import { FakeDollar, settle } from "./fake-engine.ts";

async function opened(): Promise<{ store: ModuleStore; $: FakeDollar; problems: unknown[]; time: FakeTime }> {
	const $ = new FakeDollar(new FakeTime());
	const engine = engineOf($);
	const problems: unknown[] = [];
	const time = new FakeTime();
	const store = await ModuleStore.open(() => engine, "s1", {
		clock: time,
		scheduler: time,
		problem: (error, where) => problems.push(`${where}: ${String(error)}`),
	});
	return { store, $, problems, time };
}

describe("the ledger of a session", () => {
	it("takes the first claim of each kind for a budget, and no second", async () => {
		const { store, $ } = await opened();
		const summary = { usedTurns: 2, elapsedMs: 5_000, timeRanOut: false };
		expect(store.claim({ kind: "spent", budgetId: "b1", summary, prompt: "p2" })).toBe(true);
		expect(store.claim({ kind: "spent", budgetId: "b1", summary, prompt: "p3" })).toBe(false);
		expect(store.claim({ kind: "nudged", budgetId: "b1" })).toBe(true);
		expect(store.claim({ kind: "ended", budgetId: "b1" })).toBe(true);
		expect(store.claim({ kind: "off", budgetId: "b2" })).toBe(true);
		expect(store.read("b1")).toEqual({ spent: { ...summary, prompt: "p2" }, off: false, nudged: true });
		expect(store.read("b2")).toEqual({ spent: null, off: true, nudged: false });
		await store.flush();
		const saved = $.values.get("session:s1") as { claims: unknown[] };
		expect(saved.claims).toHaveLength(4);
	});
});

describe("the on-stop commands its claims recorded", () => {
	const summary = { usedTurns: 1, elapsedMs: 5_000, timeRanOut: false };
	const marks = { instance: "this-process", started: new Set<string>() };

	it("reads one as pending with its claimant and time, an older claim with neither as a gone process's", () => {
		const claims: SavedClaim[] = [
			{
				kind: "spent",
				budgetId: "b1",
				summary,
				prompt: null,
				onStopCommand: "lmk",
				instance: "this-process",
				claimedAt: 7,
			},
			{ kind: "ended", budgetId: "b2", onStopCommand: "lmk" },
			{ kind: "onStopRecovered", budgetId: "b2" },
		];
		expect(claimedView(claims, "b1", marks).onStop).toEqual({
			claim: { budgetId: "b1", kind: "spent" },
			command: "lmk",
			claimedAt: 7,
			started: false,
			claimantAlive: true,
			recovered: false,
		});
		expect(claimedView(claims, "b2", { ...marks, started: new Set(["b2.ended"]) }).onStop).toMatchObject({
			claimedAt: 0,
			started: true,
			claimantAlive: false,
			recovered: true,
		});
		// Without the marks (no state folder) nothing is pending, nor for an id no mark could be named by.
		expect(claimedView(claims, "b1").onStop).toBeUndefined();
		const hostile: SavedClaim = { kind: "spent", budgetId: "../b", summary, prompt: null, onStopCommand: "lmk" };
		expect(claimedView([hostile], "../b", marks).onStop).toBeUndefined();
		expect(() => moduleStartMark("/state/on-stop", { budgetId: "../b", kind: "spent" })).toThrow("not a budget id");
	});

	it("reads the command a stop kept for the end of the run it let wrap up, until that end is claimed", () => {
		const wrapped = { ...summary, wrapUpUntil: 30_007 };
		const stop: SavedClaim = {
			kind: "spent",
			budgetId: "b1",
			summary: wrapped,
			prompt: "p1",
			onStopAtEnd: "lmk",
			instance: "another-process",
			claimedAt: 7,
		};
		expect(claimedView([stop], "b1", marks).onStop).toEqual({
			claim: { budgetId: "b1", kind: "ended" },
			command: "lmk",
			claimedAt: 7,
			started: false,
			claimantAlive: false,
			recovered: false,
			endsBy: 30_007,
		});
		expect(claimedView([stop], "b1", { ...marks, started: new Set(["b1.ended"]) }).onStop).toMatchObject({
			started: true,
		});
		// Its end claimed: that claim's command, or none where the end was claimed with none.
		const ended: SavedClaim = { kind: "ended", budgetId: "b1", onStopCommand: "lmk", instance: "this-process" };
		expect(claimedView([stop, ended], "b1", marks).onStop).toEqual({
			claim: { budgetId: "b1", kind: "ended" },
			command: "lmk",
			claimedAt: 0,
			started: false,
			claimantAlive: true,
			recovered: false,
		});
		expect(claimedView([stop, { kind: "ended", budgetId: "b1" }], "b1", marks).onStop).toBeUndefined();
		// A stop that gave no time to wrap up keeps none.
		expect(claimedView([{ ...stop, summary }], "b1", marks).onStop).toBeUndefined();
	});

	it("looks up the mark of each claim that recorded a command, and of no other", async () => {
		const $ = new FakeDollar(new FakeTime());
		const dir = mkdtempSync(join(tmpdir(), "timebox-marks-"));
		writeFileSync(join(dir, "b1.spent.started"), "");
		const claims: LedgerClaim[] = [
			{ kind: "spent", budgetId: "b1", summary, prompt: null, onStopCommand: "lmk" },
			{ kind: "ended", budgetId: "b2", onStopCommand: "lmk" },
			{ kind: "spent", budgetId: "b3", summary, prompt: null },
			{ kind: "spent", budgetId: "../b4", summary, prompt: null, onStopCommand: "lmk" },
			{ kind: "nudged", budgetId: "b5" },
			// The command a stop kept for the end of its run, behind the end's mark.
			{ kind: "spent", budgetId: "b6", summary, prompt: null, onStopAtEnd: "lmk" },
		];
		writeFileSync(join(dir, "b6.ended.started"), "");
		expect([...(await startedMarks(engineOf($), dir, claims))]).toEqual(["b1.spent", "b6.ended"]);
	});
});

describe("what model calls used", () => {
	it("is summed into one item per prompt and written within a second, not at every call", async () => {
		const { store, $, time } = await opened();
		store.append({ kind: "off", version: 2, budgetId: "b1", disabledAt: 0 });
		store.appendPrompt("p1");
		await store.flush();
		store.appendUsage(100, 0.5);
		store.appendUsage(20, 0.25);
		await settle();
		const before = $.values.get("session:s1") as { history: unknown[] };
		expect(before.history).toHaveLength(2);
		time.advance(1_000);
		await store.flush();
		const after = $.values.get("session:s1") as { history: unknown[] };
		expect(after.history).toEqual([
			{ kind: "record", record: { kind: "off", version: 2, budgetId: "b1", disabledAt: 0 } },
			{ kind: "prompt", key: "p1", at: time.now() - 1_000 },
			{ kind: "usage", tokens: 120, cost: 0.75, at: time.now() - 1_000 },
		]);
		store.appendUsage(1, 0);
		await store.flush();
		expect(($.values.get("session:s1") as { history: { tokens?: number }[] }).history.at(-1)?.tokens).toBe(121);
	});

	it("keeps what the rules keep of a response, its id aside, and no cost where none was seen", async () => {
		const { store, $ } = await opened();
		store.append({ kind: "off", version: 2, budgetId: "b1", disabledAt: 0 });
		store.recordUsage({ responseId: "t1:0", used: { tokens: 40, cost: 0.1 }, at: 5 });
		store.recordUsage({ responseId: "t1:1", used: { tokens: 2 }, at: 6 });
		await store.flush();
		const saved = $.values.get("session:s1") as { history: { tokens?: number; cost?: number }[] };
		expect(saved.history.at(-1)).toMatchObject({ kind: "usage", tokens: 42, cost: 0.1 });
	});
});
