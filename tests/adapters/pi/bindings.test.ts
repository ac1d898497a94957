// The pi bindings of the shared ports: BudgetStore as timebox-active / timebox-off entries written with pi.appendEntry
// and read back from the session, and TranscriptBridge as the session's user messages.

import { describe, expect, it } from "vitest";
import { SessionContext } from "../../../src/adapters/pi/session-context.ts";
import { PiBudgetStore } from "../../../src/adapters/pi/store.ts";
import { restore } from "../../../src/core/index.ts";
import { budget, MINUTE, START } from "../../support/budgets.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

async function storeOn(file: FakeSessionFile): Promise<PiBudgetStore> {
	const pi = await new FakePi({ file }).start();
	const context = new SessionContext();
	context.bind(pi.instance.context());
	return new PiBudgetStore(pi.instance.api, context);
}

describe("BudgetStore on pi", () => {
	it("appendActive writes the budget as a timebox-active entry, as it is given", async () => {
		const file = new FakeSessionFile();
		const store = await storeOn(file);
		const set = budget({ timeLimitMs: 15 * MINUTE, onStopCommand: "lmk" });
		store.appendActive(set);
		expect(file.custom("timebox-active")).toEqual([set]);
	});

	it("appendOff writes a timebox-off entry with disabledAt, and the budget it turns off when named", async () => {
		const file = new FakeSessionFile();
		const store = await storeOn(file);
		store.appendOff(START);
		store.appendOff(START + 1, "b1");
		expect(file.custom("timebox-off")).toEqual([
			{ disabledAt: START },
			{ version: 2, budgetId: "b1", disabledAt: START + 1 },
		]);
	});

	it("loadRecords reads back the timebox-active and timebox-off entries, oldest first, for restore", async () => {
		const file = new FakeSessionFile();
		const store = await storeOn(file);
		const set = budget({ turnLimit: 3 });
		store.appendActive(set);
		file.appendUserMessage("one", 1);
		file.appendCustom("timebox-subagents", { version: 2, budgets: null, at: START });
		expect(store.loadRecords()).toEqual([{ kind: "active", budget: set }]);
		expect(restore(store.loadRecords(), START, store.countUserMessages())).toMatchObject({
			status: "restored",
			budget: { turnLimit: 3 },
		});
		store.appendOff(START);
		expect(store.loadRecords()).toEqual([
			{ kind: "active", budget: set },
			{ kind: "off", disabledAt: START },
		]);
		expect(restore(store.loadRecords(), START, store.countUserMessages())).toEqual({ status: "none" });
	});
});

describe("TranscriptBridge on pi", () => {
	it("counts the user messages of the session, and nothing else", async () => {
		const file = new FakeSessionFile();
		const store = await storeOn(file);
		expect(store.countUserMessages()).toBe(0);
		file.appendUserMessage("one", 1);
		file.appendMessage({ role: "assistant", content: "answer", timestamp: 2 });
		file.appendUserMessage("two", 3);
		file.appendCustom("timebox-active", budget({ turnLimit: 2 }));
		expect(store.countUserMessages()).toBe(2);
	});
});
