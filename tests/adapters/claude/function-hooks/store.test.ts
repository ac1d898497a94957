// The module's store of one Claude Code session over `$.store`: the ledger's claims, first one wins, read back as the
// rules read them.

import { describe, expect, it } from "vitest";
import { engineOf } from "../../../../src/adapters/claude/function-hooks/engine.ts";
import { ModuleStore } from "../../../../src/adapters/claude/function-hooks/store.ts";
import { FakeTime } from "../../../support/fake-time.ts";
import { FakeDollar } from "./fake-engine.ts";

async function opened(): Promise<{ store: ModuleStore; $: FakeDollar; problems: unknown[] }> {
	const $ = new FakeDollar(new FakeTime());
	const engine = engineOf($);
	const problems: unknown[] = [];
	const store = await ModuleStore.open(
		() => engine,
		"s1",
		() => 0,
		(error) => problems.push(error),
	);
	return { store, $, problems };
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
