// What the one executor carries out through a host's optional ports: the watcher of a budget with time to run out
// (`watchBudget`, the hook hosts), the session's stop told to the subagents that run in processes of their own
// (`stopSubagents`, pi), and nothing where the host has no such port; and what the session's store is given of its
// history (prompts, usage): only what something counts.

import { describe, expect, it } from "vitest";
import type { RecordedUsage } from "../../src/core/model/events.ts";
import type { TimeboxRecord } from "../../src/core/model/records.ts";
import { type RuntimePorts, SessionRuntime } from "../../src/core/run/runtime.ts";
import { START } from "../support/budgets.ts";
import { MemoryLedger, RecordingStarter } from "../support/memory-host.ts";

function host(extra: Partial<RuntimePorts> = {}) {
	const records: TimeboxRecord[] = [];
	const kept: string[] = [];
	const now = { at: START };
	const ports: RuntimePorts = {
		store: {
			append: (record) => records.push(record),
			appendPrompt: (prompt) => kept.push(`prompt ${prompt}`),
			recordUsage: (usage: RecordedUsage) => kept.push(`usage ${usage.responseId} ${usage.used.tokens}`),
		},
		ledger: new MemoryLedger(),
		clock: { now: () => now.at },
		onStop: new RecordingStarter(),
		setStatus: () => {},
		abortRun: () => {},
		problem: (where, error) => {
			throw new Error(`${where}: ${String(error)}`);
		},
		late: () => {},
		...extra,
	};
	return { runtime: new SessionRuntime(ports), records, kept, now };
}

const details = (id: string) => ({ newBudgetId: id, report: () => "" });

describe("a host's optional ports", () => {
	it("starts the watcher of each budget with time to run out, after its record, under its outcome's id", () => {
		const watched: { budget: string; records: number }[] = [];
		const { runtime, records } = host({
			watchBudget: (budget) => watched.push({ budget, records: records.length }),
		});
		runtime.command("10m", details("b1"));
		runtime.command("+5m", details("unused"));
		runtime.command("pause", details("unused"));
		runtime.command("resume", details("unused"));
		runtime.command("turns:3", details("b2"));
		expect(watched).toEqual([
			{ budget: "b1", records: 1 },
			{ budget: "b1.e1", records: 2 },
			{ budget: "b1.e1", records: 4 },
		]);
	});

	it("tells the subagents in processes of their own once, as the session's budget becomes spent", () => {
		let told = 0;
		const { runtime, now } = host({ stopSubagents: () => told++ });
		runtime.command("1m", details("b1"));
		runtime.handle({ type: "modelCall", prompt: "p1" });
		expect(told).toBe(0);
		now.at += 61_000;
		expect(runtime.handle({ type: "timeCheck" }).aborted).toBe(true);
		expect(told).toBe(1);
		// Spent it stays: a later check, or the next prompt that runs on, tells them nothing again.
		runtime.handle({ type: "timeCheck" });
		runtime.handle({ type: "modelCall", prompt: "p2" });
		expect(told).toBe(1);
	});

	it("carries out neither where the host has no port for it", () => {
		const { runtime, now } = host();
		runtime.command("1m", details("b1"));
		now.at += 61_000;
		expect(runtime.handle({ type: "timeCheck" }).aborted).toBe(true);
	});
});

describe("what the session's store is given of its history", () => {
	/** A prompt's model call and its answer. */
	function run(runtime: SessionRuntime, prompt: string): void {
		runtime.handle({ type: "modelCall", prompt });
		runtime.handle({ type: "modelResponse", tokens: 10, cost: 0, responseId: `${prompt}-r` });
	}

	it("read back only at a load, is given no prompt or usage until a budget is set, and each while one is in force, spent too", () => {
		const { runtime, kept, now } = host({ historyWhileBudgeted: true });
		run(runtime, "p1");
		expect(kept).toEqual([]);
		runtime.command("1m", details("b1"));
		run(runtime, "p2");
		now.at += 61_000;
		run(runtime, "p3");
		expect(kept).toEqual(["prompt p2", "usage p2-r 10", "usage p3-r 10"]);
		// Off, nothing counts them any more.
		runtime.command("off", details("unused"));
		run(runtime, "p4");
		expect(kept).toEqual(["prompt p2", "usage p2-r 10", "usage p3-r 10"]);
	});

	it("where the store carries the session from one event to the next, is given every prompt and usage", () => {
		const { runtime, kept } = host();
		run(runtime, "p1");
		runtime.command("turns:3", details("b1"));
		run(runtime, "p2");
		expect(kept).toEqual(["prompt p1", "usage p1-r 10", "prompt p2", "usage p2-r 10"]);
	});
});
