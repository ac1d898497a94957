// The contract every SessionStore keeps, run against the in-memory store, pi's session entries, the session log of the
// hook hosts and opencode, and Claude Code's hooks module store (over `$.store`, written asynchronously): records come
// back in the order written, as history, with the prompts between them, from the store that wrote them and from the
// store opened again; and a prompt a store forgets (it never ran after all) is gone from both.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { engineOf } from "../../src/adapters/claude/function-hooks/engine.ts";
import { ModuleStore } from "../../src/adapters/claude/function-hooks/store.ts";
import { FoldedSessionLog } from "../../src/adapters/node/folded-session-log.ts";
import { SessionLog } from "../../src/adapters/node/session-log.ts";
import { promptKey } from "../../src/adapters/pi/prompt-key.ts";
import { SessionContext } from "../../src/adapters/pi/session-context.ts";
import { PiBudgetStore } from "../../src/adapters/pi/store.ts";
import {
	budgetStoreOver,
	restore,
	type SessionStore,
	type SyncBudgetStore,
	type TimeboxRecord,
	type TranscriptBridge,
} from "../../src/core/index.ts";
import { FakeDollar } from "../adapters/claude/function-hooks/fake-engine.ts";
import { FakePi, FakeSessionFile } from "../adapters/pi/fake-pi.ts";
import { FakeTime } from "../support/fake-time.ts";
import { MemoryStore } from "../support/memory-host.ts";

const BUDGET_DATA = {
	version: 2,
	id: "budget-1",
	timeLimitMs: 900_000,
	turnLimit: 3,
	startTime: 5,
	onStopCommand: "say hi",
};
const BUDGET: TimeboxRecord = { kind: "active", budget: BUDGET_DATA };
const OFF: TimeboxRecord = { kind: "off", version: 2, budgetId: "budget-1", disabledAt: 9 };
const SUBAGENTS: TimeboxRecord = { kind: "subagents", version: 2, budgets: { "*": "5m steps:30" }, at: 11 };
const SUBAGENT: TimeboxRecord = {
	kind: "subagent",
	version: 2,
	agent: {
		id: "agent-1",
		parent: null,
		agentType: "Explore",
		task: "find the flaky test",
		budget: { timeLimitMs: 300_000, stepLimit: 30 },
		startedAt: 12,
		steps: 3,
		spend: { tokens: 100, cost: 0.01 },
		warned: false,
		told: true,
		spent: null,
		wrapUp: null,
		ended: null,
		closed: false,
		endedAt: null,
	},
};

interface StoreUnderTest {
	store: SessionStore;
	/** The spec's store and transcript of the same session: the store itself where it implements them. */
	spec: SyncBudgetStore & TranscriptBridge;
	/** Adds a prompt the way the host's history gets one. */
	addPrompt(text: string): void;
	/** The prompt key the host gives that prompt. */
	keyOf(text: string): string;
	/** The store opened again, as the next process (or reload) opens it. */
	reopen(): Promise<SessionStore>;
}

const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const implementations: [string, () => Promise<StoreUnderTest>][] = [
	[
		"in-memory",
		async () => {
			const store = new MemoryStore();
			return {
				store,
				spec: budgetStoreOver(store),
				addPrompt: (text) => store.addPrompt(text),
				keyOf: (text) => text,
				reopen: async () => store,
			};
		},
	],
	[
		"pi session entries",
		async () => {
			const file = new FakeSessionFile();
			const pi = await new FakePi({ file }).start();
			const context = new SessionContext();
			context.bind(pi.instance.context());
			const store = new PiBudgetStore(pi.instance.api, context);
			return {
				store,
				spec: store,
				addPrompt: (text) => file.appendUserMessage(text, 7),
				keyOf: (text) => promptKey({ role: "user", timestamp: 7, content: text }),
				reopen: async () => store,
			};
		},
	],
	[
		"session log",
		async () => {
			const folder = mkdtempSync(join(tmpdir(), "timebox-store-"));
			folders.push(folder);
			const store = new SessionLog(folder, "session-1");
			return {
				store,
				spec: store,
				addPrompt: (text) => store.appendPrompt(text, 7),
				keyOf: (text) => text,
				reopen: async () => new SessionLog(folder, "session-1"),
			};
		},
	],
	[
		"Claude Code hooks module",
		async () => {
			const time = new FakeTime();
			const engine = engineOf(new FakeDollar(time));
			const deps = {
				clock: time,
				scheduler: time,
				problem: (error: unknown) => {
					throw error;
				},
			};
			const store = await ModuleStore.open(() => engine, "session-1", deps);
			return {
				store,
				spec: store,
				addPrompt: (text) => store.appendPrompt(text),
				keyOf: (text) => text,
				reopen: async () => {
					await store.flush();
					return ModuleStore.open(() => engine, "session-1", deps);
				},
			};
		},
	],
];

describe.each(implementations)("the %s store", (_name, make) => {
	it("starts with an empty history", async () => {
		expect((await make()).store.history()).toEqual([]);
	});

	it("keeps the spec's records: a budget set and turned off come back in order, and the user's turns are counted", async () => {
		const { spec, addPrompt } = await make();
		expect(spec.loadRecords()).toEqual([]);
		spec.appendActive(BUDGET_DATA);
		addPrompt("first");
		addPrompt("second");
		spec.appendOff(9, "budget-1");
		spec.appendOff(10);
		expect(spec.loadRecords()).toEqual([
			expect.objectContaining({ kind: "active", budget: expect.objectContaining({ id: "budget-1", turnLimit: 3 }) }),
			expect.objectContaining({ kind: "off", budgetId: "budget-1", disabledAt: 9 }),
			expect.objectContaining({ kind: "off", disabledAt: 10 }),
		]);
		expect(spec.countUserMessages()).toBe(2);
		// The newest record is an off: there is nothing to restore.
		expect(restore(spec.loadRecords(), 20, 2)).toEqual({ status: "none" });
	});

	// A store keeps what it is given, a prompt before any record among it: which prompts are given is the rules' call.
	it("gives back what was written, in order, with the prompts before and between the records, also when opened again", async () => {
		const { store, addPrompt, keyOf, reopen } = await make();
		addPrompt("zeroth");
		store.append(BUDGET);
		addPrompt("first");
		store.append(OFF);
		addPrompt("second");
		for (const history of [store.history(), (await reopen()).history()]) {
			expect(history.map((item) => item.kind)).toEqual(["prompt", "record", "prompt", "record", "prompt"]);
			expect(history[0]).toMatchObject({ kind: "prompt", key: keyOf("zeroth") });
			expect(history[1]).toMatchObject({ kind: "record", record: BUDGET });
			// A prompt carries when it was sent where the store knows it.
			expect(history[2]).toMatchObject({ kind: "prompt", key: keyOf("first") });
			expect(history[3]).toMatchObject({
				kind: "record",
				record: { kind: "off", budgetId: "budget-1", disabledAt: 9 },
			});
			expect(history[4]).toMatchObject({ kind: "prompt", key: keyOf("second") });
		}
	});

	it("gives back the subagents' records as written, and keeps the session's budget apart from them", async () => {
		const { store } = await make();
		store.append(BUDGET);
		store.append(SUBAGENTS);
		store.append(SUBAGENT);
		const records = store.history().flatMap((item) => (item.kind === "record" ? [item.record] : []));
		expect(records).toHaveLength(3);
		expect(records[0]).toMatchObject(BUDGET);
		expect(records[1]).toEqual(SUBAGENTS);
		expect(records[2]).toEqual(SUBAGENT);
	});
});

/** The stores that keep the prompts themselves, and so can forget one (the others' hosts keep the user's messages). */
const PROMPT_STORES = new Set(["session log", "Claude Code hooks module"]);
const dropping: [string, () => Promise<StoreUnderTest>][] = [
	...implementations.filter(([name]) => PROMPT_STORES.has(name)),
	[
		"folded session log",
		async () => {
			const folder = mkdtempSync(join(tmpdir(), "timebox-store-"));
			folders.push(folder);
			const store = new FoldedSessionLog(folder, "session-1");
			return {
				store,
				spec: store,
				addPrompt: (text) => store.appendPrompt(text, 7),
				keyOf: (text) => text,
				reopen: async () => new FoldedSessionLog(folder, "session-1"),
			};
		},
	],
];

describe.each(dropping)("the %s store", (_name, make) => {
	it("forgets a prompt it kept that never ran, the newest of its key only, also when opened again", async () => {
		const { store, addPrompt, reopen } = await make();
		const dropPrompt = store.dropPrompt?.bind(store);
		if (dropPrompt === undefined) throw new Error("this store forgets no prompt");
		addPrompt("first");
		store.append(BUDGET);
		addPrompt("first");
		addPrompt("second");
		dropPrompt("first");
		dropPrompt("never kept");
		for (const history of [store.history(), (await reopen()).history()]) {
			expect(history.map((item) => (item.kind === "prompt" ? item.key : item.kind))).toEqual([
				"first",
				"record",
				"second",
			]);
		}
	});
});

/** The stores that keep what each response used (pi's reads it from the branch, the in-memory one keeps none). */
const USAGE_STORES = new Set(["session log", "Claude Code hooks module"]);

describe.each(implementations.filter(([name]) => USAGE_STORES.has(name)))("the %s store", (_name, make) => {
	it("keeps what a response used before any record, where it keeps usage, also when opened again", async () => {
		const { store, reopen } = await make();
		const recordUsage = store.recordUsage?.bind(store);
		if (recordUsage === undefined) throw new Error("this store keeps no usage");
		recordUsage({ responseId: "r1", used: { tokens: 120, cost: 0.5 }, at: 3 });
		store.append(BUDGET);
		recordUsage({ responseId: "r2", used: { tokens: 30, cost: 0.25 }, at: 4 });
		for (const history of [store.history(), (await reopen()).history()]) {
			expect(history).toEqual([
				expect.objectContaining({ kind: "usage", tokens: 120, cost: 0.5 }),
				expect.objectContaining({ kind: "record" }),
				expect.objectContaining({ kind: "usage", tokens: 30, cost: 0.25 }),
			]);
		}
	});
});
