// The pi adapter's parts one by one: completions, which prompt a model call answers, the store, the UI bridge, the
// session context and the system prompt answer.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it, vi } from "vitest";
// pi's session manager from its own module, the one pi's entry exports: the entry loads all of pi (its TUI, extension
// loader and highlighter), which took a second and more of the unit suite for this one class.
import { SessionManager } from "../../../node_modules/@mariozechner/pi-coding-agent/dist/core/session-manager.js";
import { withBudgetNote } from "../../../src/adapters/pi/budget-note.ts";
import { COMMAND_DESCRIPTION, createTimeboxCommand } from "../../../src/adapters/pi/command.ts";
import { extensionRunOfCall, type MessageLike, promptKey, promptOfCall } from "../../../src/adapters/pi/prompt-key.ts";
import { SessionContext } from "../../../src/adapters/pi/session-context.ts";
import { PiBudgetStore } from "../../../src/adapters/pi/store.ts";
import { PiUIBridge } from "../../../src/adapters/pi/ui-bridge.ts";
import { argumentCompletions } from "../../../src/core/index.ts";
import { FakePi, FakeSessionFile } from "./fake-pi.ts";

describe("the command", () => {
	it("completes its arguments with the core's completions", () => {
		expect(createTimeboxCommand(async () => {}).getArgumentCompletions).toBe(argumentCompletions);
	});

	it("has a description that shows the syntax", () => {
		expect(COMMAND_DESCRIPTION).toContain("/timebox 15m turns:3");
		expect(COMMAND_DESCRIPTION).toContain("subagents 5m steps:30");
	});
});

function contextFor(file: FakeSessionFile, hasUI = true) {
	const pi = new FakePi({ file, hasUI });
	return pi;
}

describe("which prompt a model call answers", () => {
	const user = (text: string, timestamp = 1): MessageLike => ({ role: "user", content: text, timestamp });
	const assistant: MessageLike = { role: "assistant", content: [] };
	const toolResult: MessageLike = { role: "toolResult", content: [] };
	const extension: MessageLike = { role: "custom", content: "note" };

	it("names a user message by its timestamp and text, reading text parts and nothing else", () => {
		expect(promptKey(user("fix the bug", 7))).toBe("7:11:f86508e1:fix the bug");
		const parts = { role: "user", timestamp: 8, content: [null, { type: "text", text: "a" }, { type: "image" }, "b"] };
		expect(promptKey(parts)).toBe("8:1:e40c292c:a");
		expect(promptKey({ role: "user", timestamp: 9, content: 42 })).toBe("9:0:811c9dc5:");
		expect(promptKey(user("x".repeat(50), 1))).toBe(`1:50:8ff0d72d:${"x".repeat(32)}`);
	});

	it("tells apart two messages of the same time stamp, length and start", () => {
		const start = "a".repeat(40);
		expect(promptKey(user(`${start}1`))).not.toBe(promptKey(user(`${start}2`)));
	});

	it.each([
		["a first prompt", [user("one")], promptKey(user("one"))],
		["a new prompt after an answer", [user("one"), assistant, user("two", 2)], promptKey(user("two", 2))],
		["a prompt followed by extension messages", [assistant, user("two", 2), extension], promptKey(user("two", 2))],
		[
			"the newest of messages delivered together",
			[assistant, user("two", 2), user("three", 3)],
			promptKey(user("three", 3)),
		],
		["a tool loop", [user("one"), assistant, toolResult], null],
		["a steering message after a tool result", [user("one"), assistant, toolResult, user("steer", 2)], null],
		["no messages", [], null],
	])("reads %s", (_name, messages, expected) => {
		expect(promptOfCall(messages as MessageLike[])).toBe(expected);
	});

	const started: MessageLike = { role: "custom", content: "check the build", timestamp: 5 };
	it.each([
		["a run an extension started before any prompt", [started], `extension:${promptKey(started)}`],
		[
			"a run an extension started after an answer",
			[user("one"), assistant, started],
			`extension:${promptKey(started)}`,
		],
		[
			"the newest of extension messages sent together",
			[assistant, extension, started],
			`extension:${promptKey(started)}`,
		],
		["a prompt with an extension's message beside it", [assistant, user("two", 2), started], null],
		["an extension's message that steers a tool loop", [user("one"), assistant, toolResult, started], null],
		["a tool loop of a run an extension started", [started, assistant, toolResult], null],
		[
			"a run an extension started after a compaction",
			[{ role: "compactionSummary" }, started],
			`extension:${promptKey(started)}`,
		],
		["a prompt", [user("one")], null],
		["no messages", [], null],
	])("tells whether a call starts %s", (_name, messages, expected) => {
		expect(extensionRunOfCall(messages as MessageLike[])).toBe(expected);
	});
});

describe("PiBudgetStore", () => {
	it("reads the branch oldest first: timebox entries as records, user messages as prompts, answers as usage", async () => {
		const file = new FakeSessionFile();
		file.appendCustom("timebox-active", { turnLimit: 2 });
		file.appendUserMessage("hi", 3);
		file.appendMessage({ role: "assistant", content: "hello", timestamp: 4 });
		file.appendMessage({
			role: "assistant",
			content: "metered",
			timestamp: 6,
			usage: { input: 500, output: 100, cacheRead: 20, cacheWrite: 4, cost: { total: 0.006 } },
		});
		file.appendMessage({ role: "toolResult", content: "ok", timestamp: 7 });
		// An entry of another kind, as pi writes when the model changes.
		file.append({ type: "model_change", provider: "p", modelId: "m" } as Parameters<FakeSessionFile["append"]>[0]);
		file.appendCustom("other-extension", { kind: "off" });
		file.appendCustom("timebox-off", { disabledAt: 5 });
		file.appendCustom("timebox-off", "garbage");
		const pi = await contextFor(file).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		expect(new PiBudgetStore(pi.instance.api, context).history()).toEqual([
			{ kind: "record", record: { kind: "active", budget: { turnLimit: 2 } } },
			{ kind: "prompt", key: "3:2:683af69a:hi", at: 3 },
			// The two answers of the run, added up.
			{ kind: "usage", tokens: 624, cost: 0.006, at: 4 },
			{ kind: "record", record: { kind: "off", disabledAt: 5 } },
			{ kind: "record", record: { kind: "off" } },
		]);
	});

	it("reads an answer that carries no time stamp as usage without a time", async () => {
		const file = new FakeSessionFile();
		file.appendUserMessage("hi", 3);
		file.appendMessage({
			role: "assistant",
			content: "hello",
			timestamp: 4,
			usage: { input: 7, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } },
		});
		// A session file written by another tool may hold an answer with no time stamp.
		const answer = file.entries.at(-1);
		if (answer?.type === "message") Reflect.deleteProperty(answer.message, "timestamp");
		const pi = await contextFor(file).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		expect(new PiBudgetStore(pi.instance.api, context).history()).toEqual([
			{ kind: "prompt", key: "3:2:683af69a:hi", at: 3 },
			{ kind: "usage", tokens: 9, cost: 0.5 },
		]);
	});

	it("reads the branch down to an entry whose parent is missing, and no further", async () => {
		const file = new FakeSessionFile();
		file.appendUserMessage("lost", 1);
		file.appendUserMessage("kept", 2);
		const kept = file.entries[1];
		if (kept) kept.parentId = "gone";
		const pi = await contextFor(file).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		expect(new PiBudgetStore(pi.instance.api, context).history()).toEqual([
			{ kind: "prompt", key: "2:4:e8614759:kept", at: 2 },
		]);
	});

	/** A session file with, per text, a user message and a run of two model calls with a tool result after each. */
	function sessionOf(...prompts: string[]): FakeSessionFile {
		const file = new FakeSessionFile();
		for (const [index, text] of prompts.entries()) {
			file.appendUserMessage(text, index);
			for (const tokens of [96, 32]) {
				file.appendMessage({
					role: "assistant",
					content: "",
					timestamp: index,
					usage: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: tokens / 256 } },
				});
				file.appendMessage({ role: "toolResult", content: "ok", timestamp: index });
			}
		}
		return file;
	}
	/** The store on pi's session manager over `file`, and the lookups of entries by id it made. */
	function storeOn(file: FakeSessionFile) {
		const lookups = vi.fn((id: string) => file.entries.find((entry) => entry.id === id));
		const sessionManager = { getEntries: () => file.entries.slice(), getLeafId: () => file.leafId, getEntry: lookups };
		const context = new SessionContext();
		context.bind({ sessionManager } as unknown as ExtensionContext);
		return { store: new PiBudgetStore({ appendEntry: () => {} }, context), lookups };
	}
	const run = (text: string, at: number) => [
		{ kind: "prompt", key: promptKey({ role: "user", timestamp: at, content: text }), at },
		{ kind: "usage", tokens: 128, cost: 0.5, at },
	];

	it("reads a session that never branched in one pass over its entries, looking none up by id", () => {
		const { store, lookups } = storeOn(sessionOf("one", "two"));
		expect(store.history()).toEqual([...run("one", 0), ...run("two", 1)]);
		expect(lookups).not.toHaveBeenCalled();
	});

	it("reads the branch the leaf is on after /tree moved it, and nothing at the root", () => {
		const file = sessionOf("one", "two");
		const { store } = storeOn(file);
		const firstRunEnd = file.entries[4]?.id ?? null;
		const secondRunEnd = file.leafId;
		file.leafId = firstRunEnd;
		file.appendUserMessage("other", 9);
		expect(store.history()).toEqual([
			...run("one", 0),
			{ kind: "prompt", key: promptKey({ role: "user", timestamp: 9, content: "other" }), at: 9 },
		]);
		// Back on the first branch's leaf, which is not the last entry of the file.
		file.leafId = secondRunEnd;
		expect(store.history()).toEqual([...run("one", 0), ...run("two", 1)]);
		file.leafId = null;
		expect(store.history()).toEqual([]);
	});

	it("reads the entries where pi's own session manager holds them, its header left out, as its copy reads", () => {
		const manager = SessionManager.inMemory("/project");
		manager.appendMessage({ role: "user", content: "one", timestamp: 1 });
		manager.appendCustomEntry("timebox-active", {
			version: 2,
			id: "b1",
			timeLimitMs: null,
			turnLimit: 3,
			startTime: 2,
			onStopCommand: null,
		});
		manager.appendMessage({ role: "user", content: "two", timestamp: 3 });
		const read = (sessionManager: object) => {
			const context = new SessionContext();
			context.bind({ sessionManager } as unknown as ExtensionContext);
			return new PiBudgetStore({ appendEntry: () => {} }, context).history();
		};
		const expected = [
			{ kind: "prompt", key: promptKey({ role: "user", timestamp: 1, content: "one" }), at: 1 },
			{ kind: "record", record: expect.objectContaining({ kind: "active" }) },
			{ kind: "prompt", key: promptKey({ role: "user", timestamp: 3, content: "two" }), at: 3 },
		];
		// pi's own array holds the session's header first: read in place, it is left out.
		expect((manager as unknown as { fileEntries: { type: string }[] }).fileEntries[0]?.type).toBe("session");
		const getEntries = vi.spyOn(manager, "getEntries");
		expect(read(manager)).toEqual(expected);
		expect(getEntries).not.toHaveBeenCalled();
		// A session manager that holds its entries elsewhere is read through its copy, alike.
		const elsewhere = {
			getEntries: () => manager.getEntries(),
			getLeafId: () => manager.getLeafId(),
			getEntry: (id: string) => manager.getEntry(id),
		};
		expect(read(elsewhere)).toEqual(expected);
	});

	it("writes a budget as a timebox-active entry and an off as a timebox-off entry", async () => {
		const pi = await contextFor(new FakeSessionFile()).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		const store = new PiBudgetStore(pi.instance.api, context);
		const budget = { version: 2, id: "b1", timeLimitMs: null, turnLimit: 1, startTime: 5, onStopCommand: null };
		store.append({ kind: "active", budget });
		store.append({ kind: "off", version: 2, budgetId: "b1", disabledAt: 6 });
		expect(pi.file.custom("timebox-active")).toEqual([budget]);
		expect(pi.file.custom("timebox-off")).toEqual([{ version: 2, budgetId: "b1", disabledAt: 6 }]);
	});
});

describe("PiUIBridge", () => {
	it("sends an unchanged status once", async () => {
		const pi = await contextFor(new FakeSessionFile()).start();
		const context = new SessionContext();
		context.bind(pi.instance.context());
		const ui = new PiUIBridge(context, () => undefined);
		ui.setStatus("Timebox: a");
		ui.setStatus("Timebox: a");
		ui.setStatus(undefined);
		expect(pi.screen.statusUpdates).toEqual(["Timebox: a", undefined]);
	});

	it("refuses to act before pi gave it a context", () => {
		const ui = new PiUIBridge(new SessionContext(), () => undefined);
		expect(() => ui.notify("x", "info")).toThrow("no pi session context yet");
	});
});

describe("SessionContext", () => {
	it("is live only between the first event and the session's end", async () => {
		const context = new SessionContext();
		expect(context.isLive()).toBe(false);
		const pi = await contextFor(new FakeSessionFile()).start();
		context.bind(pi.instance.context());
		expect(context.isLive()).toBe(true);
		pi.instance.stale = true;
		expect(context.isLive()).toBe(false);
	});
});

describe("the context answer", () => {
	const prompt = { role: "user" as const, content: "fix it", timestamp: 1 };
	it("changes nothing without a block", () => {
		expect(withBudgetNote([prompt], [], 5)).toBeUndefined();
	});
	it("keeps the call's messages and adds one hidden note after them, each block a section of its own", () => {
		const messages = [prompt];
		expect(withBudgetNote(messages, [], 5)).toBeUndefined();
		expect(messages).toEqual([prompt]);
		expect(withBudgetNote([prompt], ["WARNING", "MORE"], 5)).toEqual({
			messages: [
				prompt,
				{ role: "custom", customType: "timebox", content: "WARNING\n\nMORE", display: false, timestamp: 5 },
			],
		});
	});
});
